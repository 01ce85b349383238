package faction

import (
	"fmt"
	"github.com/tablehand/tablehand/rules/words"
	"slices"
	"strconv"
	"strings"
)

// attack: "Cause [MoS/2] damage to an Asset. If the asset is brought to 0,
// it is destroyed. Any Attribute bonuses from the Asset disappear
// immediately. If in enemy territory and no Related Assets are present, the
// attack incurs Habitat Damage. Proceed to Annexation." Attack (Special)
// first rolls "its own free Plan action".
func (x *act) attack() error {
	attr := x.a.Type
	var (
		tgt   *Asset
		tf    *Faction
		h     *Habitat
		where string
		err   error
	)
	if x.param("target") != "" {
		if tgt, tf, err = x.assetParam("target"); err != nil {
			return err
		}
		switch {
		case tf == x.f || controls(x.f, tf, tgt, "attack"):
			return x.errf(ErrBadParam, "%s is %s's own", tgt.Label(), x.f.Name)
		case x.c.Covert(tf, tgt):
			return x.errf(ErrNotAvailable, "%s is Covert: \"The Asset may not be attacked (except for Investigation)\"", tgt.Label())
		case tgt.CapturedBy != "":
			return x.errf(ErrNotAvailable, "%s is a captive of %s (eliminate it instead)", tgt.Label(), tgt.CapturedBy)
		}
		where = tgt.Location
		if err := x.reach(where, tgt.Label()); err != nil {
			return err
		}
	} else {
		if h, err = x.habitatParam("habitat", x.a.Location); err != nil {
			return err
		}
		if h.Owner == "" || x.c.Allied(h.Owner, x.f.Name) {
			return x.errf(ErrNotAvailable, "%s is not enemy territory: name a target asset", h.Name)
		}
		tf = x.c.Faction(h.Owner)
		if b := x.c.habitatBlockers(h, x.f, attr); len(b) > 0 {
			return x.errf(ErrNotAvailable, "\"Attacks in enemy territory first do damage to Local Assets\": attack %s first", strings.Join(b, ", "))
		}
		if h.Health <= 0 {
			return x.errf(ErrNotAvailable, "%s is at 0 and Suppressed: Annex it", h.Name)
		}
		where = h.Name
		if err := x.reach(where, h.Name); err != nil {
			return err
		}
	}
	cost := x.assetAP(x.a.Level)
	if x.def.Key == "attack-special" {
		t, err := x.opposed(RollOpposedFaction, "free Plan (Attack (Special))", x.c.assetSide(x.f, x.a, attr, 0, true), x.c.factionSide(tf, attr))
		if err != nil {
			return err
		}
		if t.Success {
			x.freePlanAP, x.planned = t.MoS(), true
		}
	}
	if err := x.mustPlan(tf); err != nil {
		return err
	}
	if err := x.checkAP(cost, attr.Stat()); err != nil {
		return err
	}
	ignore := 0
	if x.remote != nil {
		ignore = x.remote.Ignore
	}
	x.payAP(cost, attr.Stat())
	x.useRemote()
	covert := x.covert || x.c.Covert(x.own, x.a)
	var t Test
	if tgt != nil {
		t, err = x.opposed(RollOpposedAsset, "Attack "+tgt.Label(), x.c.assetSide(x.f, x.a, attr, 0, true), x.c.assetSide(tf, tgt, tgt.Type, ignore, true))
	} else {
		t, err = x.opposed(RollOpposedFaction, "Attack "+h.Name, x.c.assetSide(x.f, x.a, attr, 0, true), x.c.factionSide(tf, attr))
	}
	if err != nil {
		return err
	}
	x.out.Success = t.Success
	if t.Success {
		dmg := Half(t.MoS())
		if tgt != nil {
			if err := x.damageAsset(tf, tgt, dmg); err != nil {
				return err
			}
		} else {
			x.damageHabitat(h, dmg)
		}
	}
	if covert && x.remote == nil {
		if err := x.freeInvestigate(tf, where); err != nil {
			return err
		}
	}
	if tgt != nil && !covert {
		return x.counterAttack(tf, tgt)
	}
	return nil
}

// habitatBlockers are the defenders that keep an Attack off the habitat
// (config habitat_blockers: "related" or "local"). Covert assets cannot be
// attacked, so they do not count.
func (c *Campaign) habitatBlockers(h *Habitat, attacker *Faction, attr Attr) []string {
	var out []string
	for _, g := range c.Factions {
		if g == attacker || !c.Allied(g.Name, h.Owner) {
			continue
		}
		for _, a := range g.Assets {
			if a.Location != h.Name || a.Transit != nil || a.Health <= 0 || a.CapturedBy != "" || a.HiredBy == attacker.Name || c.Covert(g, a) {
				continue
			}
			if c.Config.HabitatBlockers == "related" && a.Type != attr {
				continue
			}
			out = append(out, a.Label())
		}
	}
	return out
}

// damageAsset: "damage is taken off the Level"; "If the asset is brought
// to 0, it is destroyed."
func (x *act) damageAsset(own *Faction, a *Asset, dmg int) error {
	if dmg <= 0 {
		x.note("%s takes no damage: half the margin of success (MoS/2), rounded down, is 0", a.Label())
		return nil
	}
	from := a.Health
	a.Health = max(a.Health-dmg, 0)
	x.change(a.Label(), "Level", from, a.Health)
	if a.Health == 0 {
		return x.destroy(own, a, "brought to 0")
	}
	return nil
}

