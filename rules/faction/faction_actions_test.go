package faction

import (
	"slices"
	"strconv"
	"testing"
)

func id(a *Asset) string { return strconv.Itoa(a.ID) }

func TestRegroup(t *testing.T) {
	for _, tt := range []struct {
		mode   string
		points int
		want   int
	}{
		// "Cost: [Points]^2 Related Stat (1st point no cost)"
		{"first-free", 1, 0}, {"first-free", 2, 4}, {"first-free", 3, 9},
		{"minus-one", 1, 0}, {"minus-one", 2, 3}, {"minus-one", 3, 8},
		{"shifted", 1, 0}, {"shifted", 2, 1}, {"shifted", 3, 4},
	} {
		if got := RegroupCost(tt.mode, tt.points); got != tt.want {
			t.Errorf("RegroupCost(%s, %d) = %d, want %d", tt.mode, tt.points, got, tt.want)
		}
	}

	c := world(t)
	c.Faction("Red").Attributes.STR = 2
	// "Heal any Faction Attribute. Takes effect the next Round."
	out := do(t, c, "Red", order("regroup", 0, "attr", "STR", "points", "2"))
	red := c.Faction("Red")
	if red.Stats.POP != 3 || red.Attributes.STR != 2 || len(out.Effects) != 1 || out.Effects[0].Due != 2 {
		t.Fatalf("after Regroup of 2: POP %d (want 7-4=3), STR %d (want 2 until next round), effects %+v", red.Stats.POP, red.Attributes.STR, out.Effects)
	}
	next(c)
	begin(t, c, "Red")
	if got := c.Faction("Red").Attributes.STR; got != 4 {
		t.Errorf("STR next round = %d, want 4", got)
	}

	// Failures: nothing damaged; not enough of the Related Stat.
	c = world(t)
	refuse(t, c, "Red", order("regroup", 0, "attr", "STR"), ErrNotAvailable)
	c.Faction("Red").Attributes.STR = 1
	c.Faction("Red").Stats.POP = 3
	refuse(t, c, "Red", order("regroup", 0, "attr", "STR"), ErrNotEnoughStat) // 3 points cost 9
	do(t, c, "Red", order("regroup", 0, "attr", "STR", "points", "1"))        // "1st point no cost"
	if c.Faction("Red").Stats.POP != 3 {
		t.Error("the first point cost something")
	}
}

func TestInvest(t *testing.T) {
	c := world(t)
	c.Faction("Red").Stats.INF = 3
	// "Heal or Boost (for one Round) any Faction Health Stat by [MoS/2]
	// points (minimum 1). Takes effect the next Round." RES 4, roll 2: MoS 2,
	// heals 1.
	out := do(t, c, "Red", order("invest", 0, "stat", "INF"), 2)
	if !out.Success || out.Tests[0].Target != 4 || out.Effects[0].Amount != 1 || c.Faction("Red").Stats.INF != 3 {
		t.Fatalf("Invest: %+v", out)
	}
	refuse(t, c, "Red", order("invest", 0, "stat", "TEC"), ErrAlreadyActed, 1) // "ONE Faction Action"
	next(c)
	begin(t, c, "Red")
	if got := c.Faction("Red").Stats.INF; got != 4 {
		t.Errorf("INF next round = %d, want 4", got)
	}

	// Boost: INF full (7); RES 9, roll 2: MoS 7, 3 points: 10 for one round.
	c = world(t)
	red := c.Faction("Red")
	red.Attributes.RES, red.MaxAttributes.RES = 9, 9
	do(t, c, "Red", order("invest", 0, "stat", "INF"), 2)
	next(c)
	begin(t, c, "Red")
	if got := c.Faction("Red").Stats.INF; got != 10 {
		t.Fatalf("boosted INF = %d, want 10", got)
	}
	next(c)
	begin(t, c, "Red")
	if got := c.Faction("Red").Stats.INF; got != 7 {
		t.Errorf("INF after the boost's round = %d, want 7", got)
	}

	// Failure: roll 5 against RES 4.
	c = world(t)
	out = do(t, c, "Red", order("invest", 0, "stat", "INF"), 5)
	if out.Success || len(out.Effects) != 0 || len(c.Effects) != 0 {
		t.Errorf("failed Invest queued %+v", out.Effects)
	}
	refuse(t, c, "Blue", order("invest", 0, "stat", "XYZ"), ErrBadParam)
}

