package faction

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/tablehand/tablehand/rules/dice"
)

// Skipped is an order that could not be carried out when its turn came.
type Skipped struct {
	Index  int    `json:"index"` // its place in the faction's orders
	Order  Order  `json:"order"`
	Reason string `json:"reason"`
	Err    error  `json:"-"`
}

// PendingQuestion is a Question an order raised during a round. The order
// was not carried out: answer it in the order's Params (the Question's
// Param) and queue it again.
type PendingQuestion struct {
	Faction string `json:"faction"`
	Index   int    `json:"index"`
	Order   Order  `json:"order"`
	// Question is what the report tells: Held.Seen().
	Question Question `json:"question"`
	// Held is the Question the order is held by, secrets and all: the
	// caller keeps it with the order. A report does not keep it.
	Held Question `json:"-"`
}

// FactionReport is what a faction did in a round.
type FactionReport struct {
	Faction string `json:"faction"`
	// Policy is the standing policy played when the faction had no orders.
	Policy Policy `json:"policy,omitempty"`
	// Start is its Renew AP and Apply Delayed Effects.
	Start TurnStart `json:"start"`
	// Arrivals are its assets arriving in Initial Movement.
	Arrivals []Outcome `json:"arrivals,omitempty"`
	Outcomes []Outcome `json:"outcomes,omitempty"`
	// Reactions are what it did in other factions' turns: Counter-Attacks,
	// Escapes, free Investigations, Rallies.
	Reactions []Outcome         `json:"reactions,omitempty"`
	Skipped   []Skipped         `json:"skipped,omitempty"`
	Questions []PendingQuestion `json:"questions,omitempty"`
	APEnd     int               `json:"ap_end"`
	// Pending are its delayed effects still to come after the round.
	Pending []Effect `json:"pending,omitempty"`
	// DiceGiven: its rolls were of dice the GM typed in (/faction round
	// dice:), not rolled by Tablehand; its report says so.
	DiceGiven bool `json:"dice_given,omitempty"`
}

// Tests returns every roll of the faction's turn, reactions set off by its
// actions included, in order.
func (r FactionReport) Tests() []Test {
	var out []Test
	var walk func([]Outcome)
	walk = func(os []Outcome) {
		for _, o := range os {
			out = append(out, o.Tests...)
			walk(o.Triggered)
		}
	}
	walk(r.Arrivals)
	walk(r.Outcomes)
	return out
}

// Costs returns everything the faction paid in its turn.
func (r FactionReport) Costs() []Cost {
	out := slices.Clone(r.Start.Costs)
	for _, o := range r.Outcomes {
		for _, c := range o.Costs {
			if c.Faction == r.Faction {
				out = append(out, c)
			}
		}
	}
	return out
}

// RoundReport is what a round did.
type RoundReport struct {
	Round     int               `json:"round"`
	Sequence  string            `json:"sequence"`
	Order     []string          `json:"order"`
	Factions  []FactionReport   `json:"factions"`
	Questions []PendingQuestion `json:"questions,omitempty"`
}

// Faction returns the report of the named faction.
func (r RoundReport) Faction(name string) (FactionReport, bool) {
	for _, f := range r.Factions {
		if strings.EqualFold(f.Faction, name) {
			return f, true
		}
	}
	return FactionReport{}, false
}

type queued struct {
	idx   int
	o     Order
	phase Phase
	free  bool
}

type deferredOrder struct {
	hirer int
	q     queued
}

type roundState struct {
	c        *Campaign
	r        dice.Roller
	turn     []*Faction
	orders   [][]queued
	given    []bool
	reports  []FactionReport
	done     [][PhaseSubsequentMove + 1]bool
	deferred [][]deferredOrder
}

