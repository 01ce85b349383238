package faction

import (
	"strings"
	"testing"
)

func TestCapture(t *testing.T) {
	c := world(t)
	ma := add(t, c, "Red", "Marines", "Mars")
	spy := add(t, c, "Blue", "Spy", "Mars")
	// Marines at home: 4 + STR 4 + 5 = 13 vs the Spy's 4 + 3 = 7.
	do(t, c, "Red", order("capture", ma.ID, "target", id(spy)), 5, 3)
	if a, _ := c.Asset(spy.ID); a.CapturedBy != "Red" || c.Faction("Red").AP != 3 {
		t.Fatalf("capture: %+v", a)
	}
	refuse(t, c, "Blue", order("produce", spy.ID), ErrCannotAct) // a captive does nothing

	// "If the roll fails, the target Asset may make one attempt to Escape
	// immediately." 9 vs 13; the Escape, "Opposed INT": Spy 4 + 6 = 10 vs
	// Marines 4 + 2 = 6 (no INT Home Turf for a STR asset): it goes home.
	c = world(t)
	ma = add(t, c, "Red", "Marines", "Mars")
	spy = add(t, c, "Blue", "Spy", "Mars")
	out := do(t, c, "Red", order("capture", ma.ID, "target", id(spy)), 1, 9, 6, 2)
	a, _ := c.Asset(spy.ID)
	if out.Success || len(out.Triggered) != 1 || a.Location != "Luna" || a.CapturedBy != "" {
		t.Fatalf("escape after a failed capture: %+v, %+v", a, out.Triggered)
	}
	// "Escaping incurs AP expenditure as well as [Level] Stat damage of
	// either TEC or the Agent's type."
	if c.Faction("Blue").AP != 2 || c.Faction("Blue").Stats.TEC != 6 {
		t.Errorf("escape costs: AP %d TEC %d, want 2 and 6", c.Faction("Blue").AP, c.Faction("Blue").Stats.TEC)
	}

	// "An Agent that fails to Escape hostile territory where there is a
	// Capture-capable enemy Asset present is Captured immediately."
	c = world(t)
	ma = add(t, c, "Red", "Marines", "Mars")
	spy = add(t, c, "Blue", "Spy", "Mars")
	do(t, c, "Red", order("capture", ma.ID, "target", id(spy)), 1, 9, 2, 6)
	if a, _ := c.Asset(spy.ID); a.CapturedBy != "Red" || !a.EscapeFailed {
		t.Errorf("failed escape: %+v", a)
	}

	c = world(t)
	ma = add(t, c, "Red", "Marines", "Mars")
	spy = add(t, c, "Blue", "Spy", "Mars")
	spy.Covert = true
	// "revealed by Investigation": till then, to Red there is no such asset.
	refuse(t, c, "Red", order("capture", ma.ID, "target", id(spy)), ErrUnknownAsset)
	mil := add(t, c, "Blue", "Militia", "Mars")
	refuse(t, c, "Red", order("capture", ma.ID, "target", id(mil)), ErrNotAvailable) // Agents only
}