func TestMaintenance(t *testing.T) {
	c := world(t)
	c.Habitat("Mars").Health = 2
	// RES 4, roll 1: MoS 3, heals 1, costs [Damage] = 1 INF.
	do(t, c, "Red", order("maintenance", 0, "habitat", "Mars"), 1)
	if got := c.Faction("Red").Stats.INF; got != 6 {
		t.Errorf("INF = %d, want 6", got)
	}
	next(c)
	begin(t, c, "Red")
	if got := c.Habitat("Mars").Health; got != 3 {
		t.Errorf("Mars health = %d, want 3", got)
	}

	// RES 9, roll 1: MoS 8, 4 points, but only 3 damage: heals and costs 3.
	c = world(t)
	c.Habitat("Mars").Health = 2
	red := c.Faction("Red")
	red.Attributes.RES, red.MaxAttributes.RES = 9, 9
	out := do(t, c, "Red", order("maintenance", 0, "habitat", "Mars"), 1)
	if out.Effects[0].Amount != 3 || c.Faction("Red").Stats.INF != 4 {
		t.Errorf("capped Maintenance: effect %+v, INF %d; want 3 and 4", out.Effects[0], c.Faction("Red").Stats.INF)
	}

	// Paying POP rolls STR; failure costs nothing.
	c = world(t)
	c.Habitat("Mars").Health = 2
	out = do(t, c, "Red", order("maintenance", 0, "habitat", "Mars", "pay", "POP"), 9)
	if out.Success || c.Faction("Red").Stats.POP != 7 || out.Tests[0].Actor.Parts[0].Name != "STR" {
		t.Errorf("failed Maintenance: %+v", out)
	}
	c = world(t)
	refuse(t, c, "Red", order("maintenance", 0, "habitat", "Mars"), ErrNotAvailable) // not damaged
	refuse(t, c, "Red", order("maintenance", 0, "habitat", "Luna"), ErrNotAvailable) // not Red's
}

func TestRepair(t *testing.T) {
	c := world(t)
	f := add(t, c, "Red", "Frigate", "Mars")
	f.Health = 1
	// "Heal an Asset in friendly territory by [MoS/2] points (minimum 1).
	// Takes one Round." STR 4, roll 2.
	out := do(t, c, "Red", order("repair", 0, "target", id(f)), 2)
	if !out.Success || len(out.Costs) != 0 {
		t.Fatalf("Repair: %+v", out)
	}
	next(c)
	begin(t, c, "Red")
	if a, _ := c.Asset(f.ID); a.Health != 2 {
		t.Errorf("Frigate Level = %d, want 2", a.Health)
	}

	c = world(t)
	f = add(t, c, "Red", "Frigate", "Mars")
	f.Health = 1
	if out := do(t, c, "Red", order("repair", 0, "target", id(f)), 7); out.Success || len(c.Effects) != 0 {
		t.Errorf("failed Repair: %+v", out)
	}

	// "If in hostile territory, spend [Level] INF and [Level] Related Stat
	// per GM's discretion."
	c = world(t)
	f = add(t, c, "Red", "Frigate", "Luna")
	f.Health = 1
	o := order("repair", 0, "target", id(f))
	out = do(t, c, "Red", o)
	if len(out.Questions) != 1 || out.Questions[0].Param != "gm_repair" || out.Questions[0].Ask != "gm" {
		t.Fatalf("hostile Repair asks no question: %+v", out)
	}
	if c.Faction("Red").Turn.FactionAction != "" {
		t.Fatal("a question used the Faction Action")
	}
	refuse(t, c, "Red", o.With("gm_repair", "deny"), ErrDenied)
	do(t, c, "Red", o.With("gm_repair", "approve"), 1)
	if red := c.Faction("Red"); red.Stats.INF != 5 || red.Stats.POP != 5 {
		t.Errorf("hostile Repair paid INF %d POP %d, want 5 and 5", red.Stats.INF, red.Stats.POP)
	}
	c = world(t)
	f = add(t, c, "Red", "Frigate", "Mars")
	refuse(t, c, "Red", order("repair", 0, "target", id(f)), ErrNotAvailable) // not damaged
}

