package encounter

import (
	"reflect"
	"testing"
)

// TestClone: a clone shares nothing with the original.
func TestClone(t *testing.T) {
	e := small(t, true)
	mustDo(t)(e.AddCondition("gm", "Goblin", Condition{Name: "stunned", Rounds: 1}, "Aria"))
	mustDo(t)(e.Count("gm", "Aria", "reactions", 1))
	mustDo(t)(e.Remove(Generic{}, "gm", "Bram"))
	c := e.Clone()
	if !reflect.DeepEqual(c, e) {
		t.Fatal("clone differs")
	}
	keep := e.Clone()
	c.Combatants[0].Resources["hp"] = 1
	c.Combatants[0].Counters["reactions"] = 9
	c.Combatants[0].Stats["init"] = 9
	c.Combatants[0].Initiative[0] = 99
	c.Combatants[0].InitiativeRolls[0].Faces[0] = 1
	c.Combatants[1].Conditions[0].Rounds = 7
	c.Removed[0].Name = "X"
	if !reflect.DeepEqual(e, keep) {
		t.Errorf("changing the clone changed the original")
	}
}

// TestJSONKeepsEmptyAndNil: a snapshot tells a nil map from an empty one,
// so that a restored encounter is deeply equal to the one saved.
func TestJSONKeepsEmptyAndNil(t *testing.T) {
	e := New("")
	mustDo(t)(e.Add(Generic{}, nil, "gm", Combatant{Name: "A", Stats: map[string]int{}, Counters: nil}))
	data, err := e.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	r, err := Restore(data)
	if err != nil {
		t.Fatal(err)
	}
	deepEqual(t, "restored", r, e)
	if _, err := Restore([]byte(`{"round":2,"begun":false}`)); err == nil {
		t.Errorf("restored an encounter in round 2 that has not begun")
	}
}