// ResolveRound plays the campaign's current round: "A Round consists of all
// the Factions playing their Turn once", in the campaign's turn order,
// Turn-Wise ("in full for each faction") or Phase-Wise ("faction by
// faction for each phase") as the config's sequence says. orders holds each
// faction's queued orders by name; a faction with no entry plays its
// standing policy (an entry with no orders holds). An order that cannot be
// carried out when its turn comes is skipped and reported; one that needs
// the GM's answer is held and reported with its Question. The round is
// resolved on a copy: on an error c is unchanged; on success c holds the new
// state, with Round advanced. A faction whose turn began through Resolve
// this round keeps what it did and goes on from there.
//
// Dice are d10s, taken in the order the rolls happen; in an opposed roll
// the acting side's die comes first.
func ResolveRound(c *Campaign, orders map[string][]Order, r dice.Roller) (RoundReport, error) {
	if err := c.Config.Validate(); err != nil {
		return RoundReport{}, err
	}
	work := c.Clone()
	turn, err := work.turnOrder()
	if err != nil {
		return RoundReport{}, err
	}
	rs := &roundState{c: work, r: r, turn: turn, orders: make([][]queued, len(turn)), given: make([]bool, len(turn)),
		reports: make([]FactionReport, len(turn)), done: make([][PhaseSubsequentMove + 1]bool, len(turn)),
		deferred: make([][]deferredOrder, len(turn))}
	names := make([]string, 0, len(orders))
	for k := range orders {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		i := slices.IndexFunc(turn, func(f *Faction) bool { return strings.EqualFold(f.Name, k) })
		if i < 0 {
			return RoundReport{}, fmt.Errorf("%w: orders for %q", ErrUnknownFaction, k)
		}
		rs.given[i] = true
		for _, o := range orders[k] {
			rs.orders[i] = append(rs.orders[i], queued{idx: len(rs.orders[i]), o: o})
		}
	}
	rep := RoundReport{Round: work.Round, Sequence: work.Config.Sequence}
	for i, f := range turn {
		rep.Order = append(rep.Order, f.Name)
		rs.reports[i].Faction = f.Name
		rs.sortOrders(i)
	}
	phases := []Phase{PhaseRenewAP, PhaseDelayed, PhaseFaction, PhaseInitialMove, PhaseAssets, PhaseSubsequentMove}
	if work.Config.Sequence == PhaseWise {
		for _, p := range phases {
			for i := range turn {
				if err := rs.phase(i, p); err != nil {
					return RoundReport{}, err
				}
			}
		}
	} else {
		for i := range turn {
			for _, p := range phases {
				if err := rs.phase(i, p); err != nil {
					return RoundReport{}, err
				}
			}
		}
	}
	work.Round++
	work.NumberSeen()
	for _, f := range work.Factions {
		// The report tells of the Covert actions: the others read the
		// sheet as it is.
		f.Turn.CovertAP, f.Turn.CovertStats = 0, Stats{}
	}
	for i, f := range turn {
		rs.reports[i].APEnd = f.AP
		rs.reports[i].Pending = work.Pending(f.Name)
		rep.Questions = append(rep.Questions, rs.reports[i].Questions...)
	}
	rep.Factions = rs.reports
	*c = *work
	return rep, nil
}

// Preview resolves the round on a copy of c and leaves c as it is: a dry
// run. Each Test in the report carries its Chance, the exact odds of the
// roll before it was made.
func Preview(c *Campaign, orders map[string][]Order, r dice.Roller) (RoundReport, error) {
	return ResolveRound(c.Clone(), orders, r)
}

