package faction

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tablehand/tablehand/rules/dice"
)

// TurnStart is what phases 1 and 2 of a faction's turn did.
type TurnStart struct {
	Faction string `json:"faction"`
	Round   int    `json:"round"`
	// AP renewed: "At the beginning of each Turn, each Faction fully
	// replenishes its Action Points."
	AP      int      `json:"ap"`
	Applied []Effect `json:"applied,omitempty"`
	Changes []Change `json:"changes,omitempty"`
	Costs   []Cost   `json:"costs,omitempty"`
	Notes   []string `json:"notes,omitempty"`
}

var turnAction = Action{Key: "turn", Name: "Turn", Kind: KindFree}

func (c *Campaign) sysAct(f *Faction, r dice.Roller, def *Action) *act {
	if def == nil {
		def = &turnAction
	}
	return &act{c: c, f: f, r: r, def: def, out: &Outcome{Faction: f.Name, Action: def.Key, Name: def.Name, Success: true}}
}

// beginTurn runs phases 1 and 2 of the faction's turn.
func (c *Campaign) beginTurn(f *Faction) TurnStart {
	ts := c.renewAP(f)
	c.applyDelayed(f, &ts)
	return ts
}

// BeginTurn runs the first two phases of a faction's turn in the current
// round (Renew AP, Apply Delayed Effects), unless they have run already.
func BeginTurn(c *Campaign, faction string) (TurnStart, error) {
	f := c.Faction(faction)
	if f == nil {
		return TurnStart{}, fmt.Errorf("%w: %q", ErrUnknownFaction, faction)
	}
	if f.Turn.Round == c.Round {
		return TurnStart{Faction: f.Name, Round: c.Round, AP: f.AP, Notes: []string{f.Name + "'s turn had begun already this round: nothing was renewed again"}}, nil
	}
	return c.beginTurn(f), nil
}

// renewAP is phase 1: "each Faction fully replenishes its Action Points".
func (c *Campaign) renewAP(f *Faction) TurnStart {
	f.Turn = TurnState{Round: c.Round, Phase: PhaseRenewAP}
	if f.Rallied == c.Round {
		// It Rallied against an Annexation before its turn: that was its
		// one Faction Action this round.
		f.Turn.FactionAction = "rally"
	}
	f.AP = c.APMax(f)
	f.Turn.APStart = f.AP
	return TurnStart{Faction: f.Name, Round: c.Round, AP: f.AP}
}

// applyDelayed is phase 2: "Multi-turn effects, such as Production,
// Planning AP bonuses, and Meme changes are applied here." It also charges
// hired Mercenaries' fees and activates habitat bonuses earned.
func (c *Campaign) applyDelayed(f *Faction, ts *TurnStart) {
	f.Turn.Phase = max(f.Turn.Phase, PhaseDelayed)
	x := c.sysAct(f, nil, nil)
	var due []Effect
	c.Effects = slices.DeleteFunc(c.Effects, func(e Effect) bool {
		if e.Faction == f.Name && e.Due <= c.Round {
			due = append(due, e)
			return true
		}
		return false
	})
	slices.SortStableFunc(due, func(a, b Effect) int {
		if a.Due != b.Due {
			return a.Due - b.Due
		}
		return a.ID - b.ID
	})
	for _, e := range due {
		x.apply(e)
		ts.Applied = append(ts.Applied, e)
	}
	x.mercenaryFees()
	x.activateBonuses()
	ts.Changes = append(ts.Changes, x.out.Changes...)
	ts.Costs = append(ts.Costs, x.out.Costs...)
	ts.Notes = append(ts.Notes, x.out.Notes...)
}

// apply applies one delayed effect to its faction: "Multi-turn effects,
// such as Production, Planning AP bonuses, and Meme changes are applied
// here."
func (x *act) apply(e Effect) {
	f := x.f
	switch e.Kind {
	case EffectHealStat, EffectBoostEnd, EffectHealAttr, EffectHealHabitat, EffectHealAsset:
		x.applyHealing(e)
	case EffectProduce, EffectMercenary, EffectRepurpose:
		x.applyProduction(e)
	case EffectPlan, EffectRemote:
		x.applyPlanning(e)
	case EffectMeme:
		for i := range f.Memes {
			if f.Memes[i].Name == e.Name {
				f.Memes[i].Active = true
				x.change(f.Name, "meme "+e.Name, "inactive", "active")
			}
		}
	case EffectRelation:
		x.setRelation(f.Name, e.Other, e.Name, e.Flag)
	case EffectTurnAgent:
		x.turned(e)
	case EffectResearch:
		x.researchDone(e)
	case EffectPodLanding:
		// landing is handled by arrivals; kept for reports.
	}
}

