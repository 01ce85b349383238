package faction

import (
	"fmt"
	"github.com/tablehand/tablehand/rules/words"
	"slices"
	"strings"

	"github.com/tablehand/tablehand/rules/dice"
)

// RegroupCost is the Related Stat a Regroup of points costs: "Cost:
// [Points]^2 Related Stat (1st point no cost)", read as the config's
// regroup_cost says.
func RegroupCost(mode string, points int) int {
	switch mode {
	case "minus-one":
		return max(points*points-1, 0)
	case "shifted":
		return max((points-1)*(points-1), 0)
	}
	if points <= 1 {
		return 0
	}
	return points * points
}

// regroup: "Heal any Faction Attribute. Takes effect the next Round."
func (x *act) regroup() error {
	attr, err := x.attrParam("attr")
	if err != nil {
		return err
	}
	missing := x.f.MaxAttributes.Get(attr) - x.f.Attributes.Get(attr)
	if missing <= 0 {
		return x.errf(ErrNotAvailable, "%s's %s is not damaged (%d of %d)", x.f.Name, attr, x.f.Attributes.Get(attr), x.f.MaxAttributes.Get(attr))
	}
	points, err := x.intParam("points", missing, 1, missing)
	if err != nil {
		return err
	}
	cost := RegroupCost(x.c.Config.RegroupCost, points)
	if err := x.checkStat(x.f, attr.Stat(), cost, fmt.Sprintf("Regroup of %d points", points)); err != nil {
		return err
	}
	x.payStat(x.f, attr.Stat(), cost, "Regroup: [Points]^2 Related Stat (1st point no cost)")
	x.queue(Effect{Kind: EffectHealAttr, Due: x.c.Round + 1, Attr: attr, Amount: points,
		Note: fmt.Sprintf("%s heals %d", attr, points)})
	return nil
}

// invest: "Heal or Boost (for one Round) any Faction Health Stat by [MoS/2]
// points (minimum 1). Takes effect the next Round." The Faction Action rolls
// the Attribute paired with the Stat; Invest (Special) is a Straight Asset
// roll, "once per Turn".
func (x *act) invest() error {
	stat, err := x.statParam("stat")
	if err != nil {
		return err
	}
	var t Test
	if x.def.Key == "asset-invest" {
		if x.f.Turn.InvestUsed {
			return x.errf(ErrAlreadyActed, "Invest (Special) \"May be performed as an Asset Action once per Turn\"")
		}
		cost := x.assetAP(1)
		if err := x.checkAP(cost, x.a.Type.Stat()); err != nil {
			return err
		}
		if t, err = x.straight(RollStraightAsset, "Invest "+string(stat), x.c.assetSide(x.f, x.a, x.attr(), 0, false)); err != nil {
			return err
		}
		x.payAP(cost, x.a.Type.Stat())
		x.f.Turn.InvestUsed = true
	} else if t, err = x.straight(RollStraightFaction, "Invest "+string(stat), x.c.factionSide(x.f, stat.Attr())); err != nil {
		return err
	}
	if !t.Success {
		x.out.Success = false
		return nil
	}
	n := HalfMin1(t.MoS())
	x.queue(Effect{Kind: EffectHealStat, Due: x.c.Round + 1, Stat: stat, Amount: n,
		Note: fmt.Sprintf("%s heals (or is boosted) by %d", stat, n)})
	return nil
}

// maintenance: "Heal any Habitat Damage Stat by [MoS/2] points (minimum 1).
// Takes effect the next Round." Cost "[Damage] INF or POP": the points
// healed, in the Stat chosen; it rolls the Attribute paired with that Stat.
func (x *act) maintenance() error {
	h, err := x.habitatParam("habitat", "")
	if err != nil {
		return err
	}
	if h.Owner != x.f.Name {
		return x.errf(ErrNotAvailable, "%s is not %s's habitat", h.Name, x.f.Name)
	}
	if h.Health >= h.MaxHealth {
		return x.errf(ErrNotAvailable, "%s is not damaged (health %d of %d)", h.Name, h.Health, h.MaxHealth)
	}
	stat := INF
	if p := x.param("pay"); p != "" {
		if stat, err = ParseStat(p); err != nil || (stat != INF && stat != POP) {
			return x.errf(ErrBadParam, "pay:%s: Maintenance costs INF or POP", p)
		}
	}
	if err := x.checkStat(x.f, stat, 1, "Maintenance"); err != nil {
		return err
	}
	t, err := x.straight(RollStraightFaction, "Maintenance of "+h.Name, x.c.factionSide(x.f, stat.Attr()))
	if err != nil {
		return err
	}
	if !t.Success {
		x.out.Success = false
		return nil
	}
	n := min(HalfMin1(t.MoS()), h.MaxHealth-h.Health, x.f.Stats.Get(stat))
	x.payStat(x.f, stat, n, "Maintenance: [Damage] "+string(stat))
	x.queue(Effect{Kind: EffectHealHabitat, Due: x.c.Round + 1, Habitat: h.Name, Amount: n,
		Note: fmt.Sprintf("%s heals %d", h.Name, n)})
	return nil
}

