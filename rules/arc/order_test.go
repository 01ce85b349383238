package arc

import (
	"fmt"
	"strings"
	"testing"
)

func names(ps []Participant) string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Name)
	}
	return strings.Join(out, "-")
}

func TestDeclarationOrder(t *testing.T) {
	tests := []struct {
		rule    string
		ps      []Participant
		faces   []int
		declare string
		waiting string
		ties    map[string][]int
	}{
		{"the declarations are in ascending order of State of Mind, from the character with the lowest score up to the highest one",
			[]Participant{{Name: "A", SOM: 7}, {Name: "B", SOM: 2}, {Name: "C", SOM: 5}}, nil, "B-C-A", "", nil},
		{"In case of tie, the characters follow the ascending order of Empathy",
			[]Participant{{Name: "A", SOM: 5, Empathy: 6}, {Name: "B", SOM: 5, Empathy: 3}}, nil, "B-A", "", nil},
		{"then of Perception",
			[]Participant{{Name: "A", SOM: 5, Empathy: 3, Perception: 8}, {Name: "B", SOM: 5, Empathy: 3, Perception: 4}}, nil, "B-A", "", nil},
		{"then the result of a 1d10 roll (ascending, rolled in the order given)",
			[]Participant{{Name: "A", SOM: 5, Empathy: 3, Perception: 4}, {Name: "B", SOM: 5, Empathy: 3, Perception: 4}, {Name: "C", SOM: 1}},
			[]int{9, 2}, "C-B-A", "", map[string][]int{"A": {9}, "B": {2}}},
		{"the d10s tie too: only those still tied roll again",
			[]Participant{{Name: "A", SOM: 5}, {Name: "B", SOM: 5}, {Name: "C", SOM: 5}},
			[]int{6, 6, 3, 8, 1}, "C-B-A", "", map[string][]int{"A": {6, 8}, "B": {6, 1}, "C": {3}}},
		{"a hidden character ties only with hidden ones, after those the players see, and rolls after them (issue 20)",
			[]Participant{{Name: "H1", SOM: 3, Hidden: true}, {Name: "A", SOM: 3}, {Name: "B", SOM: 3}, {Name: "H2", SOM: 3, Hidden: true}, {Name: "C", SOM: 1}},
			[]int{7, 2, 5, 9}, "C-B-A-H1-H2", "", map[string][]int{"A": {7}, "B": {2}, "H1": {5}, "H2": {9}}},
		{"Any character involved in the actions of a turn who is unaware of what is happening (i.e. surprised or unconscious) will not be part of the declarations for that turn",
			[]Participant{{Name: "A", SOM: 5}, {Name: "B", SOM: 5, Unaware: true}, {Name: "C", SOM: 2}}, nil, "C-A", "B", nil},
	}
	for _, tt := range tests {
		r := rolls(tt.faces...)
		got, err := DeclarationOrder(tt.ps, r)
		if err != nil {
			t.Fatalf("%s: %v", tt.rule, err)
		}
		if names(got.Declare) != tt.declare || names(got.Waiting) != tt.waiting {
			t.Errorf("%s: declare %s, waiting %s; want %s, %s", tt.rule, names(got.Declare), names(got.Waiting), tt.declare, tt.waiting)
		}
		if len(r.faces) != 0 {
			t.Errorf("%s: %d faces left unrolled", tt.rule, len(r.faces))
		}
		for _, p := range got.Declare {
			if fmt.Sprint(p.TieRolls) != fmt.Sprint(tt.ties[p.Name]) && !(len(p.TieRolls) == 0 && tt.ties[p.Name] == nil) {
				t.Errorf("%s: %s rolled %v, want %v", tt.rule, p.Name, p.TieRolls, tt.ties[p.Name])
			}
		}
		for _, sides := range r.sides {
			if sides != 10 {
				t.Errorf("%s: rolled a d%d; ties are broken with 1d10", tt.rule, sides)
			}
		}
	}
}

// TestAmbushExample is the worked example of V.6.
func TestAmbushExample(t *testing.T) {
	// "An ambush takes place: 3 hooded figures attack a group of 4
	// characters. ... The 3 characters are not surprised since they are
	// doing nothing else other than guarding the fourth, while the fourth
	// character is surprised because he is concentrating on picking the
	// lock. In the first turn only 3 characters are involved in the action
	// declarations ... In the following turn, all of them can be part of
	// the action declarations". The text gives no scores: these are ours.
	group := []Participant{
		{Name: "Guard1", SOM: 6, Empathy: 4, Perception: 5},
		{Name: "Guard2", SOM: 4, Empathy: 4, Perception: 5},
		{Name: "Guard3", SOM: 8, Empathy: 2, Perception: 3},
		{Name: "Picker", SOM: 5, Empathy: 6, Perception: 6, Unaware: true},
		{Name: "Hood1", SOM: 3}, {Name: "Hood2", SOM: 7}, {Name: "Hood3", SOM: 9},
	}
	first, err := DeclarationOrder(group, rolls())
	if err != nil {
		t.Fatal(err)
	}
	if got := names(first.Declare); got != "Hood1-Guard2-Guard1-Hood2-Guard3-Hood3" {
		t.Errorf("first turn: %s", got)
	}
	if got := names(first.Waiting); got != "Picker" {
		t.Errorf("first turn waiting: %s, want the fourth character", got)
	}
	// The next turn, the surprised character is inserted in the order.
	next := append(first.Declare, first.Waiting...)
	next[len(next)-1].Unaware = false
	second, err := DeclarationOrder(next, rolls())
	if err != nil {
		t.Fatal(err)
	}
	if got := names(second.Declare); got != "Hood1-Guard2-Picker-Guard1-Hood2-Guard3-Hood3" || len(second.Waiting) != 0 {
		t.Errorf("second turn: %s (waiting %s), want all 7 with the picker in place", got, names(second.Waiting))
	}
}