// applyHealing applies the heals that take "effect the next Round":
// Invest and Produce heal or boost a Stat ("Heal or Boost (for one
// Round)"), and the boost ends a round later; Regroup heals an Attribute,
// Maintenance a Habitat, Repair an Asset.
func (x *act) applyHealing(e Effect) {
	c, f := x.c, x.f
	switch e.Kind {
	case EffectHealStat:
		// "Heal or Boost (for one Round)": what passes the full value is a
		// boost, gone when the next round's effects apply.
		from := f.Stats.Get(e.Stat)
		f.Stats.Set(e.Stat, from+e.Amount)
		x.change(f.Name, string(e.Stat)+" ("+e.Source+")", from, from+e.Amount)
		if full := c.StatMax(f, e.Stat); from+e.Amount > full {
			x.queue(Effect{Kind: EffectBoostEnd, Due: c.Round + 1, Stat: e.Stat, Source: e.Source,
				Note: fmt.Sprintf("the boost of %s above %d ends", e.Stat, full)})
		}
	case EffectBoostEnd:
		from, full := f.Stats.Get(e.Stat), c.StatMax(f, e.Stat)
		if from > full {
			f.Stats.Set(e.Stat, full)
			x.change(f.Name, string(e.Stat)+" (boost ends)", from, full)
		}
	case EffectHealAttr:
		from := f.Attributes.Get(e.Attr)
		to := min(from+e.Amount, max(f.MaxAttributes.Get(e.Attr), from))
		f.Attributes.Set(e.Attr, to)
		x.change(f.Name, string(e.Attr)+" (Regroup)", from, to)
	case EffectHealHabitat:
		h := c.Habitat(e.Habitat)
		if h == nil || h.Owner != f.Name {
			x.note("Maintenance of %s lapses: it is no longer %s's", e.Habitat, f.Name)
			return
		}
		from := h.Health
		h.Health = min(h.Health+e.Amount, h.MaxHealth)
		x.change(h.Name, "health (Maintenance)", from, h.Health)
		if h.Suppressed && h.Health > 0 {
			h.Suppressed = false
			x.change(h.Name, "suppressed", true, false)
		}
	case EffectHealAsset:
		a, own := c.Asset(e.Target)
		if a == nil || own != f {
			x.note("the repair of asset #%d lapses: it is gone", e.Target)
			return
		}
		from := a.Health
		a.Health = min(a.Health+e.Amount, a.Level)
		x.change(a.Label(), "Level (Repair)", from, a.Health)
	}
}

// applyProduction applies Production once its time has passed: Produce
// Asset ("Units and Agents take [Level*2] turns to construct"), a bespoke
// Mercenary ("produced in the owning Faction's turn"), and Repurpose or
// Convert Duplicate.
func (x *act) applyProduction(e Effect) {
	c, f := x.c, x.f
	switch e.Kind {
	case EffectProduce:
		h := c.Habitat(e.Habitat)
		d, ok := c.Config.AssetDef(e.Chart)
		if h == nil || h.Owner != f.Name || !ok {
			x.note("the production of %s at %s is lost: the habitat is no longer %s's", e.Chart, e.Habitat, f.Name)
			return
		}
		a := c.newAsset(d, d.Level)
		a.Location = h.Name
		f.Assets = append(f.Assets, a)
		x.change(f.Name, "asset produced", "", a.Label()+" at "+h.Name)
	case EffectMercenary:
		d, ok := c.Config.AssetDef(e.Chart)
		hirer := c.Faction(e.Other)
		where := c.home(f)
		if !ok || hirer == nil || where == "" {
			x.note("the bespoke mercenary %s for %s is not made", e.Chart, e.Other)
			return
		}
		a := c.newAsset(d, d.Level)
		a.Location, a.HiredBy, a.HiredRound, a.Bespoke = where, hirer.Name, c.Round, true
		f.Assets = append(f.Assets, a)
		x.change(f.Name, "bespoke mercenary made", "", a.Label()+" for "+hirer.Name)
	case EffectRepurpose:
		a, own := c.Asset(e.Target)
		d, ok := c.Config.AssetDef(e.Chart)
		if a == nil || own != f || !ok {
			x.note("the conversion of asset #%d lapses", e.Target)
			return
		}
		old := a.Label()
		a.Name, a.Chart, a.Type, a.Level, a.Health = d.Name, d.Name, d.Type, d.Level, d.Level
		a.Specials, a.Bonus, a.Upgrade = slices.Clone(d.Specials), d.Bonus, 0
		a.Duplicate, a.BusyUntil = false, 0
		x.change(old, "becomes", "", a.Label())
	}
}