// repair: "Heal an Asset in friendly territory by [MoS/2] points (minimum
// 1). Takes one Round. If in hostile territory, spend [Level] INF and
// [Level] Related Stat per GM's discretion." Repair (Special) is a Straight
// Asset roll costing "[Level] of Asset being Repaired" AP, "once per turn".
func (x *act) repair() error {
	tgt, err := x.ownAsset("target", false)
	if err != nil {
		return err
	}
	special := x.def.Key == "asset-repair"
	switch {
	case tgt.Health >= tgt.Level:
		return x.errf(ErrNotAvailable, "%s is not damaged (Level %d of %d)", tgt.Label(), tgt.Health, tgt.Level)
	case tgt.Duplicate:
		return x.errf(ErrNotAvailable, "%s is a duplicate: \"Any duplicates must be Converted ... before being repaired up\"", tgt.Label())
	case tgt.CapturedBy != "":
		return x.errf(ErrNotAvailable, "%s is held captive by %s", tgt.Label(), tgt.CapturedBy)
	case tgt.Transit != nil:
		return x.errf(ErrNotAvailable, "%s is in transit", tgt.Label())
	case special && x.f.Turn.RepairUsed:
		return x.errf(ErrAlreadyActed, "Repair (Special) \"may be performed as an Asset Action ... once per turn\"")
	}
	related := tgt.Type.Stat()
	hostile := !x.c.Friendly(x.f, tgt.Location)
	levelCost := 0
	if hostile {
		if x.c.Config.GMApprovesHostileRepair {
			switch strings.ToLower(x.param("gm_repair")) {
			case "":
				x.ask(Question{Param: "gm_repair", Ask: "gm", Options: []string{"approve", "deny"},
					Text: fmt.Sprintf("%s is in hostile territory (%s): may %s repair it, spending INF and %s? (\"per GM's discretion\")",
						tgt.Label(), tgt.Location, x.f.Name, related)})
				return nil
			case "approve", "yes":
			case "deny", "no":
				return x.errf(ErrDenied, "the GM does not allow the Repair of %s in hostile territory", tgt.Label())
			default:
				return x.errf(ErrBadParam, "gm_repair:%s: use approve or deny", x.param("gm_repair"))
			}
		}
		if x.c.Config.HostileRepairCost == "level" {
			levelCost = tgt.Level
			inf := levelCost
			if related == INF {
				inf += levelCost
			}
			if err := x.checkStat(x.f, INF, inf, "Repair in hostile territory"); err != nil {
				return err
			}
			if err := x.checkStat(x.f, related, levelCost, "Repair in hostile territory"); err != nil {
				return err
			}
		}
	}
	apCost := 0
	var t Test
	if special {
		apCost = x.assetAP(tgt.Level)
		if err := x.checkAP(apCost, x.a.Type.Stat()); err != nil {
			return err
		}
		t, err = x.straight(RollStraightAsset, "Repair "+tgt.Label(), x.c.assetSide(x.f, x.a, x.attr(), 0, false))
	} else {
		t, err = x.straight(RollStraightFaction, "Repair "+tgt.Label(), x.c.factionSide(x.f, tgt.Type))
	}
	if err != nil {
		return err
	}
	if special {
		x.payAP(apCost, x.a.Type.Stat())
		x.f.Turn.RepairUsed = true
	}
	if levelCost > 0 {
		x.payStat(x.f, INF, levelCost, "Repair in hostile territory: [Level] INF")
		x.payStat(x.f, related, levelCost, "Repair in hostile territory: [Level] Related Stat")
	}
	if !t.Success {
		x.out.Success = false
		return nil
	}
	n := min(HalfMin1(t.MoS()), tgt.Level-tgt.Health)
	if hostile && x.c.Config.HostileRepairCost == "points" {
		n = min(n, x.f.Stats.INF, x.f.Stats.Get(related))
		if related == INF {
			n = min(n, x.f.Stats.INF/2)
		}
		x.payStat(x.f, INF, n, "Repair in hostile territory: [Points] INF")
		x.payStat(x.f, related, n, "Repair in hostile territory: [Points] Related Stat")
	}
	x.queue(Effect{Kind: EffectHealAsset, Due: x.c.Round + 1, Target: tgt.ID, Amount: n,
		Note: fmt.Sprintf("%s heals %d", tgt.Label(), n)})
	return nil
}

// standing reports whether the faction has a standing asset of the chart
// entry (or trait), optionally at a habitat.
func (f *Faction) standing(chartOrTrait, at string) bool {
	for _, a := range f.Assets {
		if a.Health > 0 && a.CapturedBy == "" && !a.Duplicate && a.HiredBy == "" &&
			(strings.EqualFold(a.Chart, chartOrTrait) || a.Has(chartOrTrait)) && (at == "" || a.Location == at) {
			return true
		}
	}
	return false
}

// annexDelay returns the first round the faction may attempt to Annex h.
func (h *Habitat) annexDelay(faction string) int {
	for _, d := range h.Delays {
		if d.Faction == faction {
			return d.Round
		}
	}
	return 0
}

func (h *Habitat) setDelay(faction string, round int) {
	for i := range h.Delays {
		if h.Delays[i].Faction == faction {
			h.Delays[i].Round = max(h.Delays[i].Round, round)
			return
		}
	}
	h.Delays = append(h.Delays, AnnexDelay{Faction: faction, Round: round})
}

