package faction

import (
	"slices"
	"testing"
)

func TestAttack(t *testing.T) {
	c := world(t)
	fr := add(t, c, "Red", "Frigate", "Luna")
	mil := add(t, c, "Blue", "Militia", "Luna")
	// "Cause [MoS/2] damage to an Asset. If the asset is brought to 0, it is
	// destroyed." Frigate 4 + 9 = 13; Militia at home 2 + STR 4 + 1 = 7:
	// MoS 6, 3 damage.
	out := do(t, c, "Red", order("attack", fr.ID, "target", id(mil)), 9, 1)
	if a, _ := c.Asset(mil.ID); a != nil || !out.Success || c.Faction("Red").AP != 2 {
		t.Fatalf("attack: militia %+v, out %+v", a, out)
	}
	if len(out.Triggered) != 0 {
		t.Error("a destroyed asset counter-attacked")
	}

	// A failed attack and the Counter-Attack: "Attacked Assets may Attack
	// their attacker for free in the same Turn they are attacked." 4 + 2 =
	// 6 vs 6 + 5 = 11; then 6 + 6 = 12 vs 4 + 3 = 7: MoS 5, 2 damage.
	c = world(t)
	fr = add(t, c, "Red", "Frigate", "Luna")
	mil = add(t, c, "Blue", "Militia", "Luna")
	out = do(t, c, "Red", order("attack", fr.ID, "target", id(mil)), 2, 5, 6, 3)
	if out.Success || len(out.Triggered) != 1 || out.Triggered[0].Action != "counter-attack" || !out.Triggered[0].Success {
		t.Fatalf("counter-attack: %+v", out)
	}
	if a, _ := c.Asset(fr.ID); a != nil {
		t.Errorf("Frigate survived a 2-damage counter-attack: %+v", a)
	}

	// Attack (Special): "its own free Plan action immediately before an
	// Attack": Marines 4 + 8 = 12 vs Blue STR 4 + 2 = 6: 6 AP pay the
	// attack.
	c = world(t)
	ma := add(t, c, "Red", "Marines", "Luna")
	mil = add(t, c, "Blue", "Militia", "Luna")
	out = do(t, c, "Red", order("attack-special", ma.ID, "target", id(mil)), 8, 2, 9, 1)
	if c.Faction("Red").AP != 4 || len(out.Tests) != 2 {
		t.Errorf("Attack (Special): AP %d (want 4: the Plan paid), tests %d", c.Faction("Red").AP, len(out.Tests))
	}

	c = world(t)
	fr = add(t, c, "Red", "Frigate", "Luna")
	spy := add(t, c, "Blue", "Spy", "Luna")
	spy.Covert = true
	// "may not be attacked": to Red it is an asset that does not exist.
	refuse(t, c, "Red", order("attack", fr.ID, "target", id(spy)), ErrUnknownAsset)
	far := add(t, c, "Blue", "Militia", "Titan")
	refuse(t, c, "Red", order("attack", fr.ID, "target", id(far)), ErrNotAvailable) // elsewhere: Remote first
	refuse(t, c, "Red", order("attack", fr.ID, "target", id(fr)), ErrBadParam)
	ma = add(t, c, "Red", "Militia", "Luna")
	refuse(t, c, "Red", order("attack-special", ma.ID, "target", id(far)), ErrNotAvailable) // not listed
}