// suppressedLuna: Luna at 0 and Suppressed, Red's Marines standing in it,
// Red's COH 6 (AP 6).
func suppressedLuna(t *testing.T) (*Campaign, *Asset) {
	c := world(t)
	h := c.Habitat("Luna")
	h.Health, h.Suppressed = 0, true
	m := add(t, c, "Red", "Marines", "Luna")
	red := c.Faction("Red")
	red.Attributes.COH, red.MaxAttributes.COH = 6, 6
	return c, m
}

func TestAnnex(t *testing.T) {
	c, m := suppressedLuna(t)
	c.Faction("Blue").Decline = []string{"rally"}
	annex := order("annex", 0, "habitat", "Luna", "annexer", id(m))
	// Marines Level 2: 4 + 9 = 13 against Blue's POP 8 + 2 = 10.
	out := do(t, c, "Red", annex, 9, 2)
	red, blue, luna := c.Faction("Red"), c.Faction("Blue"), c.Habitat("Luna")
	switch {
	case !out.Success:
		t.Fatalf("Annex failed: %+v", out.Tests)
	case luna.Owner != "Red" || luna.BonusActive || luna.Suppressed:
		t.Errorf("Luna = %+v", luna)
	case red.AP != 1:
		t.Errorf("Red AP = %d, want 6 - [Full Habitat Health] 5 = 1", red.AP)
	case red.Stats.POP != 2:
		t.Errorf("Red POP = %d, want 7 - 5 = 2", red.Stats.POP)
	case blue.Stats != (Stats{7, 7, 7, 7}):
		t.Errorf("Blue Stats = %+v: \"the former Faction immediately loses the Habitat's Health Stat bonuses\"", blue.Stats)
	}
	// "It must heal the Habitat and its own Health Stats to gain the
	// Habitat's bonuses."
	if c.StatMax(red, INF) != 7 {
		t.Error("the bonus came before the habitat was healed")
	}
	luna.Health = 5
	next(c)
	begin(t, c, "Red")
	if got := c.StatMax(c.Faction("Red"), INF); got != 8 {
		t.Errorf("full INF with Luna healed = %d, want 8", got)
	}

	// "If the roll fails, the Faction may re-attempt the Annexation in
	// [MoF] Rounds." 4 + 2 = 6 against 8 + 9 = 17: MoF 11.
	c, m = suppressedLuna(t)
	c.Faction("Blue").Decline = []string{"rally"}
	annex = order("annex", 0, "habitat", "Luna", "annexer", id(m))
	out = do(t, c, "Red", annex, 2, 9)
	if out.Success || c.Habitat("Luna").annexDelay("Red") != 12 {
		t.Fatalf("failed Annex: delay %d, want round 12", c.Habitat("Luna").annexDelay("Red"))
	}
	next(c)
	refuse(t, c, "Red", annex, ErrNotAvailable)

	// "if no enemy Assets are present that can fight back (including
	// Covert Assets)"
	c, m = suppressedLuna(t)
	spy := add(t, c, "Blue", "Spy", "Luna")
	spy.Covert = true
	refuse(t, c, "Red", order("annex", 0, "habitat", "Luna", "annexer", id(m)), ErrNotAvailable)
	c = world(t)
	m = add(t, c, "Red", "Marines", "Luna")
	refuse(t, c, "Red", order("annex", 0, "habitat", "Luna", "annexer", id(m)), ErrNotAvailable) // not Suppressed
}

