package burst

import (
	"slices"
	"testing"

	"github.com/tablehand/tablehand/rules/dice"
	"github.com/tablehand/tablehand/rules/encounter"
)

// TestGivenInitiative: a score given at the table is the action roll with
// its bonus dice ("When combat begins, all participants who wish to act
// roll their action dice. Talents or skills might add bonus dice"), not
// more bonus dice; no die is rolled for it, and its bonus dice still rank
// it in a tie.
func TestGivenInitiative(t *testing.T) {
	p := NewPolicy(DefaultConfig())
	e := encounter.New(SystemName)
	vex := combatant("Vex", ints{encounter.StatGiven: 19, StatInitiative: 1}, ints{ResourceDurability: 4}, nil, nil)
	orc := combatant("Orc", ints{}, ints{ResourceDurability: 4}, nil, nil)
	amb := combatant("Ambusher", ints{encounter.StatGiven: 19, StatAmbusher: 1}, ints{ResourceDurability: 4}, nil, nil)
	for _, c := range []encounter.Combatant{orc, vex, amb} {
		mustDo(t)(e.Add(p, nil, "gm", c))
	}
	d := dice.NewPhysical([]int{1})
	ev := mustDo(t)(e.Begin(p, d, "gm"))
	if err := d.Done(); err != nil {
		t.Fatal(err)
	}
	if got := names(e.Combatants); got != "Vex Ambusher Orc" {
		t.Errorf("order %s, want Vex (19, 1 bonus die) Ambusher (19) Orc", got)
	}
	var got []string
	for _, r := range ev.Rolls {
		got = append(got, r.Name+": "+r.Text)
	}
	want := []string{"Orc: 1d20 (__1__) [action] = 1",
		"Vex: 19, as rolled at the table (the action roll with bonus dice)",
		"Ambusher: 19, as rolled at the table (the action roll with bonus dice)"}
	if !slices.Equal(got, want) {
		t.Errorf("rolls\n%q\nwant\n%q", got, want)
	}
	// The first round's actions are as Initiative's: the ambusher's one more.
	if c := e.Combatants[1]; c.Stats[StatFirstRound] != BaseActions+1 {
		t.Errorf("ambusher's first round: %d actions, want %d", c.Stats[StatFirstRound], BaseActions+1)
	}
}