// "Local Assets -> Habitat -> Suppression -> Rally -> Annexation"
func TestAttackChain(t *testing.T) {
	c := world(t)
	red := c.Faction("Red")
	red.Attributes.COH, red.MaxAttributes.COH = 6, 6
	dn := add(t, c, "Red", "Dreadnought", "Luna")
	mil := add(t, c, "Blue", "Militia", "Luna")

	// Local Assets: "Attacks in enemy territory first do damage to Local
	// Assets, and if none are available, to the Habitat itself."
	refuse(t, c, "Red", order("attack", dn.ID, "habitat", "Luna"), ErrNotAvailable)
	do(t, c, "Red", order("attack", dn.ID, "target", id(mil)), 5, 1) // 8+5 = 13 vs 6+1 = 7: 3 damage
	if a, _ := c.Asset(mil.ID); a != nil {
		t.Fatal("Militia survived")
	}
	// Habitat -> Suppression: "When the Habitat's health is reduced to 0,
	// it is Suppresed." 8 + 10 = 18 vs Blue STR 4 + 1 = 5: MoS 13, 6
	// damage.
	next(c)
	out := do(t, c, "Red", order("attack", dn.ID, "habitat", "Luna"), 10, 1)
	if h := c.Habitat("Luna"); h.Health != 0 || !h.Suppressed {
		t.Fatalf("Luna %+v after %s", h, out.Tests[0].Text)
	}
	// Rally: Blue 4 + 9 = 13 vs the Dreadnought's 8 + 1 = 9.
	next(c)
	do(t, c, "Blue", order("rally", 0, "habitat", "Luna", "target", id(dn)), 9, 1)
	refuse(t, c, "Red", order("annex", 0, "habitat", "Luna", "annexer", id(dn)), ErrNotAvailable)
	// Annexation: Blue's Rally (4 + 1 vs 8 + 9) fails; 8 + 7 = 15 vs POP 8
	// + 2 = 10.
	next(c)
	out = do(t, c, "Red", order("annex", 0, "habitat", "Luna", "annexer", id(dn)), 1, 9, 7, 2)
	if c.Habitat("Luna").Owner != "Red" || c.Faction("Red").AP != 1 {
		t.Errorf("Annexation: owner %s, AP %d (want 6 - 5 = 1): %+v", c.Habitat("Luna").Owner, c.Faction("Red").AP, out)
	}
}

func TestMove(t *testing.T) {
	c := world(t)
	fr := add(t, c, "Red", "Freighter", "Mars")
	ma := add(t, c, "Red", "Marines", "Mars")
	// Same region: "the travel time is less than 1 Round": the Marines
	// arrive at once and "may take another action in the same Turn if AP
	// remain".
	do(t, c, "Red", order("move", ma.ID, "to", "Luna", "via", id(fr)))
	a, _ := c.Asset(ma.ID)
	if a.Location != "Luna" || a.Aboard != fr.ID || c.Faction("Red").AP != 3 {
		t.Fatalf("moved: %+v, AP %d", a, c.Faction("Red").AP)
	}
	do(t, c, "Red", order("produce", ma.ID), 9)
	refuse(t, c, "Red", order("produce", ma.ID), ErrAlreadyActed)
	refuse(t, c, "Red", order("move", fr.ID, "to", "Mars"), ErrWrongPhase) // Asset Actions follow Initial Movement

	// To another region: in transit; "AP Cost is paid once on departure";
	// "Vehicle Assets may make ONE change of destination enroute".
	c = world(t)
	c.Config.TravelOtherRegion = 2
	fr = add(t, c, "Red", "Freighter", "Mars")
	ma = add(t, c, "Red", "Marines", "Mars")
	do(t, c, "Red", order("move", fr.ID, "to", "Titan", "with", id(ma)))
	if a, _ := c.Asset(ma.ID); a.Transit == nil || a.Transit.Arrive != 3 || a.Location != "" {
		t.Fatalf("in transit: %+v", a)
	}
	next(c)
	refuse(t, c, "Red", order("produce", ma.ID), ErrCannotAct) // in transit
}

func TestMoveArrivalAndReroute(t *testing.T) {
	c := world(t)
	c.Config.TravelOtherRegion = 2
	fr := add(t, c, "Red", "Freighter", "Mars")
	ma := add(t, c, "Red", "Marines", "Mars")
	do(t, c, "Red", order("move", fr.ID, "to", "Titan", "with", id(ma)))
	next(c)
	out := do(t, c, "Red", order("move", fr.ID, "to", "Luna"))
	if a, _ := c.Asset(fr.ID); a.Transit == nil || a.Transit.To != "Luna" || !a.Transit.Rerouted || c.Faction("Red").AP != 3 {
		t.Fatalf("reroute: %+v %+v", a.Transit, out)
	}
	refuse(t, c, "Red", order("move", fr.ID, "to", "Titan"), ErrAlreadyActed)
	next(c)
	// Round 3: entering Initial Movement, both arrive at Luna.
	out = do(t, c, "Red", order("produce", ma.ID), 9)
	if a, _ := c.Asset(ma.ID); a.Location != "Luna" || a.Transit != nil || len(out.Arrivals) == 0 {
		t.Fatalf("arrival: %+v", a)
	}
	refuse(t, c, "Red", order("move", fr.ID, "to", "Titan"), ErrWrongPhase) // Initial Movement is over
	do(t, c, "Red", order("move", fr.ID, "to", "Mars", "phase", "subsequent"))
	if a, _ := c.Asset(fr.ID); a.Location != "Mars" {
		t.Error("Subsequent Movement: \"Units which ... have not yet taken action, move in this phase\"")
	}
}