// defenders lists the assets that keep a Suppressed habitat from being
// Annexed: "if no enemy Assets are present that can fight back (including
// Covert Assets)".
func (c *Campaign) defenders(h *Habitat, annexer *Faction) []string {
	var out []string
	for _, g := range c.Factions {
		if g == annexer || !c.Allied(g.Name, h.Owner) {
			continue
		}
		for _, a := range g.Assets {
			if a.Location == h.Name && a.Transit == nil && a.Health > 0 && a.CapturedBy == "" && a.HiredBy != annexer.Name {
				out = append(out, a.Label())
			}
		}
	}
	return out
}

// annex: "The Asset may then attempt to claim the territory for its own
// faction by expending [Full Habitat Health] AP. If the roll fails, the
// Faction may re-attempt the Annexation in [MoF] Rounds. If the roll
// succeeds, the former Faction immediately loses the Habitat's Health Stat
// bonuses. The new Faction pays [Full Habitat Health] POP and gains the
// Habitat". "Annex may be interrupted by a Rally action".
func (x *act) annex() error {
	h, err := x.habitatParam("habitat", "")
	if err != nil {
		return err
	}
	if h.Owner == "" || x.c.Allied(h.Owner, x.f.Name) {
		return x.errf(ErrNotAvailable, "%s is not an enemy Habitat", h.Name)
	}
	def := x.c.Faction(h.Owner)
	if !h.Suppressed {
		return x.errf(ErrNotAvailable, "%s is not Suppressed (health %d of %d): \"the Habitat's Health has been brought to 0\" first", h.Name, h.Health, h.MaxHealth)
	}
	if d := x.c.defenders(h, x.f); len(d) > 0 {
		return x.errf(ErrNotAvailable, "%s still has Assets that can fight back (\"including Covert Assets\"): %s", h.Name, strings.Join(d, ", "))
	}
	a, own, err := x.assetParam("annexer")
	if err != nil {
		return err
	}
	if !controls(x.f, own, a, "annex") {
		return x.errf(ErrUnknownAsset, "%s is not %s's", a.Label(), x.f.Name)
	}
	if a.Location != h.Name || a.Transit != nil || a.Health <= 0 || a.CapturedBy != "" || a.Duplicate {
		return x.errf(ErrNotAvailable, "%s must stand in %s to claim it", a.Label(), h.Name)
	}
	if r := h.annexDelay(x.f.Name); r > x.c.Round {
		return x.errf(ErrNotAvailable, "%s may re-attempt the Annexation of %s in round %d", x.f.Name, h.Name, r)
	}
	cost := h.MaxHealth
	if err := x.checkAP(cost, POP); err != nil {
		return err
	}
	payNow, err := x.yes("pay_pop", true)
	if err != nil {
		return err
	}
	explicitNow := x.param("pay_pop") != ""
	popAfterAP := x.f.Stats.POP
	if m, _ := x.payMode(); m != PayAP {
		popAfterAP -= max(cost-x.f.AP, 0)
		if m == PayStat {
			popAfterAP = x.f.Stats.POP - cost
		}
	}
	if payNow && popAfterAP < h.MaxHealth {
		if explicitNow {
			return x.errf(ErrNotEnoughStat, "Annexation costs %d POP and %s would have %d (pay_pop:later delays the payment)", h.MaxHealth, x.f.Name, popAfterAP)
		}
		payNow = false
	}
	rebuild, err := x.yes("rebuild", true)
	if err != nil {
		return err
	}
	// "Annex may be interrupted by a Rally action": the owner Rallies with
	// its Faction Action for the round, if it still has it.
	if def != nil && !def.declines("rally") {
		free := def.Turn.Round != x.c.Round || def.Turn.FactionAction == ""
		rc := x.c.rallyCost(h)
		if free && def.Rallied != x.c.Round && def.AP >= rc {
			o, err := x.c.rallyAgainst(def, h, a, own, x.r, true)
			if err != nil {
				return err
			}
			x.out.Triggered = append(x.out.Triggered, o)
			if o.Success {
				x.out.Success = false
				x.note("the Annexation of %s is interrupted by a Rally: %s may attempt it in round %d", h.Name, x.f.Name, h.annexDelay(x.f.Name))
				return nil
			}
		}
	}
	x.payAP(cost, POP)
	t, err := x.opposed(RollOpposedFaction, "Annex "+h.Name, x.c.assetSide(own, a, a.Type, 0, false), x.c.annexDefence(def))
	if err != nil {
		return err
	}
	if !t.Success {
		x.out.Success = false
		r := x.c.Round + max(t.MoF(), 1)
		h.setDelay(x.f.Name, r)
		x.change(h.Name, "Annexation by "+x.f.Name+" may be re-attempted in round", "", r)
		return nil
	}
	x.annexed(h, def, payNow, rebuild)
	return nil
}

// annexDefence is the defender's side of an Annexation: "Opposed Faction
// (POP or COH)" (config annex_defence).
func (c *Campaign) annexDefence(def *Faction) Side {
	if def == nil {
		return Side{Name: "no one"}
	}
	pop := Part{Name: "POP", Value: def.Stats.POP}
	coh := Part{Name: "COH", Value: c.Attribute(def, COH)}
	switch c.Config.AnnexDefence {
	case "POP":
		return Side{Name: def.Name, Parts: []Part{pop}}
	case "COH":
		return Side{Name: def.Name, Parts: []Part{coh}}
	}
	if pop.Value > coh.Value {
		return Side{Name: def.Name, Parts: []Part{pop}}
	}
	return Side{Name: def.Name, Parts: []Part{coh}}
}