// destroy takes an asset out of play. A Facility leaves a ruin ("may also
// "Produce" destroyed Facilities"); those aboard a destroyed Vehicle "may
// take to the Escape Pods to survive".
func (x *act) destroy(own *Faction, a *Asset, why string) error {
	if a.Category == Facility {
		if h := x.c.Habitat(a.Location); h != nil {
			h.Ruins = append(h.Ruins, Ruin{Chart: a.Chart, Owner: own.Name})
		}
	}
	own.removeAsset(a)
	x.change(a.Label(), "destroyed", "", why)
	if a.Bonus != (Attributes{}) {
		x.note("the Attribute bonus of %s disappears", a.Label())
	}
	if a.Category != Vehicle {
		return nil
	}
	for _, g := range x.c.Factions {
		for _, p := range slices.Clone(g.Assets) {
			aboard := p.Aboard == a.ID || (p.Transit != nil && p.Transit.Carrier == a.ID)
			if !aboard || p.destroyed {
				continue
			}
			if err := x.escapePods(a, g, p); err != nil {
				return err
			}
		}
	}
	return nil
}

// escapePods: "A Unit or Agent on a Ship that is destroyed may take to the
// Escape Pods to survive." In interplanetary space they drift for the
// config's pod_drift_rounds ("See you in a few years").
func (x *act) escapePods(ship *Asset, own *Faction, p *Asset) error {
	if own.declines("escape-pods") {
		own.removeAsset(p)
		x.change(p.Label(), "destroyed", "", "went down with "+ship.Label())
		return nil
	}
	p.Aboard = 0
	if ship.Transit != nil {
		p.Transit = &Transit{From: ship.Transit.From, To: ship.Transit.To, Arrive: x.c.Round + x.c.Config.PodDriftRounds, Pod: true}
		p.Location = ""
		x.change(p.Label(), "adrift in escape pods", "", fmt.Sprintf("lands at %s in round %d", p.Transit.To, p.Transit.Arrive))
		return nil
	}
	p.Transit = nil
	p.Location = ship.Location
	out, err := x.c.podLanding(own, p, x.r)
	if err != nil {
		return err
	}
	x.out.Triggered = append(x.out.Triggered, out...)
	return nil
}

// damageHabitat: "When the Habitat's health is reduced to 0, it is
// Suppresed."
func (x *act) damageHabitat(h *Habitat, dmg int) {
	if dmg <= 0 {
		x.note("%s takes no damage: half the margin of success (MoS/2), rounded down, is 0", h.Name)
		return
	}
	from := h.Health
	h.Health = max(h.Health-dmg, 0)
	x.change(h.Name, "health", from, h.Health)
	if h.Health == 0 && !h.Suppressed {
		h.Suppressed = true
		x.change(h.Name, "Suppressed", false, true)
	}
}

// counterAttack: "Attacked Assets may Attack their attacker for free in the
// same Turn they are attacked." A Counter-Attack sets off no other.
func (x *act) counterAttack(tf *Faction, tgt *Asset) error {
	if tgt.destroyed || x.a.destroyed || !tgt.Has(SpecialCounterAttack) || tf.declines("counter-attack") ||
		tgt.Blocked == x.c.Round || tgt.Health <= 0 || tgt.CapturedBy != "" || tgt.Location != x.a.Location || tgt.Location == "" {
		return nil
	}
	ctl := tf
	if tgt.HiredBy != "" {
		if h := x.c.Faction(tgt.HiredBy); h != nil {
			ctl = h
		}
	}
	y := x.c.sysAct(ctl, x.r, lookup("counter-attack"))
	y.a, y.own = tgt, tf
	t, err := y.opposed(RollOpposedAsset, "Counter-Attack "+x.a.Label(), x.c.assetSide(ctl, tgt, tgt.Type, 0, true), x.c.assetSide(x.f, x.a, x.a.Type, 0, true))
	if err != nil {
		return err
	}
	y.out.Success = t.Success
	if t.Success {
		if err := y.damageAsset(x.own, x.a, Half(t.MoS())); err != nil {
			return err
		}
	}
	y.out.Text = y.summary()
	x.out.Triggered = append(x.out.Triggered, *y.out)
	return nil
}

// move: "Locomote by vehicle (Shipping Conglomerate, Vehicles, Units or
// Agents) or egocast/darkcast instantly (Agents only). AP Cost is paid once
// on departure. Vehicle Assets may make ONE change of destination enroute
// at the cost of another AP expenditure. An Asset transported in a vehicle
// may take another action in the same Turn if AP remain and the travel time
// is less than 1 Round."
func (x *act) move() error {
	to, err := x.habitatParam("to", "")
	if err != nil {
		return err
	}
	a := x.a
	if a.Transit != nil {
		return x.reroute(to)
	}
	if a.Location == to.Name {
		return x.errf(ErrBadParam, "%s is at %s already", a.Label(), to.Name)
	}
	mode := strings.ToLower(x.param("mode"))
	switch mode {
	case "", "ship":
		return x.ship(to)
	case "cast", "egocast", "darkcast":
		return x.cast(to, mode == "darkcast")
	}
	return x.errf(ErrBadParam, "mode:%s: use ship, cast or darkcast", mode)
}

