package faction

import (
	"fmt"
	"slices"
	"strconv"
)

// Available lists the actions the faction may take right now, with their
// cost: its Faction Action while it has not taken one, each Asset Action
// of each asset that can act, the triggered Conversions of duplicates and
// the bookkeeping it may do. It does not check targets: Resolve does, with
// a clear error. For autocomplete.
func Available(c *Campaign, faction string) ([]ActionOption, error) {
	f := c.Faction(faction)
	if f == nil {
		return nil, fmt.Errorf("%w: %q", ErrUnknownFaction, faction)
	}
	// A turn not begun yet starts with full AP and nothing done.
	view := f
	if f.Turn.Round != c.Round {
		v := *f
		v.AP = c.APMax(f)
		v.Turn = TurnState{Round: c.Round}
		if f.Rallied == c.Round {
			v.Turn.FactionAction = "rally"
		}
		view = &v
	}
	var out []ActionOption
	t := view.Turn
	if !t.Exclusive && t.FactionAction == "" && t.Phase <= PhaseFaction {
		for i := range registry {
			def := &registry[i]
			if def.Kind == KindFaction && c.factionActionApplies(view, def.Key) {
				out = append(out, ActionOption{Action: def.Key, Name: def.Name, Kind: def.Kind, Cost: def.Cost,
					Affordable: true, Label: def.Name + " (" + def.Cost + ")"})
			}
		}
	}
	if !t.Exclusive {
		for _, g := range c.Factions {
			for _, a := range g.Assets {
				if !controls(view, g, a, "") && !(g == f && a.Duplicate) {
					continue
				}
				out = append(out, c.assetOptions(view, g, a)...)
			}
		}
	}
	for _, d := range f.Debts {
		out = append(out, ActionOption{Action: "pay", Name: "Pay", Kind: KindFree, AP: d.AP, Cost: d.Note,
			Affordable: d.Exclusive || (f.Stats.Get(d.Stat) >= d.Amount && view.AP >= d.AP), Label: "Pay debt " + strconv.Itoa(d.ID) + ": " + d.Note})
	}
	for _, g := range c.Factions {
		for _, a := range g.Assets {
			if a.HiredBy == f.Name && g != f {
				out = append(out, ActionOption{Action: "release-mercenary", Name: "Release Mercenary", Kind: KindFree, Asset: a.ID,
					Cost: "none", Affordable: true, Label: "Release " + a.Label()})
			}
			if a.CapturedBy == f.Name {
				out = append(out, ActionOption{Action: "eliminate", Name: "Eliminate Captive", Kind: KindFree, Asset: a.ID,
					Cost: "none", Affordable: true, Label: "Eliminate " + a.Label()})
			}
		}
	}
	for _, p := range f.Research {
		if p.Status == "design" {
			out = append(out, ActionOption{Action: "give-upgrade", Name: "Give Upgrade", Kind: KindFree, Cost: "none", Affordable: true,
				Label: fmt.Sprintf("Give project %d (%s) to an ally", p.ID, p.Kind)})
		}
	}
	return out, nil
}

// factionActionApplies is a quick check that a Faction Action has
// something to act on.
func (c *Campaign) factionActionApplies(f *Faction, key string) bool {
	others := len(c.Factions) > 1
	switch key {
	case "regroup":
		return slices.ContainsFunc(AllAttrs, func(a Attr) bool { return f.Attributes.Get(a) < f.MaxAttributes.Get(a) })
	case "maintenance":
		return slices.ContainsFunc(c.Habitats, func(h *Habitat) bool { return h.Owner == f.Name && h.Health < h.MaxHealth })
	case "repair":
		return slices.ContainsFunc(f.Assets, func(a *Asset) bool { return a.Health < a.Level && !a.Duplicate && a.CapturedBy == "" })
	case "annex":
		for _, h := range c.Habitats {
			if h.Suppressed && h.Owner != "" && !c.Allied(h.Owner, f.Name) &&
				slices.ContainsFunc(f.Assets, func(a *Asset) bool { return a.Location == h.Name && a.Health > 0 }) {
				return true
			}
		}
		return false
	case "rally":
		for _, h := range c.Habitats {
			if h.Owner == f.Name && h.Suppressed {
				return true
			}
		}
		return false
	case "produce-asset":
		return c.home(f) != ""
	case "repurpose":
		return len(f.Assets) > 0
	case "mandate":
		return f.MandateLockedUntil <= c.Round
	case "purchase", "hire-mercenaries", "diplomacy":
		return others
	}
	return true
}

// assetOptions lists what one asset may do.
func (c *Campaign) assetOptions(f, own *Faction, a *Asset) []ActionOption {
	var out []ActionOption
	canAct := c.canAct(f, a) || (a.Duplicate && own.Name == f.Name)
	if !canAct || (a.Transit != nil && a.Category != Vehicle) {
		return nil
	}
	for i := range registry {
		def := &registry[i]
		if !def.Kind.Asset() || def.Key == "counter-attack" || (def.Kind == KindTriggered && def.Key != "convert-duplicate") {
			continue
		}
		if a.Duplicate != (def.Key == "convert-duplicate") {
			continue
		}
		if def.Special != "" && !a.Has(def.Special) {
			continue
		}
		if def.Phase < f.Turn.Phase && !(def.Key == "move" && f.Turn.Phase <= PhaseSubsequentMove) {
			continue
		}
		if a.Transit != nil && def.Key != "move" {
			continue
		}
		if a.DoubleFor == f.Name && own.Name != f.Name && def.Key == "move" {
			continue
		}
		base, cost := 0, ""
		switch def.Key {
		case "move":
			if a.Category == Facility {
				continue
			}
			if a.Category == Vehicle {
				base = a.Level
			} else {
				cost = "the Level of the Vehicle or Facility carrying it"
			}
		case "plan-special", "laundering", "asset-diplomacy", "subterfuge", "asset-invest", "capture", "misdirect", "turn-agent":
			base = 1
		case "asset-repair":
			cost = "the Level of the asset repaired"
		case "research":
			base = 3
			cost = "3 AP and TEC (see 4.5)"
		case "convert-duplicate":
			cost = "the new Level"
		default:
			base = a.Level
		}
		if (def.Key == "asset-invest" && f.Turn.InvestUsed) || (def.Key == "asset-repair" && f.Turn.RepairUsed) {
			continue
		}
		x := c.sysAct(f, nil, def)
		x.a = a
		ap := x.assetAP(base)
		if cost == "" {
			cost = strconv.Itoa(ap) + " AP"
		}
		out = append(out, ActionOption{Action: def.Key, Name: def.Name, Kind: def.Kind, Asset: a.ID, AP: ap, Cost: cost,
			Affordable: ap <= f.AP || f.Turn.AssetActions == 0,
			Label:      fmt.Sprintf("%s with %s (%s)", def.Name, a.Label(), cost)})
	}
	return out
}