func TestAnnexRebuildsAndDelaysPayment(t *testing.T) {
	c, m := suppressedLuna(t)
	blue := c.Faction("Blue")
	blue.Decline = []string{"rally"}
	c.Habitat("Luna").Ruins = []Ruin{{Chart: "Shipyard", Owner: "Blue"}, {Chart: "University", Owner: "Blue"}}
	add(t, c, "Red", "University", "Mars")
	out := do(t, c, "Red", order("annex", 0, "habitat", "Luna", "annexer", id(m), "pay_pop", "later"), 9, 2)
	red := c.Faction("Red")
	if red.Stats.POP != 7 || len(red.Debts) != 1 || red.Debts[0].Amount != 5 {
		t.Fatalf("delayed payment: POP %d, debts %+v", red.Stats.POP, red.Debts)
	}
	// "the new Faction may also "Produce" destroyed Facilities, which
	// appear at Level 0. Any duplicates must be Converted"
	var rebuilt []string
	for _, a := range red.Assets {
		if a.Location == "Luna" && a.Category == Facility {
			rebuilt = append(rebuilt, a.Chart+":"+strconv.Itoa(a.Health)+":"+strconv.FormatBool(a.Duplicate))
		}
	}
	if !slices.Equal(rebuilt, []string{"Shipyard:0:false", "University:0:true"}) {
		t.Errorf("rebuilt %v; changes %v", rebuilt, out.Changes)
	}
	// The bonus waits for the payment.
	c.Habitat("Luna").Health = 5
	next(c)
	begin(t, c, "Red")
	if c.Habitat("Luna").BonusActive {
		t.Fatal("bonus active before the POP was paid")
	}
	do(t, c, "Red", order("pay", 0, "debt", strconv.Itoa(red.Debts[0].ID)))
	if !c.Habitat("Luna").BonusActive || c.Faction("Red").Stats.POP != 2 {
		t.Errorf("after paying: bonus %v POP %d", c.Habitat("Luna").BonusActive, c.Faction("Red").Stats.POP)
	}
}

func TestRally(t *testing.T) {
	// "Annex may be interrupted by a Rally action": Blue's STR 4 + 8 = 12
	// against the Marines' 4 + 2 = 6.
	c, m := suppressedLuna(t)
	out := do(t, c, "Red", order("annex", 0, "habitat", "Luna", "annexer", id(m)), 8, 2)
	if out.Success || len(out.Triggered) != 1 || !out.Triggered[0].Success || c.Habitat("Luna").Owner != "Blue" {
		t.Fatalf("Rally did not stop the Annexation: %+v", out)
	}
	if c.Faction("Red").AP != 6 || c.Habitat("Luna").annexDelay("Red") != 2 {
		t.Errorf("Red AP %d (want 6: no roll, no cost), delay %d (want 2)", c.Faction("Red").AP, c.Habitat("Luna").annexDelay("Red"))
	}
	// The Rally was Blue's Faction Action this round.
	refuse(t, c, "Blue", order("invest", 0, "stat", "INF"), ErrAlreadyActed, 1)

	// A failed Rally: the Annexation goes on.
	c, m = suppressedLuna(t)
	out = do(t, c, "Red", order("annex", 0, "habitat", "Luna", "annexer", id(m)), 2, 8, 9, 2)
	if !out.Success || c.Habitat("Luna").Owner != "Red" {
		t.Fatalf("Annexation after a failed Rally: %+v", out)
	}

	// Rally in Blue's own turn: "A success delays the invader's Annexation
	// Roll by 1 Round."
	c, m = suppressedLuna(t)
	out = do(t, c, "Blue", order("rally", 0, "habitat", "Luna", "target", id(m)), 8, 2)
	if !out.Success || c.Habitat("Luna").annexDelay("Red") != 2 {
		t.Errorf("Rally: %+v", out)
	}
	c, m = suppressedLuna(t)
	if out = do(t, c, "Blue", order("rally", 0, "habitat", "Luna", "target", id(m)), 2, 8); out.Success || c.Habitat("Luna").annexDelay("Red") != 0 {
		t.Errorf("failed Rally delayed: %+v", out)
	}
	// Independence: SOL "is added to Rally rolls".
	c, m = suppressedLuna(t)
	c.Faction("Blue").Memes = []Meme{{Name: "Independence", Active: true}}
	out = do(t, c, "Blue", order("rally", 0, "habitat", "Luna", "target", id(m)), 2, 8)
	if out.Tests[0].Total != 4+8+2 || !out.Success {
		t.Errorf("Rally with Independence: %s", out.Tests[0].Text)
	}
	refuse(t, c, "Blue", order("rally", 0, "habitat", "Titan", "target", id(m)), ErrAlreadyActed)
	c = world(t)
	m = add(t, c, "Red", "Marines", "Titan")
	refuse(t, c, "Blue", order("rally", 0, "habitat", "Titan", "target", id(m)), ErrNotAvailable) // not Suppressed
}