func (x *act) reroute(to *Habitat) error {
	a := x.a
	switch {
	case a.Category != Vehicle || a.Transit.Pod:
		return x.errf(ErrCannotAct, "%s is in transit to %s", a.Label(), a.Transit.To)
	case a.Transit.Rerouted:
		return x.errf(ErrNotAvailable, "\"Vehicle Assets may make ONE change of destination enroute\": %s has made it", a.Label())
	}
	cost := x.assetAP(a.Level)
	if err := x.checkAP(cost, a.Type.Stat()); err != nil {
		return err
	}
	x.payAP(cost, a.Type.Stat())
	old := a.Transit.To
	a.Transit.To = to.Name
	a.Transit.Arrive = max(x.c.Round+x.c.travel(a.Transit.From, to.Name), x.c.Round+1)
	a.Transit.Rerouted = true
	for _, id := range a.Transit.Passengers {
		if p, _ := x.c.Asset(id); p != nil && p.Transit != nil {
			p.Transit.To, p.Transit.Arrive = a.Transit.To, a.Transit.Arrive
		}
	}
	x.change(a.Label(), "destination", old, fmt.Sprintf("%s (round %d)", to.Name, a.Transit.Arrive))
	return nil
}

// cast: "egocast/darkcast instantly (Agents only)", at the Level of the
// casting Facility. After a failed Escape "it may only use Subterfuge or
// Darkcasting".
func (x *act) cast(to *Habitat, dark bool) error {
	a := x.a
	if a.Category != Agent {
		return x.errf(ErrNotAvailable, "egocasting and darkcasting are for Agents only: %s is %s", a.Label(), words.A(a.Category))
	}
	if a.EscapeFailed && !dark {
		return x.errf(ErrNotAvailable, "after a failed Escape %s \"may only use Subterfuge or Darkcasting\"", a.Label())
	}
	via, vf, err := x.assetParam("via")
	if err != nil {
		return x.errf(ErrBadParam, "casting needs via: an Egocasting facility of %s's", x.f.Name)
	}
	if !controls(x.f, vf, via, "move") || !via.Has(TraitCast) || via.Health <= 0 || via.CapturedBy != "" {
		return x.errf(ErrNotAvailable, "%s is not an Egocasting facility %s can use", via.Label(), x.f.Name)
	}
	cost := x.assetAP(via.Level)
	if err := x.checkAP(cost, a.Type.Stat()); err != nil {
		return err
	}
	x.payAP(cost, a.Type.Stat())
	from := a.Location
	a.Location, a.Aboard, a.EscapeFailed = to.Name, 0, false
	how := "egocast"
	if dark {
		how = "darkcast"
	}
	x.change(a.Label(), "location ("+how+")", from, to.Name)
	return nil
}

// ship moves by vehicle or transport facility: "Locomote by vehicle
// (Shipping Conglomerate, Vehicles, Units or Agents) ... AP Cost is paid
// once on departure", the Level of the carrier. Then the assets arrive
// within the turn, or are in transit for the travel time.
func (x *act) ship(to *Habitat) error {
	a := x.a
	if a.Category == Facility {
		return x.errf(ErrNotAvailable, "Facilities do not move")
	}
	if a.EscapeFailed {
		return x.errf(ErrNotAvailable, "after a failed Escape %s \"may only use Subterfuge or Darkcasting\"", a.Label())
	}
	carrier, err := x.shipCarrier()
	if err != nil {
		return err
	}
	riders, err := x.shipRiders(carrier)
	if err != nil {
		return err
	}
	cost := x.assetAP(carrier.Level)
	if err := x.checkAP(cost, a.Type.Stat()); err != nil {
		return err
	}
	x.payAP(cost, a.Type.Stat())
	from := carrier.Location
	rounds := x.c.travel(from, to.Name)
	moving := riders
	if carrier.Category == Vehicle {
		moving = append([]*Asset{carrier}, riders...)
		if carrier != a && !slices.Contains(x.f.Turn.Acted, carrier.ID) {
			x.f.Turn.Acted = append(x.f.Turn.Acted, carrier.ID)
		}
	}
	if rounds == 0 {
		return x.arriveWithinRound(carrier, moving, riders, from, to)
	}
	x.depart(carrier, moving, riders, from, to, x.c.Round+rounds)
	return nil
}

// shipCarrier is what carries the acting asset: a Vehicle itself, or via:
// "a vehicle (Shipping Conglomerate, Vehicles ...)" of the faction's, a
// transport at the same place that has not acted this turn.
func (x *act) shipCarrier() (*Asset, error) {
	a := x.a
	if a.Category == Vehicle && x.param("via") == "" {
		return a, nil
	}
	v, vf, err := x.assetParam("via")
	if err != nil {
		return nil, x.errf(ErrBadParam, "%s needs a ride: via: a Vehicle or transport Facility of %s's", a.Label(), x.f.Name)
	}
	if !controls(x.f, vf, v, "move") || !v.Has(TraitTransport) || v.Health <= 0 || v.CapturedBy != "" || v.Transit != nil || v.Location != a.Location {
		return nil, x.errf(ErrNotAvailable, "%s cannot carry %s from %s", v.Label(), a.Label(), a.Location)
	}
	if v.Category == Vehicle && slices.Contains(x.f.Turn.Acted, v.ID) {
		return nil, x.errf(ErrAlreadyActed, "%s has already acted this turn", v.Label())
	}
	return v, nil
}

