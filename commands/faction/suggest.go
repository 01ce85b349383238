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

// suggestFactions autocompletes a faction's name: the user's own first.
func (h *handlers) suggestFactions(ctx context.Context, req *kit.Request) (kit.Response, error) {
	fc, err := h.Factions.Campaign(ctx, req.GuildID)
	if errors.Is(err, db.ErrNotFound) {
		return kit.Response{}, nil
	}
	if err != nil {
		return kit.Response{}, err
	}
	typed := strings.ToLower(strings.TrimSpace(req.Options.String(req.Focused)))
	fs := slices.Clone(fc.Campaign.Factions)
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
		if strings.Contains(strings.ToLower(f.Name), typed) {
			out = append(out, kit.Choice{Name: f.Name + " (" + ownerLabel(f) + ")", Value: f.Name})
		}
	}
	return kit.Response{Choices: out}, nil
}

func ownerLabel(f *rules.Faction) string {
	if f.Owner == "" {
		return "NPC"
	}
	return "player"
}

// suggestAssets autocompletes an asset: those the user may see, the acting
// faction's first.
func (h *handlers) suggestAssets(ctx context.Context, req *kit.Request) (kit.Response, error) {
	fc, err := h.Factions.Campaign(ctx, req.GuildID)
	if errors.Is(err, db.ErrNotFound) {
		return kit.Response{}, nil
	}
	if err != nil {
		return kit.Response{}, err
	}
	c := fc.Campaign
	typed := strings.ToLower(strings.TrimSpace(fmt.Sprint(req.Options[req.Focused])))
	if _, ok := req.Options[req.Focused]; !ok {
		typed = ""
	}
	var mine, others []kit.Choice
	acting := req.Options.String("faction")
	for _, f := range c.Factions {
		for _, a := range f.Assets {
			if !sees(c, req, f, a) {
				continue
			}
			name := fmt.Sprintf("#%d %s (%s, Level %d/%d, %s)", a.ID, a.Name, f.Name, a.Health, a.Level, a.Location)
			if typed != "" && !strings.Contains(strings.ToLower(name), typed) {
				continue
			}
			ch := kit.Choice{Name: name, Value: int64(a.ID)}
			if f.Owner == req.User.ID && f.Owner != "" || strings.EqualFold(f.Name, acting) {
				mine = append(mine, ch)
			} else {
				others = append(others, ch)
			}
		}
	}
	return kit.Response{Choices: append(mine, others...)}, nil
}

// suggestActions lists what the acting faction may do right now, with the
// cost: rules.Available. The value names the asset too: "attack@12".
func (h *handlers) suggestActions(ctx context.Context, req *kit.Request) (kit.Response, error) {
	fc, err := h.Factions.Campaign(ctx, req.GuildID)
	if errors.Is(err, db.ErrNotFound) {
		return kit.Response{}, nil
	}
	if err != nil {
		return kit.Response{}, err
	}
	f, err := userFaction(fc.Campaign, req, req.Options.String("faction"))
	if err != nil {
		return kit.Response{}, err
	}
	opts, err := rules.Available(fc.Campaign, f.Name)
	if err != nil {
		return kit.Response{}, err
	}
	typed := strings.ToLower(strings.TrimSpace(req.Options.String("action")))
	var out []kit.Choice
	for _, o := range opts {
		if typed != "" && !strings.Contains(strings.ToLower(o.Label+" "+o.Action), typed) {
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
	return kit.Response{Choices: out}, nil
}

// suggestParams suggests the chosen action's parameters, to fill in.
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

func (h *handlers) suggestHabitats(ctx context.Context, req *kit.Request) (kit.Response, error) {
	fc, err := h.Factions.Campaign(ctx, req.GuildID)
	if errors.Is(err, db.ErrNotFound) {
		return kit.Response{}, nil
	}
	if err != nil {
		return kit.Response{}, err
	}
	typed := strings.ToLower(strings.TrimSpace(req.Options.String(req.Focused)))
	var out []kit.Choice
	for _, hb := range fc.Campaign.Habitats {
		if strings.Contains(strings.ToLower(hb.Name), typed) {
			owner := hb.Owner
			if owner == "" {
				owner = "unowned"
			}
			out = append(out, kit.Choice{Name: fmt.Sprintf("%s (%s, health %d/%d)", hb.Name, owner, hb.Health, hb.MaxHealth), Value: hb.Name})
		}
	}
	return kit.Response{Choices: out}, nil
}

func (h *handlers) suggestCharts(ctx context.Context, req *kit.Request) (kit.Response, error) {
	cfg := h.factionConfig()
	if fc, err := h.Factions.Campaign(ctx, req.GuildID); err == nil {
		cfg = fc.Campaign.Config
	}
	typed := strings.ToLower(strings.TrimSpace(req.Options.String("chart")))
	var out []kit.Choice
	for _, d := range cfg.Assets {
		name := fmt.Sprintf("%s (%s %s, Level %d)", d.Name, d.Category, d.Type, d.Level)
		if strings.Contains(strings.ToLower(name), typed) {
			out = append(out, kit.Choice{Name: name, Value: d.Name})
		}
	}
	return kit.Response{Choices: out}, nil
}