func TestCast(t *testing.T) {
	c := world(t)
	hub := add(t, c, "Red", "Egocasting Hub", "Mars")
	spy := add(t, c, "Red", "Spy", "Mars")
	mil := add(t, c, "Red", "Militia", "Mars")
	// "egocast/darkcast instantly (Agents only)", at the Facility's Level.
	do(t, c, "Red", order("move", spy.ID, "to", "Titan", "mode", "cast", "via", id(hub)))
	if a, _ := c.Asset(spy.ID); a.Location != "Titan" || c.Faction("Red").AP != 3 {
		t.Fatalf("cast: %+v AP %d", a, c.Faction("Red").AP)
	}
	refuse(t, c, "Red", order("move", mil.ID, "to", "Titan", "mode", "cast", "via", id(hub)), ErrNotAvailable)
	refuse(t, c, "Red", order("move", mil.ID, "to", "Luna"), ErrBadParam) // needs a ride
	fab := add(t, c, "Red", "Fabricator", "Mars")
	refuse(t, c, "Red", order("move", fab.ID, "to", "Luna"), ErrNotAvailable) // Facilities do not move
	// After a failed Escape "it may only use Subterfuge or Darkcasting".
	c = world(t)
	hub = add(t, c, "Red", "Egocasting Hub", "Mars")
	spy = add(t, c, "Red", "Spy", "Luna")
	spy.EscapeFailed = true
	refuse(t, c, "Red", order("move", spy.ID, "to", "Mars", "mode", "cast", "via", id(hub)), ErrNotAvailable)
	do(t, c, "Red", order("move", spy.ID, "to", "Mars", "mode", "darkcast", "via", id(hub)))
}

func TestProduce(t *testing.T) {
	c := world(t)
	c.Faction("Red").Stats.INF = 3
	fab := add(t, c, "Red", "Fabricator", "Mars")
	// Straight Asset (+HTA): Level 2 x 2 + RES 4 = 8; roll 2: MoS 6, heals 3.
	out := do(t, c, "Red", order("produce", fab.ID), 2)
	if out.Tests[0].Target != 8 || out.Effects[0].Amount != 3 || c.Faction("Red").AP != 2 {
		t.Fatalf("Produce: %+v", out)
	}
	next(c)
	begin(t, c, "Red")
	if c.Faction("Red").Stats.INF != 6 {
		t.Errorf("INF = %d, want 6", c.Faction("Red").Stats.INF)
	}
	c = world(t)
	fab = add(t, c, "Red", "Fabricator", "Mars")
	if out = do(t, c, "Red", order("produce", fab.ID), 9); out.Success || len(c.Effects) != 0 {
		t.Errorf("failed Produce: %+v", out)
	}
	// Anarcho-Capitalism: "Produce actions cost 1 AP less".
	c = world(t)
	c.Faction("Red").Memes = []Meme{{Name: "Anarcho-Capitalism", Active: true}}
	fab = add(t, c, "Red", "Fabricator", "Mars")
	do(t, c, "Red", order("produce", fab.ID), 9)
	if c.Faction("Red").AP != 3 {
		t.Errorf("AP = %d, want 3", c.Faction("Red").AP)
	}
}

func TestAPAndStatPayment(t *testing.T) {
	// "[AP] Levels worth of Asset Actions (minimum 1 Asset Action with no
	// Stat damage)": a Level 4 asset acts with 3 AP left, once.
	c := world(t)
	red := c.Faction("Red")
	red.Attributes.COH, red.MaxAttributes.COH = 3, 3
	dn := add(t, c, "Red", "Dreadnought", "Mars")
	fab := add(t, c, "Red", "Fabricator", "Mars")
	out := do(t, c, "Red", order("produce", dn.ID), 9)
	if c.Faction("Red").AP != 0 || c.Faction("Red").Stats.POP != 7 {
		t.Fatalf("first action: AP %d POP %d, %+v", c.Faction("Red").AP, c.Faction("Red").Stats.POP, out.Costs)
	}
	refuse(t, c, "Red", order("produce", fab.ID), ErrNotEnoughAP, 9)
	refuse(t, c, "Red", order("produce", fab.ID, "pay", "bitcoin"), ErrBadParam)
	// "Actions may be taken at a cost of damage to the Faction's related
	// Stat instead of AP."
	do(t, c, "Red", order("produce", fab.ID, "pay", "stat"), 9)
	if c.Faction("Red").Stats.INF != 5 {
		t.Errorf("INF = %d, want 7 - 2", c.Faction("Red").Stats.INF)
	}
}