// annexed hands the habitat over.
func (x *act) annexed(h *Habitat, def *Faction, payNow, rebuild bool) {
	if def != nil && h.BonusActive {
		for _, s := range AllStats {
			if b := h.Bonus.Get(s); b > 0 {
				from := def.Stats.Get(s)
				def.Stats.Set(s, max(from-b, 0))
				x.change(def.Name, string(s)+" (loses "+h.Name+"'s bonus)", from, max(from-b, 0))
			}
		}
	}
	x.change(h.Name, "owner", h.Owner, x.f.Name)
	h.Owner, h.BonusActive, h.Suppressed, h.Delays = x.f.Name, false, false, nil
	if payNow {
		x.payStat(x.f, POP, h.MaxHealth, "Annexation: [Full Habitat Health] POP")
	} else {
		d := Debt{ID: x.c.newProjectID(x.f), Kind: "annex", Habitat: h.Name, Stat: POP, Amount: h.MaxHealth,
			Note: fmt.Sprintf("the Annexation of %s: %d POP", h.Name, h.MaxHealth)}
		x.f.Debts = append(x.f.Debts, d)
		x.change(x.f.Name, "debt", "", d.Note)
	}
	// Facilities left at Level 0 pass with the habitat ("If a Faction
	// Annexes a Facility").
	for _, g := range x.c.Factions {
		if g == x.f {
			continue
		}
		for _, a := range slices.Clone(g.Assets) {
			if a.Location == h.Name && a.Category == Facility && a.Health <= 0 && a.CapturedBy == "" {
				x.transfer(g, x.f, a)
				x.change(a.Label(), "annexed by", g.Name, x.f.Name)
				x.markDuplicate(x.f, a)
			}
		}
	}
	// "Immediately after Annexation, the new Faction may also "Produce"
	// destroyed Facilities, which appear at Level 0."
	if rebuild {
		for _, r := range h.Ruins {
			d, ok := x.c.Config.AssetDef(r.Chart)
			if !ok {
				continue
			}
			a := x.c.newAsset(d, 0)
			a.Location = h.Name
			x.f.Assets = append(x.f.Assets, a)
			x.change(x.f.Name, "rebuilt at Level 0", "", a.Label()+" at "+h.Name)
			x.markDuplicate(x.f, a)
		}
		h.Ruins = nil
	}
}

// transfer moves an asset from one faction's sheet to another's.
func (x *act) transfer(from, to *Faction, a *Asset) {
	from.Assets = slices.DeleteFunc(from.Assets, func(b *Asset) bool { return b == a })
	to.Assets = append(to.Assets, a)
}

// markDuplicate: "If a Faction Annexes a Facility or Turns an Agent of a
// type that it already has, the second Agent is unusable until it is
// converted another type (except for Moguls and Double Agents)." A type is
// an asset chart entry.
func (x *act) markDuplicate(f *Faction, a *Asset) {
	if a.Has(TraitMogul) || a.DoubleFor != "" {
		return
	}
	for _, b := range f.Assets {
		if b != a && !b.Duplicate && strings.EqualFold(b.Chart, a.Chart) {
			a.Duplicate = true
			x.change(a.Label(), "duplicate", "", "must be Converted (convert-duplicate)")
			return
		}
	}
}

// rallyCost is Rally's "[Habitat Health] AP" (config rally_cost).
func (c *Campaign) rallyCost(h *Habitat) int {
	if c.Config.RallyCost == "full" {
		return h.MaxHealth
	}
	return h.Health
}

// rallySide is the citizenry's side of a Rally, "Opposed Faction (STR)",
// with the Stats memes add: "is added to Rally rolls".
func (c *Campaign) rallySide(f *Faction) Side {
	s := c.factionSide(f, STR)
	for _, m := range c.ActiveMemes(f) {
		if m.RallyStat != "" {
			s.Parts = append(s.Parts, Part{Name: string(m.RallyStat) + " (" + m.Name + ")", Value: f.Stats.Get(m.RallyStat)})
		}
	}
	return s
}

// rally: "The citizenry of a Suppressed Habitat may attempt to fight off an
// invading enemy Asset. A success delays the invader's Annexation Roll by 1
// Round."
func (x *act) rally() error {
	h, err := x.habitatParam("habitat", "")
	if err != nil {
		return err
	}
	if h.Owner != x.f.Name || !h.Suppressed {
		return x.errf(ErrNotAvailable, "Rally needs a Suppressed Habitat of %s's: %s is not one", x.f.Name, h.Name)
	}
	tgt, tf, err := x.assetParam("target")
	if err != nil {
		return err
	}
	if x.c.Allied(tf.Name, x.f.Name) || tgt.Location != h.Name || tgt.Transit != nil || tgt.Health <= 0 || tgt.CapturedBy != "" {
		return x.errf(ErrNotAvailable, "%s is not an enemy Asset invading %s", tgt.Label(), h.Name)
	}
	cost := x.c.rallyCost(h)
	if err := x.checkAP(cost, POP); err != nil {
		return err
	}
	x.payAP(cost, POP)
	o, err := x.c.rallyAgainst(x.f, h, tgt, tf, x.r, false)
	if err != nil {
		return err
	}
	x.out.Tests = append(x.out.Tests, o.Tests...)
	x.out.Changes = append(x.out.Changes, o.Changes...)
	x.out.Success = o.Success
	return nil
}

