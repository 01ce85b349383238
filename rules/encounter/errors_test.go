package encounter

import (
	"errors"
	"testing"
)

// small returns an encounter of three with the Generic policy: before
// Begin, or begun with Aria (15), Goblin (12) and Bram (12, fewer init)
// in that order and Aria's turn.
func small(t *testing.T, begin bool) *Encounter {
	t.Helper()
	e := New("")
	for _, c := range []Combatant{
		{Name: "Aria", Stats: map[string]int{"init": 3}, Resources: map[string]int{"hp": 20}},
		{Name: "Goblin", NPC: true, Stats: map[string]int{"init": 2}, Resources: map[string]int{"hp": 7}},
		{Name: "Bram", Stats: map[string]int{"init": 1, "initiative": 12}},
	} {
		if _, err := e.Add(Generic{}, nil, "gm", c); err != nil {
			t.Fatal(err)
		}
	}
	if begin {
		if _, err := e.Begin(Generic{}, physical(12, 10), "gm"); err != nil {
			t.Fatal(err)
		}
	}
	return e
}

func TestErrors(t *testing.T) {
	g := Generic{}
	tests := []struct {
		name  string
		begin bool
		op    func(e *Encounter) (Event, error)
		kind  error
		msg   string
	}{
		{"unknown combatant", true, func(e *Encounter) (Event, error) { return e.Damage(g, "u", "Ogre", 3, "") },
			ErrNotFound, "there is no combatant named Ogre: see /init list"},
		{"no name", true, func(e *Encounter) (Event, error) { return e.Heal(g, "u", " ", 3) },
			ErrNotFound, "name a combatant: see /init list"},
		{"duplicate name", false, func(e *Encounter) (Event, error) { return e.Add(g, nil, "gm", Combatant{Name: "goblin"}) },
			ErrDuplicate, "there is already a combatant named goblin: choose another name"},
		{"empty name", false, func(e *Encounter) (Event, error) { return e.Add(g, nil, "gm", Combatant{Name: "  "}) },
			ErrInvalid, "give the combatant a name"},
		{"long name", false, func(e *Encounter) (Event, error) {
			return e.Add(g, nil, "gm", Combatant{Name: "Aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"})
		}, ErrInvalid, "the name Aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa is too long (at most 64 characters)"},
		{"bad stat", false, func(e *Encounter) (Event, error) {
			return e.Add(g, nil, "gm", Combatant{Name: "Ogre", Stats: map[string]int{"hit points": 3}})
		}, ErrInvalid, `stats need names without spaces, not "hit points"`},
		{"next before begin", false, func(e *Encounter) (Event, error) { return e.Next(g, "gm") },
			ErrNotBegun, "the fight has not begun: start it with /init begin"},
		{"prev before begin", false, func(e *Encounter) (Event, error) { return e.Prev("gm") },
			ErrNotBegun, "the fight has not begun: start it with /init begin"},
		{"begin twice", true, func(e *Encounter) (Event, error) { return e.Begin(g, nil, "gm") },
			ErrBegun, "the fight has already begun: it is round 1"},
		{"begin with no one", false, func(e *Encounter) (Event, error) { return New("").Begin(g, nil, "gm") },
			ErrInvalid, "there is no one in the fight: add combatants with /init add"},
		{"negative damage", true, func(e *Encounter) (Event, error) { return e.Damage(g, "u", "Goblin", -3, "") },
			ErrInvalid, "damage must be 0 or more, not -3: to heal, use /init heal"},
		{"huge damage", true, func(e *Encounter) (Event, error) { return e.Damage(g, "u", "Goblin", 1<<40, "") },
			ErrInvalid, "damage must be at most 1000000, not 1099511627776"},
		{"negative healing", true, func(e *Encounter) (Event, error) { return e.Heal(g, "u", "Goblin", -1) },
			ErrInvalid, "healing must be 1 to 1000000, not -1: for damage, use /init damage (example: /init heal target:Aria amount:5)"},
		{"damage without hp", true, func(e *Encounter) (Event, error) { return e.Damage(g, "u", "Bram", 1, "") },
			ErrInvalid, "Bram has no hp to take damage from: give it hp when adding it"},
		{"prev on the first turn", true, func(e *Encounter) (Event, error) { return e.Prev("gm") },
			ErrInvalid, "this is the first turn of the fight: there is no turn before it"},
		{"delay out of turn", true, func(e *Encounter) (Event, error) { return e.Delay(g, "gm", "Bram", "") },
			ErrInvalid, "only the combatant whose turn it is can delay, and it is not Bram's turn"},
		{"delay after itself", true, func(e *Encounter) (Event, error) { return e.Delay(g, "gm", "Aria", "aria") },
			ErrInvalid, "Aria cannot delay until after itself"},
		{"move out of range", true, func(e *Encounter) (Event, error) { return e.Move("gm", "Bram", 4) },
			ErrInvalid, "position 4 is out of range: give 1 to 3"},
		{"condition on the source's turn, no source", true, func(e *Encounter) (Event, error) {
			return e.AddCondition("gm", "Bram", Condition{Name: "blessed", Rounds: 3, Relative: OnSource}, "")
		}, ErrInvalid, "blessed is timed on its source's turn but has no source"},
		{"condition of negative rounds", true, func(e *Encounter) (Event, error) {
			return e.AddCondition("gm", "Bram", Condition{Name: "blessed", Rounds: -1}, "")
		}, ErrInvalid, "a condition lasts 0 to 10000 rounds (0 until removed), not -1"},
		{"condition ending in the middle", true, func(e *Encounter) (Event, error) {
			return e.AddCondition("gm", "Bram", Condition{Name: "blessed", Rounds: 1, Ends: "middle"}, "")
		}, ErrInvalid, `a condition ends at the start or the end of a turn, not "middle"`},
		{"unknown condition", true, func(e *Encounter) (Event, error) { return e.RemoveCondition("gm", "Bram", "stunned") },
			ErrNotFound, "Bram has no condition named stunned"},
		{"reveal the visible", true, func(e *Encounter) (Event, error) { return e.Reveal("gm", "Bram") },
			ErrInvalid, "Bram is not hidden"},
		{"counter below 0", true, func(e *Encounter) (Event, error) { return e.Count("gm", "Bram", "reactions", -1) },
			ErrInvalid, "Bram's reactions is 0: it cannot go below 0"},
		{"no one can act", true, func(e *Encounter) (Event, error) {
			for _, n := range []string{"Aria", "Goblin", "Bram"} {
				if _, err := e.SetDefeated("gm", n, true); err != nil {
					return Event{}, err
				}
			}
			return e.Next(g, "gm")
		}, ErrInvalid, "no one can act: every combatant is defeated; heal someone or end the fight with /init end"},
		{"next after the end", true, func(e *Encounter) (Event, error) {
			if _, err := e.End(g, "gm"); err != nil {
				return Event{}, err
			}
			return e.Next(g, "gm")
		}, ErrEnded, "the fight is over: start a new one"},
		{"remove the last", true, func(e *Encounter) (Event, error) {
			for _, n := range []string{"Goblin", "Bram"} {
				if _, err := e.Remove(g, "gm", n); err != nil {
					return Event{}, err
				}
			}
			return e.Remove(g, "gm", "Aria")
		}, ErrInvalid, "Aria is the last one in the fight: end it with /init end instead"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := small(t, tt.begin)
			_, err := tt.op(e)
			var ee *Error
			if !errors.As(err, &ee) {
				t.Fatalf("error %v (%T), want an *Error", err, err)
			}
			if !errors.Is(err, tt.kind) || err.Error() != tt.msg {
				t.Errorf("error %q (%v)\nwant  %q (%v)", err, ee.Kind, tt.msg, tt.kind)
			}
		})
	}
}

// TestFailedOperationChangesNothing: an operation that fails leaves the
// encounter as it was, even when it failed half-way.
func TestFailedOperationChangesNothing(t *testing.T) {
	e := small(t, false)
	before := e.Clone()
	// Physical dice that do not fit a d20 fail Begin after Order began.
	if _, err := e.Begin(Generic{}, physical(12, 30), "gm"); err == nil {
		t.Fatal("begin with a 30 on a d20 succeeded")
	}
	deepEqual(t, "after a failed begin", e, before)

	e = small(t, true)
	before = e.Clone()
	if _, err := e.Add(Generic{}, physical(0), "gm", Combatant{Name: "Ogre"}); err == nil {
		t.Fatal("add with a 0 on a d20 succeeded")
	}
	deepEqual(t, "after a failed add", e, before)
}

func TestWrongPolicy(t *testing.T) {
	e := small(t, false)
	e.System = "burst"
	_, err := e.Begin(Generic{}, nil, "gm")
	var ee *Error
	if err == nil || errors.As(err, &ee) {
		t.Errorf("begin with the wrong policy: %v; want an error that is not the user's", err)
	}
}