// shipRiders are the assets the carrier takes along: the acting asset
// when it is not the carrier, and the Units and Agents named by with:,
// the faction's own that may still move this turn, or its captives.
func (x *act) shipRiders(carrier *Asset) ([]*Asset, error) {
	a := x.a
	riders := []*Asset{}
	if carrier != a {
		riders = append(riders, a)
	}
	w := x.param("with")
	if w == "" {
		return riders, nil
	}
	if !carrier.Has(TraitTransport) {
		return nil, x.errf(ErrNotAvailable, "%s carries no passengers", carrier.Label())
	}
	for _, s := range strings.FieldsFunc(w, func(r rune) bool { return r == ',' || r == ' ' }) {
		id, err := strconv.Atoi(strings.TrimPrefix(s, "#"))
		if err != nil {
			return nil, x.errf(ErrBadParam, "with:%s: %q is not an asset ID", w, s)
		}
		p, pf := x.c.Asset(id)
		if p == nil || !x.c.SeenBy(x.f, pf, p) {
			return nil, x.errf(ErrUnknownAsset, "no asset #%d", id)
		}
		captive := p.CapturedBy == x.f.Name
		switch {
		case !captive && !controls(x.f, pf, p, "move"):
			return nil, x.errf(ErrUnknownAsset, "%s is not %s's to carry", p.Label(), x.f.Name)
		case p.Category != Unit && p.Category != Agent:
			return nil, x.errf(ErrNotAvailable, "%s is not a Unit or Agent", p.Label())
		case p.Location != carrier.Location || p.Transit != nil:
			return nil, x.errf(ErrNotAvailable, "%s is not at %s", p.Label(), carrier.Location)
		case !captive && (p.CapturedBy != "" || p.Blocked == x.c.Round || p.Health <= 0 || p.Duplicate ||
			(slices.Contains(x.f.Turn.Acted, p.ID) && !slices.Contains(x.f.Turn.Extra, p.ID))):
			return nil, x.errf(ErrCannotAct, "%s cannot move this turn", p.Label())
		case p == a || p == carrier || slices.Contains(riders, p):
			continue
		}
		riders = append(riders, p)
	}
	return riders, nil
}

// arriveWithinRound: the travel time is less than 1 Round, so the moving
// assets are at to now (riders aboard a Vehicle). "An Asset transported in
// a vehicle may take another action in the same Turn if AP remain and the
// travel time is less than 1 Round"; a captive transported "may make
// another Escape attempt upon arrival, in the capturing Faction's Turn".
func (x *act) arriveWithinRound(carrier *Asset, moving, riders []*Asset, from string, to *Habitat) error {
	for _, m := range moving {
		m.Location = to.Name
		if m != carrier && carrier.Category == Vehicle {
			m.Aboard = carrier.ID
		}
		x.change(m.Label(), "location", from, to.Name)
	}
	if carrier != x.a {
		x.f.Turn.Extra = append(x.f.Turn.Extra, x.a.ID)
	}
	for _, m := range riders {
		if m.CapturedBy == x.f.Name {
			pown := x.ownerOf(m)
			o, err := x.c.captiveEscape(pown, m, x.f, "upon arrival", x.r)
			if err != nil {
				return err
			}
			if o != nil {
				x.out.Triggered = append(x.out.Triggered, *o)
			}
		}
	}
	return nil
}

// depart puts the moving assets in transit to arrive in round arrive
// ("Time: Per travel time"), a Vehicle carrying its riders as passengers.
func (x *act) depart(carrier *Asset, moving, riders []*Asset, from string, to *Habitat, arrive int) {
	var ids []int
	for _, m := range riders {
		ids = append(ids, m.ID)
	}
	for _, m := range moving {
		t := &Transit{From: from, To: to.Name, Arrive: arrive}
		switch {
		case carrier.Category != Vehicle:
		case m == carrier:
			t.Passengers = ids
		default:
			t.Carrier = carrier.ID
		}
		m.Transit, m.Location, m.Aboard = t, "", 0
		x.change(m.Label(), "in transit", from, fmt.Sprintf("%s (round %d)", to.Name, arrive))
	}
}

func (x *act) ownerOf(a *Asset) *Faction {
	_, f := x.c.Asset(a.ID)
	return f
}

// produce: "Heal or Boost the Relevant Stat by [MoS / 2] (minimum 1)."
// Straight Asset (+HTA), 1 Round.
func (x *act) produce() error {
	cost := x.assetAP(x.a.Level)
	stat := x.a.Type.Stat()
	if err := x.checkAP(cost, stat); err != nil {
		return err
	}
	t, err := x.straight(RollStraightAsset, "Produce "+string(stat), x.c.assetSide(x.f, x.a, x.a.Type, 0, true))
	if err != nil {
		return err
	}
	x.payAP(cost, stat)
	if !t.Success {
		x.out.Success = false
		return nil
	}
	n := HalfMin1(t.MoS())
	x.queue(Effect{Kind: EffectHealStat, Due: x.c.Round + 1, Stat: stat, Amount: n, Asset: x.a.ID,
		Note: fmt.Sprintf("%s heals (or is boosted) by %d", stat, n)})
	return nil
}