func TestProductionRounds(t *testing.T) {
	// "Units and Agents take [Level*2] turns to construct; Facilities and
	// Vehicles take [(Level+1)^2] turns to construct."
	for _, tt := range []struct {
		cat   Category
		level int
		want  int
	}{{Unit, 1, 2}, {Agent, 2, 4}, {Unit, 3, 6}, {Facility, 1, 4}, {Facility, 3, 16}, {Vehicle, 2, 9}, {Vehicle, 4, 25}} {
		if got := ProductionRounds(tt.cat, tt.level); got != tt.want {
			t.Errorf("ProductionRounds(%s, %d) = %d, want %d", tt.cat, tt.level, got, tt.want)
		}
	}
}

func TestProduceAsset(t *testing.T) {
	c := world(t)
	o := order("produce-asset", 0, "chart", "Militia")
	out := do(t, c, "Red", o)
	if len(out.Questions) != 1 || out.Questions[0].Param != "gm_produce" || c.Faction("Red").Stats.POP != 7 {
		t.Fatalf("\"Unit production per GM's discretion\": %+v", out)
	}
	refuse(t, c, "Red", o.With("gm_produce", "deny"), ErrDenied)
	// "Production immediately incurs [Level] Stat damage of the related
	// type." Militia: STR, Level 1: 1 POP, 2 rounds.
	out = do(t, c, "Red", o.With("gm_produce", "approve"))
	if c.Faction("Red").Stats.POP != 6 || out.Effects[0].Due != 3 {
		t.Fatalf("Produce Asset: POP %d, effect %+v", c.Faction("Red").Stats.POP, out.Effects)
	}
	next(c)
	next(c)
	begin(t, c, "Red")
	if n := len(c.Faction("Red").Assets); n != 1 || c.Faction("Red").Assets[0].Chart != "Militia" || c.Faction("Red").Assets[0].Location != "Mars" {
		t.Errorf("after 2 rounds: %+v", c.Faction("Red").Assets)
	}

	c = world(t)
	c.Config.GMApprovesProduction = false
	refuse(t, c, "Red", order("produce-asset", 0, "chart", "Freighter"), ErrNotAvailable) // "Vehicle production must take place at a Shipyard"
	refuse(t, c, "Red", order("produce-asset", 0, "chart", "Marines"), ErrNotAvailable)   // needs Barracks
	refuse(t, c, "Red", order("produce-asset", 0, "chart", "Militia", "at", "Luna"), ErrNotAvailable)
	add(t, c, "Red", "Shipyard", "Mars")
	out = do(t, c, "Red", order("produce-asset", 0, "chart", "Freighter"))
	if out.Effects[0].Due != 1+4 {
		t.Errorf("Freighter due %d, want 5", out.Effects[0].Due)
	}
}

