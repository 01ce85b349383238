package tracker

import (
	"context"
	"errors"
	"fmt"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/db"
	"github.com/tablehand/tablehand/rules/encounter"
)

// Who may change a combatant. Every combatant has a controller: the
// player who joined it (or whom the GM named its owner), else the GM.
// The GM changes any; a player always changes the combatants they
// control, and the others as the channel's play mode says (/init play):
const (
	// PlayStandard, the default: a player also damages any combatant they
	// can see and puts conditions on it, as when they resolve an attack at
	// the table; healing it, clearing its conditions and counting its uses
	// are its controller's.
	PlayStandard = "standard"
	// PlayStrict: only the GM changes combatants a player does not control.
	PlayStrict = "strict"
	// PlayOpen: a player changes any combatant they can see.
	PlayOpen = "open"
)

// playModes are the modes, as /init play offers them and /help words them.
var playModes = []struct{ name, rule string }{
	{PlayStandard, "a player damages and puts conditions on any combatant they can see; heals, clears conditions and counts uses only on their own"},
	{PlayStrict, "a player changes only their own combatants; the GM changes the others"},
	{PlayOpen, "a player changes any combatant they can see"},
}

// Touch is what a change does to a combatant, for MayChange.
type Touch int

// Touches.
const (
	// Harm: damage, an injury, a condition put on it.
	Harm Touch = iota
	// Tend: healing, a condition cleared, a count, any value set.
	Tend
)

// PlayResult is the console's `result` of /init play.
type PlayResult struct {
	Play string `json:"play"`
	Rule string `json:"rule"`
}

// PlayMode is the play mode of req's channel: the GM's /init play, else
// PlayStandard.
func (h *Tracker) PlayMode(ctx context.Context, req *kit.Request) (string, error) {
	if h.Channels == nil {
		return PlayStandard, nil
	}
	s, err := h.Channels.PlayMode(ctx, req.GuildID, req.ChannelID)
	if errors.Is(err, db.ErrNotFound) {
		return PlayStandard, nil
	}
	if err != nil {
		return "", err
	}
	return s.Mode, nil
}

// PlayModeOf is the play mode of the channel of e, as the statement that
// loaded e for a change read it (db.Encounter.PlayMode): PlayMode with no
// round trip of its own.
func PlayModeOf(e *db.Encounter) string {
	if e.PlayMode == "" {
		return PlayStandard
	}
	return e.PlayMode
}

// Controls reports whether the asker of req controls c: plays it (a
// combatant of no player is controlled by nobody but the GM).
func Controls(req *kit.Request, c *encounter.Combatant) bool {
	return c.Owner != "" && c.Owner == req.User.ID
}

// MayChange refuses, as the user's mistake, a change that touches the
// combatant named in e which the asker of req may not make under mode
// (see PlayStandard). A name not in the fight passes: the model reports
// it. Call it inside Change's op, after CheckVisible.
func MayChange(req *kit.Request, mode string, e *encounter.Encounter, name string, touch Touch) error {
	c, err := e.Find(name)
	if err != nil || req.GM || Controls(req, c) || mode == PlayOpen || (mode != PlayStrict && touch == Harm) {
		return nil
	}
	whose := "the GM's"
	if c.Owner != "" {
		whose = "<@" + c.Owner + ">'s"
	}
	if mode == PlayStrict {
		return kit.Errorf("%s is %s: in this channel only the GM changes combatants that are not yours (strict play, see /help command:init)", c.Name, whose)
	}
	return kit.Errorf("%s is %s: you may damage it or put a condition on it, but only its controller or the GM heals it, clears its conditions or counts for it (see /help command:init)", c.Name, whose)
}

// initPlay sets the channel's play mode (the GM).
func (h *Tracker) initPlay(ctx context.Context, req *kit.Request) (kit.Response, error) {
	mode := req.Options.String("mode")
	rule, ok := playRule(mode)
	if !ok {
		return kit.Response{}, kit.Errorf("mode is standard, strict or open, not %q (example: /init play mode:strict)", mode)
	}
	if err := h.Channels.SetPlayMode(ctx, db.PlaySetting{GuildID: req.GuildID, ChannelID: req.ChannelID, Mode: mode, SetBy: req.User.ID}); err != nil {
		return kit.Response{}, err
	}
	return kit.Response{
		Content: fmt.Sprintf("Play in this channel's fights is now **%s**: %s.", mode, rule),
		Result:  PlayResult{Play: mode, Rule: rule},
	}, nil
}

// playRule is what mode lets a player do, in words.
func playRule(mode string) (string, bool) {
	for _, m := range playModes {
		if m.name == mode {
			return m.rule, true
		}
	}
	return "", false
}

// playNote is the line /help command:init adds: the play mode in force
// in the asker's channel.
func (h *Tracker) playNote(ctx context.Context, req *kit.Request) (string, error) {
	mode, err := h.PlayMode(ctx, req)
	if err != nil {
		return "", err
	}
	rule, _ := playRule(mode)
	return fmt.Sprintf("In this channel: **%s** play: %s. The GM changes it with `/init play`.\n", mode, rule) + nextRule, nil
}

// nextRule is how /init next keeps two of them a moment apart from
// skipping a turn (initNext), as /help command:init states it.
var nextRule = fmt.Sprintf("No turn is skipped: an `/init next` typed less than %d seconds after someone else moved the turn ends nothing and asks you first (a button ends the new turn); `/init next turn:<name>` ends only that combatant's turn.",
	encounter.DefaultNextWindow/1000)
