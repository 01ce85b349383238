package ulm

import (
	"slices"
	"testing"

	"github.com/tablehand/tablehand/rules/dice"
	"github.com/tablehand/tablehand/rules/encounter"
)

// TestGivenInitiative: the "Midnight in Vaia" text rolls no initiative, so
// a score given at the table (encounter.StatGiven) is only a place in the
// order, highest first, as the "initiative" stat is; it takes the place of
// that stat, rolls no die, and the reply tells it as given.
func TestGivenInitiative(t *testing.T) {
	p := newPolicy(DefaultConfig())
	const text = ", as rolled at the table (ulm rolls none: a place in the order, highest first)"
	r := dice.NewPhysical(nil)
	e := encounter.New(SystemName)
	for _, c := range []encounter.Combatant{
		{Name: "A", Stats: stats("initiative", 9)},
		{Name: "B", Stats: stats(encounter.StatGiven, 12)},
		{Name: "C", Stats: stats("initiative", 20, encounter.StatGiven, 3)},
	} {
		if _, err := e.Add(p, nil, "gm", c); err != nil {
			t.Fatal(err)
		}
	}
	ev, err := e.Begin(p, r, "gm")
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Done(); err != nil {
		t.Fatal(err)
	}
	if got, want := order(e), []string{"B", "A", "C"}; !slices.Equal(got, want) {
		t.Errorf("order %v, want %v", got, want)
	}
	var got []string
	for _, roll := range ev.Rolls {
		if !roll.Given || len(roll.Faces) != 0 {
			t.Errorf("roll %+v: want a given one, no die", roll)
		}
		got = append(got, roll.Name+": "+roll.Text)
	}
	if want := []string{"B: 12" + text, "C: 3" + text}; !slices.Equal(got, want) {
		t.Errorf("rolls %q, want %q", got, want)
	}

	// A newcomer with a given score goes after those it ties with.
	ev, err = e.Add(p, r, "gm", encounter.Combatant{Name: "N", Stats: stats(encounter.StatGiven, 9)})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := order(e), []string{"B", "A", "N", "C"}; !slices.Equal(got, want) {
		t.Errorf("after N joins: order %v, want %v", got, want)
	}
	if len(ev.Rolls) != 1 || ev.Rolls[0].Text != "9"+text || !ev.Rolls[0].Given {
		t.Errorf("N's rolls %+v, want its given 9", ev.Rolls)
	}
}
