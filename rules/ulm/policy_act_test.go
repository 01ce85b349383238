package ulm

import (
	"strings"
	"testing"

	"github.com/tablehand/tablehand/rules/dice"
	"github.com/tablehand/tablehand/rules/encounter"
)

// "Characters do not begin falling until they gain their Action Slots."
// A fall outside the Active Phase owes its slots to the next one, without
// Action Debt beyond the slots gained.
func TestFallOwesSlotsToTheNextActivePhase(t *testing.T) {
	p := newPolicy(DefaultConfig())
	e, _ := begun(t, p,
		encounter.Combatant{Name: "A", Stats: stats("hp", 50, "agility", 2, "initiative", 2)},
		encounter.Combatant{Name: "B", Stats: stats("hp", 50, "agility", -3, "initiative", 1)})
	// B, in its Reserve Phase, falls 30 Tiles: 3 Action Slots, owed.
	res, line, err := p.Fall(e, find(t, e, "B"), 30, RollWith(dice.NewPhysical([]int{1, 1, 1})))
	if err != nil {
		t.Fatal(err)
	}
	if line != "B fell 30 Tiles (3 Action Slots when its Active Phase begins): 3v:6 (3) + 30 = 33, minimum 15: 33 contusion damage (damage 0 -> 33, hp 50)" {
		t.Errorf("fall: %q", line)
	}
	if b := find(t, e, "B"); res.SlotsUsed != 0 || b.Resources[ResFallSlots] != 3 || b.Counters[CountReserved] != 0 {
		t.Errorf("owed: slots used %d, %v %v", res.SlotsUsed, b.Resources, b.Counters)
	}
	// 5 - 3 = 2 Action Slots gained: the fall takes both, the third is not
	// Action Debt.
	ev, err := e.Next(p, "gm")
	if err != nil {
		t.Fatal(err)
	}
	if !hasText(ev, "B falls: the fall consumes 2 Action Slots.") || !hasText(ev, "B: 0 Action Slots left.") {
		t.Errorf("B's Active Phase: %q", lineTexts(ev))
	}
	if b := find(t, e, "B"); b.Resources[ResFallSlots] != 0 || b.Counters[CountSlots] != 2 {
		t.Errorf("after: %v %v", b.Resources, b.Counters)
	}
	if _, ok := find(t, e, "B").Resources[ResFallSlots]; ok {
		t.Errorf("fall_slots kept after they were spent")
	}
	// A fall that kills owes nothing.
	e, _ = begun(t, p, encounter.Combatant{Name: "A", Stats: stats("hp", 10)}, encounter.Combatant{Name: "B", Stats: stats("hp", 10)})
	if _, line, err := p.Fall(e, find(t, e, "B"), 12, RollWith(dice.NewPhysical([]int{6, 6, 6}))); err != nil || !strings.HasSuffix(line, ": Vulnerable: dies") || strings.Contains(line, "when its Active Phase begins") {
		t.Errorf("a deadly fall: %q %v", line, err)
	}
	if _, ok := find(t, e, "B").Resources[ResFallSlots]; ok {
		t.Errorf("the dead owe a fall's slots")
	}
}

// A delayed Active Phase (/init delay) begins again and gains its slots
// anew: the fall that began with it consumes them again, and what it paid
// is forgotten when the phase ends.
func TestFallSlotsSurviveADelay(t *testing.T) {
	p := newPolicy(DefaultConfig())
	e, _ := begun(t, p,
		encounter.Combatant{Name: "A", Stats: stats("hp", 50, "agility", 2, "initiative", 3)},
		encounter.Combatant{Name: "B", Stats: stats("hp", 50, "agility", -3, "initiative", 2)},
		encounter.Combatant{Name: "C", Stats: stats("hp", 50, "initiative", 1)})
	// During A's turn, B falls 30 Tiles: 3 Action Slots, owed.
	if _, _, err := p.Fall(e, find(t, e, "B"), 30, RollWith(dice.NewPhysical([]int{1, 1, 1}))); err != nil {
		t.Fatal(err)
	}
	ev, err := e.Next(p, "gm")
	if err != nil || !hasText(ev, "B falls: the fall consumes 2 Action Slots.") {
		t.Fatalf("B's Active Phase: %q %v", lineTexts(ev), err)
	}
	ev, err = e.Delay(p, "gm", "B", "C")
	if err != nil {
		t.Fatal(err)
	}
	if hasText(ev, "B falls: the fall consumes 2 Action Slots.") {
		t.Errorf("the fall consumed B's slots before its delayed phase began: %q", lineTexts(ev))
	}
	ev, err = e.Next(p, "gm") // C's turn ends: B's delayed phase begins
	if err != nil {
		t.Fatal(err)
	}
	if !hasText(ev, "B falls: the fall consumes 2 Action Slots.") || !hasText(ev, "B: 0 Action Slots left.") {
		t.Errorf("B's delayed Active Phase: %q", lineTexts(ev))
	}
	if b := find(t, e, "B"); b.Counters[CountSlots] != 2 || b.Resources[ResFallPaid] != 2 {
		t.Errorf("after the delay: %v %v", b.Resources, b.Counters)
	}
	if _, err := e.Next(p, "gm"); err != nil {
		t.Fatal(err)
	}
	if _, ok := find(t, e, "B").Resources[ResFallPaid]; ok {
		t.Errorf("fall_paid kept after the Active Phase ended")
	}
}