// rallyAgainst rolls a Rally; interrupt: it answers an Annexation outside
// the rallying faction's turn, paying its AP and using its Faction Action.
func (c *Campaign) rallyAgainst(f *Faction, h *Habitat, tgt *Asset, tf *Faction, r dice.Roller, interrupt bool) (Outcome, error) {
	x := c.sysAct(f, r, lookup("rally"))
	if interrupt {
		cost := c.rallyCost(h)
		f.AP -= cost
		x.cost(f, "AP", cost, "Rally against the Annexation")
		f.Rallied = c.Round
		if f.Turn.Round == c.Round {
			f.Turn.FactionAction = "rally"
		}
	}
	t, err := x.opposed(RollOpposedFaction, "Rally in "+h.Name, c.rallySide(f), c.assetSide(tf, tgt, tgt.Type, 0, true))
	if err != nil {
		return *x.out, err
	}
	x.out.Success = t.Success
	if t.Success {
		r := max(h.annexDelay(tf.Name), c.Round) + 1
		h.setDelay(tf.Name, r)
		x.change(h.Name, "Annexation by "+tf.Name+" delayed to round", "", r)
	}
	x.out.Text = x.summary()
	return *x.out, nil
}

// produceAsset: "The Faction may produce any facility or any Level 1
// Asset. It may also Produce any Asset for which it has the appropriate
// Facility. Units and Agents take [Level*2] turns to construct; Facilities
// and Vehicles take [(Level+1)^2] turns to construct. Production immediately
// incurs [Level] Stat damage of the related type."
func (x *act) produceAsset() error {
	d, err := x.chartParam("chart")
	if err != nil {
		return err
	}
	h, err := x.habitatParam("at", x.c.home(x.f))
	if err != nil {
		return err
	}
	if h.Owner != x.f.Name {
		return x.errf(ErrNotAvailable, "%s produces in its own territory: %s is not %s's", x.f.Name, h.Name, x.f.Name)
	}
	if d.Category == Vehicle && !x.f.standing(TraitShipyard, h.Name) {
		return x.errf(ErrNotAvailable, "\"Vehicle production must take place at a Shipyard\": %s has none standing at %s", x.f.Name, h.Name)
	}
	if d.Requires != "" && !x.f.standing(d.Requires, "") {
		return x.errf(ErrNotAvailable, "%s needs %s (\"for which it has the appropriate Facility\")", d.Name, words.A(d.Requires))
	}
	if d.Category != Facility && d.Level > 1 && d.Requires == "" {
		return x.errf(ErrNotAvailable, "%s is neither a facility nor a Level 1 Asset, and the chart names no Facility for it", d.Name)
	}
	stat := d.Type.Stat()
	if err := x.checkStat(x.f, stat, d.Level, "Producing "+d.Name); err != nil {
		return err
	}
	if x.c.Config.GMApprovesProduction {
		switch strings.ToLower(x.param("gm_produce")) {
		case "":
			why := "\"Asset production per GM's discretion.\""
			switch d.Category {
			case Facility:
				why = "\"Facility production is contingent on local resources as judged by the GM.\""
			case Unit:
				why = "\"Unit production per GM's discretion.\""
			}
			x.ask(Question{Param: "gm_produce", Ask: "gm", Options: []string{"approve", "deny"},
				Text: fmt.Sprintf("May %s produce %s (Level %d %s %s) at %s? %s", x.f.Name, words.A(d.Name), d.Level, d.Type, d.Category, h.Name, why)})
			return nil
		case "approve", "yes":
		case "deny", "no":
			return x.errf(ErrDenied, "the GM does not allow %s to produce %s at %s", x.f.Name, words.A(d.Name), h.Name)
		default:
			return x.errf(ErrBadParam, "gm_produce:%s: use approve or deny", x.param("gm_produce"))
		}
	}
	x.payStat(x.f, stat, d.Level, "Production immediately incurs [Level] Stat damage of the related type")
	x.queue(Effect{Kind: EffectProduce, Due: x.c.Round + ProductionRounds(d.Category, d.Level), Chart: d.Name, Habitat: h.Name,
		Note: fmt.Sprintf("%s ready at %s", d.Name, h.Name)})
	return nil
}

// ProductionRounds: "Units and Agents take [Level*2] turns to construct;
// Facilities and Vehicles take [(Level+1)^2] turns to construct."
func ProductionRounds(cat Category, level int) int {
	if cat == Unit || cat == Agent {
		return level * 2
	}
	return (level + 1) * (level + 1)
}

// consent asks the other faction (its player, or the GM for an NPC).
func (x *act) consent(other *Faction, text string) (bool, error) {
	switch strings.ToLower(x.param("consent")) {
	case "":
		who := "gm"
		if other.Owner != "" {
			who = other.Name
		}
		x.ask(Question{Param: "consent", Ask: who, Options: []string{"agree", "refuse"}, Text: text})
		return false, nil
	case "agree", "yes":
		return true, nil
	case "refuse", "no":
		return false, x.errf(ErrDenied, "%s refuses", other.Name)
	}
	return false, x.errf(ErrBadParam, "consent:%s: use agree or refuse", x.param("consent"))
}

