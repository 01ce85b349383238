package encounter

import (
	"testing"
)

// TestConditionEnds checks when conditions end: "A condition of N rounds
// ends at the N-th time, after it was applied, that its anchor's turn
// starts (or ends)" (the package comment). The fight is Aria, Goblin,
// Bram; steps counts the operations (Begin, then Nexts) after the
// condition was added until the one that ends it.
func TestConditionEnds(t *testing.T) {
	tests := []struct {
		name    string
		begun   bool
		nexts   int // Nexts before the condition is added
		on      string
		source  string
		cd      Condition
		ends    string
		steps   int // -1: still there after 12
		expired string
	}{
		{"to the end of a later turn", true, 0, "Goblin", "", Condition{Name: "frightened", Rounds: 1},
			"ends at the end of Goblin's turn, round 1", 2, "at the end of Goblin's turn"},
		{"to the end of this turn", true, 0, "Aria", "", Condition{Name: "dodging", Rounds: 1},
			"ends at the end of Aria's turn, round 1", 1, "at the end of Aria's turn"},
		{"to the end of your next turn", true, 0, "Aria", "", Condition{Name: "raging", Rounds: 2},
			"ends at the end of Aria's turn, round 2", 4, "at the end of Aria's turn"},
		{"to the start of the source's next turn", true, 0, "Goblin", "Aria", Condition{Name: "stunned", Rounds: 1, Relative: OnSource},
			"ends at the start of Aria's turn, round 2", 3, "at the start of Aria's turn"},
		{"to the end of an earlier turn", true, 1, "Aria", "", Condition{Name: "slowed", Rounds: 2},
			"ends at the end of Aria's turn, round 3", 6, "at the end of Aria's turn"},
		{"to the start of the bearer's turn, from another's", true, 1, "Bram", "Goblin", Condition{Name: "blinded", Rounds: 1, Ends: AtStart},
			"ends at the start of Bram's turn, round 1", 1, "at the start of Bram's turn"},
		{"before the fight", false, 0, "Bram", "", Condition{Name: "hasted", Rounds: 1, Ends: AtStart},
			"ends at the start of Bram's turn, round 1", 3, "at the start of Bram's turn"},
		{"until removed", true, 0, "Bram", "", Condition{Name: "prone"},
			"lasts until removed", -1, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := small(t, tt.begun)
			for range tt.nexts {
				mustDo(t)(e.Next(Generic{}, "gm"))
			}
			ev := mustDo(t)(e.AddCondition("gm", tt.on, tt.cd, tt.source))
			if got := ev.Summary; got == "" {
				t.Errorf("no summary")
			}
			left := tt.cd.Rounds
			if left == 0 {
				left = -1
			}
			checkCondition(t, e, tt.on, tt.cd.Name, tt.ends, left)
			for step := 1; step <= 12; step++ {
				var ev Event
				if !e.Begun {
					ev = mustDo(t)(e.Begin(Generic{}, physical(12, 10), "gm"))
				} else {
					ev = mustDo(t)(e.Next(Generic{}, "gm"))
				}
				if len(ev.Expired) > 0 {
					if step != tt.steps || ev.Expired[0].Condition != tt.cd.Name {
						t.Fatalf("%s ended at step %d, want %d: %s", ev.Expired[0].Condition, step, tt.steps, mustJSON(t, ev))
					}
					if found, _ := hasLine(ev, tt.cd.Name+" on "+tt.on+" ended: "+tt.expired+"."); !found {
						t.Errorf("no line for the end: %s", mustJSON(t, ev))
					}
					return
				}
				for _, c := range e.View(true).Combatants {
					for _, cd := range c.Conditions {
						if cd.RoundsLeft != nil && *cd.RoundsLeft < 1 {
							t.Errorf("step %d: %s has %d rounds left", step, cd.Name, *cd.RoundsLeft)
						}
					}
				}
			}
			if tt.steps >= 0 {
				t.Errorf("%s never ended", tt.cd.Name)
			}
		})
	}
}

func mustDo(t *testing.T) func(Event, error) Event {
	return func(ev Event, err error) Event {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return ev
	}
}

// TestRoundsLeftCountsDown: rounds_left is the duration when applied and
// falls by one each time the anchor's turn reaches the condition's end.
func TestRoundsLeftCountsDown(t *testing.T) {
	e := small(t, true)
	mustDo(t)(e.AddCondition("gm", "Goblin", Condition{Name: "cursed", Rounds: 3, Relative: OnSource}, "Bram"))
	// Bram is third: the start of its turn comes in rounds 1, 2, 3.
	want := []int{3, 3, 2, 2, 2, 1, 1, 1}
	for i, w := range want {
		checkCondition(t, e, "Goblin", "cursed", "ends at the start of Bram's turn, round 3", w)
		if t.Failed() {
			t.Fatalf("after %d nexts", i)
		}
		mustDo(t)(e.Next(Generic{}, "gm"))
	}
	if c, _ := e.Find("Goblin"); len(c.Conditions) != 0 {
		t.Errorf("cursed still on Goblin in round %d, %s's turn", e.Round, e.Current().Name)
	}
}

// TestMoveEndsOverdue: moving a combatant's turn behind the current one
// ends the conditions due at a turn of it that will not come this round.
func TestMoveEndsOverdue(t *testing.T) {
	e := small(t, true)
	mustDo(t)(e.AddCondition("gm", "Aria", Condition{Name: "marked", Rounds: 1, Ends: AtStart}, "Bram"))
	mustDo(t)(e.AddCondition("gm", "Aria", Condition{Name: "hexed", Rounds: 1, Relative: OnSource, Ends: AtEnd}, "Bram"))
	mustDo(t)(e.Next(Generic{}, "gm")) // Goblin's turn
	ev := mustDo(t)(e.Move("gm", "Bram", 1))
	if len(ev.Expired) != 1 || ev.Expired[0].Condition != "hexed" {
		t.Errorf("move: %s", mustJSON(t, ev))
	}
	checkCondition(t, e, "Aria", "marked", "ends at the start of Aria's turn, round 2", 1)
}

// TestCountersResetPerRound: with ResetRound, counters reset for everyone
// when a round begins, not at each turn.
func TestCountersResetPerRound(t *testing.T) {
	p := Generic{Base{CounterReset: ResetRound}}
	e := small(t, true)
	mustDo(t)(e.Count("gm", "Bram", "vigor", 5))
	mustDo(t)(e.Count("gm", "Aria", "vigor", 2))
	counters := func() (int, int) {
		a, _ := e.Find("Aria")
		b, _ := e.Find("Bram")
		return a.Counters["vigor"], b.Counters["vigor"]
	}
	mustDo(t)(e.Next(p, "gm"))
	mustDo(t)(e.Next(p, "gm")) // Bram's turn: no reset
	if a, b := counters(); a != 2 || b != 5 {
		t.Errorf("in round 1: Aria %d, Bram %d; want 2, 5", a, b)
	}
	mustDo(t)(e.Next(p, "gm")) // round 2
	if a, b := counters(); a != 0 || b != 0 {
		t.Errorf("in round 2: Aria %d, Bram %d; want 0, 0", a, b)
	}
}
