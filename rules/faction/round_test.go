package faction

import (
	"errors"
	"testing"

	"github.com/tablehand/tablehand/rules/dice"
)

func round(t *testing.T, c *Campaign, orders map[string][]Order, faces ...int) RoundReport {
	t.Helper()
	d := dice.NewPhysical(faces)
	rep, err := ResolveRound(c, orders, d)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Done(); err != nil {
		t.Fatal(err)
	}
	return rep
}

// "The sequence may be taken in full for each faction (Turn-Wise), or
// faction by faction for each phase (Phase-Wise)." Red attacks Blue's
// damaged Marines (phase 5); Blue repairs them (phase 3). Turn-Wise, Red's
// whole turn comes first and the Marines are gone before Blue's Repair;
// Phase-Wise, Blue's Repair comes before any Asset Action.
func TestSequence(t *testing.T) {
	setup := func(seq string) (*Campaign, map[string][]Order) {
		c := world(t)
		c.Config.Sequence = seq
		fr := add(t, c, "Red", "Frigate", "Luna")
		ma := add(t, c, "Blue", "Marines", "Luna")
		ma.Health = 1
		return c, map[string][]Order{
			"Red":  {order("attack", fr.ID, "target", id(ma))},
			"Blue": {order("repair", 0, "target", id(ma))},
		}
	}
	c, orders := setup(TurnWise)
	rep := round(t, c, orders, 9, 1) // 4 + 9 vs 2 + 4 + 1: 3 damage
	blue, _ := rep.Faction("Blue")
	if len(blue.Skipped) != 1 || !errors.Is(blue.Skipped[0].Err, ErrUnknownAsset) {
		t.Errorf("Turn-Wise: Blue's Repair should find no Marines: %+v", blue)
	}
	c, orders = setup(PhaseWise)
	rep = round(t, c, orders, 2, 9, 1) // Blue's Repair rolls first
	blue, _ = rep.Faction("Blue")
	if len(blue.Skipped) != 0 || len(blue.Outcomes) != 1 || !blue.Outcomes[0].Success {
		t.Errorf("Phase-Wise: Blue's Repair should come first: %+v", blue)
	}
	if c.Round != 2 {
		t.Errorf("round = %d, want 2", c.Round)
	}
}

type failingRoller struct{ after int }

func (f *failingRoller) Roll(sides int) (int, error) {
	if f.after == 0 {
		return 0, errors.New("the dice fell off the table")
	}
	f.after--
	return 5, nil
}

// "A failed round must leave c unchanged."
func TestFailedRoundLeavesCampaign(t *testing.T) {
	c := world(t)
	fab := add(t, c, "Red", "Fabricator", "Mars")
	c.Faction("Blue").Policy = PolicyProduce
	add(t, c, "Blue", "Militia", "Luna")
	before := c.Clone()
	orders := map[string][]Order{"Red": {order("invest", 0, "stat", "INF"), order("produce", fab.ID)}}
	if _, err := ResolveRound(c, orders, &failingRoller{after: 1}); err == nil {
		t.Fatal("no error from a failing roller")
	}
	if !sameState(before, c) {
		t.Fatal("a failed round changed the campaign")
	}
	if _, err := ResolveRound(c, map[string][]Order{"Nobody": nil}, dice.NewPhysical(nil)); !errors.Is(err, ErrUnknownFaction) {
		t.Errorf("orders for an unknown faction: %v", err)
	}
	if !sameState(before, c) {
		t.Fatal("a refused round changed the campaign")
	}
}

func TestRoundQuestionsAndSkips(t *testing.T) {
	c := world(t)
	fab := add(t, c, "Red", "Fabricator", "Mars")
	orders := map[string][]Order{"Red": {
		order("produce-asset", 0, "chart", "Militia"), // asks the GM
		order("produce", fab.ID),
		order("produce", fab.ID), // acts twice
		order("no-such-action", 0),
	}}
	rep := round(t, c, orders, 9)
	red, _ := rep.Faction("Red")
	if len(rep.Questions) != 1 || rep.Questions[0].Index != 0 || rep.Questions[0].Question.Param != "gm_produce" {
		t.Errorf("questions: %+v", rep.Questions)
	}
	if len(red.Skipped) != 2 || !errors.Is(red.Skipped[0].Err, ErrUnknownAction) || !errors.Is(red.Skipped[1].Err, ErrAlreadyActed) {
		t.Errorf("skipped: %+v", red.Skipped)
	}
	if c.Faction("Red").Stats.POP != 7 {
		t.Error("a held order was paid for")
	}
	// The answer goes in the order's Params; next round it is carried out.
	q := rep.Questions[0]
	rep = round(t, c, map[string][]Order{"Red": {q.Order.With(q.Question.Param, "approve")}})
	if red, _ = rep.Faction("Red"); len(red.Outcomes) != 1 || c.Faction("Red").Stats.POP != 6 {
		t.Errorf("answered: %+v", red)
	}
}

