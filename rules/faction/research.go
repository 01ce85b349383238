package faction

import (
	"fmt"
	"github.com/tablehand/tablehand/rules/words"
	"slices"
	"strings"
)

// ResearchKind is one of the four upgrades of 4.5.
type ResearchKind string

// The research kinds.
const (
	ResearchLevel         ResearchKind = "level"         // Increase Asset Level
	ResearchEffectiveness ResearchKind = "effectiveness" // Increase Asset Effectiveness
	ResearchStat          ResearchKind = "stat"          // Increase Faction Stat
	ResearchAttribute     ResearchKind = "attribute"     // Increase Faction Attribute
)

// exclusive: the Research and Design cost of a Stat or Attribute are "No
// Faction Actions or other Asset Actions in the entire Turn, and all Stats
// brought to 0".
func (k ResearchKind) exclusive() bool { return k == ResearchStat || k == ResearchAttribute }

// ResearchTime is the Research Time: "[(new Level)*3] Rounds" (Level),
// "[Level*3] Rounds" (Effectiveness), "[(new Stat+2)*2] Rounds" (Stat),
// "[(new Attribute+3)*2] Rounds" (Attribute). level is the asset's Level
// for Effectiveness; newValue the new Level, Stat or Attribute.
func ResearchTime(k ResearchKind, level, newValue int) int {
	switch k {
	case ResearchLevel:
		return newValue * 3
	case ResearchEffectiveness:
		return level * 3
	case ResearchStat:
		return (newValue + 2) * 2
	case ResearchAttribute:
		return (newValue + 3) * 2
	}
	return 0
}

func (f *Faction) researchAssets() int {
	n := 0
	for _, a := range f.Assets {
		if a.Has(SpecialResearch) && a.Health > 0 && a.CapturedBy == "" && !a.Duplicate && a.HiredBy == "" && a.Transit == nil {
			n++
		}
	}
	return n
}

// research: "Research begins by investing in the Research Cost itself, then
// rolling. If the Research Roll is successful, the Faction waits for the
// research to be complete, and pays the Design cost for the upgrade to take
// effect ... If the research roll fails, it may be re-attempted after the
// Research Time has elapsed, at a TEC cost 1 lower than the previous time
// ... until ALL the costs are 0, at which time the Faction obtains the
// upgrade automatically without needing to Roll ... If the Faction has two
// Research Assets (ie. a University and Researchers), it may roll twice and
// choose the best result."
func (x *act) research() error {
	c, f := x.c, x.f
	var (
		p   Project
		idx = -1
		err error
	)
	if x.param("project") != "" {
		p, idx, err = x.reattemptResearch()
	} else {
		p, err = x.newResearch()
	}
	if err != nil {
		return err
	}
	if err := x.checkResearchCost(p); err != nil {
		return err
	}
	if p.ID == 0 {
		p.ID = c.newProjectID(f)
	}
	x.investResearchCost(p)
	success, err := x.researchRoll(p)
	if err != nil {
		return err
	}
	x.out.Success = success
	p.Attempts++
	p.Ready = c.Round + p.Time
	if success {
		x.awaitResearch(&p)
	} else {
		x.researchFailed(&p)
	}
	if idx >= 0 {
		f.Research[idx] = p
	} else {
		f.Research = append(f.Research, p)
	}
	return nil
}

// reattemptResearch finds the project (project:) whose roll failed: "it
// may be re-attempted after the Research Time has elapsed". It returns the
// project and its index in the faction's research.
func (x *act) reattemptResearch() (Project, int, error) {
	c, f := x.c, x.f
	s := x.param("project")
	id, err := x.intParam("project", 0, 1, 1<<30)
	if err != nil {
		return Project{}, -1, err
	}
	idx := slices.IndexFunc(f.Research, func(p Project) bool { return p.ID == id })
	if idx < 0 {
		return Project{}, -1, x.errf(ErrNotAvailable, "%s has no research project %s", f.Name, s)
	}
	p := f.Research[idx]
	if p.Status != "retry" {
		return Project{}, -1, x.errf(ErrNotAvailable, "project %d is %s, not awaiting a re-attempt", p.ID, p.Status)
	}
	if p.Ready > c.Round {
		return Project{}, -1, x.errf(ErrNotAvailable, "project %d \"may be re-attempted after the Research Time has elapsed\": round %d", p.ID, p.Ready)
	}
	return p, idx, nil
}