func TestPurchase(t *testing.T) {
	c := world(t)
	fr := add(t, c, "Blue", "Freighter", "Luna")
	c.Faction("Blue").Stats.INF = 5
	o := order("purchase", 0, "faction", "Blue", "target", id(fr), "price", "2")
	out := do(t, c, "Red", o)
	if len(out.Questions) != 1 || out.Questions[0].Ask != "gm" {
		t.Fatalf("an NPC's consent goes to the GM: %+v", out.Questions)
	}
	refuse(t, c, "Red", o.With("consent", "refuse"), ErrDenied)
	do(t, c, "Red", o.With("consent", "agree"))
	if a, f := c.Asset(fr.ID); f.Name != "Red" || a == nil || c.Faction("Red").Stats.INF != 5 || c.Faction("Blue").Stats.INF != 7 {
		t.Errorf("after the sale: owner %s, INF %d and %d", f.Name, c.Faction("Red").Stats.INF, c.Faction("Blue").Stats.INF)
	}
	c = world(t)
	fr = add(t, c, "Blue", "Freighter", "Luna")
	c.Relations = []Relation{{A: "Blue", B: "Red", Kind: Hostile}}
	refuse(t, c, "Red", order("purchase", 0, "faction", "Blue", "target", id(fr), "consent", "agree"), ErrNotAvailable)
}

func TestHireMercenaries(t *testing.T) {
	c := world(t)
	mil := add(t, c, "Blue", "Militia", "Luna")
	c.Faction("Blue").Stats.INF = 5
	do(t, c, "Red", order("hire-mercenaries", 0, "faction", "Blue", "target", id(mil), "consent", "agree"))
	if a, _ := c.Asset(mil.ID); a.HiredBy != "Red" || c.Faction("Red").Stats.INF != 5 || c.Faction("Blue").Stats.INF != 7 {
		t.Fatalf("hire: %+v, INF %d/%d", a, c.Faction("Red").Stats.INF, c.Faction("Blue").Stats.INF)
	}
	// "acts on the owning Faction's turn" for the hirer; not for its owner.
	refuse(t, c, "Blue", order("produce", mil.ID), ErrCannotAct)
	do(t, c, "Red", order("produce", mil.ID), 9)
	// "+ 1 INF per Round thereafter (paid to owning Faction)"
	next(c)
	begin(t, c, "Red")
	if c.Faction("Red").Stats.INF != 4 || c.Faction("Blue").Stats.INF != 8 {
		t.Errorf("fee: INF %d/%d, want 4/8", c.Faction("Red").Stats.INF, c.Faction("Blue").Stats.INF)
	}
	do(t, c, "Red", order("release-mercenary", 0, "target", id(mil)))
	if a, _ := c.Asset(mil.ID); a.HiredBy != "" {
		t.Error("released mercenary still hired")
	}

	// Bespoke: "it may be produced in the owning Faction's turn and act on
	// the hiring Faction's next turn"; released, it disappears.
	c = world(t)
	do(t, c, "Red", order("hire-mercenaries", 0, "faction", "Blue", "chart", "Militia", "consent", "agree"))
	begin(t, c, "Blue")
	var b *Asset
	for _, a := range c.Faction("Blue").Assets {
		if a.HiredBy == "Red" && a.Bespoke {
			b = a
		}
	}
	if b == nil {
		t.Fatalf("no bespoke mercenary: %+v", c.Faction("Blue").Assets)
	}
	do(t, c, "Red", order("release-mercenary", 0, "target", id(b)))
	if a, _ := c.Asset(b.ID); a != nil {
		t.Error("a bespoke mercenary did not disappear")
	}
	c = world(t)
	mil = add(t, c, "Blue", "Militia", "Luna")
	refuse(t, c, "Red", order("hire-mercenaries", 0, "faction", "Blue", "target", id(mil), "consent", "refuse"), ErrDenied)
}