func TestInvestigate(t *testing.T) {
	c := world(t)
	rs := add(t, c, "Red", "Spy", "Mars")
	bs := add(t, c, "Blue", "Spy", "Mars")
	bs.Covert = true
	// "Reveal a local Covert Asset. Triggers an Escape attempt." Red's Spy
	// at home: 4 + INT 4 + 5 = 13 vs 4 + 3 = 7; the Escape: 4 + 9 = 13 vs
	// 8 + 1 = 9.
	out := do(t, c, "Red", order("investigate", rs.ID), 5, 3, 9, 1)
	a, _ := c.Asset(bs.ID)
	if !out.Success || !a.Revealed || a.Covert || a.Location != "Luna" || c.Faction("Red").AP != 2 {
		t.Fatalf("investigate: %+v %+v", a, out)
	}
	c = world(t)
	rs = add(t, c, "Red", "Spy", "Mars")
	bs = add(t, c, "Blue", "Spy", "Mars")
	bs.Covert = true
	if out = do(t, c, "Red", order("investigate", rs.ID), 1, 9); out.Success {
		t.Error("9 vs 13 revealed")
	}
	// Several Covert Assets: the GM says which one is sought.
	c = world(t)
	rs = add(t, c, "Red", "Spy", "Mars")
	bs = add(t, c, "Blue", "Spy", "Mars")
	bs.Covert = true
	env := add(t, c, "Blue", "Envoy", "Mars")
	env.Covert = true
	o := order("investigate", rs.ID)
	out = do(t, c, "Red", o)
	if len(out.Questions) != 1 || len(out.Questions[0].Options) != 2 {
		t.Fatalf("question: %+v", out.Questions)
	}
	// A player's target: is an asset Red does not know of; the GM's
	// answer (gm_target:) names it.
	refuse(t, c, "Red", o.With("target", id(env)), ErrUnknownAsset)
	do(t, c, "Red", o.With("gm_target", id(env)), 9, 1, 1, 1) // Envoy's escape: 2 + 1 vs 8 + 1
	if a, _ := c.Asset(env.ID); !a.Revealed || !a.EscapeFailed {
		t.Errorf("Envoy: %+v", a)
	}
	// Nothing to find: no roll.
	c = world(t)
	rs = add(t, c, "Red", "Spy", "Mars")
	if out = do(t, c, "Red", order("investigate", rs.ID)); out.Success || len(out.Tests) != 0 {
		t.Errorf("found something in nothing: %+v", out)
	}
}

func TestInvestigateCancelsPlan(t *testing.T) {
	c := world(t)
	rs := add(t, c, "Red", "Spy", "Mars")
	bs := add(t, c, "Blue", "Spy", "Mars")
	// Blue's Spy plans against Red: 4 + 9 = 13 vs 4 + 1 = 5.
	out := do(t, c, "Blue", order("plan", bs.ID, "action", "sabotage", "faction", "Red"), 9, 1)
	e := out.Effects[0]
	// "1) Cancel an enemy's Local or Remote Plan."
	out = do(t, c, "Red", order("investigate", rs.ID, "effect", id(&Asset{ID: e.ID})), 5, 3)
	if len(c.Pending("Blue")) != 0 {
		t.Errorf("plan not cancelled: %+v", c.Pending("Blue"))
	}
	if !strings.Contains(out.Text, "Plan cancelled") || !strings.Contains(out.Text, "by Spy #2") {
		t.Errorf("the change does not name the Plan's asset, Spy #2, which Red sees: %s", out.Text)
	}

	// The Plan of a Covert asset: the change does not name it.
	c = world(t)
	rs = add(t, c, "Red", "Spy", "Mars")
	bs = add(t, c, "Blue", "Spy", "Mars")
	out = do(t, c, "Blue", order("plan", bs.ID, "action", "sabotage", "faction", "Red"), 9, 1)
	e = out.Effects[0]
	planner, _ := c.Asset(bs.ID) // Resolve plays on a copy
	planner.Covert = true
	out = do(t, c, "Red", order("investigate", rs.ID, "effect", id(&Asset{ID: e.ID})), 5, 3)
	if strings.Contains(out.Text, "#2") || !strings.Contains(out.Text, "by a Covert asset") {
		t.Errorf("the change names Blue's Covert Spy: %s", out.Text)
	}
}

func TestInvestigateCaptive(t *testing.T) {
	c := world(t)
	rs := add(t, c, "Red", "Spy", "Mars")
	cap := add(t, c, "Blue", "Spy", "Mars")
	cap.CapturedBy = "Red"
	env := add(t, c, "Blue", "Envoy", "Titan")
	env.Covert = true
	// A captive "Can subsequently be Investigated again, once, to reveal
	// any one other Covert Asset of its own Faction".
	do(t, c, "Red", order("investigate", rs.ID, "via", id(cap)), 5, 3, 1, 1)
	if a, _ := c.Asset(env.ID); !a.Revealed {
		t.Error("the Envoy on Titan was not revealed")
	}
	next(c)
	refuse(t, c, "Red", order("investigate", rs.ID, "via", id(cap)), ErrNotAvailable)
}

