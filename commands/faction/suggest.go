package faction

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/db"
	rules "github.com/tablehand/tablehand/rules/faction"
)

// Autocomplete: factions, assets, habitats, the actions a faction may
// take now and their parameters, and the asset chart.

// suggester suggests values from the guild's campaign.
type suggester func(c *rules.Campaign, req *kit.Request) ([]kit.Choice, error)

// suggest is the autocomplete handler of fn: without a campaign there is
// nothing to suggest.
func (h *handlers) suggest(fn suggester) kit.Handler {
	return func(ctx context.Context, req *kit.Request) (kit.Response, error) {
		fc, err := h.factions.campaign(ctx, req.GuildID)
		if errors.Is(err, db.ErrNotFound) {
			return kit.Response{}, nil
		}
		if err != nil {
			return kit.Response{}, err
		}
		choices, err := fn(fc.Campaign, req)
		if err != nil {
			return kit.Response{}, err
		}
		return kit.Response{Choices: choices}, nil
	}
}

// typed is what is being typed in the focused option, in lower case.
func typed(req *kit.Request) string {
	return strings.ToLower(strings.TrimSpace(req.Options.String(req.Focused)))
}

// matches reports whether name holds what is typed (lower case), in any
// case.
func matches(name, typed string) bool { return strings.Contains(strings.ToLower(name), typed) }

// suggestFactions autocompletes a faction's name: the user's own first.
func suggestFactions(c *rules.Campaign, req *kit.Request) ([]kit.Choice, error) {
	text := typed(req)
	fs := slices.Clone(c.Factions)
	slices.SortStableFunc(fs, func(a, b *rules.Faction) int {
		am, bm := a.Owner == req.User.ID, b.Owner == req.User.ID
		switch {
		case am && !bm:
			return -1
		case bm && !am:
			return 1
		}
		return 0
	})
	var out []kit.Choice
	for _, f := range fs {
		if matches(f.Name, text) {
			out = append(out, kit.Choice{Name: f.Name + " (" + ownerLabel(f) + ")", Value: f.Name})
		}
	}
	return out, nil
}

func ownerLabel(f *rules.Faction) string {
	if f.Owner == "" {
		return "NPC"
	}
	return "player"
}

// suggestAssets autocompletes an asset: those the user may see, the acting
// faction's first.
func suggestAssets(c *rules.Campaign, req *kit.Request) ([]kit.Choice, error) {
	// A number or a name may be typed.
	text := strings.ToLower(strings.TrimSpace(fmt.Sprint(req.Options[req.Focused])))
	if _, ok := req.Options[req.Focused]; !ok {
		text = ""
	}
	var mine, others []kit.Choice
	acting := req.Options.String("faction")
	for _, f := range c.Factions {
		for _, a := range visibleAssets(c, req, f) {
			name := fmt.Sprintf("#%d %s (%s, Level %d/%d, %s)", a.ID, a.Name, f.Name, a.Health, a.Level, a.Location)
			if text != "" && !matches(name, text) {
				continue
			}
			ch := kit.Choice{Name: name, Value: strconv.Itoa(a.ID)}
			if viewer(req).Plays(f) || strings.EqualFold(f.Name, acting) {
				mine = append(mine, ch)
			} else {
				others = append(others, ch)
			}
		}
	}
	return append(mine, others...), nil
}

// suggestActions lists what the acting faction may do right now, with the
// cost: rules.Available. The value names the asset too: "attack@12".
func suggestActions(c *rules.Campaign, req *kit.Request) ([]kit.Choice, error) {
	f, err := userFaction(c, req, req.Options.String("faction"))
	if err != nil {
		return nil, err
	}
	opts, err := rules.Available(c, f.Name)
	if err != nil {
		return nil, err
	}
	text := typed(req)
	var out []kit.Choice
	for _, o := range opts {
		if text != "" && !matches(o.Label+" "+o.Action, text) {
			continue
		}
		label := o.Label
		if !o.Affordable {
			label += " — not enough AP"
		}
		v := o.Action
		if o.Asset != 0 {
			v += "@" + strconv.Itoa(o.Asset)
		}
		out = append(out, kit.Choice{Name: label, Value: v})
	}
	return out, nil
}

// suggestParams suggests the chosen action's parameters, to fill in. It
// needs no campaign.
func (h *handlers) suggestParams(ctx context.Context, req *kit.Request) (kit.Response, error) {
	key, _, _ := strings.Cut(req.Options.String("action"), "@")
	def, ok := rules.LookupAction(key)
	typed := strings.TrimSpace(req.Options.String("params"))
	if !ok {
		return kit.Response{Choices: []kit.Choice{{Name: "choose the action first", Value: typed}}}, nil
	}
	var out []kit.Choice
	if typed != "" {
		out = append(out, kit.Choice{Name: typed, Value: typed})
	}
	for _, p := range def.Params {
		if strings.Contains(typed, p.Name+"=") {
			continue
		}
		name := p.Name + "=… " + p.Text
		if p.Required {
			name = "(required) " + name
		}
		v := strings.TrimSpace(typed + " " + p.Name + "=")
		if len(v) > kit.MaxChoiceStringLen {
			continue
		}
		out = append(out, kit.Choice{Name: name, Value: v})
	}
	return kit.Response{Choices: out}, nil
}

func suggestHabitats(c *rules.Campaign, req *kit.Request) ([]kit.Choice, error) {
	text := typed(req)
	var out []kit.Choice
	for _, hb := range c.Habitats {
		if matches(hb.Name, text) {
			out = append(out, kit.Choice{Name: fmt.Sprintf("%s (%s, health %d/%d)", hb.Name, habitatOwner(hb), hb.Health, hb.MaxHealth), Value: hb.Name})
		}
	}
	return out, nil
}

// suggestCharts suggests the entries of the asset chart: the campaign's,
// else (no campaign yet, or none that can be read) the one a new
// campaign starts with.
func (h *handlers) suggestCharts(ctx context.Context, req *kit.Request) (kit.Response, error) {
	cfg := h.factionConfig()
	if fc, err := h.factions.campaign(ctx, req.GuildID); err == nil {
		cfg = fc.Campaign.Config
	}
	text := typed(req)
	var out []kit.Choice
	for _, d := range cfg.Assets {
		name := fmt.Sprintf("%s (%s %s, Level %d)", d.Name, d.Category, d.Type, d.Level)
		if matches(name, text) {
			out = append(out, kit.Choice{Name: name, Value: d.Name})
		}
	}
	return kit.Response{Choices: out}, nil
}