// planAction is Plan, Plan (Special) and Laundering. Plan: "Temporarily
// add MoS points to AP for a specific Asset Action next Round, either its
// own or for another Asset. If Mos > Acting Asset Level, it may elect to
// perform the Planned action in the same Turn as the Planning." Laundering:
// "As Plan, but also makes the Asset involved Covert for the duration of
// the Planned action. Only applies to Agents."
func (x *act) planAction() error {
	benef, err := x.ownAsset("for", true)
	if err != nil {
		return err
	}
	planned := lookup(x.param("action"))
	if x.param("action") == "" || planned == nil || !planned.Kind.Asset() || planned.Kind == KindTriggered {
		return x.errf(ErrBadParam, "%s needs action: an Asset Action to plan (attack, sabotage, remote, ...)", x.def.Name)
	}
	if x.def.Key == "laundering" {
		if benef.Category != Agent {
			return x.errf(ErrNotAvailable, "Laundering \"Only applies to Agents\": %s is %s", benef.Label(), words.A(benef.Category))
		}
		cost := x.assetAP(1)
		if err := x.checkAP(cost, x.a.Type.Stat()); err != nil {
			return err
		}
		x.payAP(cost, x.a.Type.Stat())
		x.queue(Effect{Kind: EffectPlan, Due: x.c.Round + 1, Asset: benef.ID, Target: x.a.ID, Name: planned.Key,
			Amount: x.c.Config.LaunderingAP, Flag: true, Note: fmt.Sprintf("%s's %s is Planned and Covert", benef.Label(), planned.Name)})
		return nil
	}
	against, err := x.factionParam("faction")
	if err != nil {
		return err
	}
	sameTurn, err := x.yes("same_turn", false)
	if err != nil {
		return err
	}
	base := x.a.Level
	if x.def.Key == "plan-special" {
		base = 1 // "Plan action costs only 1 AP."
	}
	cost := x.assetAP(base)
	if err := x.checkAP(cost, x.a.Type.Stat()); err != nil {
		return err
	}
	t, err := x.opposed(RollOpposedFaction, "Plan "+planned.Name+" against "+against.Name,
		x.c.assetSide(x.f, x.a, x.a.Type, 0, true), x.c.factionSide(against, x.a.Type))
	if err != nil {
		return err
	}
	x.payAP(cost, x.a.Type.Stat())
	if !t.Success {
		x.out.Success = false
		return nil
	}
	mos := t.MoS()
	if sameTurn && mos > benef.Level {
		id := x.c.newID(x.f)
		x.f.Turn.Plans = append(x.f.Turn.Plans, PlanBonus{Effect: id, Planner: x.a.ID, Asset: benef.ID, Action: planned.Key, AP: mos})
		if benef == x.a || slices.Contains(x.f.Turn.Acted, benef.ID) {
			x.f.Turn.Extra = append(x.f.Turn.Extra, benef.ID)
		}
		// No plan number: another faction may read this (see newID).
		x.change(x.f.Name, "Plan ready this turn", "", fmt.Sprintf("%d AP for %s by %s", mos, planned.Name, benef.Label()))
		return nil
	}
	if sameTurn {
		x.note("MoS %d is not above %s's Level %d: the Plan serves next Round", mos, benef.Label(), benef.Level)
	}
	x.queue(Effect{Kind: EffectPlan, Due: x.c.Round + 1, Asset: benef.ID, Target: x.a.ID, Name: planned.Key, Amount: mos,
		Note: fmt.Sprintf("%d AP for %s's %s", mos, benef.Label(), planned.Name)})
	return nil
}

// subterfuge: "Make any Agent Asset (except Mogul) Covert."
func (x *act) subterfuge() error {
	tgt, err := x.ownAsset("target", true)
	if err != nil {
		return err
	}
	switch {
	case tgt.Category != Agent:
		return x.errf(ErrNotAvailable, "Subterfuge makes Agents Covert: %s is %s", tgt.Label(), words.A(tgt.Category))
	case tgt.Has(TraitMogul):
		return x.errf(ErrNotAvailable, "\"Make any Agent Asset (except Mogul) Covert\"")
	case tgt.CapturedBy != "":
		return x.errf(ErrNotAvailable, "%s is held captive", tgt.Label())
	}
	cost := x.assetAP(1)
	if err := x.checkAP(cost, x.a.Type.Stat()); err != nil {
		return err
	}
	x.payAP(cost, x.a.Type.Stat())
	tgt.Covert, tgt.Revealed, tgt.EscapeFailed = true, false, false
	x.change(tgt.Label(), "Covert", false, true)
	return nil
}

// remoteAction: "Enables itself or another Asset to perform an action
// Remotely next Round while ignoring MoS points of opponent's Home Turf
// Advantage."
func (x *act) remoteAction() error {
	benef, err := x.ownAsset("for", true)
	if err != nil {
		return err
	}
	cost := x.assetAP(x.a.Level)
	if err := x.checkAP(cost, x.a.Type.Stat()); err != nil {
		return err
	}
	t, err := x.straight(RollStraightAsset, "Remote for "+benef.Label(), x.c.assetSide(x.f, x.a, x.a.Type, 0, false))
	if err != nil {
		return err
	}
	x.payAP(cost, x.a.Type.Stat())
	if !t.Success {
		x.out.Success = false
		return nil
	}
	x.queue(Effect{Kind: EffectRemote, Due: x.c.Round + 1, Asset: benef.ID, Amount: t.MoS(),
		Note: fmt.Sprintf("%s may act Remotely, ignoring %d Home Turf", benef.Label(), t.MoS())})
	return nil
}