func TestMisdirect(t *testing.T) {
	c := world(t)
	rs := add(t, c, "Red", "Spy", "Mars")
	mil := add(t, c, "Blue", "Militia", "Mars")
	// "Prevent an enemy Asset from taking any Standard, Special or Triggered
	// action next Round." 8 + 5 = 13 vs 2 + 5 = 7.
	do(t, c, "Red", order("misdirect", rs.ID, "target", id(mil)), 5, 5)
	do(t, c, "Blue", order("produce", mil.ID), 9) // this round it may
	next(c)
	refuse(t, c, "Blue", order("produce", mil.ID), ErrCannotAct)
	c = world(t)
	rs = add(t, c, "Red", "Spy", "Mars")
	mil = add(t, c, "Blue", "Militia", "Mars")
	if out := do(t, c, "Red", order("misdirect", rs.ID, "target", id(mil)), 1, 10); out.Success {
		t.Error("9 vs 12 misdirected")
	}
}

func TestFreeInvestigate(t *testing.T) {
	setup := func() (*Campaign, *Asset) {
		c := world(t)
		spy := add(t, c, "Red", "Spy", "Luna")
		spy.Covert = true
		add(t, c, "Blue", "Intelligence Directorate", "Luna")
		return c, spy
	}
	// "Every time a Faction suffers an attempted Covert attack (whether
	// successful or not), it gets a free Investigate Roll with any Local
	// Investigate Assets." Sabotage 4 + 9 vs 4 + 2; the Directorate 6 + INT
	// 4 + 5 = 15 vs 4 + 5 = 9; the Spy's Escape 4 + 2 vs 10 + 8.
	c, spy := setup()
	out := do(t, c, "Red", order("sabotage", spy.ID, "mode", "habitat"), 9, 2, 5, 5, 2, 8)
	if c.Habitat("Luna").Health != 2 || len(out.Triggered) != 1 || out.Triggered[0].Faction != "Blue" {
		t.Fatalf("sabotage and free investigate: %+v", out)
	}
	if a, _ := c.Asset(spy.ID); !a.Revealed || !a.EscapeFailed {
		t.Errorf("spy %+v", a)
	}
	// A failed investigation leaves it hidden.
	c, spy = setup()
	do(t, c, "Red", order("sabotage", spy.ID, "mode", "habitat"), 2, 9, 1, 9)
	if a, _ := c.Asset(spy.ID); a.Revealed {
		t.Error("revealed on 7 vs 13")
	}
	// "This does NOT occur in the case of a successful Misdirect against the
	// only Investigate Asset in a Habitat."
	c, spy = setup()
	for _, a := range c.Faction("Blue").Assets {
		a.Blocked = 1
	}
	out = do(t, c, "Red", order("sabotage", spy.ID, "mode", "habitat"), 9, 2)
	if len(out.Triggered) != 0 {
		t.Errorf("a misdirected Directorate investigated: %+v", out.Triggered)
	}
}

// TestMisdirectTheOnlyInvestigator: Investigate (Triggered), "This does
// NOT occur in the case of a successful Misdirect against the only
// Investigate Asset in a Habitat.", is an exception to "(whether
// successful or not)" before it: a Covert Spy that Misdirects the
// habitat's only Investigate Asset sets off no free Investigate in the
// round of the Misdirect either. A failed Misdirect does.
func TestMisdirectTheOnlyInvestigator(t *testing.T) {
	c := world(t)
	spy := add(t, c, "Red", "Spy", "Luna")
	spy.Covert = true
	dir := add(t, c, "Blue", "Intelligence Directorate", "Luna")
	out := do(t, c, "Red", order("misdirect", spy.ID, "target", id(dir)), 10, 1)
	if !out.Success || len(out.Triggered) != 0 {
		t.Errorf("a successful Misdirect of the only Investigate Asset: success %v, triggered %+v", out.Success, out.Triggered)
	}
	c = world(t)
	spy = add(t, c, "Red", "Spy", "Luna")
	spy.Covert = true
	dir = add(t, c, "Blue", "Intelligence Directorate", "Luna")
	out = do(t, c, "Red", order("misdirect", spy.ID, "target", id(dir)), 1, 10, 1, 10)
	if out.Success || len(out.Triggered) != 1 {
		t.Errorf("a failed Misdirect: success %v, triggered %+v, want a free Investigate", out.Success, out.Triggered)
	}
}