// The dead, the Maimed, the Knocked Out and the defeated do not move or
// activate Epilogues; they may still be healed, fall or suffer one.
func TestOutOfTheFightCannotAct(t *testing.T) {
	p := newPolicy(DefaultConfig())
	tests := []struct {
		rule     string
		c        encounter.Combatant
		defeated bool
		err      string
	}{
		{"The Victim Dies", encounter.Combatant{Name: "A", Stats: stats("hp", 10), Resources: stats("damage", 11, "vulnerable", 1, "dead", 1)}, false, "A is dead"},
		{"The Agony caused by this effect is disabling.", encounter.Combatant{Name: "A", Stats: stats("hp", 10, "maimed", 1)}, false, "A is Maimed"},
		{"They remain Knocked Out for 3 Full Rounds.", encounter.Combatant{Name: "A", Stats: stats("hp", 10, "knocked_out", 2)}, false, "A is Knocked Out (2 Full Rounds left)"},
		{"the GM's word", encounter.Combatant{Name: "A", Stats: stats("hp", 10)}, true, "A is defeated"},
	}
	for _, tt := range tests {
		e, _ := begun(t, p, encounter.Combatant{Name: "V", Stats: stats("hp", 10, "damage", 11)}, tt.c)
		a := find(t, e, "A")
		a.Defeated = a.Defeated || tt.defeated
		if _, _, err := p.Move(e, a, MoveInput{Move: LineStep}, nil); !isInvalid(err) || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("%s: move: %v, want %q", tt.rule, err, tt.err)
		}
		if _, _, err := p.Epilogue(e, a, find(t, e, "V"), EpilogueInput{Kind: Execute}); !isInvalid(err) || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("%s: epilogue: %v, want %q", tt.rule, err, tt.err)
		}
	}
}

func TestMoveAccuracyGiven(t *testing.T) {
	p := newPolicy(DefaultConfig())
	e, _ := begun(t, p, encounter.Combatant{Name: "A", Stats: stats("accuracy", 3)})
	// Accuracy 0 given wins over the stat: 4 + 0 fails "=/+ 6".
	res, _, err := p.Move(e.Clone(), find(t, e, "A"), MoveInput{Move: Jump, AccuracyKnown: true}, RollWith(dice.NewPhysical([]int{4})))
	if err != nil || res.Check.Total != 4 || res.Check.Success {
		t.Errorf("accuracy:0 given: %+v %v", res.Check, err)
	}
	res, _, err = p.Move(e.Clone(), find(t, e, "A"), MoveInput{Move: Jump}, RollWith(dice.NewPhysical([]int{4})))
	if err != nil || res.Check.Total != 7 || !res.Check.Success {
		t.Errorf("the stat: %+v %v", res.Check, err)
	}
}

// "A Character or Unit may only activate an Epilogue if their currently
// equipped equipment is able to Reach the Victim or they have an Epilogue
// Effect and the Victim is within Range."
func TestEpilogueOutOfReach(t *testing.T) {
	p := newPolicy(DefaultConfig())
	e, _ := begun(t, p, encounter.Combatant{Name: "A"}, encounter.Combatant{Name: "V", Stats: stats("hp", 10, "damage", 11)})
	_, _, err := p.Epilogue(e, find(t, e, "A"), find(t, e, "V"), EpilogueInput{Kind: Maim, OutOfReach: true})
	if !isInvalid(err) || !strings.Contains(err.Error(), "Reach the Victim") {
		t.Errorf("out of reach: %v", err)
	}
	if phase, left := p.SlotsLeft(e, find(t, e, "A")); phase != Active || left != 5 {
		t.Errorf("A's slots after a refused Epilogue: %s %d", phase, left)
	}
}
