package core

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/db"
)

// SystemResult is the console's `result` of /system: the system in force
// and where it was set ("channel", "guild", or "default" when nothing was).
type SystemResult struct {
	System string `json:"system"`
	Scope  string `json:"scope"`
}

func (h *handlers) systemSet(ctx context.Context, req *kit.Request) (kit.Response, error) {
	name := req.Options.String("name")
	sys, known := h.SystemNamed(name)
	if !known {
		return kit.Response{}, kit.Errorf("there is no system named %q: use one of %v", name, h.SystemNames())
	}
	channel, where, err := settingScope(req, "a system")
	if err != nil {
		return kit.Response{}, err
	}
	s := db.SystemSetting{GuildID: req.GuildID, ChannelID: channel, System: name, SetBy: req.User.ID}
	if err := h.Channels.SetSystem(ctx, s); err != nil {
		return kit.Response{}, err
	}
	content := fmt.Sprintf("The rule system of %s is now **%s**: /init start runs its fights.", where, name)
	if !sys.Fights() {
		// A game without fights is played through its own command, named
		// as the system is (kit.System's Name); a fight started here runs
		// on the generic rules.
		content = fmt.Sprintf("The rule system of %s is now **%s**, which has no fights: /%s plays it, and /init start runs a fight on the generic rules.", where, sys.Name, sys.Name)
	}
	return kit.Response{
		Content: content,
		Result:  SystemResult{System: name, Scope: s.Scope()},
	}, nil
}

// settingScope reads the scope: of a /system setting: req's channel (the
// default), or the whole server ("guild"). It returns the channel ID to
// store ("" for the server) and where, in words; own names what channels
// with their own keep ("a system": "channels with a system of their own
// keep it").
func settingScope(req *kit.Request, own string) (channelID, where string, err error) {
	switch scope := req.Options.String("scope"); scope {
	case "", "channel":
		return req.ChannelID, "this channel", nil
	case "guild":
		return "", "this server (channels with " + own + " of their own keep it)", nil
	default:
		return "", "", kit.Errorf("scope is channel or guild, not %q", scope)
	}
}

func (h *handlers) systemShow(ctx context.Context, req *kit.Request) (kit.Response, error) {
	s, err := h.Channels.ChannelSystem(ctx, req.GuildID, req.ChannelID)
	if errors.Is(err, db.ErrNotFound) {
		return kit.Response{
			Content:   "No rule system is set here: fights run on the generic rules. A GM sets one with /system set.",
			Ephemeral: true,
			Result:    SystemResult{System: "generic", Scope: "default"},
		}, nil
	}
	if err != nil {
		return kit.Response{}, err
	}
	return kit.Response{
		Content:   fmt.Sprintf("The rule system here is **%s**, set for %s by <@%s>.", s.System, kit.ScopeWords(s.Scope()), s.SetBy),
		Ephemeral: true,
		Result:    SystemResult{System: s.System, Scope: s.Scope()},
	}, nil
}

// GMChannelResult is the console's `result` of /system gm-channel:
// the channel set, and the one it replaced, if any.
type GMChannelResult struct {
	ChannelID string `json:"channel_id"`
	Replaced  string `json:"replaced,omitempty"`
}