// misdirect: "Prevent an enemy Asset from taking any Standard, Special or
// Triggered action next Round."
func (x *act) misdirect() error {
	tgt, tf, err := x.assetParam("target")
	if err != nil {
		return err
	}
	if x.c.Allied(tf.Name, x.f.Name) {
		return x.errf(ErrNotAvailable, "%s is not an enemy Asset", tgt.Label())
	}
	if x.c.Covert(tf, tgt) {
		return x.errf(ErrNotAvailable, "%s is Covert: reveal it first", tgt.Label())
	}
	if err := x.reach(tgt.Location, tgt.Label()); err != nil {
		return err
	}
	cost := x.assetAP(1)
	if err := x.checkAP(cost, x.a.Type.Stat()); err != nil {
		return err
	}
	ignore := 0
	if x.remote != nil {
		ignore = x.remote.Ignore
	}
	x.payAP(cost, x.a.Type.Stat())
	x.useRemote()
	covert := x.covert || x.c.Covert(x.own, x.a)
	t, err := x.opposed(RollOpposedAsset, "Misdirect "+tgt.Label(), x.c.assetSide(x.f, x.a, INT, 0, true), x.c.assetSide(tf, tgt, INT, ignore, true))
	if err != nil {
		return err
	}
	x.out.Success = t.Success
	if t.Success {
		tgt.Blocked = x.c.Round + 1
		x.change(tgt.Label(), "no action in round", "", x.c.Round+1)
		// Investigate (Triggered): "This does NOT occur in the case of a
		// successful Misdirect against the only Investigate Asset in a
		// Habitat." An exception to "(whether successful or not)": it
		// holds in the round of the Misdirect too (freeInvestigate).
		x.misdirected = tgt
	}
	if covert && x.remote == nil {
		return x.freeInvestigate(tf, tgt.Location)
	}
	return nil
}

// findPlan finds g's pending or ready Plan (or Remote) by its effect ID:
// effects are numbered per faction.
func (c *Campaign) findPlan(g *Faction, id int) (Effect, bool) {
	for _, e := range c.Effects {
		if e.Faction == g.Name && e.ID == id && (e.Kind == EffectPlan || e.Kind == EffectRemote) {
			return e, true
		}
	}
	for _, p := range g.Turn.Plans {
		if p.Effect == id {
			return Effect{ID: id, Kind: EffectPlan, Faction: g.Name, Asset: p.Asset, Target: p.Planner, Name: p.Action, Amount: p.AP}, true
		}
	}
	for _, r := range g.Turn.Remotes {
		if r.Effect == id {
			return Effect{ID: id, Kind: EffectRemote, Faction: g.Name, Asset: r.Asset, Amount: r.Ignore}, true
		}
	}
	return Effect{}, false
}

// cancelEffect removes g's effect id, pending or ready this turn.
func (c *Campaign) cancelEffect(g *Faction, id int) {
	c.Effects = slices.DeleteFunc(c.Effects, func(e Effect) bool { return e.Faction == g.Name && e.ID == id })
	g.Turn.Plans = slices.DeleteFunc(g.Turn.Plans, func(p PlanBonus) bool { return p.Effect == id })
	g.Turn.Remotes = slices.DeleteFunc(g.Turn.Remotes, func(r RemoteGrant) bool { return r.Effect == id })
}

// effectOwner is the enemy faction whose effect an Investigate or a
// Sabotage cancels (faction:), effects being numbered per faction. It may
// be left out when the acting faction has one enemy only: which faction
// holds an effect of a number is what it may not be told.
func (x *act) effectOwner() (*Faction, error) {
	if x.param("faction") != "" {
		return x.factionParam("faction")
	}
	var enemies []*Faction
	for _, g := range x.c.Factions {
		if !x.c.Allied(g.Name, x.f.Name) {
			enemies = append(enemies, g)
		}
	}
	if len(enemies) != 1 {
		return nil, x.errf(ErrBadParam, "name the faction whose effect it is (faction:): each faction numbers its own")
	}
	return enemies[0], nil
}

// sabotage: "1) Cancel an enemy's Plan, Produce, or Produce Asset action,
// or; 2) Bypass enemy Assets and cause Habitat Damage, Stat Damage or
// Attribute Damage." The damage is the config's sabotage_damage.
func (x *act) sabotage() error {
	attr := x.a.Type
	mode := strings.ToLower(x.param("mode"))
	var (
		st  sabotageTarget
		err error
	)
	switch mode {
	case "cancel":
		st, err = x.sabotageCancel()
	case "habitat":
		st, err = x.sabotageHabitat()
	case "stat", "attribute":
		st, err = x.sabotageFaction(mode)
	default:
		return x.errf(ErrBadParam, "Sabotage needs mode: cancel, habitat, stat or attribute")
	}
	if err != nil {
		return err
	}
	// "Roll Type: Opposed Faction AP Cost: Level"
	tf := st.faction
	if err := x.mustPlan(tf); err != nil {
		return err
	}
	cost := x.assetAP(x.a.Level)
	if err := x.checkAP(cost, attr.Stat()); err != nil {
		return err
	}
	x.payAP(cost, attr.Stat())
	x.useRemote()
	covert := x.covert || x.c.Covert(x.own, x.a)
	t, err := x.opposed(RollOpposedFaction, "Sabotage ("+mode+") against "+tf.Name, x.c.assetSide(x.f, x.a, attr, 0, true), x.c.factionSide(tf, attr))
	if err != nil {
		return err
	}
	x.out.Success = t.Success
	if t.Success {
		st.apply(t)
	}
	if covert && x.remote == nil && st.where != "" {
		return x.freeInvestigate(tf, st.where)
	}
	return nil
}

