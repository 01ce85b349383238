package faction

import (
	"strconv"
	"testing"
)

func TestResearchTime(t *testing.T) {
	for _, tt := range []struct {
		rule      string
		kind      ResearchKind
		level, nw int
		want      int
	}{
		{"Increase Asset Level: Time: [(new Level)*3] Rounds", ResearchLevel, 2, 3, 9},
		{"Increase Asset Level to 5", ResearchLevel, 4, 5, 15},
		{"Increase Asset Effectiveness: Time: [Level*3] Rounds", ResearchEffectiveness, 2, 1, 6},
		{"Increase Faction Stat: Time: [(new Stat+2)*2] Rounds", ResearchStat, 0, 8, 20},
		{"Increase Faction Attribute: Time: [(new Attribute+3)*2] Rounds", ResearchAttribute, 0, 5, 16},
	} {
		if got := ResearchTime(tt.kind, tt.level, tt.nw); got != tt.want {
			t.Errorf("%s: %d, want %d", tt.rule, got, tt.want)
		}
	}
}

func TestResearchLevel(t *testing.T) {
	c := world(t)
	uni := add(t, c, "Red", "University", "Mars")
	fr := add(t, c, "Red", "Frigate", "Mars")
	// "Research Cost: [new Level - old Level] TEC and 3 AP"; "Straight
	// Faction Roll (+HTA for the Researcher)": INT 4 + the University's
	// Level 2 x 2 at home = 8; roll 3.
	out := do(t, c, "Red", order("research", uni.ID, "kind", "level", "target", id(fr)), 3)
	red := c.Faction("Red")
	if !out.Success || out.Tests[0].Target != 8 || red.Stats.TEC != 6 || red.AP != 1 {
		t.Fatalf("research: %+v TEC %d AP %d", out.Tests, red.Stats.TEC, red.AP)
	}
	if p := red.Research[0]; p.Status != "researching" || p.Ready != 10 || p.New != 3 {
		t.Fatalf("project %+v", p)
	}
	// "the Faction waits for the research to be complete, and pays the
	// Design cost": "[new Level] INF and 3 AP".
	c.Round = 10
	begin(t, c, "Red")
	red = c.Faction("Red")
	if len(red.Debts) != 1 || red.Debts[0].Amount != 3 || red.Debts[0].Stat != INF || red.Debts[0].AP != 3 {
		t.Fatalf("debts %+v", red.Debts)
	}
	do(t, c, "Red", order("pay", 0, "debt", strconv.Itoa(red.Debts[0].ID)))
	a, _ := c.Asset(fr.ID)
	if a.Level != 3 || a.Health != 3 || c.Faction("Red").Stats.INF != 4 || c.Faction("Red").AP != 1 || len(c.Faction("Red").Research) != 0 {
		t.Errorf("after design: %+v INF %d AP %d", a, c.Faction("Red").Stats.INF, c.Faction("Red").AP)
	}
}

func TestResearchRetry(t *testing.T) {
	// "If the research roll fails, it may be re-attempted after the Research
	// Time has elapsed, at a TEC cost 1 lower than the previous time ...
	// until ALL the costs are 0, at which time the Faction obtains the
	// upgrade automatically without needing to Roll".
	c := world(t)
	uni := add(t, c, "Red", "University", "Mars")
	fr := add(t, c, "Red", "Frigate", "Mars")
	do(t, c, "Red", order("research", uni.ID, "kind", "level", "target", id(fr), "new", "4"), 9)
	p := c.Faction("Red").Research[0]
	if p.Status != "retry" || p.TEC != 1 || p.AP != 2 || p.Ready != 13 {
		t.Fatalf("after a failure: %+v", p)
	}
	retry := order("research", uni.ID, "project", strconv.Itoa(p.ID))
	next(c)
	refuse(t, c, "Red", retry, ErrNotAvailable)
	for _, want := range []struct{ tec, ap int }{{0, 1}, {0, 0}} {
		c.Round = c.Faction("Red").Research[0].Ready
		do(t, c, "Red", retry, 9)
		if p := c.Faction("Red").Research[0]; p.TEC != want.tec || p.AP != want.ap {
			t.Fatalf("retry: %+v", p)
		}
	}
	c.Round = c.Faction("Red").Research[0].Ready
	out := do(t, c, "Red", retry) // no dice: automatic
	if !out.Success || len(out.Tests) != 0 || c.Faction("Red").Research[0].Status != "researching" {
		t.Errorf("automatic: %+v", out)
	}
}