func TestPlan(t *testing.T) {
	c := world(t)
	spy := add(t, c, "Red", "Spy", "Mars")
	fr := add(t, c, "Red", "Frigate", "Mars")
	mil := add(t, c, "Blue", "Militia", "Mars")
	// Spy 4 + INT 4 at home + 6 = 14 vs Blue INT 4 + 2 = 6: MoS 8, "add MoS
	// points to AP for a specific Asset Action next Round".
	out := do(t, c, "Red", order("plan", spy.ID, "action", "attack", "for", id(fr), "faction", "Blue"), 6, 2)
	if len(out.Effects) != 1 || out.Effects[0].Amount != 8 || out.Effects[0].Due != 2 || c.Faction("Red").AP != 2 {
		t.Fatalf("Plan: %+v", out)
	}
	next(c)
	do(t, c, "Red", order("attack", fr.ID, "target", id(mil)), 9, 1)
	if c.Faction("Red").AP != 4 || len(c.Faction("Red").Turn.Plans) != 0 {
		t.Errorf("the planned attack: AP %d, plans %+v", c.Faction("Red").AP, c.Faction("Red").Turn.Plans)
	}

	// "If Mos > Acting Asset Level, it may elect to perform the Planned
	// action in the same Turn as the Planning."
	c = world(t)
	spy = add(t, c, "Red", "Spy", "Mars")
	fr = add(t, c, "Red", "Frigate", "Mars")
	mil = add(t, c, "Blue", "Militia", "Mars")
	do(t, c, "Red", order("plan", spy.ID, "action", "attack", "for", id(fr), "faction", "Blue", "same_turn", "yes"), 6, 2)
	do(t, c, "Red", order("attack", fr.ID, "target", id(mil)), 9, 1)
	if c.Faction("Red").AP != 2 {
		t.Errorf("same-turn plan: AP %d, want 2", c.Faction("Red").AP)
	}

	// A failed Plan still costs its AP; Plan (Special) "costs only 1 AP".
	c = world(t)
	spy = add(t, c, "Red", "Spy", "Mars")
	out = do(t, c, "Red", order("plan", spy.ID, "action", "sabotage", "faction", "Blue"), 2, 9)
	if out.Success || len(c.Effects) != 0 || c.Faction("Red").AP != 2 {
		t.Errorf("failed Plan: %+v", out)
	}
	dir := add(t, c, "Red", "Intelligence Directorate", "Mars")
	do(t, c, "Red", order("plan-special", dir.ID, "action", "sabotage", "for", id(spy), "faction", "Blue"), 9, 1)
	if c.Faction("Red").AP != 1 {
		t.Errorf("Plan (Special) cost %d AP", 2-c.Faction("Red").AP)
	}
	refuse(t, c, "Red", order("plan", spy.ID, "action", "attack", "faction", "Blue"), ErrAlreadyActed)
}

func TestLaunderingSubterfuge(t *testing.T) {
	c := world(t)
	fixer := add(t, c, "Red", "Fixer", "Mars")
	spy := add(t, c, "Red", "Spy", "Mars")
	// "As Plan, but also makes the Asset involved Covert for the duration
	// of the Planned action. Only applies to Agents."
	out := do(t, c, "Red", order("laundering", fixer.ID, "action", "sabotage", "for", id(spy)))
	if len(out.Effects) != 1 || !out.Effects[0].Flag || c.Faction("Red").AP != 3 {
		t.Fatalf("Laundering: %+v", out)
	}
	fr := add(t, c, "Red", "Frigate", "Mars")
	c2 := world(t)
	fixer = add(t, c2, "Red", "Fixer", "Mars")
	fr = add(t, c2, "Red", "Frigate", "Mars")
	refuse(t, c2, "Red", order("laundering", fixer.ID, "action", "attack", "for", id(fr)), ErrNotAvailable)

	// "Make any Agent Asset (except Mogul) Covert."
	c = world(t)
	spy = add(t, c, "Red", "Spy", "Mars")
	do(t, c, "Red", order("subterfuge", spy.ID))
	if a, _ := c.Asset(spy.ID); !a.Covert || !c.Covert(c.Faction("Red"), a) {
		t.Error("not Covert")
	}
	env := add(t, c, "Red", "Envoy", "Mars")
	mog := add(t, c, "Red", "Mogul", "Mars")
	refuse(t, c, "Red", order("subterfuge", env.ID, "target", id(mog)), ErrNotAvailable)
}

