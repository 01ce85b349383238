package tracker

import (
	"context"
	"errors"
	"strings"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/db"
	"github.com/tablehand/tablehand/rules/encounter"
)

// routeSuggestions adds the autocompletes of /init's options: the
// combatants (every initNameOption), the target's conditions, and the
// characters of add and join.
func (h *Tracker) routeSuggestions(r *kit.Router) {
	for _, sub := range []string{"damage", "heal", "effect", "clear", "count"} {
		r.RouteAutocomplete("init/"+sub, "target", h.SuggestCombatants)
	}
	for _, sub := range []string{"skip", "move", "remove", "defeat", "reveal"} {
		r.RouteAutocomplete("init/"+sub, "name", h.SuggestCombatants)
	}
	r.RouteAutocomplete("init/delay", "after", h.SuggestCombatants)
	r.RouteAutocomplete("init/next", "turn", h.SuggestCombatants)
	r.RouteAutocomplete("init/effect", "source", h.SuggestCombatants)
	r.RouteAutocomplete("init/clear", "effect", h.suggestConditions)
	r.RouteAutocomplete("init/add", "character", h.SuggestCharacters)
	r.RouteAutocomplete("init/join", "character", h.suggestJoinCharacters)
}

// SuggestCombatants autocompletes an option that names a combatant of the
// channel's fight: those the asker can see, in turn order, whose names
// contain what is typed, each labelled with its state (current turn,
// hidden, defeated). It suggests nothing where there is no fight. A rule
// system routes it for its own options that name a combatant
// (r.RouteAutocomplete("ulm/fall", "target", fight.SuggestCombatants)).
func (h *Tracker) SuggestCombatants(ctx context.Context, req *kit.Request) (kit.Response, error) {
	e, err := h.suggesting(ctx, req)
	if e == nil || err != nil {
		return kit.Response{}, err
	}
	typed := typedLower(req)
	cur := e.Current()
	if !req.GM {
		cur, _ = e.PlayersTurn() // the turn they see (issue 20)
	}
	var choices []kit.Choice
	for _, c := range e.Combatants {
		if (c.Hidden && !req.GM) || !strings.Contains(strings.ToLower(c.Name), typed) {
			continue
		}
		choices = append(choices, kit.Choice{Name: c.Name + combatantNotes(&c, cur), Value: c.Name})
	}
	return kit.Response{Choices: choices}, nil
}

// combatantNotes is what a suggestion tells of c beside its name, cur
// being the combatant whose turn it is: " (current turn, hidden)", or "".
func combatantNotes(c, cur *encounter.Combatant) string {
	var notes []string
	if cur != nil && cur.ID == c.ID {
		notes = append(notes, "current turn")
	}
	if c.Hidden {
		notes = append(notes, "hidden")
	}
	if c.Defeated {
		notes = append(notes, "defeated")
	}
	if len(notes) == 0 {
		return ""
	}
	return " (" + strings.Join(notes, ", ") + ")"
}

// suggestConditions autocompletes a condition of the combatant named in
// `target`.
func (h *Tracker) suggestConditions(ctx context.Context, req *kit.Request) (kit.Response, error) {
	e, err := h.suggesting(ctx, req)
	if e == nil || err != nil {
		return kit.Response{}, err
	}
	typed := typedLower(req)
	target := strings.TrimSpace(req.Options.String("target"))
	var choices []kit.Choice
	for _, c := range e.Combatants {
		if (c.Hidden && !req.GM) || !strings.EqualFold(c.Name, target) {
			continue
		}
		for _, cd := range c.Conditions {
			if strings.Contains(strings.ToLower(cd.Name), typed) {
				choices = append(choices, kit.Choice{Name: cd.Name + ": " + cd.Describe(e), Value: cd.Name})
			}
		}
	}
	return kit.Response{Choices: choices}, nil
}

// suggesting is the channel's fight for an autocomplete: nil, and no
// error, where there is none.
func (h *Tracker) suggesting(ctx context.Context, req *kit.Request) (*encounter.Encounter, error) {
	enc, err := h.Encounters.Encounter(ctx, req.ChannelID)
	if errors.Is(err, db.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return enc.State, nil
}

// typedLower is what is typed in the focused option, for matching.
func typedLower(req *kit.Request) string {
	return strings.ToLower(strings.TrimSpace(req.Options.String(req.Focused)))
}

// suggestJoinCharacters autocompletes /init join's character: the
// asker's own (any, for the GM) of the fight's system.
func (h *Tracker) suggestJoinCharacters(ctx context.Context, req *kit.Request) (kit.Response, error) {
	system := ""
	if enc, err := h.Encounters.Encounter(ctx, req.ChannelID); err == nil && enc.State.System != encounter.GenericName {
		system = enc.State.System
	}
	owner := req.User.ID
	if req.GM {
		owner = ""
	}
	return h.CharacterChoices(ctx, req, owner, system)
}