// applyPlanning readies the "Planning AP bonuses" of Plan and Laundering
// for the turn, and the Remote actions granted last round.
func (x *act) applyPlanning(e Effect) {
	c, f := x.c, x.f
	switch e.Kind {
	case EffectPlan:
		if a, _ := c.Asset(e.Asset); a == nil {
			x.note("a Plan lapses: asset #%d is gone", e.Asset)
			return
		}
		f.Turn.Plans = append(f.Turn.Plans, PlanBonus{Effect: e.ID, Planner: e.Target, Asset: e.Asset, Action: e.Name, AP: e.Amount, Covert: e.Flag})
		x.change(f.Name, "Plan ready", "", fmt.Sprintf("%d AP for %s by asset #%d", e.Amount, e.Name, e.Asset))
	case EffectRemote:
		f.Turn.Remotes = append(f.Turn.Remotes, RemoteGrant{Effect: e.ID, Asset: e.Asset, Ignore: e.Amount})
		x.change(f.Name, "Remote ready", "", fmt.Sprintf("asset #%d may act Remotely, ignoring %d Home Turf", e.Asset, e.Amount))
	}
}

// mercenaryFees: "The Mercenary costs 1 INF per Round until it is
// released". A hirer that cannot pay releases it.
func (x *act) mercenaryFees() {
	for _, own := range x.c.Factions {
		for _, a := range slices.Clone(own.Assets) {
			if a.HiredBy != x.f.Name || a.HiredRound >= x.c.Round {
				continue
			}
			if x.f.Stats.INF < 1 {
				x.note("%s cannot pay 1 INF for %s: released", x.f.Name, a.Label())
				x.release(own, a)
				continue
			}
			x.payStat(x.f, INF, 1, "mercenary fee for "+a.Label()+", paid to "+own.Name)
			x.healStat(own, INF, 1, "mercenary fee")
		}
	}
}

// activateBonuses: the new owner "must heal the Habitat and its own Health
// Stats to gain the Habitat's bonuses": a habitat at full health whose
// Annexation is paid for adds its bonus to the full Stats, which the
// faction then heals up to.
func (x *act) activateBonuses() {
	for _, h := range x.c.Habitats {
		if h.Owner != x.f.Name || h.BonusActive || h.Health < h.MaxHealth {
			continue
		}
		if slices.ContainsFunc(x.f.Debts, func(d Debt) bool { return d.Kind == "annex" && d.Habitat == h.Name }) {
			continue
		}
		h.BonusActive = true
		x.change(h.Name, "Health Stat bonus for "+x.f.Name, "inactive", "active")
	}
}

// enterMovement runs the arrivals of Initial Movement once a turn.
func (c *Campaign) enterMovement(f *Faction, r dice.Roller) ([]Outcome, error) {
	if f.Turn.Phase >= PhaseInitialMove {
		return nil, nil
	}
	f.Turn.Phase = PhaseInitialMove
	return c.arrivals(f, r)
}

// arrivals: mobile assets whose journey ends arrive in their faction's
// Initial Movement, with their passengers. Captives carried may try to
// Escape "upon arrival, in the capturing Faction's Turn"; escape pods land.
func (c *Campaign) arrivals(f *Faction, r dice.Roller) ([]Outcome, error) {
	x := c.sysAct(f, r, &Action{Key: "arrival", Name: "Arrival", Kind: KindFree})
	var triggered []Outcome
	for _, a := range slices.Clone(f.Assets) {
		t := a.Transit
		if t == nil || t.Arrive > c.Round || a.destroyed {
			continue
		}
		carrier := t.Carrier
		if carrier != 0 {
			continue // lands with its carrier
		}
		a.Location, a.Transit = t.To, nil
		x.change(a.Label(), "arrives at", "", t.To)
		if t.Pod {
			o, err := c.podLanding(f, a, r)
			if err != nil {
				return nil, err
			}
			triggered = append(triggered, o...)
			continue
		}
		for _, id := range t.Passengers {
			p, pown := c.Asset(id)
			if p == nil || p.Transit == nil {
				continue
			}
			p.Location, p.Transit, p.Aboard = t.To, nil, a.ID
			x.change(p.Label(), "arrives at", "", t.To)
			// "it may make another Escape attempt upon arrival, in the
			// capturing Faction's Turn. If transported via a third party,
			// it may make another Escape attempt in the third party's
			// Turn": this is the carrier's owner's turn either way.
			if captor := c.Faction(p.CapturedBy); captor != nil {
				o, err := c.captiveEscape(pown, p, captor, "upon arrival", r)
				if err != nil {
					return nil, err
				}
				if o != nil {
					triggered = append(triggered, *o)
				}
			}
		}
	}
	if len(x.out.Changes) > 0 {
		x.out.Text = f.Name + ": arrivals"
		triggered = append([]Outcome{*x.out}, triggered...)
	}
	return triggered, nil
}

// travel is the rounds a journey takes: "Per travel time; see Charts"
// (config travel_same_region, travel_other_region).
func (c *Campaign) travel(from, to string) int {
	a, b := c.Habitat(from), c.Habitat(to)
	if a != nil && b != nil && strings.EqualFold(a.Region, b.Region) {
		return c.Config.TravelSameRegion
	}
	return c.Config.TravelOtherRegion
}