func TestAssetInvestRepair(t *testing.T) {
	c := world(t)
	c.Faction("Red").Stats.SOL = 3
	mn := add(t, c, "Red", "Media Network", "Mars")
	pc := add(t, c, "Red", "Propaganda Corps", "Mars")
	// Invest (Special): Straight Asset, Level 2 x 2 = 4; roll 3: MoS 1,
	// heals 1 (minimum 1). It "may be combined with Invest Faction Action".
	do(t, c, "Red", order("invest", 0, "stat", "SOL"), 9)
	out := do(t, c, "Red", order("asset-invest", mn.ID, "stat", "SOL"), 3)
	if !out.Success || out.Effects[0].Amount != 1 || c.Faction("Red").AP != 3 {
		t.Fatalf("Invest (Special): %+v", out)
	}
	// "once per Turn"
	refuse(t, c, "Red", order("asset-invest", pc.ID, "stat", "SOL"), ErrAlreadyActed, 1)
	next(c)
	if out = do(t, c, "Red", order("asset-invest", pc.ID, "stat", "SOL"), 6); out.Success {
		t.Errorf("roll 6 vs 2 succeeded")
	}

	// Repair (Special): "AP Cost: [Level] of Asset being Repaired"; Work
	// Crew Level 1 x 2 = 2, roll 2: MoS 0, heals 1.
	c = world(t)
	wc := add(t, c, "Red", "Work Crew", "Mars")
	fr := add(t, c, "Red", "Frigate", "Mars")
	fr.Health = 1
	out = do(t, c, "Red", order("asset-repair", wc.ID, "target", id(fr)), 2)
	if !out.Success || c.Faction("Red").AP != 2 {
		t.Fatalf("Repair (Special): %+v", out)
	}
	next(c)
	begin(t, c, "Red")
	if a, _ := c.Asset(fr.ID); a.Health != 2 {
		t.Errorf("Frigate = %d", a.Health)
	}
	a, _ := c.Asset(fr.ID)
	a.Health = 1
	if out = do(t, c, "Red", order("asset-repair", wc.ID, "target", id(fr)), 5); out.Success {
		t.Error("roll 5 vs 2 repaired")
	}
}

func TestRemoteAndSabotageChain(t *testing.T) {
	// "Plan -> Remote -> Sabotage": a Hacker Cell at home plans its Remote,
	// uses the Plan's AP for the Remote, then sabotages Blue from Mars.
	c := world(t)
	hc := add(t, c, "Red", "Hacker Cell", "Mars")
	// Plan (Special): 4 + INT 4 + 7 = 15 vs 4 + 3 = 7: MoS 8.
	do(t, c, "Red", order("plan-special", hc.ID, "action", "remote", "faction", "Blue"), 7, 3)
	next(c)
	// Remote: Straight Asset 4 (no HTA in the text); roll 1: MoS 3.
	out := do(t, c, "Red", order("remote", hc.ID), 1)
	if c.Faction("Red").AP != 4 || out.Effects[0].Amount != 3 {
		t.Fatalf("Remote with the Plan's AP: AP %d, %+v", c.Faction("Red").AP, out.Effects)
	}
	next(c)
	// Sabotage, remotely, from Mars: "An Asset in its own Faction's
	// territory may use the Faction's Attribute": 4 + INT 4 + 9 = 17 vs Blue
	// INT 4 + 2 = 6: MoS 11, 5 TEC.
	out = do(t, c, "Red", order("sabotage", hc.ID, "mode", "stat", "faction", "Blue", "stat", "TEC"), 9, 2)
	if c.Faction("Blue").Stats.TEC != 3 || len(c.Faction("Red").Turn.Remotes) != 0 {
		t.Fatalf("remote Sabotage: TEC %d, %+v", c.Faction("Blue").Stats.TEC, out)
	}
	// Without the Remote, Sabotage must be in the enemy's territory.
	next(c)
	refuse(t, c, "Red", order("sabotage", hc.ID, "mode", "stat", "faction", "Blue", "stat", "TEC"), ErrNotAvailable)
	if out = do(t, c, "Red", order("remote", hc.ID), 7); out.Success {
		t.Error("Remote: 7 vs 4 succeeded")
	}
}