func TestTurnAgent(t *testing.T) {
	setup := func() (*Campaign, *Asset, *Asset) {
		c := world(t)
		in := add(t, c, "Red", "Interrogator", "Mars")
		spy := add(t, c, "Blue", "Spy", "Mars")
		spy.CapturedBy = "Red"
		return c, in, spy
	}
	// "Turn a Captured enemy Agent into a friendly Agent or Double Agent",
	// "Time: [Level] Rounds": 8 + 5 = 13 vs 4 + 5 = 9; ready in round 3.
	c, in, spy := setup()
	out := do(t, c, "Red", order("turn-agent", in.ID, "target", id(spy)), 5, 5)
	if out.Effects[0].Due != 3 {
		t.Fatalf("due %d", out.Effects[0].Due)
	}
	next(c)
	next(c)
	begin(t, c, "Red")
	if _, f := c.Asset(spy.ID); f.Name != "Red" {
		t.Fatalf("the Spy is %s's", f.Name)
	}
	c, in, spy = setup()
	if out = do(t, c, "Red", order("turn-agent", in.ID, "target", id(spy)), 1, 9); out.Success || len(c.Effects) != 0 {
		t.Error("9 vs 13 turned")
	}

	// Double Agent: "acts for its original Faction AND for the new Faction
	// (except Move)". "Double Agent status can be lost if the asset is
	// Captured by its original Faction while acting in an enemy's Turn."
	c, in, spy = setup()
	do(t, c, "Red", order("turn-agent", in.ID, "target", id(spy), "as", "double"), 5, 5)
	c.Round = 3
	begin(t, c, "Red")
	if a, f := c.Asset(spy.ID); f.Name != "Blue" || a.DoubleFor != "Red" || a.CapturedBy != "" {
		t.Fatalf("double: %+v of %s", a, f.Name)
	}
	refuse(t, c, "Red", order("move", spy.ID, "to", "Luna"), ErrCannotAct)
	do(t, c, "Red", order("produce", spy.ID), 9)
	do(t, c, "Blue", order("produce", spy.ID), 9) // and for Blue, the same round
	ma := add(t, c, "Blue", "Marines", "Mars")
	do(t, c, "Blue", order("capture", ma.ID, "target", id(spy)), 9, 1)
	if a, _ := c.Asset(spy.ID); a.DoubleFor != "" {
		t.Error("the Double Agent kept its status")
	}

	// "Duplicate friendly Agents must be Converted".
	c, in, spy = setup()
	add(t, c, "Red", "Spy", "Mars")
	do(t, c, "Red", order("turn-agent", in.ID, "target", id(spy)), 5, 5)
	c.Round = 3
	begin(t, c, "Red")
	if a, _ := c.Asset(spy.ID); !a.Duplicate {
		t.Fatal("not a duplicate")
	}
	refuse(t, c, "Red", order("produce", spy.ID), ErrCannotAct)
}