func TestRepurpose(t *testing.T) {
	for _, tt := range []struct {
		mode  string
		level int
		same  bool
		want  int
	}{
		{"description", 2, true, 2}, {"description", 2, false, 4},
		{"header", 2, true, 4}, {"header", 2, false, 6},
	} {
		if got := RepurposeRounds(tt.mode, tt.level, tt.same); got != tt.want {
			t.Errorf("RepurposeRounds(%s, %d, %v) = %d, want %d", tt.mode, tt.level, tt.same, got, tt.want)
		}
	}
	// "If converting to the same type (RES/INT/COH/STR), spend [new Level]
	// Related Stat points, and repurposing takes [new Level] Rounds."
	c := world(t)
	mil := add(t, c, "Red", "Militia", "Mars")
	do(t, c, "Red", order("repurpose", 0, "target", id(mil), "chart", "Marines"))
	if c.Faction("Red").Stats.POP != 5 {
		t.Errorf("POP = %d, want 7 - 2", c.Faction("Red").Stats.POP)
	}
	refuse(t, c, "Red", order("produce", mil.ID), ErrCannotAct)
	next(c)
	next(c)
	begin(t, c, "Red")
	if a, _ := c.Asset(mil.ID); a.Chart != "Marines" || a.Level != 2 || a.Health != 2 {
		t.Errorf("repurposed: %+v", a)
	}
	// "If converting to a different type, spend [(new Level)*2] Related
	// Stat points, and repurposing takes [(new Level)+2] Rounds."
	c = world(t)
	mil = add(t, c, "Red", "Militia", "Mars")
	out := do(t, c, "Red", order("repurpose", 0, "target", id(mil), "chart", "Work Crew"))
	if c.Faction("Red").Stats.INF != 5 || out.Effects[0].Due != 4 {
		t.Errorf("different type: INF %d, due %d; want 5 and 4", c.Faction("Red").Stats.INF, out.Effects[0].Due)
	}
	c = world(t)
	mil = add(t, c, "Red", "Militia", "Mars")
	refuse(t, c, "Red", order("repurpose", 0, "target", id(mil), "chart", "Barracks"), ErrNotAvailable) // "of the same Category"
}