// TestSequenceExample is the worked example of V.6 with four characters.
func TestSequenceExample(t *testing.T) {
	// "Four characters (PC1, PC2, PC3 vs NPC4) are involved in the action:
	// according to characters' scores, the sequence is: PC1-NPC4-PC2-PC3."
	// The text gives no scores; these produce its sequence through every
	// key: SOM, then Empathy (NPC4 and PC2), then Perception and a d10 (PC2
	// and PC3 tie on all three).
	ps := []Participant{
		{Name: "PC3", SOM: 6, Empathy: 5, Perception: 5},
		{Name: "PC2", SOM: 6, Empathy: 5, Perception: 5},
		{Name: "NPC4", SOM: 6, Empathy: 2, Perception: 9},
		{Name: "PC1", SOM: 3, Empathy: 9, Perception: 9},
	}
	got, err := DeclarationOrder(ps, rolls(8, 4)) // PC3 rolls 8, PC2 rolls 4
	if err != nil {
		t.Fatal(err)
	}
	if names(got.Declare) != "PC1-NPC4-PC2-PC3" {
		t.Errorf("sequence %s, want PC1-NPC4-PC2-PC3", names(got.Declare))
	}
	// "PC1 player declares 'two melee attacks against NPC4' (his ES score
	// is high enough for 2 actions in the same turn)." With actions_by_es,
	// the lowest such score is 5.
	c := DefaultConfig()
	for es, want := range map[int]int{4: 1, 5: 2} {
		if n, err := c.ActionsPerTurn(es); err != nil || n != want {
			t.Errorf("ES %d: %d actions, %v; want %d", es, n, err, want)
		}
	}
}

func TestOrderMaintained(t *testing.T) {
	// "Once the order of declaration is established in the first turn, this
	// is maintained and updated (in case of changes in SOM) for the whole
	// event. New characters jumping into the action are inserted in the
	// previously established order."
	first, err := DeclarationOrder([]Participant{{Name: "A", SOM: 5}, {Name: "B", SOM: 5}}, rolls(7, 3))
	if err != nil || names(first.Declare) != "B-A" {
		t.Fatalf("first turn: %s, %v", names(first.Declare), err)
	}
	// The next turn keeps the d10s: no dice, same order.
	again, err := DeclarationOrder(first.Declare, rolls())
	if err != nil || names(again.Declare) != "B-A" {
		t.Errorf("maintained: %s, %v; want B-A without rolling", names(again.Declare), err)
	}
	// B's SOM rises: the order is updated.
	up := append([]Participant(nil), first.Declare...)
	up[0].SOM = 8
	updated, err := DeclarationOrder(up, rolls())
	if err != nil || names(updated.Declare) != "A-B" {
		t.Errorf("updated: %s, %v; want A-B", names(updated.Declare), err)
	}
	// C jumps in tied with both: only C rolls, and lands between them.
	joined, err := DeclarationOrder(append(first.Declare, Participant{Name: "C", SOM: 5}), rolls(5))
	if err != nil || names(joined.Declare) != "B-C-A" {
		t.Errorf("inserted: %s, %v; want B-C-A", names(joined.Declare), err)
	}
}

func TestOrderTieCap(t *testing.T) {
	// Dice that keep tying stop after maxTieRounds rounds, in the given order.
	faces := make([]int, 2*maxTieRounds)
	for i := range faces {
		faces[i] = 4
	}
	r := rolls(faces...)
	got, err := DeclarationOrder([]Participant{{Name: "A", SOM: 5}, {Name: "B", SOM: 5}}, r)
	if err != nil || !got.Unresolved || names(got.Declare) != "A-B" || len(r.faces) != 0 {
		t.Errorf("endless ties: %+v %v (faces left %d)", got, err, len(r.faces))
	}
}

func TestOrderErrors(t *testing.T) {
	for _, ps := range [][]Participant{
		{{Name: "", SOM: 5}},
		{{Name: "A", SOM: 5}, {Name: "a", SOM: 6}},
		{{Name: "A", SOM: 0}},
		{{Name: "A", SOM: 11}},
		{{Name: "A", SOM: 5, Empathy: 5000}},
	} {
		if _, err := DeclarationOrder(ps, rolls()); err == nil {
			t.Errorf("DeclarationOrder(%+v): no error", ps)
		}
	}
	if _, err := DeclarationOrder([]Participant{{Name: "A", SOM: 5}, {Name: "B", SOM: 5}}, rolls()); err == nil {
		t.Error("a failing roller during a tie: no error")
	}
}