func TestConvertDuplicate(t *testing.T) {
	setup := func() (*Campaign, *Asset) {
		c := world(t)
		add(t, c, "Red", "Spy", "Mars")
		dup := add(t, c, "Red", "Spy", "Mars")
		dup.Duplicate = true
		return c, dup
	}
	// "Conversion takes [new Level] Rounds. On a success, proceed as per the
	// "Repurpose" Faction Action": INT 4, roll 3; 2 AP, 2 TEC (same type).
	c, dup := setup()
	out := do(t, c, "Red", order("convert-duplicate", dup.ID, "chart", "Interrogator"), 3)
	if c.Faction("Red").AP != 2 || c.Faction("Red").Stats.TEC != 5 || out.Effects[0].Due != 3 {
		t.Fatalf("convert: AP %d TEC %d %+v", c.Faction("Red").AP, c.Faction("Red").Stats.TEC, out.Effects)
	}
	c.Round = 3
	begin(t, c, "Red")
	if a, _ := c.Asset(dup.ID); a.Duplicate || a.Chart != "Interrogator" {
		t.Errorf("converted: %+v", a)
	}
	// "On a failure, the Conversion may be reattempted in [MoF/2] Rounds":
	// roll 9 vs 4, MoF 5: round 3.
	c, dup = setup()
	do(t, c, "Red", order("convert-duplicate", dup.ID, "chart", "Interrogator"), 9)
	if a, _ := c.Asset(dup.ID); a.ConvertAfter != 3 {
		t.Errorf("reattempt in round %d", a.ConvertAfter)
	}
	next(c)
	refuse(t, c, "Red", order("convert-duplicate", dup.ID, "chart", "Interrogator"), ErrNotAvailable)
	c, dup = setup()
	add(t, c, "Red", "Interrogator", "Mars")
	refuse(t, c, "Red", order("convert-duplicate", dup.ID, "chart", "Interrogator"), ErrNotAvailable)
	refuse(t, c, "Red", order("convert-duplicate", dup.ID, "chart", "Frigate"), ErrNotAvailable)
}

func TestEscapePods(t *testing.T) {
	c := world(t)
	fr := add(t, c, "Red", "Freighter", "Luna")
	ma := add(t, c, "Red", "Marines", "Luna")
	spy := add(t, c, "Red", "Spy", "Luna")
	ma.Aboard, spy.Aboard = fr.ID, fr.ID
	bf := add(t, c, "Blue", "Frigate", "Luna")
	// Blue's Frigate at home, 4 + STR 4 + 5 = 13 vs 2 + 1: the Freighter is
	// destroyed. "Units that land in enemy territory must make a Roll to
	// survive": Straight Asset 4, roll 3. "Agents that land in enemy
	// territory must immediately make an Opposed INT Test (+HTA) to become
	// Covert, or are Captured immediately": 4 + 2 vs 4 + 6.
	out := do(t, c, "Blue", order("attack", bf.ID, "target", id(fr)), 5, 1, 3, 2, 6)
	if a, _ := c.Asset(ma.ID); a == nil || a.Aboard != 0 {
		t.Errorf("the Marines did not survive: %+v", out)
	}
	if a, _ := c.Asset(spy.ID); a.CapturedBy != "Blue" {
		t.Errorf("the Spy: %+v", a)
	}
	// A Unit that fails its Roll is destroyed.
	c = world(t)
	fr = add(t, c, "Red", "Freighter", "Luna")
	ma = add(t, c, "Red", "Marines", "Luna")
	ma.Aboard = fr.ID
	bf = add(t, c, "Blue", "Frigate", "Luna")
	do(t, c, "Blue", order("attack", bf.ID, "target", id(fr)), 5, 1, 8)
	if a, _ := c.Asset(ma.ID); a != nil {
		t.Error("the Marines survived a roll of 8 against 4")
	}
	// In interplanetary space: "See you in a few years."
	c = world(t)
	fr = add(t, c, "Red", "Freighter", "Mars")
	ma = add(t, c, "Red", "Marines", "Mars")
	fr.Transit = &Transit{From: "Mars", To: "Titan", Arrive: 2, Passengers: []int{ma.ID}}
	ma.Transit = &Transit{From: "Mars", To: "Titan", Arrive: 2, Carrier: fr.ID}
	x := c.sysAct(c.Faction("Blue"), nil, nil)
	if err := x.destroy(c.Faction("Red"), fr, "test"); err != nil {
		t.Fatal(err)
	}
	if a, _ := c.Asset(ma.ID); a.Transit == nil || !a.Transit.Pod || a.Transit.Arrive != 1+24 {
		t.Errorf("pod: %+v", a.Transit)
	}
}

func TestEliminate(t *testing.T) {
	c := world(t)
	spy := add(t, c, "Blue", "Spy", "Mars")
	refuse(t, c, "Red", order("eliminate", 0, "target", id(spy)), ErrNotAvailable)
	spy.CapturedBy = "Red"
	do(t, c, "Red", order("eliminate", 0, "target", id(spy)))
	if a, _ := c.Asset(spy.ID); a != nil {
		t.Error("still there")
	}
}