func TestMandate(t *testing.T) {
	c := world(t)
	red := c.Faction("Red")
	red.Attributes.COH, red.MaxAttributes.COH = 8, 8
	mandate := order("mandate", 0, "meme", "Legalism")
	// COH 8, three rolls of 1: MoS 7 each. "The attempt immediately does
	// [10-(MoS)]/2 SOL damage": 1 a roll.
	for round, sol := range []int{6, 5, 4} {
		do(t, c, "Red", mandate, 1)
		if got := c.Faction("Red").Stats.SOL; got != sol {
			t.Fatalf("roll %d: SOL %d, want %d", round+1, got, sol)
		}
		if round < 2 {
			next(c)
		}
	}
	red = c.Faction("Red")
	// "earn the Meme and pay an additional [10-(MoS)]/2 INF points (minimum
	// 1). A new Meme provides no benefits for [10-(MoS)] Rounds."
	if red.Stats.INF != 6 || len(red.Memes) != 1 || red.Memes[0].Active || red.Memes[0].ActiveFrom != 6 {
		t.Fatalf("earned: INF %d, memes %+v", red.Stats.INF, red.Memes)
	}
	fab := add(t, c, "Red", "Fabricator", "Mars")
	for c.Round < 6 {
		next(c)
		begin(t, c, "Red")
	}
	if !c.Faction("Red").Memes[0].Active {
		t.Fatal("Legalism not active in round 6")
	}
	// Legalism: "RES and COH actions cost 1 AP less": the Fabricator's
	// Produce costs 1.
	do(t, c, "Red", order("produce", fab.ID), 9)
	if got := c.Faction("Red").AP; got != 8-1 {
		t.Errorf("AP after a Legalist Produce = %d, want 7", got)
	}

	// "If one of the rolls fail, a Mandate may not be re-attempted for
	// [(MoF)*2] Rounds." COH 4, roll 9: MoF 5; SOL damage (10-0)/2 = 5.
	c = world(t)
	out := do(t, c, "Red", mandate, 9)
	if out.Success || c.Faction("Red").Stats.SOL != 2 || c.Faction("Red").MandateLockedUntil != 12 {
		t.Fatalf("failed Mandate: SOL %d lock %d", c.Faction("Red").Stats.SOL, c.Faction("Red").MandateLockedUntil)
	}
	next(c)
	refuse(t, c, "Red", mandate, ErrNotAvailable)

	// "At no point may a Faction have more than 3 Memes."
	c = world(t)
	c.Faction("Red").Memes = []Meme{{Name: "Clandestine", Active: true}, {Name: "Singularity", Active: true}, {Name: "Isolationism", Active: true}}
	refuse(t, c, "Red", mandate, ErrNotAvailable)
	do(t, c, "Red", mandate.With("replace", "Isolationism"), 1)
	if m := c.Faction("Red").Mandate; m == nil || m.Replace != "Isolationism" {
		t.Errorf("mandate %+v", m)
	}
	// "3 Turns in a row": a gap starts it again.
	next(c)
	next(c)
	out = do(t, c, "Red", order("mandate", 0), 1)
	if m := c.Faction("Red").Mandate; len(out.Notes) == 0 || m == nil || m.Successes != 1 || m.Replace != "Isolationism" {
		t.Errorf("a lapsed Mandate did not start again: %+v %+v", out.Notes, m)
	}
}

func TestDiplomacy(t *testing.T) {
	c := world(t)
	do(t, c, "Red", order("diplomacy", 0, "faction", "Blue"))
	if len(c.Proposals) != 1 || c.Allied("Red", "Blue") {
		t.Fatalf("proposal: %+v", c.Proposals)
	}
	// "Duration: 1 Round": Blue's acceptance takes effect in its next turn.
	out := do(t, c, "Blue", order("diplomacy", 0, "faction", "Red"))
	if len(out.Effects) != 1 || c.Allied("Red", "Blue") {
		t.Fatalf("acceptance: %+v", out)
	}
	next(c)
	begin(t, c, "Blue")
	if !c.Allied("Red", "Blue") || !c.Friendly(c.Faction("Red"), "Luna") {
		t.Fatal("no alliance the next round")
	}
	refuse(t, c, "Red", order("diplomacy", 0, "faction", "Blue"), ErrNotAvailable) // already allied
	// The asset's Diplomacy is "Instant".
	env := add(t, c, "Red", "Envoy", "Mars")
	do(t, c, "Red", order("asset-diplomacy", env.ID, "faction", "Blue", "op", "break"))
	if c.Allied("Red", "Blue") {
		t.Error("Envoy's break was not instant")
	}
	// The Faction Action comes before Asset Actions.
	refuse(t, c, "Red", order("diplomacy", 0, "faction", "Blue", "kind", "hostile"), ErrWrongPhase)
	next(c)
	refuse(t, c, "Red", order("diplomacy", 0, "faction", "Blue", "op", "break"), ErrNotAvailable)
	do(t, c, "Red", order("diplomacy", 0, "faction", "Blue", "kind", "hostile"))
	next(c)
	begin(t, c, "Red")
	if c.relation("Red", "Blue") != Hostile {
		t.Error("hostility needs no consent")
	}
}