// sabotageTarget is what a Sabotage aims at: the enemy faction, the
// habitat it happens in ("" when it acts Remotely), and what a success
// does.
type sabotageTarget struct {
	faction *Faction
	where   string
	apply   func(t Test)
}

// sabotageCancel is Sabotage's "1) Cancel an enemy's Plan, Produce, or
// Produce Asset action" (mode:cancel, effect: its ID).
func (x *act) sabotageCancel() (sabotageTarget, error) {
	id, err := x.intParam("effect", 0, 1, 1<<30)
	if err != nil || id == 0 {
		return sabotageTarget{}, x.errf(ErrBadParam, "Sabotage mode:cancel needs effect: the ID of the enemy's Plan, Produce or Produce Asset")
	}
	g, err := x.effectOwner()
	if err != nil {
		return sabotageTarget{}, err
	}
	e, ok := x.c.findPlan(g, id)
	if !ok {
		for _, pe := range x.c.Effects {
			if pe.Faction == g.Name && pe.ID == id && (pe.Kind == EffectProduce || (pe.Kind == EffectHealStat && pe.Source == "produce")) {
				e, ok = pe, true
			}
		}
	}
	if !ok || e.Kind == EffectRemote {
		return sabotageTarget{}, x.errf(ErrNotAvailable, "no Plan, Produce or Produce Asset with ID %d to cancel", id)
	}
	if x.c.Allied(g.Name, x.f.Name) {
		return sabotageTarget{}, x.errf(ErrNotAvailable, "effect %d is not an enemy's", id)
	}
	where := e.Habitat
	if where == "" {
		if a, _ := x.c.Asset(e.Asset); a != nil {
			where = a.Location
		}
	}
	if err := x.reach(where, fmt.Sprintf("effect %d", id)); err != nil {
		return sabotageTarget{}, err
	}
	return sabotageTarget{faction: g, where: where, apply: func(Test) {
		x.c.cancelEffect(g, id)
		x.change(g.Name, "cancelled", "", e.Note) // no number: see cancelPlan
	}}, nil
}

// sabotageHabitat is Sabotage's "2) Bypass enemy Assets and cause Habitat
// Damage" (mode:habitat, habitat: where, the asset's own by default).
func (x *act) sabotageHabitat() (sabotageTarget, error) {
	h, err := x.habitatParam("habitat", x.a.Location)
	if err != nil {
		return sabotageTarget{}, err
	}
	if h.Owner == "" || x.c.Allied(h.Owner, x.f.Name) {
		return sabotageTarget{}, x.errf(ErrNotAvailable, "%s is not enemy territory", h.Name)
	}
	if h.Health <= 0 {
		return sabotageTarget{}, x.errf(ErrNotAvailable, "%s is at 0 already", h.Name)
	}
	tf, where := x.c.Faction(h.Owner), h.Name
	if err := x.reach(where, h.Name); err != nil {
		return sabotageTarget{}, err
	}
	return sabotageTarget{faction: tf, where: where, apply: func(t Test) { x.damageHabitat(h, x.sabotageDamage(t)) }}, nil
}

// sabotageFaction is Sabotage's "2) Bypass enemy Assets and cause ... Stat
// Damage or Attribute Damage" (mode:stat with stat:, or mode:attribute
// with attr:) to the enemy faction:, from its territory or Remotely.
func (x *act) sabotageFaction(mode string) (sabotageTarget, error) {
	g, err := x.factionParam("faction")
	if err != nil {
		return sabotageTarget{}, err
	}
	if x.c.Allied(g.Name, x.f.Name) {
		return sabotageTarget{}, x.errf(ErrNotAvailable, "%s is not an enemy", g.Name)
	}
	var stat Stat
	var at Attr
	if mode == "stat" {
		if stat, err = x.statParam("stat"); err != nil {
			return sabotageTarget{}, err
		}
	} else if at, err = x.attrParam("attr"); err != nil {
		return sabotageTarget{}, err
	}
	where := ""
	if !x.c.Home(g, x.a.Location) {
		if err := x.reach("", g.Name+"'s territory"); err != nil {
			return sabotageTarget{}, x.errf(ErrNotAvailable, "%s must be in %s's territory, or act Remotely", x.a.Label(), g.Name)
		}
	} else {
		where = x.a.Location
	}
	return sabotageTarget{faction: g, where: where, apply: func(t Test) {
		dmg := x.sabotageDamage(t)
		if mode == "stat" {
			x.damageStat(g, stat, dmg, "Sabotage")
			return
		}
		from := g.Attributes.Get(at)
		g.Attributes.Set(at, max(from-dmg, 0))
		x.change(g.Name, string(at)+" (Sabotage)", from, max(from-dmg, 0))
	}}, nil
}

func (x *act) sabotageDamage(t Test) int {
	if x.c.Config.SabotageDamage == "mos" {
		return t.MoS()
	}
	return Half(t.MoS())
}