// purchase: "Alternatively, mobile Assets may be purchased from neutral or
// friendly Factions." It takes the Faction Action Produce Asset would.
func (x *act) purchase() error {
	seller, err := x.factionParam("faction")
	if err != nil {
		return err
	}
	if x.c.relation(x.f.Name, seller.Name) == Hostile {
		return x.errf(ErrNotAvailable, "mobile Assets are purchased \"from neutral or friendly Factions\": %s is hostile", seller.Name)
	}
	tgt, own, err := x.assetParam("target")
	if err != nil {
		return err
	}
	if own != seller || !tgt.Category.Mobile() || tgt.HiredBy != "" || tgt.CapturedBy != "" || tgt.Transit != nil {
		return x.errf(ErrNotAvailable, "%s is not a mobile Asset %s can sell now", tgt.Label(), seller.Name)
	}
	price, err := x.intParam("price", 0, 0, 1000)
	if err != nil {
		return err
	}
	stat := INF
	if s := x.param("stat"); s != "" {
		if stat, err = ParseStat(s); err != nil {
			return err
		}
	}
	if err := x.checkStat(x.f, stat, price, "the price"); err != nil {
		return err
	}
	ok, err := x.consent(seller, fmt.Sprintf("Will %s sell %s to %s for %d %s?", seller.Name, tgt.Label(), x.f.Name, price, stat))
	if !ok || err != nil {
		return err
	}
	x.payStat(x.f, stat, price, "paid to "+seller.Name)
	x.healStat(seller, stat, price, "sale")
	x.transfer(seller, x.f, tgt)
	if tgt.DoubleFor == x.f.Name {
		tgt.DoubleFor = ""
	}
	x.change(tgt.Label(), "owner", seller.Name, x.f.Name)
	return nil
}

// hireMercenaries: "Hire Mercenaries from another Faction. If the
// Mercenary already exists, it may be loaned to the hiring Faction
// immediately ... If the Unit doesn't exist yet, it may be produced in the
// owning Faction's turn and act on the hiring Faction's next turn." Cost "2
// INF + 1 INF per Round thereafter (paid to owning Faction)".
func (x *act) hireMercenaries() error {
	owner, err := x.factionParam("faction")
	if err != nil {
		return err
	}
	var tgt *Asset
	var d AssetDef
	if x.param("target") != "" {
		var own *Faction
		if tgt, own, err = x.assetParam("target"); err != nil {
			return err
		}
		if own != owner || !tgt.Category.Mobile() || tgt.HiredBy != "" || tgt.CapturedBy != "" || tgt.Duplicate || tgt.Health <= 0 {
			return x.errf(ErrNotAvailable, "%s is not a mobile Asset of %s's free to hire", tgt.Label(), owner.Name)
		}
	} else {
		if d, err = x.chartParam("chart"); err != nil {
			return err
		}
		if !d.Category.Mobile() {
			return x.errf(ErrNotAvailable, "Mercenaries are mobile Assets: %s is %s", d.Name, words.A(d.Category))
		}
		if d.Requires != "" && !owner.standing(d.Requires, "") {
			return x.errf(ErrNotAvailable, "%s cannot produce %s: it needs %s", owner.Name, words.A(d.Name), words.A(d.Requires))
		}
	}
	if err := x.checkStat(x.f, INF, 2, "Hiring Mercenaries"); err != nil {
		return err
	}
	what := d.Name + " (bespoke)"
	if tgt != nil {
		what = tgt.Label()
	}
	ok, err := x.consent(owner, fmt.Sprintf("Will %s hire out %s to %s for 2 INF and 1 INF a round?", owner.Name, what, x.f.Name))
	if !ok || err != nil {
		return err
	}
	x.payStat(x.f, INF, 2, "paid to "+owner.Name)
	x.healStat(owner, INF, 2, "mercenary hire")
	if tgt != nil {
		tgt.HiredBy, tgt.HiredRound = x.f.Name, x.c.Round
		x.change(tgt.Label(), "hired by", "", x.f.Name)
		return nil
	}
	due := x.c.Round
	if owner.Turn.Round == x.c.Round {
		due++ // the owner's turn this round has begun: its next one
	}
	x.queue(Effect{Faction: owner.Name, Kind: EffectMercenary, Due: due, Chart: d.Name, Other: x.f.Name,
		Note: fmt.Sprintf("a bespoke %s made for %s", d.Name, x.f.Name)})
	return nil
}

// release: "pre-existing Mercenaries then return to the owning Faction,
// and bespoke Mercenaries disappear."
func (x *act) release(own *Faction, a *Asset) {
	if a.Bespoke {
		own.removeAsset(a)
		x.change(a.Label(), "bespoke mercenary", "", "disappears")
		return
	}
	x.change(a.Label(), "returns to", a.HiredBy, own.Name)
	a.HiredBy, a.HiredRound = "", 0
}

func (x *act) releaseMercenary() error {
	tgt, own, err := x.assetParam("target")
	if err != nil {
		return err
	}
	if tgt.HiredBy != x.f.Name {
		return x.errf(ErrNotAvailable, "%s is not a Mercenary hired by %s", tgt.Label(), x.f.Name)
	}
	x.release(own, tgt)
	return nil
}

// RepurposeRounds is how long a Repurpose takes (config repurpose_time).
func RepurposeRounds(mode string, newLevel int, sameType bool) int {
	if mode == "header" {
		if sameType {
			return newLevel + 2
		}
		return (newLevel + 1) * 2
	}
	if sameType {
		return newLevel
	}
	return newLevel + 2
}

// RepurposeCost: "If converting to the same type (RES/INT/COH/STR), spend
// [new Level] Related Stat points ... If converting to a different type,
// spend [(new Level)*2] Related Stat points".
func RepurposeCost(newLevel int, sameType bool) int {
	if sameType {
		return newLevel
	}
	return newLevel * 2
}

