package kit

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/tablehand/tablehand/db"
)

// A GM may require rolled dice for players (issue 20): in a channel, or in
// the whole server, /system dice players:rolled refuses a player's `dice:`
// on every command that takes it, before its handler runs; the GMs may
// still give dice. The router checks it (SetDiceRules), so that no
// command that rolls can forget to.

// Values of db.DiceSetting's Players.
const (
	// DiceAny lets players type in the dice they rolled at the table (the
	// default, as with no setting).
	DiceAny = "any"
	// DiceRolled has Tablehand roll every player's dice.
	DiceRolled = "rolled"
)

// DiceRules tells the dice rule in force in a channel (db.DB.DiceRule).
type DiceRules interface {
	// DiceRule returns the channel's setting, else its guild's, else an
	// error wrapping db.ErrNotFound.
	DiceRule(ctx context.Context, guildID, channelID string) (db.DiceSetting, error)
}

// SetDiceRules makes the router refuse a player's `dice:` where rules say
// players' dice are rolled by Tablehand.
func (r *Router) SetDiceRules(rules DiceRules) { r.diceRules = rules }

// PlayersDice returns the dice rule in force in req's channel (DiceAny
// when none is set) and where it was set ("channel", "guild", or
// "default").
func PlayersDice(ctx context.Context, rules DiceRules, req *Request) (players, scope string, err error) {
	s, err := rules.DiceRule(ctx, req.GuildID, req.ChannelID)
	if errors.Is(err, db.ErrNotFound) {
		return DiceAny, "default", nil
	}
	if err != nil {
		return "", "", err
	}
	return s.Players, s.Scope(), nil
}

// checkDice refuses the `dice:` of a player's command where the GM
// requires rolled dice, naming the mistake and how to roll instead.
func (r *Router) checkDice(ctx context.Context, req *Request) error {
	if r.diceRules == nil || req.GM || strings.TrimSpace(req.Options.String("dice")) == "" {
		return nil
	}
	players, scope, err := PlayersDice(ctx, r.diceRules, req)
	if err != nil {
		return fmt.Errorf("dice rule of channel %s: %w", req.ChannelID, err)
	}
	if players != DiceRolled {
		return nil
	}
	return Errorf("dice: is refused: the GM has Tablehand roll the players' dice in %s, so typed-in dice are not taken. Run it again without dice: and Tablehand rolls them: %s",
		ScopeWords(scope), withoutDice(req))
}

// ScopeWords names where a setting of scope ("channel" or "guild", as
// the store's settings say) applies, as a user reads it: "this channel",
// "this server".
func ScopeWords(scope string) string {
	if scope == "guild" {
		return "this server"
	}
	return "this channel"
}

// OptionValue is v as typed in an option: quoted when it has a space
// (turn:"Red Goblin").
func OptionValue(v string) string {
	if strings.ContainsAny(v, " \t") {
		return strconv.Quote(v)
	}
	return v
}

// withoutDice is req as typed, without its `dice:` option: the command
// to run instead ("/roll expression:1d20+5").
func withoutDice(req *Request) string {
	var names []string
	for name := range req.Options {
		if name != "dice" {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	parts := []string{"/" + req.Typed()}
	for _, name := range names {
		parts = append(parts, name+":"+OptionValue(fmt.Sprint(req.Options[name])))
	}
	return "`" + CodeSafe(strings.Join(parts, " ")) + "`"
}