// systemGMChannel sets the guild's GM channel, where each gm and blind
// roll is posted for the GMs. The bot's first post there is the check
// that it may post at all: the edge tells the GM, privately, if Discord
// refuses it. A GM channel it replaces is named in the reply and told
// that the rolls go elsewhere now, so that a second GM's change is no
// surprise to the first.
func (h *handlers) systemGMChannel(ctx context.Context, req *kit.Request) (kit.Response, error) {
	ch := strings.TrimPrefix(strings.TrimSpace(req.Options.String("channel")), "#")
	if ch == "" {
		return kit.Response{}, kit.Errorf("name the channel for the GMs (example: /system gm-channel channel:#gm-only)")
	}
	old, err := h.Channels.GMChannel(ctx, req.GuildID)
	if err != nil && !errors.Is(err, db.ErrNotFound) {
		return kit.Response{}, fmt.Errorf("read the GM channel of guild %s: %w", req.GuildID, err)
	}
	if err := h.Channels.SetGMChannel(ctx, req.GuildID, ch, req.User.ID); err != nil {
		return kit.Response{}, err
	}
	resp := kit.Response{
		Content:   fmt.Sprintf("Tablehand now posts every gm and blind roll of this server in <#%s>, with its dice and total: make sure only the GMs can read it.", ch),
		Ephemeral: true,
		Posts: []kit.Post{{
			ChannelID: ch,
			Message:   kit.Response{Content: fmt.Sprintf("🔒 This is now the GM channel: Tablehand posts here every roll made with visibility:gm or visibility:blind (set by %s).", kit.DisplayName(req.User))},
			Failed:    fmt.Sprintf("⚠️ Tablehand cannot post in <#%s>: give it View Channel and Send Messages there, then run /system gm-channel again. Until then the GMs see gm and blind rolls only in /history.", ch),
		}},
		Result: GMChannelResult{ChannelID: ch},
	}
	switch {
	case old == ch:
		resp.Content += " (It already was the GM channel.)"
	case old != "":
		resp.Content += fmt.Sprintf("\nThis replaces <#%s>, the GM channel until now: it is told, and gets no more rolls.", old)
		resp.Result = GMChannelResult{ChannelID: ch, Replaced: old}
		resp.Posts = append(resp.Posts, kit.Post{
			ChannelID: old,
			Message:   kit.Response{Content: fmt.Sprintf("🔓 This is no longer the GM channel: %s made <#%s> the GM channel, where Tablehand posts gm and blind rolls from now on.", kit.DisplayName(req.User), ch)},
			Failed:    fmt.Sprintf("⚠️ Tablehand could not tell <#%s> that it is no longer the GM channel.", old),
		})
	}
	return resp, nil
}

// DiceRuleResult is the console's `result` of /system dice: whether
// players may type in dice (kit.DiceAny) or Tablehand rolls them
// (kit.DiceRolled), and where that was set.
type DiceRuleResult struct {
	Players string `json:"players"`
	Scope   string `json:"scope"`
}

// systemDice sets whether players may type in dice in the channel, or in
// the whole server: where they may not, the router refuses a player's
// `dice:` (kit.Router.SetDiceRules); the GMs may still give dice.
func (h *handlers) systemDice(ctx context.Context, req *kit.Request) (kit.Response, error) {
	channel, where, err := settingScope(req, "a setting")
	if err != nil {
		return kit.Response{}, err
	}
	s := db.DiceSetting{GuildID: req.GuildID, ChannelID: channel, Players: req.Options.String("players"), SetBy: req.User.ID}
	var content string
	switch s.Players {
	case kit.DiceRolled:
		content = fmt.Sprintf("🎲 In %s Tablehand now rolls every player's dice: a player's `dice:` is refused (the GMs may still give dice). `/system dice players:any` lets players type theirs in again.", where)
	case kit.DiceAny:
		content = fmt.Sprintf("✋ In %s players may now type in the dice they rolled at the table (`dice:`): each such roll shows \"✋ dice given\".", where)
	default:
		return kit.Response{}, kit.Errorf("players is %s or %s, not %q (example: /system dice players:%s)", kit.DiceRolled, kit.DiceAny, s.Players, kit.DiceRolled)
	}
	if err := h.Channels.SetDiceRule(ctx, s); err != nil {
		return kit.Response{}, err
	}
	return kit.Response{Content: content, Result: DiceRuleResult{Players: s.Players, Scope: s.Scope()}}, nil
}

// diceNote is the line /help command:roll adds where the GM has Tablehand
// roll the players' dice; nothing where players may type theirs in.
func (h *handlers) diceNote(ctx context.Context, req *kit.Request) (string, error) {
	if h.Channels == nil {
		return "", nil
	}
	players, scope, err := kit.PlayersDice(ctx, h.Channels, req)
	if err != nil || players != kit.DiceRolled {
		return "", err
	}
	return fmt.Sprintf("In %s: Tablehand rolls every player's dice, so a player's `dice:` is refused; the GMs may still give dice. The GM changes it with `/system dice`.", kit.ScopeWords(scope)), nil
}