// A pre-existing Mercenary "acts on the owning Faction's turn".
func TestMercenaryActsOnOwnersTurn(t *testing.T) {
	c := world(t)
	c.TurnOrder = []string{"Red", "Blue"}
	mil := add(t, c, "Blue", "Militia", "Luna")
	mil.HiredBy, mil.HiredRound = "Red", 1
	rep := round(t, c, map[string][]Order{"Red": {order("produce", mil.ID)}, "Blue": {}}, 9)
	red, _ := rep.Faction("Red")
	if len(red.Outcomes) != 1 || red.Outcomes[0].Faction != "Red" {
		t.Fatalf("mercenary order: %+v", red)
	}
	// It was deferred to Blue's turn: Red's AP were renewed, then spent
	// after Blue's turn began.
	if c.Faction("Red").AP != 3 {
		t.Errorf("Red AP = %d, want 3", c.Faction("Red").AP)
	}
}

func TestPolicies(t *testing.T) {
	c := world(t)
	blue := c.Faction("Blue")
	blue.Policy = PolicyInvest
	blue.Stats.TEC = 3
	add(t, c, "Blue", "Intelligence Directorate", "Luna") // INT: produces TEC
	add(t, c, "Blue", "Militia", "Luna")                  // STR: does not
	// Invest TEC (INT 4): roll 2; the Directorate produces TEC: 6 + INT 4 =
	// 10, roll 3. Red has no orders and no policy: it holds.
	rep := round(t, c, map[string][]Order{}, 2, 3)
	br, _ := rep.Faction("Blue")
	if br.Policy != PolicyInvest || len(br.Outcomes) != 2 || br.Outcomes[0].Action != "invest" || br.Outcomes[1].Action != "produce" {
		t.Fatalf("invest policy: %+v", br.Outcomes)
	}
	if rr, _ := rep.Faction("Red"); rr.Policy != PolicyHold || len(rr.Outcomes) != 0 {
		t.Errorf("Red: %+v", rr)
	}
	if len(br.Pending) != 2 || len(br.Tests()) != 2 || len(br.Costs()) != 1 {
		t.Errorf("pending %+v tests %d costs %+v", br.Pending, len(br.Tests()), br.Costs())
	}

	// Repair: the Faction Action on the most damaged asset, then one Repair
	// (Special) on the next.
	c = world(t)
	blue = c.Faction("Blue")
	blue.Policy = PolicyRepair
	wc := add(t, c, "Blue", "Work Crew", "Luna")
	a := add(t, c, "Blue", "Dreadnought", "Luna")
	a.Health = 1
	b := add(t, c, "Blue", "Frigate", "Luna")
	b.Health = 1
	rep = round(t, c, nil, 1, 1)
	br, _ = rep.Faction("Blue")
	if len(br.Outcomes) != 2 || br.Outcomes[0].Action != "repair" || br.Outcomes[1].Action != "asset-repair" || br.Outcomes[1].Asset != wc.ID {
		t.Fatalf("repair policy: %+v", br.Outcomes)
	}

	// Produce: every asset Produces, highest Level first, while AP last.
	c = world(t)
	c.Faction("Blue").Policy = PolicyProduce
	add(t, c, "Blue", "Militia", "Luna")
	add(t, c, "Blue", "Dreadnought", "Luna")
	add(t, c, "Blue", "Fabricator", "Luna")
	rep = round(t, c, nil, 9, 9) // Invest, Dreadnought (4 AP), then none: 0 AP left
	br, _ = rep.Faction("Blue")
	if len(br.Outcomes) != 2 || br.Outcomes[1].Asset == 0 {
		t.Errorf("produce policy: %+v", br.Outcomes)
	}
	for _, p := range Policies.Values {
		if _, err := ParsePolicy(string(p)); err != nil {
			t.Error(err)
		}
	}
	if _, err := ParsePolicy("conquer"); err == nil {
		t.Error("ParsePolicy(conquer): no error")
	}
}
