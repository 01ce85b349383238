package tracker

import (
	"context"
	"errors"
	"strings"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/db"
	"github.com/tablehand/tablehand/rules/encounter"
)

// suggestCombatants autocompletes a combatant's name: those the asker can
// see, in turn order, whose names contain what is typed.
func (h *Tracker) SuggestCombatants(ctx context.Context, req *kit.Request) (kit.Response, error) {
	enc, err := h.Encounters.Encounter(ctx, req.ChannelID)
	if errors.Is(err, db.ErrNotFound) {
		return kit.Response{}, nil
	}
	if err != nil {
		return kit.Response{}, err
	}
	typed := strings.ToLower(strings.TrimSpace(req.Options.String(req.Focused)))
	cur := enc.State.Current()
	var choices []kit.Choice
	for _, c := range enc.State.Combatants {
		if (c.Hidden && !req.GM) || !strings.Contains(strings.ToLower(c.Name), typed) {
			continue
		}
		label := c.Name
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
		if len(notes) > 0 {
			label += " (" + strings.Join(notes, ", ") + ")"
		}
		choices = append(choices, kit.Choice{Name: label, Value: c.Name})
	}
	return kit.Response{Choices: choices}, nil
}

// suggestConditions autocompletes a condition of the combatant named in
// `target`.
func (h *Tracker) suggestConditions(ctx context.Context, req *kit.Request) (kit.Response, error) {
	enc, err := h.Encounters.Encounter(ctx, req.ChannelID)
	if errors.Is(err, db.ErrNotFound) {
		return kit.Response{}, nil
	}
	if err != nil {
		return kit.Response{}, err
	}
	typed := strings.ToLower(strings.TrimSpace(req.Options.String(req.Focused)))
	var choices []kit.Choice
	for _, c := range enc.State.Combatants {
		if (c.Hidden && !req.GM) || !strings.EqualFold(c.Name, strings.TrimSpace(req.Options.String("target"))) {
			continue
		}
		for _, cd := range c.Conditions {
			if strings.Contains(strings.ToLower(cd.Name), typed) {
				choices = append(choices, kit.Choice{Name: cd.Name + ": " + cd.Describe(enc.State), Value: cd.Name})
			}
		}
	}
	return kit.Response{Choices: choices}, nil
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
