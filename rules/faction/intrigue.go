package faction

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/tablehand/tablehand/rules/dice"
	"github.com/tablehand/tablehand/rules/words"
)

// capture: "Arrest or kidnap an Agent Asset revealed by Investigation ...
// If the roll fails, the target Asset may make one attempt to Escape
// immediately." An Agent that is not Covert counts as revealed. "Double
// Agent status can be lost if the asset is Captured by its original Faction
// while acting in an enemy's Turn."
func (x *act) capture() error {
	tgt, tf, err := x.assetParam("target")
	if err != nil {
		return err
	}
	double := tf == x.f && tgt.DoubleFor != "" && tgt.DoubleActed == x.c.Round
	if !double {
		switch {
		case x.c.Allied(tf.Name, x.f.Name):
			return x.errf(ErrNotAvailable, "%s is not an enemy Agent", tgt.Label())
		case tgt.Category != Agent:
			return x.errf(ErrNotAvailable, "Capture takes Agents: %s is %s", tgt.Label(), words.A(tgt.Category))
		case x.c.Covert(tf, tgt):
			return x.errf(ErrNotAvailable, "%s is Covert: Investigate to reveal it first", tgt.Label())
		}
	}
	if tgt.CapturedBy != "" {
		return x.errf(ErrNotAvailable, "%s is held captive already", tgt.Label())
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
	t, err := x.opposed(RollOpposedAsset, "Capture "+tgt.Label(), x.c.assetSide(x.f, x.a, x.attr(), 0, true), x.c.assetSide(tf, tgt, tgt.Type, ignore, true))
	if err != nil {
		return err
	}
	x.out.Success = t.Success
	switch {
	case t.Success && double:
		x.change(tgt.Label(), "Double Agent for", tgt.DoubleFor, "none")
		tgt.DoubleFor = ""
	case t.Success:
		tgt.CapturedBy, tgt.Covert, tgt.Revealed, tgt.Aboard = x.f.Name, false, true, 0
		x.change(tgt.Label(), "captured by", "", x.f.Name)
	case !double:
		o, err := x.c.escape(tf, tgt, x.c.assetSide(x.f, x.a, INT, 0, true), RollOpposedAsset, "the Capture failed", x.r)
		if err != nil {
			return err
		}
		if o != nil {
			x.out.Triggered = append(x.out.Triggered, *o)
		}
	}
	if covert && x.remote == nil && !double {
		return x.freeInvestigate(tf, tgt.Location)
	}
	return nil
}

// investigate: "1) Cancel an enemy's Local or Remote Plan. 2) Reveal a
// local Covert Asset. Triggers an Escape attempt." A captive "Can
// subsequently be Investigated again, once, to reveal any one other Covert
// Asset of its own Faction"; a Double Agent "Can be Investigated to reveal
// remote Covert Assets, repeatedly." When several Covert Assets could be
// found, the GM says which.
func (x *act) investigate() error {
	cost := x.assetAP(x.a.Level)
	stat := x.a.Type.Stat()
	if x.param("effect") != "" {
		return x.cancelPlan(cost, stat)
	}
	via, scope, err := x.investigateVia()
	if err != nil {
		return err
	}
	candidates, owners := x.covertCandidates(via, scope)
	tgt, tf, asked, err := x.investigateTarget(candidates, owners, scope)
	if err != nil {
		return err
	}
	if asked {
		return nil
	}
	if err := x.checkAP(cost, stat); err != nil {
		return err
	}
	ignore := 0
	if x.remote != nil {
		ignore = x.remote.Ignore
	}
	x.payAP(cost, stat)
	x.useRemote()
	if via != nil && via.CapturedBy == x.f.Name {
		via.Interrogated = true
	}
	if tgt == nil {
		x.out.Success = false
		x.note("%s finds no Covert Asset", x.a.Label())
		return nil
	}
	// The roll does not name the Covert Asset: a failed Investigation
	// leaves it Covert, unknown to the investigator's table.
	t, err := x.opposed(RollOpposedAsset, "Investigate a Covert Asset", x.c.assetSide(x.f, x.a, INT, 0, true), x.c.assetSide(tf, tgt, INT, ignore, true))
	if err != nil {
		return err
	}
	x.out.Success = t.Success
	if t.Success {
		return x.reveal(tf, tgt, x.c.assetSide(x.f, x.a, INT, 0, true))
	}
	return nil
}

// investigateVia is the asset (via:) Investigated to reveal others, if
// any: a captive, which "Can subsequently be Investigated again, once, to
// reveal any one other Covert Asset of its own Faction", or a Double Agent,
// which "Can be Investigated to reveal remote Covert Assets, repeatedly".
// scope is the faction whose assets it reveals, anywhere.
func (x *act) investigateVia() (via *Asset, scope *Faction, err error) {
	if x.param("via") == "" {
		return nil, nil, nil
	}
	v, vf, err := x.assetParam("via")
	if err != nil {
		return nil, nil, err
	}
	switch {
	case v.CapturedBy == x.f.Name:
		if v.Interrogated {
			return nil, nil, x.errf(ErrNotAvailable, "%s has been Investigated once already", v.Label())
		}
	case v.DoubleFor == x.f.Name && vf != x.f:
	default:
		return nil, nil, x.errf(ErrNotAvailable, "%s is neither a captive nor a Double Agent of %s's", v.Label(), x.f.Name)
	}
	return v, vf, nil
}

// covertCandidates are the Covert Assets the Investigation could reveal,
// with their owners: an enemy's "local Covert Asset", or with via any of
// scope's.
func (x *act) covertCandidates(via *Asset, scope *Faction) ([]*Asset, []*Faction) {
	inLoco := via == nil
	var candidates []*Asset
	var owners []*Faction
	for _, g := range x.c.Factions {
		if (scope != nil && g != scope) || (scope == nil && x.c.Allied(g.Name, x.f.Name)) {
			continue
		}
		for _, a := range g.Assets {
			if a == via || a.Transit != nil || a.CapturedBy != "" || !x.c.Covert(g, a) || (inLoco && a.Location != x.a.Location) {
				continue
			}
			candidates = append(candidates, a)
			owners = append(owners, g)
		}
	}
	return candidates, owners
}

// investigateTarget is the Covert Asset to reveal: the GM's answer
// (gm_target:, one of the candidates), or target: when named (one the
// acting faction knows of, as assetParam finds it), else the only
// candidate, or none. Among several the GM says which: it asks, with
// gm_target, and asked is true.
func (x *act) investigateTarget(candidates []*Asset, owners []*Faction, scope *Faction) (tgt *Asset, tf *Faction, asked bool, err error) {
	if s := x.param("gm_target"); s != "" {
		id, err := x.assetID("gm_target")
		if err != nil {
			return nil, nil, false, err
		}
		if i := slices.IndexFunc(candidates, func(a *Asset) bool { return a.ID == id }); i >= 0 {
			return candidates[i], owners[i], false, nil
		}
		return nil, nil, false, x.errf(ErrBadParam, "gm_target:%s is not one of the Covert Assets %s may find", s, x.a.Label())
	}
	if x.param("target") == "" {
		switch len(candidates) {
		case 0:
			return nil, nil, false, nil
		case 1:
			return candidates[0], owners[0], false, nil
		}
		q := Question{Param: "gm_target", Ask: "gm", Text: fmt.Sprintf("%s investigates: which Covert Asset does it try to reveal?", x.a.Label()),
			Public: fmt.Sprintf("%s investigates: the GM chooses which Covert Asset it tries to reveal", x.a.Label())}
		var names []string
		for i, a := range candidates {
			q.Options = append(q.Options, strconv.Itoa(a.ID))
			names = append(names, fmt.Sprintf("%d = %s of %s at %s", a.ID, a.Label(), owners[i].Name, a.Location))
		}
		q.Text += " (" + strings.Join(names, "; ") + ")"
		x.ask(q)
		return nil, nil, true, nil
	}
	if tgt, tf, err = x.assetParam("target"); err != nil {
		return nil, nil, false, err
	}
	if !x.c.Covert(tf, tgt) {
		return nil, nil, false, x.errf(ErrNotAvailable, "%s is not Covert", tgt.Label())
	}
	if !slices.Contains(candidates, tgt) {
		if scope != nil || x.c.Allied(tf.Name, x.f.Name) {
			return nil, nil, false, x.errf(ErrNotAvailable, "%s cannot be found that way", tgt.Label())
		}
		if err := x.reach(tgt.Location, tgt.Label()); err != nil {
			return nil, nil, false, err
		}
	}
	return tgt, tf, false, nil
}

// cancelPlan is Investigate's "Cancel an enemy's Local or Remote Plan".
func (x *act) cancelPlan(cost int, stat Stat) error {
	id, err := x.intParam("effect", 0, 1, 1<<30)
	if err != nil {
		return err
	}
	g, err := x.effectOwner()
	if err != nil {
		return err
	}
	e, ok := x.c.findPlan(g, id)
	if !ok || x.c.Allied(g.Name, x.f.Name) {
		return x.errf(ErrNotAvailable, "no enemy Plan with ID %d", id)
	}
	planner, pf := x.c.Asset(e.Target)
	benef, bf := x.c.Asset(e.Asset)
	opp, of := planner, pf
	if opp == nil {
		opp, of = benef, bf
	}
	if opp == nil {
		return x.errf(ErrNotAvailable, "plan %d has no asset left to oppose", id)
	}
	local := (planner != nil && planner.Location == x.a.Location) || (benef != nil && benef.Location == x.a.Location)
	if !local {
		if err := x.reach(opp.Location, fmt.Sprintf("plan %d", id)); err != nil {
			return err
		}
	}
	if err := x.checkAP(cost, stat); err != nil {
		return err
	}
	x.payAP(cost, stat)
	x.useRemote()
	// The roll and the change name the Plan by what it is, not by its
	// number: others read them, and g's numbers count its Covert doings.
	t, err := x.opposed(RollOpposedAsset, "Investigate "+g.Name+"'s Plan", x.c.assetSide(x.f, x.a, INT, 0, true), x.c.assetSide(of, opp, INT, 0, true))
	if err != nil {
		return err
	}
	x.out.Success = t.Success
	if t.Success {
		x.c.cancelEffect(g, id)
		// What the investigator does not see stays unnamed.
		by := "an asset no longer there"
		switch {
		case benef != nil && x.c.SeenBy(x.f, bf, benef):
			by = benef.Label()
		case benef != nil:
			by = "a Covert asset"
		}
		x.change(g.Name, "Plan cancelled", "", fmt.Sprintf("%s by %s", e.Name, by))
	}
	return nil
}

// reveal uncovers a Covert asset; a revealed Agent may Escape.
func (x *act) reveal(own *Faction, a *Asset, by Side) error {
	a.Revealed, a.Covert = true, false
	x.c.numberIfSeen(own, a) // the others read it by its public number
	x.change(a.Label(), "revealed", "", "yes")
	if a.Category != Agent {
		return nil
	}
	o, err := x.c.escape(own, a, by, RollOpposedAsset, "revealed by Investigation", x.r)
	if err != nil {
		return err
	}
	if o != nil {
		x.out.Triggered = append(x.out.Triggered, *o)
	}
	return nil
}

// freeInvestigate: "Every time a Faction suffers an attempted Covert attack
// (whether successful or not), it gets a free Investigate Roll with any
// Local Investigate Assets. This does NOT occur in the case of a successful
// Misdirect against the only Investigate Asset in a Habitat." The best
// local Investigate Asset rolls.
func (x *act) freeInvestigate(victim *Faction, where string) error {
	if victim.declines("investigate") || x.a.destroyed {
		return nil
	}
	var inv *Asset
	misdirected := false
	for _, a := range victim.Assets {
		if a.Location != where || !a.Has(SpecialInvestigate) || a.Health <= 0 || a.CapturedBy != "" || a.Transit != nil || a.Duplicate || a.BusyUntil > x.c.Round {
			continue
		}
		// "This does NOT occur in the case of a successful Misdirect
		// against the only Investigate Asset in a Habitat": one Misdirected
		// in an earlier round (blocked now), or by this very action.
		if a.Blocked == x.c.Round || a == x.misdirected {
			misdirected = true
			continue
		}
		if inv == nil || a.Health > inv.Health {
			inv = a
		}
	}
	if inv == nil {
		if misdirected {
			x.note("no free Investigate: %s's Investigate Asset at %s was Misdirected", victim.Name, where)
		}
		return nil
	}
	y := x.c.sysAct(victim, x.r, lookup("free-investigate"))
	y.a, y.own = inv, victim
	by := x.c.assetSide(victim, inv, INT, 0, true)
	t, err := y.opposed(RollOpposedAsset, "free Investigate of "+x.a.Label(), by, x.c.assetSide(x.own, x.a, INT, 0, true))
	if err != nil {
		return err
	}
	y.out.Success = t.Success
	if t.Success {
		if err := y.reveal(x.own, x.a, by); err != nil {
			return err
		}
	}
	y.out.Text = y.summary()
	x.out.Triggered = append(x.out.Triggered, *y.out)
	return nil
}

// escapeStat is the Stat an Escape damages (config escape_stat).
func (c *Campaign) escapeStat(f *Faction, a *Asset) Stat {
	switch c.Config.EscapeStat {
	case "TEC":
		return TEC
	case "type":
		return a.Type.Stat()
	}
	if t := a.Type.Stat(); f.Stats.Get(t) > f.Stats.TEC {
		return t
	}
	return TEC
}

// captureCapable returns the first faction (in the campaign's order) not
// allied to f with a Capture-capable asset at where.
func (c *Campaign) captureCapable(where string, f *Faction) *Faction {
	for _, g := range c.Factions {
		if c.Allied(g.Name, f.Name) {
			continue
		}
		for _, a := range g.Assets {
			if a.Location == where && a.Has(SpecialCapture) && a.Health > 0 && a.CapturedBy == "" && a.Transit == nil && a.Blocked != c.Round {
				return g
			}
		}
	}
	return nil
}

// escape: "A revealed Covert Asset may escape on standard transportation
// (ship or egocast) on a Opposed INT roll (including Home Turf Advantage),
// otherwise it may only use Subterfuge or Darkcasting. Escaping incurs AP
// expenditure as well as [Level] Stat damage of either TEC or the Agent's
// type. An Agent that fails to Escape hostile territory where there is a
// Capture-capable enemy Asset present is Captured immediately." An Agent
// that escapes goes home (by egocast: at once). A captive that escapes is
// free.
func (c *Campaign) escape(f *Faction, ag *Asset, opp Side, kind RollType, why string, r dice.Roller) (*Outcome, error) {
	if f.declines("escape") || ag.Blocked == c.Round || ag.destroyed || ag.Health <= 0 {
		return nil, nil
	}
	x := c.sysAct(f, r, lookup("escape"))
	x.a, x.own = ag, f
	t, err := x.opposed(kind, "Escape of "+ag.Label()+" ("+why+")", c.assetSide(f, ag, INT, 0, true), opp)
	if err != nil {
		return nil, err
	}
	ap := min(f.AP, ag.Level)
	f.AP -= ap
	x.cost(f, "AP", ap, "Escaping incurs AP expenditure")
	x.damageStat(f, c.escapeStat(f, ag), ag.Level, "Escape: [Level] Stat damage")
	x.out.Success = t.Success
	captive := ag.CapturedBy != ""
	switch {
	case t.Success:
		if captive {
			x.change(ag.Label(), "escapes from", ag.CapturedBy, f.Name)
			ag.CapturedBy = ""
		}
		ag.EscapeFailed = false
		if home := c.home(f); home != "" && home != ag.Location {
			x.change(ag.Label(), "location", ag.Location, home)
			ag.Location, ag.Aboard = home, 0
		}
	case !captive:
		ag.EscapeFailed = true
		x.change(ag.Label(), "failed to escape", "", "may only use Subterfuge or Darkcasting")
		h := c.Habitat(ag.Location)
		if h != nil && h.Owner != "" && !c.Allied(h.Owner, f.Name) {
			if g := c.captureCapable(ag.Location, f); g != nil {
				ag.CapturedBy, ag.Covert, ag.Revealed, ag.Aboard = g.Name, false, true, 0
				x.change(ag.Label(), "captured by", "", g.Name)
			}
		}
	}
	x.out.Text = x.summary()
	return x.out, nil
}

// captiveEscape: "If it must be transported for psychosurgery, it may make
// another Escape attempt upon arrival, in the capturing Faction's Turn."
// It rolls against the capturing faction's INT.
func (c *Campaign) captiveEscape(own *Faction, p *Asset, capturer *Faction, why string, r dice.Roller) (*Outcome, error) {
	if own == nil {
		return nil, nil
	}
	return c.escape(own, p, c.factionSide(capturer, INT), RollOpposedFaction, why, r)
}

// podLanding: "Units that land in enemy territory must make a Roll to
// survive or are destroyed immediately. Agents that land in enemy territory
// must immediately make an Opposed INT Test (+HTA) to become Covert, or are
// Captured immediately." A Unit's Roll is a Straight Asset roll.
func (c *Campaign) podLanding(f *Faction, p *Asset, r dice.Roller) ([]Outcome, error) {
	h := c.Habitat(p.Location)
	if h == nil || h.Owner == "" || c.Allied(h.Owner, f.Name) {
		return nil, nil
	}
	enemy := c.Faction(h.Owner)
	x := c.sysAct(f, r, &Action{Key: "escape-pods", Name: "Escape Pods", Kind: KindTriggered})
	x.a, x.own = p, f
	switch p.Category {
	case Agent:
		t, err := x.opposed(RollOpposedFaction, "land Covertly at "+h.Name, c.assetSide(f, p, INT, 0, true), c.factionSide(enemy, INT))
		if err != nil {
			return nil, err
		}
		x.out.Success = t.Success
		if t.Success {
			p.Covert, p.Revealed = true, false
			x.change(p.Label(), "lands Covert at", "", h.Name)
		} else {
			p.CapturedBy, p.Covert, p.Revealed = enemy.Name, false, true
			x.change(p.Label(), "captured by", "", enemy.Name)
		}
	default:
		t, err := x.straight(RollStraightAsset, "survive the landing at "+h.Name, c.assetSide(f, p, p.Type, 0, false))
		if err != nil {
			return nil, err
		}
		x.out.Success = t.Success
		if !t.Success {
			if err := x.destroy(f, p, "did not survive the landing"); err != nil {
				return nil, err
			}
		}
	}
	x.out.Text = x.summary()
	return []Outcome{*x.out}, nil
}