func TestResearchTwoAssets(t *testing.T) {
	// "If the Faction has two Research Assets (ie. a University and
	// Researchers), it may roll twice and choose the best result."
	c := world(t)
	uni := add(t, c, "Red", "University", "Mars")
	add(t, c, "Red", "Research Team", "Mars")
	fr := add(t, c, "Red", "Frigate", "Mars")
	out := do(t, c, "Red", order("research", uni.ID, "kind", "effectiveness", "target", id(fr)), 9, 3)
	if !out.Success || len(out.Tests) != 2 {
		t.Fatalf("two rolls: %+v", out.Tests)
	}
	// Effectiveness: "[Level] TEC and 3 AP", "[Level*3] Rounds"; design
	// "[Level + Upgrade] Relevant Stat and 3 AP"; "+1" to its rolls.
	red := c.Faction("Red")
	if red.Stats.TEC != 5 || red.Research[0].Ready != 7 {
		t.Fatalf("TEC %d, %+v", red.Stats.TEC, red.Research[0])
	}
	c.Round = 7
	begin(t, c, "Red")
	d := c.Faction("Red").Debts[0]
	if d.Stat != POP || d.Amount != 3 {
		t.Fatalf("design %+v", d)
	}
	do(t, c, "Red", order("pay", 0, "debt", strconv.Itoa(d.ID)))
	if a, _ := c.Asset(fr.ID); a.Upgrade != 1 || c.assetSide(c.Faction("Red"), a, STR, 0, false).Bonus() != 5 {
		t.Errorf("upgrade: %+v", a)
	}
	// A failure on both rolls.
	c = world(t)
	uni = add(t, c, "Red", "University", "Mars")
	add(t, c, "Red", "Research Team", "Mars")
	fr = add(t, c, "Red", "Frigate", "Mars")
	if out = do(t, c, "Red", order("research", uni.ID, "kind", "level", "target", id(fr)), 9, 10); out.Success {
		t.Error("9 and 10 succeeded")
	}
}

func TestResearchFactionStat(t *testing.T) {
	// "Research Cost: No Faction Actions or other Asset Actions in the
	// entire Turn, and all Stats brought to 0".
	c := world(t)
	uni := add(t, c, "Red", "University", "Mars")
	fab := add(t, c, "Red", "Fabricator", "Mars")
	do(t, c, "Red", order("invest", 0, "stat", "INF"), 9)
	refuse(t, c, "Red", order("research", uni.ID, "kind", "stat", "stat", "INF"), ErrNotAvailable, 1)
	next(c)
	out := do(t, c, "Red", order("research", uni.ID, "kind", "stat", "stat", "INF"), 1)
	red := c.Faction("Red")
	if !out.Success || red.Stats != (Stats{}) || red.Research[0].Ready != 2+20 {
		t.Fatalf("stat research: %+v, stats %+v", red.Research, red.Stats)
	}
	refuse(t, c, "Red", order("produce", fab.ID), ErrCannotAct)
	c.Round = 22
	begin(t, c, "Red")
	d := c.Faction("Red").Debts[0]
	do(t, c, "Red", order("pay", 0, "debt", strconv.Itoa(d.ID)))
	if got := c.StatMax(c.Faction("Red"), INF); got != 8 {
		t.Errorf("full INF = %d, want 8: \"Permanently increase a Faction Health Stat by 1\"", got)
	}
	// Attribute: "[(new Attribute+3)*2] Rounds"; a failure may be
	// re-attempted after that time.
	c = world(t)
	uni = add(t, c, "Red", "University", "Mars")
	out = do(t, c, "Red", order("research", uni.ID, "kind", "attribute", "attr", "INT"), 10)
	if p := c.Faction("Red").Research[0]; out.Success || p.Ready != 17 || p.Status != "retry" {
		t.Errorf("attribute research: %+v", p)
	}
}

func TestResearchSingularityAndGift(t *testing.T) {
	// Singularity: "Research costs halved, rounded down": 1 TEC and 3 AP
	// become 0 and 1.
	c := world(t)
	c.Faction("Red").Memes = []Meme{{Name: "Singularity", Active: true}}
	uni := add(t, c, "Red", "University", "Mars")
	fr := add(t, c, "Red", "Frigate", "Mars")
	do(t, c, "Red", order("research", uni.ID, "kind", "level", "target", id(fr)), 1)
	if red := c.Faction("Red"); red.Stats.TEC != 7 || red.AP != 3 {
		t.Errorf("Singularity: TEC %d AP %d", red.Stats.TEC, red.AP)
	}
	// "Upgrades may be given or traded with friendly Factions."
	c.Round = 10
	begin(t, c, "Red")
	pid := strconv.Itoa(c.Faction("Red").Research[0].ID)
	refuse(t, c, "Red", order("give-upgrade", 0, "project", pid, "faction", "Blue"), ErrNotAvailable)
	c.Relations = []Relation{{A: "Blue", B: "Red", Kind: Alliance}}
	do(t, c, "Red", order("give-upgrade", 0, "project", pid, "faction", "Blue"))
	bf := add(t, c, "Blue", "Frigate", "Luna")
	blue := c.Faction("Blue")
	do(t, c, "Blue", order("pay", 0, "debt", strconv.Itoa(blue.Debts[0].ID), "target", id(bf)))
	if a, _ := c.Asset(bf.ID); a.Level != 3 {
		t.Errorf("Blue's Frigate: %+v", a)
	}
}