// newResearch starts a project of kind: (the four upgrades of 4.5) with
// its Research Cost and Time from the upgrade's entry: Increase Asset
// Level and Effectiveness of the asset target:, Increase Faction Stat
// (stat:) and Attribute (attr:). A meme may halve the costs.
func (x *act) newResearch() (Project, error) {
	c, f := x.c, x.f
	p := Project{Kind: ResearchKind(strings.ToLower(x.param("kind"))), Status: "new"}
	switch p.Kind {
	case ResearchLevel, ResearchEffectiveness:
		tgt, err := x.ownAsset("target", false)
		if err != nil {
			return Project{}, err
		}
		p.Asset, p.Chart = tgt.ID, tgt.Chart
		if p.Kind == ResearchLevel {
			if tgt.Level >= MaxLevel {
				return Project{}, x.errf(ErrNotAvailable, "%s is at Level %d: \"up to a maximum of 5\"", tgt.Label(), tgt.Level)
			}
			if p.New, err = x.intParam("new", tgt.Level+1, tgt.Level+1, MaxLevel); err != nil {
				return Project{}, err
			}
			p.TEC, p.AP = p.New-tgt.Level, 3 // "[new Level - old Level] TEC and 3 AP"
			p.Time = ResearchTime(p.Kind, tgt.Level, p.New)
		} else {
			p.New = tgt.Upgrade + 1
			p.TEC, p.AP = tgt.Level, 3 // "[Level] TEC and 3 AP"
			p.Time = ResearchTime(p.Kind, tgt.Level, p.New)
		}
	case ResearchStat:
		s, err := x.statParam("stat")
		if err != nil {
			return Project{}, err
		}
		p.Stat, p.New = s, c.StatMax(f, s)+1
		p.Time = ResearchTime(p.Kind, 0, p.New)
	case ResearchAttribute:
		a, err := x.attrParam("attr")
		if err != nil {
			return Project{}, err
		}
		p.Attr, p.New = a, f.MaxAttributes.Get(a)+1
		p.Time = ResearchTime(p.Kind, 0, p.New)
	default:
		return Project{}, x.errf(ErrBadParam, "Research needs kind: level, effectiveness, stat or attribute")
	}
	for _, m := range c.ActiveMemes(f) {
		if m.HalveResearch {
			p.TEC, p.AP = Half(p.TEC), Half(p.AP) // "Research costs halved, rounded down"
		}
	}
	return p, nil
}

// checkResearchCost checks that the faction can invest in the Research
// Cost: its TEC and AP, or for a Stat or Attribute "No Faction Actions or
// other Asset Actions in the entire Turn".
func (x *act) checkResearchCost(p Project) error {
	f := x.f
	if p.Kind.exclusive() {
		if f.Turn.FactionAction != "" || f.Turn.AssetActions > 0 {
			return x.errf(ErrNotAvailable, "Research of a Faction %s costs \"No Faction Actions or other Asset Actions in the entire Turn\": %s has acted", p.Kind, f.Name)
		}
		return nil
	}
	if err := x.checkStat(f, TEC, p.TEC, "the Research cost"); err != nil {
		return err
	}
	return x.checkAP(p.AP, TEC)
}

// investResearchCost: "Research begins by investing in the Research Cost
// itself": TEC and AP, or for a Stat or Attribute the whole turn "and all
// Stats brought to 0".
func (x *act) investResearchCost(p Project) {
	if p.Kind.exclusive() {
		x.zeroStats("the Research cost: all Stats brought to 0")
		x.f.Turn.Exclusive = true
		return
	}
	x.payStat(x.f, TEC, p.TEC, "the Research cost")
	x.payAP(p.AP, TEC)
}

// researchRoll is the Research Roll, a Straight Faction Roll (+HTA for the
// Researcher), rolled twice with "two Research Assets" and the best
// result kept. Once "ALL the costs are 0 ... the Faction obtains the
// upgrade automatically without needing to Roll".
func (x *act) researchRoll(p Project) (bool, error) {
	c, f := x.c, x.f
	if !p.Kind.exclusive() && p.Attempts > 0 && p.TEC == 0 && p.AP == 0 {
		x.note("all the Research costs are 0: \"the Faction obtains the upgrade automatically without needing to Roll\"")
		return true, nil
	}
	side := c.factionSide(f, c.Config.ResearchAttribute)
	if c.Config.ResearchHTA == "asset" && c.Home(f, x.a.Location) {
		side.Parts = append(side.Parts, Part{Name: "Home Turf: the Researcher's Level x 2", Value: x.a.Health * 2})
	}
	t, err := x.straight(RollStraightFaction, fmt.Sprintf("Research %s (project %d)", p.Kind, p.ID), side)
	if err != nil {
		return false, err
	}
	if f.researchAssets() >= 2 {
		t2, err := x.straight(RollStraightFaction, fmt.Sprintf("Research %s (project %d), second roll", p.Kind, p.ID), side)
		if err != nil {
			return false, err
		}
		if better(t2, t) {
			t = t2
		}
		x.note("two Research Assets: rolled twice and kept %s", t.verdict())
	}
	return t.Success, nil
}