// repurpose: "Convert an Asset to another Asset of the same Category". The
// Related Stat is the new type's.
func (x *act) repurpose() error {
	tgt, own, err := x.assetParam("target")
	if err != nil {
		return err
	}
	if own != x.f || tgt.HiredBy != "" {
		return x.errf(ErrUnknownAsset, "%s is not %s's to repurpose", tgt.Label(), x.f.Name)
	}
	if tgt.Duplicate {
		return x.errf(ErrNotAvailable, "%s is a duplicate: use convert-duplicate", tgt.Label())
	}
	return x.convert(tgt, "Repurpose", x.c.Config.RepurposeTime, true)
}

// convert repurposes tgt into the chart entry in the chart parameter.
func (x *act) convert(tgt *Asset, why, timeMode string, check bool) error {
	d, err := x.chartParam("chart")
	if err != nil {
		return err
	}
	if check {
		switch {
		case d.Category != tgt.Category:
			return x.errf(ErrNotAvailable, "%s converts only to another %s; %s is %s", tgt.Label(), tgt.Category, d.Name, words.A(d.Category))
		case strings.EqualFold(d.Name, tgt.Chart):
			return x.errf(ErrNotAvailable, "%s is %s already", tgt.Label(), words.A(d.Name))
		case tgt.CapturedBy != "" || tgt.Transit != nil || tgt.BusyUntil > x.c.Round:
			return x.errf(ErrNotAvailable, "%s cannot be converted now", tgt.Label())
		}
	}
	same := d.Type == tgt.Type
	cost := RepurposeCost(d.Level, same)
	if err := x.checkStat(x.f, d.Type.Stat(), cost, why); err != nil {
		return err
	}
	x.payStat(x.f, d.Type.Stat(), cost, why+": [new Level] Related Stat, x2 for another type")
	rounds := RepurposeRounds(timeMode, d.Level, same)
	if timeMode == "convert" {
		rounds = d.Level // "Conversion takes [new Level] Rounds."
	}
	tgt.BusyUntil = x.c.Round + rounds
	x.queue(Effect{Kind: EffectRepurpose, Due: x.c.Round + rounds, Target: tgt.ID, Chart: d.Name,
		Note: fmt.Sprintf("%s becomes %s", tgt.Label(), words.A(d.Name))})
	return nil
}

// mandate: "A Faction meme is added or replaced. The attempt immediately
// does [10-(MoS)]/2 SOL damage. If the 3 Rolls in a row succeed, earn the
// Meme and pay an additional [10-(MoS)]/2 INF points (minimum 1). A new
// Meme provides no benefits for [10-(MoS)] Rounds. At no point may a
// Faction have more than 3 Memes. If one of the rolls fail, a Mandate may
// not be re-attempted for [(MoF)*2] Rounds."
func (x *act) mandate() error {
	f, c := x.f, x.c
	if f.MandateLockedUntil > c.Round {
		return x.errf(ErrNotAvailable, "a Mandate may not be re-attempted before round %d", f.MandateLockedUntil)
	}
	name := x.param("meme")
	m := f.Mandate
	if m != nil && m.LastRound != c.Round-1 {
		x.note("the Mandate for %s lapsed (its rolls must be 3 Turns in a row): it starts again", m.Meme)
		if name == "" {
			name = m.Meme
			if x.param("replace") == "" && m.Replace != "" {
				x.o = x.o.With("replace", m.Replace)
			}
		}
		m = nil
	}
	if m != nil && name != "" && !strings.EqualFold(name, m.Meme) {
		return x.errf(ErrNotAvailable, "a Mandate for %s is under way (%d of 3 rolls)", m.Meme, m.Successes)
	}
	if m == nil {
		if name == "" {
			return x.errf(ErrBadParam, "Mandate needs meme: (the meme to earn)")
		}
		d, ok := c.Config.MemeDef(name)
		if !ok {
			return x.errf(ErrBadParam, "%q is not a meme of this campaign", name)
		}
		if slices.ContainsFunc(f.Memes, func(h Meme) bool { return strings.EqualFold(h.Name, d.Name) }) {
			return x.errf(ErrNotAvailable, "%s holds %s already", f.Name, d.Name)
		}
		m = &Mandate{Meme: d.Name}
		if r := x.param("replace"); r != "" {
			i := slices.IndexFunc(f.Memes, func(h Meme) bool { return strings.EqualFold(h.Name, r) })
			if i < 0 {
				return x.errf(ErrBadParam, "%s holds no meme %q to replace", f.Name, r)
			}
			m.Replace = f.Memes[i].Name
		} else if len(f.Memes) >= MaxMemes {
			return x.errf(ErrNotAvailable, "\"At no point may a Faction have more than 3 Memes\": name one to replace (replace:)")
		}
	} else {
		m = &Mandate{Meme: m.Meme, Replace: m.Replace, Successes: m.Successes, LastRound: m.LastRound, MoS: slices.Clone(m.MoS)}
	}
	t, err := x.straight(RollStraightFaction, fmt.Sprintf("Mandate for %s (roll %d of 3)", m.Meme, m.Successes+1), c.factionSide(f, COH))
	if err != nil {
		return err
	}
	mos := t.MoS()
	x.damageStat(f, SOL, Half(10-mos), "the Mandate attempt: [10-(MoS)]/2 SOL")
	if !t.Success {
		x.out.Success = false
		f.Mandate = nil
		f.MandateLockedUntil = c.Round + t.MoF()*2 + 1
		x.change(f.Name, "Mandate", m.Meme, fmt.Sprintf("failed: not before round %d", f.MandateLockedUntil))
		return nil
	}
	m.Successes++
	m.LastRound = c.Round
	m.MoS = append(m.MoS, mos)
	if m.Successes < 3 {
		f.Mandate = m
		x.change(f.Name, "Mandate for "+m.Meme, m.Successes-1, m.Successes)
		return nil
	}
	f.Mandate = nil
	if c.Config.MandateMoS == "lowest" {
		mos = slices.Min(m.MoS)
	}
	inf := max(Half(10-mos), 1)
	if got := x.damageStat(f, INF, inf, "the Mandate earned: [10-(MoS)]/2 INF (minimum 1)"); got < inf {
		x.note("%s could pay only %d of %d INF", f.Name, got, inf)
	}
	if m.Replace != "" {
		f.Memes = slices.DeleteFunc(f.Memes, func(h Meme) bool { return h.Name == m.Replace })
		x.change(f.Name, "meme replaced", m.Replace, m.Meme)
	}
	delay := 10 - mos
	meme := Meme{Name: m.Meme, ActiveFrom: c.Round + delay, Active: delay <= 0}
	f.Memes = append(f.Memes, meme)
	x.change(f.Name, "meme earned", "", m.Meme)
	if delay > 0 {
		x.queue(Effect{Kind: EffectMeme, Due: c.Round + delay, Name: m.Meme,
			Note: fmt.Sprintf("the meme %s starts working", m.Meme)})
	}
	return nil
}