// turnOrder is the factions in TurnOrder, then any it leaves out in the
// campaign's order.
func (c *Campaign) turnOrder() ([]*Faction, error) {
	var out []*Faction
	for _, n := range c.TurnOrder {
		f := c.Faction(n)
		if f == nil {
			return nil, fmt.Errorf("%w: %q in the turn order", ErrUnknownFaction, n)
		}
		if slices.Contains(out, f) {
			return nil, fmt.Errorf("%w: %q is twice in the turn order", ErrBadParam, n)
		}
		out = append(out, f)
	}
	for _, f := range c.Factions {
		if !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out, nil
}

func orderPhase(o Order) (Phase, bool) {
	def := lookup(o.Action)
	switch {
	case def == nil:
		return PhaseFaction, false
	case def.Kind == KindFree:
		return PhaseFaction, true
	case def.Key == "move" && strings.EqualFold(o.Param("phase"), "subsequent"):
		return PhaseSubsequentMove, false
	}
	return def.Phase, false
}

func (rs *roundState) sortOrders(i int) {
	for j := range rs.orders[i] {
		rs.orders[i][j].phase, rs.orders[i][j].free = orderPhase(rs.orders[i][j].o)
	}
	slices.SortStableFunc(rs.orders[i], func(a, b queued) int {
		if a.phase != b.phase {
			return cmp.Compare(a.phase, b.phase)
		}
		switch {
		case a.free && !b.free:
			return -1
		case b.free && !a.free:
			return 1
		}
		return 0
	})
}

func (rs *roundState) phase(i int, p Phase) error {
	c, f, rep := rs.c, rs.turn[i], &rs.reports[i]
	defer func() { rs.done[i][p] = true }()
	// What the phases before changed (a meme's end) may show an asset
	// born Covert: it takes its public number before this one says more.
	c.NumberSeen()
	switch p {
	case PhaseRenewAP:
		if f.Turn.Round == c.Round {
			rep.Start = TurnStart{Faction: f.Name, Round: c.Round, AP: f.Turn.APStart, Notes: []string{f.Name + " acted with /faction act before the round was played: its turn had begun then (AP renewed, delayed effects applied), and the round went on from there"}}
			return nil
		}
		rep.Start = c.renewAP(f)
	case PhaseDelayed:
		if f.Turn.Phase < PhaseDelayed {
			c.applyDelayed(f, &rep.Start)
		}
	case PhaseFaction:
		if !rs.given[i] {
			rep.Policy = f.Policy
			if rep.Policy == "" {
				rep.Policy = PolicyHold
			}
			if o, ok := c.policyFactionOrder(f); ok {
				rs.orders[i] = append(rs.orders[i], queued{idx: len(rs.orders[i]), o: o, phase: PhaseFaction})
			}
		}
	case PhaseInitialMove:
		out, err := c.enterMovement(f, rs.r)
		if err != nil {
			return err
		}
		rep.Arrivals = append(rep.Arrivals, out...)
	case PhaseAssets:
		if !rs.given[i] {
			for _, o := range c.policyAssetOrders(f) {
				rs.orders[i] = append(rs.orders[i], queued{idx: len(rs.orders[i]), o: o, phase: PhaseAssets})
			}
		}
	}
	for _, q := range rs.orders[i] {
		if q.phase != p {
			continue
		}
		if p == PhaseAssets {
			if g := rs.mercenaryOwner(f, q.o); g >= 0 && !rs.done[g][PhaseAssets] && g != i {
				rs.deferred[g] = append(rs.deferred[g], deferredOrder{hirer: i, q: q})
				continue
			}
		}
		if err := rs.exec(i, q); err != nil {
			return err
		}
	}
	if p == PhaseAssets {
		for _, d := range rs.deferred[i] {
			if err := rs.exec(d.hirer, d.q); err != nil {
				return err
			}
		}
		rs.deferred[i] = nil
	}
	return nil
}

// mercenaryOwner: a pre-existing Mercenary "acts on the owning Faction's
// turn": the index of the owner in the turn order, or -1.
func (rs *roundState) mercenaryOwner(f *Faction, o Order) int {
	if o.Asset == 0 {
		return -1
	}
	a, own := rs.c.Asset(o.Asset)
	if a == nil || own == f || a.HiredBy != f.Name || a.Bespoke {
		return -1
	}
	return slices.Index(rs.turn, own)
}

func (rs *roundState) exec(i int, q queued) error {
	f, rep := rs.turn[i], &rs.reports[i]
	out, err := rs.c.resolve(f, q.o, rs.r)
	if err != nil {
		if !isOrderError(err) {
			return fmt.Errorf("round %d: %w", rs.c.Round, &OrderError{Faction: f.Name, Order: q.o, Err: err})
		}
		rep.Skipped = append(rep.Skipped, Skipped{Index: q.idx, Order: q.o, Reason: err.Error(), Err: err})
		return nil
	}
	if len(out.Questions) > 0 {
		for _, qu := range out.Questions {
			rep.Questions = append(rep.Questions, PendingQuestion{Faction: f.Name, Index: q.idx, Order: q.o, Question: qu.Seen(), Held: qu})
		}
		return nil
	}
	rep.Outcomes = append(rep.Outcomes, out)
	rs.reactions(f, out.Triggered)
	return nil
}

// reactions copies what other factions did in this faction's turn to their
// reports.
func (rs *roundState) reactions(f *Faction, os []Outcome) {
	for _, o := range os {
		if o.Faction != f.Name {
			if j := slices.IndexFunc(rs.turn, func(g *Faction) bool { return g.Name == o.Faction }); j >= 0 {
				rs.reports[j].Reactions = append(rs.reports[j].Reactions, o)
			}
		}
		rs.reactions(f, o.Triggered)
	}
}

// weakestStat is the Health Stat furthest below its full value (then the
// lowest, then the first in the sheet's order).
func (c *Campaign) weakestStat(f *Faction) Stat {
	best := INF
	bestGap, bestCur := -1<<30, 1<<30
	for _, s := range AllStats {
		gap, cur := c.StatMax(f, s)-f.Stats.Get(s), f.Stats.Get(s)
		if gap > bestGap || (gap == bestGap && cur < bestCur) {
			best, bestGap, bestCur = s, gap, cur
		}
	}
	return best
}

// canAct reports whether an asset of the faction's may take an action now.
func (c *Campaign) canAct(f *Faction, a *Asset) bool {
	return a.Health > 0 && a.CapturedBy == "" && !a.Duplicate && a.BusyUntil <= c.Round && a.Blocked != c.Round &&
		a.Transit == nil && (a.HiredBy == "" || a.HiredBy == f.Name) &&
		(!slices.Contains(f.Turn.Acted, a.ID) || slices.Contains(f.Turn.Extra, a.ID))
}

// policyFactionOrder is the Faction Action of a standing policy.
func (c *Campaign) policyFactionOrder(f *Faction) (Order, bool) {
	invest := Order{Action: "invest", Params: map[string]string{"stat": string(c.weakestStat(f))}}
	switch f.Policy {
	case PolicyInvest, PolicyProduce:
		return invest, true
	case PolicyRepair:
		if t := c.mostDamaged(f); t != nil {
			return Order{Action: "repair", Params: map[string]string{"target": fmt.Sprint(t.ID)}}, true
		}
		return invest, true
	}
	return Order{}, false
}

// mostDamaged is the faction's asset in friendly territory with the most
// damage (then the lowest ID).
func (c *Campaign) mostDamaged(f *Faction, except ...int) *Asset {
	var best *Asset
	for _, a := range f.Assets {
		if a.Health >= a.Level || a.Duplicate || a.CapturedBy != "" || a.Transit != nil || a.HiredBy != "" ||
			!c.Friendly(f, a.Location) || slices.Contains(except, a.ID) {
			continue
		}
		if best == nil || a.Level-a.Health > best.Level-best.Health {
			best = a
		}
	}
	return best
}

// policyAssetOrders are the Asset Actions of a standing policy, as many as
// the AP left pay for (the first always: "minimum 1 Asset Action").
func (c *Campaign) policyAssetOrders(f *Faction) []Order {
	var out []Order
	budget, first := f.AP, f.Turn.AssetActions == 0
	take := func(a *Asset, key string, base int, params map[string]string) bool {
		x := c.sysAct(f, nil, lookup(key))
		x.a = a
		cost := x.assetAP(base)
		if cost > budget && !first {
			return false
		}
		budget = max(budget-cost, 0)
		first = false
		out = append(out, Order{Action: key, Asset: a.ID, Params: params})
		return true
	}
	var mine []*Asset
	for _, a := range f.Assets {
		if c.canAct(f, a) {
			mine = append(mine, a)
		}
	}
	slices.SortStableFunc(mine, func(a, b *Asset) int { return cmp.Compare(b.Level, a.Level) })
	switch f.Policy {
	case PolicyInvest:
		s := c.weakestStat(f)
		for _, a := range mine {
			if a.Type.Stat() == s {
				take(a, "produce", a.Level, nil)
			}
		}
	case PolicyProduce:
		for _, a := range mine {
			take(a, "produce", a.Level, nil)
		}
	case PolicyRepair:
		if f.Turn.RepairUsed {
			break
		}
		var skip []int
		for _, e := range c.Effects {
			if e.Faction == f.Name && e.Kind == EffectHealAsset {
				skip = append(skip, e.Target)
			}
		}
		t := c.mostDamaged(f, skip...)
		if t == nil {
			break
		}
		for _, a := range mine {
			if a.Has(SpecialRepair) && take(a, "asset-repair", t.Level, map[string]string{"target": fmt.Sprint(t.ID)}) {
				break
			}
		}
	}
	return out
}