// awaitResearch: "If the Research Roll is successful, the Faction waits
// for the research to be complete, and pays the Design cost": the
// completion is queued for when the Research Time has elapsed.
func (x *act) awaitResearch(p *Project) {
	p.Status = "researching"
	x.queue(Effect{Kind: EffectResearch, Due: p.Ready, Target: p.ID,
		Note: fmt.Sprintf("research project %d (%s) is complete: pay its Design cost", p.ID, p.Kind)})
}

// researchFailed: "If the research roll fails, it may be re-attempted
// after the Research Time has elapsed, at a TEC cost 1 lower than the
// previous time" (and 1 AP lower with the config's
// research_retry_lowers_ap).
func (x *act) researchFailed(p *Project) {
	p.Status = "retry"
	if !p.Kind.exclusive() {
		p.TEC = max(p.TEC-1, 0)
		if x.c.Config.ResearchRetryLowersAP {
			p.AP = max(p.AP-1, 0)
		}
	}
	x.change(x.f.Name, fmt.Sprintf("research project %d", p.ID), "", fmt.Sprintf("failed: may be re-attempted from round %d for %d TEC and %d AP", p.Ready, p.TEC, p.AP))
}

// better reports whether a is the better of two rolls.
func better(a, b Test) bool {
	if a.Success != b.Success {
		return a.Success
	}
	if a.Success {
		return a.Margin > b.Margin
	}
	return a.Margin < b.Margin
}

func (x *act) zeroStats(why string) {
	for _, s := range AllStats {
		if n := x.f.Stats.Get(s); n > 0 {
			x.payStat(x.f, s, n, why)
		}
	}
}

// researchDone: the Research Time has elapsed; the Design cost is owed.
func (x *act) researchDone(e Effect) {
	f := x.f
	i := slices.IndexFunc(f.Research, func(p Project) bool { return p.ID == e.Target })
	if i < 0 {
		return
	}
	p := &f.Research[i]
	p.Status = "design"
	d := Debt{ID: x.c.newProjectID(f), Kind: "design", Project: p.ID}
	switch p.Kind {
	case ResearchLevel:
		d.Stat, d.Amount, d.AP = INF, p.New, 3 // "[new Level] INF and 3 AP"
		d.Note = fmt.Sprintf("Design cost of Level %d for asset #%d: %d INF and 3 AP", p.New, p.Asset, p.New)
	case ResearchEffectiveness:
		a, _ := x.c.Asset(p.Asset)
		level, stat := 0, INF
		if a != nil {
			level, stat = a.Level, a.Type.Stat()
		} else if ad, ok := x.c.Config.AssetDef(p.Chart); ok {
			level, stat = ad.Level, ad.Type.Stat()
		}
		d.Stat, d.Amount, d.AP = stat, level+p.New, 3 // "[Level + Upgrade] Relevant Stat and 3 AP"
		d.Note = fmt.Sprintf("Design cost of upgrade +%d for asset #%d: %d %s and 3 AP", p.New, p.Asset, d.Amount, stat)
	default:
		d.Exclusive = true
		d.Note = fmt.Sprintf("Design cost of %s %s%s +1: a whole turn and all Stats brought to 0", p.Kind, p.Stat, p.Attr)
	}
	f.Debts = append(f.Debts, d)
	x.change(f.Name, "debt", "", d.Note)
}

