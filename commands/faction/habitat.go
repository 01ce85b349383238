package faction

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/tablehand/tablehand/commands/kit"
	rules "github.com/tablehand/tablehand/rules/faction"
)

// /faction habitat add, set, remove and list: the campaign's territory.

// HabitatResult is one habitat in a result.
type HabitatResult struct {
	Name       string `json:"name"`
	Owner      string `json:"owner,omitempty"`
	Region     string `json:"region,omitempty"`
	Health     int    `json:"health"`
	MaxHealth  int    `json:"max_health"`
	Suppressed bool   `json:"suppressed,omitempty"`
}

func habitatResult(hb *rules.Habitat) HabitatResult {
	return HabitatResult{Name: hb.Name, Owner: hb.Owner, Region: hb.Region, Health: hb.Health, MaxHealth: hb.MaxHealth, Suppressed: hb.Suppressed}
}

func habitatResults(c *rules.Campaign) []HabitatResult {
	out := make([]HabitatResult, 0, len(c.Habitats))
	for _, hb := range c.Habitats {
		out = append(out, habitatResult(hb))
	}
	return out
}

// habitatOwner names a habitat's owner for a message.
func habitatOwner(hb *rules.Habitat) string {
	if hb.Owner == "" {
		return "unowned"
	}
	return hb.Owner
}

// habitatsEmbed lists the campaign's habitats.
func habitatsEmbed(c *rules.Campaign) kit.Embed {
	return kit.Embed{Title: "Habitats", Description: habitatLines(c)}
}

func habitatLines(c *rules.Campaign) string {
	if len(c.Habitats) == 0 {
		return "none yet: /faction habitat add"
	}
	var b strings.Builder
	for _, hb := range c.Habitats {
		fmt.Fprintf(&b, "**%s** (%s", kit.EscapeMarkdown(hb.Name), kit.EscapeMarkdown(habitatOwner(hb)))
		if hb.Region != "" {
			fmt.Fprintf(&b, ", %s", kit.EscapeMarkdown(hb.Region))
		}
		fmt.Fprintf(&b, "): health %d/%d", hb.Health, hb.MaxHealth)
		if hb.Suppressed {
			b.WriteString(", suppressed")
		}
		b.WriteString("\n")
	}
	return strings.TrimSpace(b.String())
}

func (h *handlers) habitatAdd(ctx context.Context, req *kit.Request) (kit.Response, error) {
	name, err := kit.CleanName("habitat name", req.Options.String("name"))
	if err != nil {
		return kit.Response{}, err
	}
	var out HabitatResult
	_, err = h.update(ctx, req, func(c *rules.Campaign) error {
		owner := ""
		if o := req.Options.String("faction"); o != "" {
			f, err := findFaction(c, o)
			if err != nil {
				return err
			}
			owner = f.Name
		}
		hb, err := c.AddHabitat(name, owner, strings.TrimSpace(req.Options.String("region")))
		if err != nil {
			return err
		}
		out = habitatResult(hb)
		return nil
	})
	if err != nil {
		return kit.Response{}, err
	}
	return kit.Response{Content: fmt.Sprintf("Added the habitat **%s**.", kit.EscapeMarkdown(name)), Result: out}, nil
}

func (h *handlers) habitatSet(ctx context.Context, req *kit.Request) (kit.Response, error) {
	var out HabitatResult
	err := h.updateHabitat(ctx, req, func(c *rules.Campaign, hb *rules.Habitat) error {
		if o := req.Options.String("faction"); o != "" {
			if err := setHabitatOwner(c, hb, o); err != nil {
				return err
			}
		}
		if n, ok := req.Options.Int("max_health"); ok {
			hb.MaxHealth = int(n)
		}
		if n, ok := req.Options.Int("health"); ok {
			hb.Health = int(n)
		}
		hb.Health = min(hb.Health, hb.MaxHealth)
		if r := req.Options.String("region"); r != "" {
			hb.Region = strings.TrimSpace(r)
		}
		if req.Options.Has("suppressed") {
			hb.Suppressed = req.Options.Bool("suppressed")
		}
		out = habitatResult(hb)
		return nil
	})
	if err != nil {
		return kit.Response{}, err
	}
	return kit.Response{Content: fmt.Sprintf("Updated the habitat **%s**.", kit.EscapeMarkdown(out.Name)), Ephemeral: true, Result: out}, nil
}

// setHabitatOwner gives hb to the faction called name ("none": nobody),
// with its bonus; a new owner starts afresh.
func setHabitatOwner(c *rules.Campaign, hb *rules.Habitat, name string) error {
	newOwner := ""
	if !strings.EqualFold(name, "none") {
		f := c.Faction(name)
		if f == nil {
			return kit.Errorf("there is no faction %q (or none): see /faction list", name)
		}
		newOwner = f.Name
	}
	if newOwner == hb.Owner {
		return nil
	}
	withdrawHabitatBonus(c, hb)
	hb.Owner, hb.BonusActive, hb.Suppressed, hb.Delays = newOwner, false, false, nil
	if f := c.Faction(newOwner); f != nil {
		hb.BonusActive = true
		giveHabitatBonus(f, hb)
	}
	return nil
}

func (h *handlers) habitatRemove(ctx context.Context, req *kit.Request) (kit.Response, error) {
	var name string
	err := h.updateHabitat(ctx, req, func(c *rules.Campaign, hb *rules.Habitat) error {
		for _, f := range c.Factions {
			for _, a := range f.Assets {
				if a.Location == hb.Name || a.Transit != nil && a.Transit.To == hb.Name {
					return kit.Errorf("%s still has assets (%s of %s): move or remove them first", hb.Name, a.Label(), f.Name)
				}
			}
		}
		withdrawHabitatBonus(c, hb)
		name = hb.Name
		c.Habitats = slices.DeleteFunc(c.Habitats, func(x *rules.Habitat) bool { return x == hb })
		return nil
	})
	if err != nil {
		return kit.Response{}, err
	}
	return kit.Response{Content: fmt.Sprintf("Removed the habitat **%s**.", kit.EscapeMarkdown(name)), Ephemeral: true, Result: map[string]string{"removed": name}}, nil
}

func (h *handlers) habitatList(ctx context.Context, req *kit.Request) (kit.Response, error) {
	fc, err := h.campaign(ctx, req)
	if err != nil {
		return kit.Response{}, err
	}
	return kit.Response{Embeds: []kit.Embed{habitatsEmbed(fc.Campaign)}, Ephemeral: true, Result: habitatResults(fc.Campaign)}, nil
}

// giveHabitatBonus adds hb's Health Stat bonus to f, its new owner.
func giveHabitatBonus(f *rules.Faction, hb *rules.Habitat) {
	for _, st := range rules.AllStats {
		f.Stats.Set(st, f.Stats.Get(st)+hb.Bonus.Get(st))
	}
}

// withdrawHabitatBonus takes hb's bonus back from its owner, if it holds
// it, never below 0.
func withdrawHabitatBonus(c *rules.Campaign, hb *rules.Habitat) {
	if old := c.Faction(hb.Owner); old != nil && hb.BonusActive {
		for _, st := range rules.AllStats {
			old.Stats.Set(st, max(old.Stats.Get(st)-hb.Bonus.Get(st), 0))
		}
	}
}