// diplomacy: "Form and break agreements and alliances with other
// factions." The Faction Action takes "1 Round"; the asset's is "Instant".
// An alliance or agreement forms when both sides have proposed it;
// hostility and breaking need one side only.
func (x *act) diplomacy() error {
	other, err := x.factionParam("faction")
	if err != nil {
		return err
	}
	op := strings.ToLower(x.param("op"))
	if op == "" {
		op = "form"
	}
	kind := strings.ToLower(x.param("kind"))
	if kind == "" {
		kind = Alliance
	}
	if op != "form" && op != "break" {
		return x.errf(ErrBadParam, "op:%s: use form or break", op)
	}
	if kind != Alliance && kind != Agreement && kind != Hostile {
		return x.errf(ErrBadParam, "kind:%s: use alliance, agreement or hostile", kind)
	}
	cur := x.c.relation(x.f.Name, other.Name)
	if op == "form" && cur == kind {
		return x.errf(ErrNotAvailable, "%s and %s have %s already", x.f.Name, other.Name, words.A(kind))
	}
	if op == "break" && cur == "" {
		return x.errf(ErrNotAvailable, "%s and %s have no agreement to break", x.f.Name, other.Name)
	}
	instant := x.def.Key == "asset-diplomacy"
	if instant {
		cost := x.assetAP(1)
		if err := x.checkAP(cost, x.a.Type.Stat()); err != nil {
			return err
		}
		x.payAP(cost, x.a.Type.Stat())
	}
	apply := func(brk bool) {
		if instant {
			x.setRelation(x.f.Name, other.Name, kind, brk)
			return
		}
		note := fmt.Sprintf("%s forms %s with %s", x.f.Name, words.A(kind), other.Name)
		if brk {
			note = fmt.Sprintf("%s breaks its %s with %s", x.f.Name, cur, other.Name)
		}
		x.queue(Effect{Kind: EffectRelation, Due: x.c.Round + 1, Other: other.Name, Name: kind, Flag: brk, Note: note})
	}
	if op == "break" {
		x.c.Proposals = slices.DeleteFunc(x.c.Proposals, func(p Proposal) bool {
			return (p.From == x.f.Name && p.To == other.Name) || (p.From == other.Name && p.To == x.f.Name)
		})
		apply(true)
		return nil
	}
	if kind == Hostile {
		apply(false)
		return nil
	}
	i := slices.IndexFunc(x.c.Proposals, func(p Proposal) bool { return p.From == other.Name && p.To == x.f.Name && p.Kind == kind })
	if i < 0 {
		x.c.Proposals = slices.DeleteFunc(x.c.Proposals, func(p Proposal) bool { return p.From == x.f.Name && p.To == other.Name })
		x.c.Proposals = append(x.c.Proposals, Proposal{From: x.f.Name, To: other.Name, Kind: kind, Round: x.c.Round})
		x.change(x.f.Name, "proposes", "", fmt.Sprintf("%s to %s (it forms when %s proposes it too)", words.A(kind), other.Name, other.Name))
		return nil
	}
	x.c.Proposals = slices.Delete(x.c.Proposals, i, i+1)
	apply(false)
	return nil
}

func (x *act) setRelation(a, b, kind string, brk bool) {
	p, q := pair(a, b)
	old := x.c.relation(p, q)
	x.c.Relations = slices.DeleteFunc(x.c.Relations, func(r Relation) bool { return r.A == p && r.B == q })
	if brk {
		x.change(p+" & "+q, "relation", old, "none")
		return
	}
	x.c.Relations = append(x.c.Relations, Relation{A: p, B: q, Kind: kind, Since: x.c.Round})
	x.change(p+" & "+q, "relation", old, kind)
}