// pay pays a delayed cost: the POP of an Annexation ("this payment may be
// delayed at the new Faction's prerogative") or a Design cost ("The
// Faction may delay payment of the Design cost until it is prepared to
// afford it").
func (x *act) pay() error {
	f := x.f
	id, err := x.intParam("debt", 0, 1, 1<<30)
	if err != nil || id == 0 {
		return x.errf(ErrBadParam, "Pay needs debt: the debt's ID")
	}
	i := slices.IndexFunc(f.Debts, func(d Debt) bool { return d.ID == id })
	if i < 0 {
		return x.errf(ErrNotAvailable, "%s owes no debt %d", f.Name, id)
	}
	d := f.Debts[i]
	var p *Project
	var tgt *Asset
	if d.Kind == "design" {
		j := slices.IndexFunc(f.Research, func(p Project) bool { return p.ID == d.Project })
		if j < 0 {
			return x.errf(ErrNotAvailable, "the project of debt %d is gone", id)
		}
		p = &f.Research[j]
		if p.Kind == ResearchLevel || p.Kind == ResearchEffectiveness {
			if p.Asset != 0 && x.param("target") == "" {
				tgt, _ = x.c.Asset(p.Asset)
			} else if tgt, err = x.ownAsset("target", false); err != nil {
				return err
			}
			if tgt == nil {
				return x.errf(ErrNotAvailable, "the asset of project %d is gone: name another %s (target:)", p.ID, p.Chart)
			}
			if !strings.EqualFold(tgt.Chart, p.Chart) {
				return x.errf(ErrNotAvailable, "the upgrade of project %d is for %s, not %s", p.ID, words.A(p.Chart), tgt.Label())
			}
		}
	}
	if d.Exclusive {
		if f.Turn.FactionAction != "" || f.Turn.AssetActions > 0 {
			return x.errf(ErrNotAvailable, "this Design cost is \"No Faction Actions or other Asset Actions in the entire Turn\": %s has acted", f.Name)
		}
	} else {
		if err := x.checkStat(f, d.Stat, d.Amount, d.Note); err != nil {
			return err
		}
		if f.AP < d.AP {
			return x.errf(ErrNotEnoughAP, "%s costs %d AP and %s has %d", d.Note, d.AP, f.Name, f.AP)
		}
	}
	f.Debts = slices.Delete(f.Debts, i, i+1)
	if d.Exclusive {
		x.zeroStats("the Design cost: all Stats brought to 0")
		f.Turn.Exclusive = true
	} else {
		x.payStat(f, d.Stat, d.Amount, d.Note)
		if d.AP > 0 {
			f.AP -= d.AP
			x.cost(f, "AP", d.AP, "the Design cost")
		}
	}
	if d.Kind == "annex" {
		x.activateBonuses()
		return nil
	}
	switch p.Kind {
	case ResearchLevel:
		from := tgt.Level
		tgt.Level = p.New
		tgt.Health = min(tgt.Health+p.New-from, tgt.Level)
		x.change(tgt.Label(), "Level", from, tgt.Level)
	case ResearchEffectiveness:
		from := tgt.Upgrade
		tgt.Upgrade = max(tgt.Upgrade+1, p.New)
		x.change(tgt.Label(), "upgrade", from, tgt.Upgrade)
	case ResearchStat:
		from := f.BaseStats.Get(p.Stat)
		f.BaseStats.Set(p.Stat, from+1)
		x.change(f.Name, "full "+string(p.Stat), x.c.StatMax(f, p.Stat)-1, x.c.StatMax(f, p.Stat))
	case ResearchAttribute:
		from := f.MaxAttributes.Get(p.Attr)
		f.MaxAttributes.Set(p.Attr, from+1)
		f.Attributes.Set(p.Attr, f.Attributes.Get(p.Attr)+1)
		x.change(f.Name, string(p.Attr), from, from+1)
	}
	pid := p.ID
	f.Research = slices.DeleteFunc(f.Research, func(p Project) bool { return p.ID == pid })
	return nil
}

// giveUpgrade: "Upgrades may be given or traded with friendly Factions." A
// researched upgrade awaiting its Design cost passes, with the cost, to the
// ally, who names the asset it applies to when it pays.
func (x *act) giveUpgrade() error {
	id, err := x.intParam("project", 0, 1, 1<<30)
	if err != nil || id == 0 {
		return x.errf(ErrBadParam, "Give Upgrade needs project: the project's ID")
	}
	to, err := x.factionParam("faction")
	if err != nil {
		return err
	}
	if !x.c.Allied(x.f.Name, to.Name) {
		return x.errf(ErrNotAvailable, "upgrades are given to friendly Factions: %s is not allied with %s", to.Name, x.f.Name)
	}
	i := slices.IndexFunc(x.f.Research, func(p Project) bool { return p.ID == id })
	if i < 0 || x.f.Research[i].Status != "design" {
		return x.errf(ErrNotAvailable, "%s has no complete research project %d", x.f.Name, id)
	}
	p := x.f.Research[i]
	p.Asset = 0
	if p.Kind == ResearchStat {
		p.New = x.c.StatMax(to, p.Stat) + 1
	}
	x.f.Research = slices.Delete(x.f.Research, i, i+1)
	// Projects and debts are numbered per faction: the ally's take its
	// next numbers.
	p.ID = x.c.newProjectID(to)
	to.Research = append(to.Research, p)
	for j, d := range x.f.Debts {
		if d.Kind == "design" && d.Project == id {
			x.f.Debts = slices.Delete(x.f.Debts, j, j+1)
			d.ID, d.Project = x.c.newProjectID(to), p.ID
			to.Debts = append(to.Debts, d)
			break
		}
	}
	x.change(to.Name, "receives upgrade", "", fmt.Sprintf("project %d (%s) from %s", id, p.Kind, x.f.Name))
	return nil
}

// eliminate: a captive "must be eliminated or admitted for psychosurgery
// (Turn Agent)".
func (x *act) eliminate() error {
	tgt, own, err := x.assetParam("target")
	if err != nil {
		return err
	}
	if tgt.CapturedBy != x.f.Name {
		return x.errf(ErrNotAvailable, "%s is not %s's captive", tgt.Label(), x.f.Name)
	}
	own.removeAsset(tgt)
	x.change(tgt.Label(), "eliminated", "", "by "+x.f.Name)
	return nil
}