func TestCaptiveEscapesOnArrival(t *testing.T) {
	// "If it must be transported for psychosurgery, it may make another
	// Escape attempt upon arrival, in the capturing Faction's Turn." Carried
	// from Mars to Titan (1 round); on arrival the Spy's 4 + 9 beats Red's
	// INT 4 + 1.
	c := world(t)
	fr := add(t, c, "Red", "Freighter", "Mars")
	spy := add(t, c, "Blue", "Spy", "Mars")
	spy.CapturedBy = "Red"
	do(t, c, "Red", order("move", fr.ID, "to", "Titan", "with", id(spy)))
	next(c)
	rep := round(t, c, map[string][]Order{"Blue": {}}, 9, 1)
	a, _ := c.Asset(spy.ID)
	red, _ := rep.Faction("Red")
	if a.CapturedBy != "" || a.Location != "Luna" || len(red.Arrivals) != 2 {
		t.Errorf("escape on arrival: %+v %+v", a, red.Arrivals)
	}
}

// TestInvestigateAmongSeveral: with two local Covert Assets "the GM
// chooses" (the text leaves it open); the Question names them for the GM
// alone, and the players read only that the GM chooses (issue 20).
func TestInvestigateAmongSeveral(t *testing.T) {
	c := world(t)
	rs := add(t, c, "Red", "Spy", "Mars")
	for range 2 {
		add(t, c, "Blue", "Spy", "Mars").Covert = true
	}
	out := do(t, c, "Red", order("investigate", rs.ID))
	if len(out.Questions) != 1 {
		t.Fatalf("want one Question, got %+v", out)
	}
	q := out.Questions[0]
	if !q.Secret() || len(q.Options) != 2 || !strings.Contains(q.Text, "of Blue at Mars") {
		t.Fatalf("the GM's Question: %+v", q)
	}
	seen := q.Seen()
	for _, s := range append([]string{seen.Text, out.Text}, seen.Options...) {
		if strings.Contains(s, "Blue") || strings.Contains(s, "#") && !strings.Contains(s, rs.Label()) {
			t.Errorf("the players read %q", s)
		}
	}
	if len(seen.Options) != 0 {
		t.Errorf("the players read the options %v", seen.Options)
	}
	if got := out.Seen().Questions; len(got) != 1 || got[0].Text != seen.Text || len(got[0].Options) != 0 || len(out.Questions[0].Options) != 2 {
		t.Errorf("the outcome as the players read it: %+v (and the GM's kept %+v)", got, out.Questions)
	}
}

// TestInvestigateHeldBeforeGMTarget: an Investigation held, before the
// GM's answer had its own parameter, by a Question for target: takes the
// GM's answer as gm_target:, the one that may name a Covert Asset.
func TestInvestigateHeldBeforeGMTarget(t *testing.T) {
	c := world(t)
	rs := add(t, c, "Red", "Spy", "Mars")
	add(t, c, "Blue", "Spy", "Mars").Covert = true
	env := add(t, c, "Blue", "Envoy", "Mars")
	env.Covert = true
	old := Question{Param: "target", Ask: "gm", Options: []string{"2", "3"}}
	o := order("investigate", rs.ID).Answer(old, id(env))
	if o.Param("gm_target") != id(env) || o.Param("target") != "" {
		t.Fatalf("the answer went to %v", o.Params)
	}
	do(t, c, "Red", o, 9, 1, 1, 1) // as TestInvestigate: the Envoy revealed, its escape fails
	if a, _ := c.Asset(env.ID); !a.Revealed {
		t.Errorf("the Envoy: %+v", a)
	}
	// Any other Question's answer goes to its own parameter.
	if got := order("produce-asset", 0).Answer(Question{Param: "gm_produce"}, "approve"); got.Param("gm_produce") != "approve" {
		t.Errorf("gm_produce: %v", got.Params)
	}
}