// turnAgent: "Turn a Captured enemy Agent into a friendly Agent or Double
// Agent. Duplicate friendly Agents must be Converted; Duplicate Double
// Agents need not." Time: [Level] Rounds, the acting asset's Level.
func (x *act) turnAgent() error {
	tgt, tf, err := x.assetParam("target")
	if err != nil {
		return err
	}
	if tgt.CapturedBy != x.f.Name {
		return x.errf(ErrNotAvailable, "%s is not held captive by %s", tgt.Label(), x.f.Name)
	}
	if tgt.Location != x.a.Location {
		return x.errf(ErrNotAvailable, "%s is held %s and %s is %s: bring them together", tgt.Label(), at(tgt.Location), x.a.Label(), at(x.a.Location))
	}
	as := strings.ToLower(x.param("as"))
	if as == "" {
		as = "friendly"
	}
	if as != "friendly" && as != "double" {
		return x.errf(ErrBadParam, "as:%s: use friendly or double", as)
	}
	if slices.ContainsFunc(x.c.Effects, func(e Effect) bool { return e.Kind == EffectTurnAgent && e.Target == tgt.ID }) {
		return x.errf(ErrNotAvailable, "%s is being turned already", tgt.Label())
	}
	cost := x.assetAP(1)
	if err := x.checkAP(cost, x.a.Type.Stat()); err != nil {
		return err
	}
	x.payAP(cost, x.a.Type.Stat())
	t, err := x.opposed(RollOpposedAsset, "Turn Agent "+tgt.Label(), x.c.assetSide(x.f, x.a, INT, 0, true), x.c.assetSide(tf, tgt, INT, 0, true))
	if err != nil {
		return err
	}
	x.out.Success = t.Success
	if !t.Success {
		return nil
	}
	note := fmt.Sprintf("%s becomes a friendly Agent of %s", tgt.Label(), x.f.Name)
	if as == "double" {
		note = fmt.Sprintf("%s becomes a Double Agent for %s", tgt.Label(), x.f.Name)
	}
	x.queue(Effect{Kind: EffectTurnAgent, Due: x.c.Round + x.a.Level, Target: tgt.ID, Other: tf.Name, Flag: as == "double", Note: note})
	return nil
}

// turned completes a Turn Agent.
func (x *act) turned(e Effect) {
	tgt, own := x.c.Asset(e.Target)
	if tgt == nil || tgt.CapturedBy != x.f.Name {
		x.note("the turning of asset #%d lapses: it is no longer %s's captive", e.Target, x.f.Name)
		return
	}
	tgt.CapturedBy, tgt.EscapeFailed, tgt.Interrogated = "", false, false
	if e.Flag {
		tgt.DoubleFor = x.f.Name
		tgt.Revealed = false
		x.change(tgt.Label(), "Double Agent for", "", x.f.Name)
		return
	}
	tgt.DoubleFor, tgt.HiredBy, tgt.Revealed, tgt.Covert = "", "", false, false
	x.transfer(own, x.f, tgt)
	x.change(tgt.Label(), "turned", own.Name, x.f.Name)
	x.markDuplicate(x.f, tgt)
}

// convertDuplicate: "If a Faction Annexes a Facility or Turns an Agent of a
// type that it already has, the second Agent is unusable until it is
// converted another type ... Conversion takes [new Level] Rounds. On a
// success, proceed as per the "Repurpose" Faction Action. On a failure, the
// Conversion may be reattempted in [MoF/2] Rounds." The roll is the
// config's convert_roll.
func (x *act) convertDuplicate() error {
	a := x.a
	if !a.Duplicate {
		return x.errf(ErrNotAvailable, "%s is not a duplicate", a.Label())
	}
	if a.ConvertAfter > x.c.Round {
		return x.errf(ErrNotAvailable, "the Conversion of %s may be reattempted in round %d", a.Label(), a.ConvertAfter)
	}
	d, err := x.chartParam("chart")
	if err != nil {
		return err
	}
	switch {
	case d.Category != a.Category:
		return x.errf(ErrNotAvailable, "%s converts only to another %s", a.Label(), a.Category)
	case strings.EqualFold(d.Name, a.Chart):
		return x.errf(ErrNotAvailable, "it must be converted to another type than %s", a.Chart)
	case x.f.standing(d.Name, ""):
		return x.errf(ErrNotAvailable, "%s has %s already: it would be a duplicate again", x.f.Name, words.A(d.Name))
	}
	cost := x.assetAP(d.Level)
	if err := x.checkAP(cost, d.Type.Stat()); err != nil {
		return err
	}
	if err := x.checkStat(x.f, d.Type.Stat(), RepurposeCost(d.Level, d.Type == a.Type), "Converting "+a.Label()); err != nil {
		return err
	}
	success := true
	mof := 0
	if x.c.Config.ConvertRoll == "straight-faction" {
		t, err := x.straight(RollStraightFaction, "Convert "+a.Label(), x.c.factionSide(x.f, d.Type))
		if err != nil {
			return err
		}
		success, mof = t.Success, t.MoF()
	}
	x.payAP(cost, d.Type.Stat())
	if !success {
		x.out.Success = false
		a.ConvertAfter = x.c.Round + max(Half(mof), 1)
		x.change(a.Label(), "Conversion may be reattempted in round", "", a.ConvertAfter)
		return nil
	}
	return x.convert(a, "Convert Duplicate", "convert", false)
}