func TestSabotage(t *testing.T) {
	c := world(t)
	hc := add(t, c, "Red", "Hacker Cell", "Luna")
	// "cause Habitat Damage": 4 + 9 = 13 vs 4 + 2 = 6: 3 damage.
	do(t, c, "Red", order("sabotage", hc.ID, "mode", "habitat"), 9, 2)
	if c.Habitat("Luna").Health != 2 {
		t.Errorf("Luna health = %d", c.Habitat("Luna").Health)
	}
	next(c)
	do(t, c, "Red", order("sabotage", hc.ID, "mode", "attribute", "faction", "Blue", "attr", "STR"), 9, 2)
	if c.Faction("Blue").Attributes.STR != 1 {
		t.Errorf("Blue STR = %d, want 1", c.Faction("Blue").Attributes.STR)
	}
	// "Cancel an enemy's ... Produce Asset action".
	next(c)
	c.Config.GMApprovesProduction = false
	do(t, c, "Blue", order("produce-asset", 0, "chart", "Militia", "at", "Luna"))
	e := c.Effects[len(c.Effects)-1]
	out := do(t, c, "Red", order("sabotage", hc.ID, "mode", "cancel", "effect", id(&Asset{ID: e.ID})), 9, 2)
	if slices.ContainsFunc(c.Effects, func(x Effect) bool { return x.ID == e.ID }) {
		t.Errorf("not cancelled: %+v", out)
	}
	next(c)
	if out = do(t, c, "Red", order("sabotage", hc.ID, "mode", "habitat"), 2, 9); out.Success || c.Habitat("Luna").Health != 2 {
		t.Error("a failed Sabotage did damage")
	}
	next(c)
	refuse(t, c, "Red", order("sabotage", hc.ID, "mode", "habitat", "habitat", "Mars"), ErrNotAvailable)
}

func TestMoreFailures(t *testing.T) {
	// Attack (Special) whose free Plan fails (4 + 1 vs 4 + 9): the attack
	// pays its own AP; it fails (4 + 2 vs 6 + 5) and the Counter-Attack
	// fails too (6 + 1 vs 4 + 9).
	c := world(t)
	ma := add(t, c, "Red", "Marines", "Luna")
	mil := add(t, c, "Blue", "Militia", "Luna")
	out := do(t, c, "Red", order("attack-special", ma.ID, "target", id(mil)), 1, 9, 2, 5, 1, 9)
	if out.Success || c.Faction("Red").AP != 2 || len(out.Triggered) != 1 || out.Triggered[0].Success {
		t.Errorf("failed Attack (Special): AP %d, %+v", c.Faction("Red").AP, out)
	}
	if a, _ := c.Asset(ma.ID); a.Health != 2 {
		t.Error("a failed Counter-Attack did damage")
	}
	// Plan (Special) fails: 6 + 4 + 1 vs 4 + 9 (Directorate at home).
	c = world(t)
	dir := add(t, c, "Red", "Intelligence Directorate", "Mars")
	out = do(t, c, "Red", order("plan-special", dir.ID, "action", "investigate", "faction", "Blue"), 1, 9)
	if out.Success || len(c.Effects) != 0 || c.Faction("Red").AP != 3 {
		t.Errorf("failed Plan (Special): %+v", out)
	}
	// Diplomacy (asset) with nothing to break; Pay with too little.
	env := add(t, c, "Red", "Envoy", "Mars")
	refuse(t, c, "Red", order("asset-diplomacy", env.ID, "faction", "Blue", "op", "break"), ErrNotAvailable)
	c.Faction("Red").Debts = []Debt{{ID: 77, Kind: "annex", Habitat: "Luna", Stat: POP, Amount: 9}}
	refuse(t, c, "Red", order("pay", 0, "debt", "77"), ErrNotEnoughStat)
	refuse(t, c, "Red", order("pay", 0, "debt", "78"), ErrNotAvailable)
}

// An outcome says whether the acting asset acted Covertly, so a public
// report can leave its doings out.
func TestOutcomeCovert(t *testing.T) {
	c := world(t)
	fr := add(t, c, "Red", "Frigate", "Luna")
	mil := add(t, c, "Blue", "Militia", "Luna")
	if out := do(t, c, "Red", order("attack", fr.ID, "target", id(mil)), 5, 1); out.Covert {
		t.Errorf("an open attack reported Covert")
	}
	c = world(t)
	spy := add(t, c, "Red", "Spy", "Luna")
	spy.Covert = true
	mil = add(t, c, "Blue", "Militia", "Luna")
	if out := do(t, c, "Red", order("attack", spy.ID, "target", id(mil)), 5, 1); !out.Covert {
		t.Errorf("a covert spy's attack not reported Covert: %+v", out)
	}
}
