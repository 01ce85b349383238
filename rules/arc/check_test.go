package arc

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// seq is a roller that hands out fixed faces and records the dice asked
// for, so a test can check both the outcome and which dice the rules rolled.
type seq struct {
	faces []int
	sides []int
}

func (s *seq) Roll(sides int) (int, error) {
	if len(s.faces) == 0 {
		return 0, errors.New("no more faces")
	}
	s.sides = append(s.sides, sides)
	v := s.faces[0]
	s.faces = s.faces[1:]
	return v, nil
}

func rolls(faces ...int) *seq { return &seq{faces: faces} }

func TestESDie(t *testing.T) {
	c := DefaultConfig()
	tests := []struct {
		rule string
		es   int
		want int
	}{
		{"The player rolls 1d8 (die corresponding to the score of 5 in Tamper)", 5, 8},
		// The rest of the table is ours (es_dice): every die at least as
		// large as its score, since "the highest ES Adjustment is ... the
		// same value of the ES".
		{"es_dice default", 1, 4},
		{"es_dice default", 4, 6},
		{"es_dice default", 6, 8},
		{"es_dice default", 10, 12},
	}
	for _, tt := range tests {
		got, err := c.ESDie(tt.es)
		if err != nil || got != tt.want {
			t.Errorf("%s: ESDie(%d) = %d, %v; want d%d", tt.rule, tt.es, got, err, tt.want)
		}
	}
	for es := 1; es <= len(c.ESDice); es++ {
		if sides, _ := c.ESDie(es); sides < es {
			t.Errorf("ES %d rolls a d%d: the highest adjustment could not reach the score", es, sides)
		}
	}
	for _, es := range []int{0, -1, 11} {
		if _, err := c.ESDie(es); err == nil || !strings.Contains(err.Error(), "ES score must be 1-10") {
			t.Errorf("ESDie(%d): err = %v, want the range named", es, err)
		}
	}
}

func TestESAdjustment(t *testing.T) {
	tests := []struct {
		rule     string
		es, roll int
		want     int
	}{
		{"If the result is equal or lower to the character's ES score, the result of the roll itself is the value of the adjustment.", 5, 5, 5},
		{"equal or lower: the roll itself", 5, 1, 1},
		{"equal or lower: the roll itself", 5, 4, 4},
		{"In case the roll of the die is, for instance, 8, then a malus of -3 impacts the ARCT (the ES score is 5 and the difference with the roll is -3)", 5, 8, -3},
		{"If the result of the roll exceeds the score ... the difference ... is the negative modifier", 5, 6, -1},
		{"exceeds: the negative difference", 1, 4, -3},
	}
	for _, tt := range tests {
		if got := ESAdjustment(tt.es, tt.roll); got != tt.want {
			t.Errorf("%s: ESAdjustment(%d, %d) = %d, want %d", tt.rule, tt.es, tt.roll, got, tt.want)
		}
	}
}

func TestESRange(t *testing.T) {
	// "The lowest ES Adjustment is the 'Min adj' in the table, while the
	// highest ES Adjustment is the 'Max adj', or the maximum value a player
	// can get from the die roll: the same value of the ES."
	tests := []struct {
		es, sides, lo, hi int
	}{
		{5, 8, -3, 5}, // the text's ES 5 on a d8: 8 is a malus of -3
		{1, 4, -3, 1}, // ES 1 on a d4
		{10, 12, -2, 10},
		{6, 6, 1, 6}, // a die no larger than the score never subtracts
	}
	for _, tt := range tests {
		lo, hi := ESRange(tt.es, tt.sides)
		if lo != tt.lo || hi != tt.hi {
			t.Errorf("ESRange(%d, d%d) = %d..%d, want %d..%d", tt.es, tt.sides, lo, hi, tt.lo, tt.hi)
		}
	}
}

// TestCheckTamperExample is the worked example of V.7, with its numbers.
func TestCheckTamperExample(t *testing.T) {
	// "A character with a score of 5 in ES Tamper wants to open a lock on a
	// chest. The Action Resolution Check is against threshold (average,
	// i.e. 9 ...) and the result of the character's check is the outcome of
	// the score in Control (which is 7), of the score in Accuracy (which is
	// 4) and the adjustment of the ES (the GM applies no other
	// adjustments)."
	c := DefaultConfig()
	avg, name, err := c.Threshold("average")
	if err != nil || avg != 9 || name != "average" {
		t.Fatalf("Threshold(average) = %d, %q, %v; want 9", avg, name, err)
	}
	tests := []struct {
		rule       string
		roll       int
		esAdj      int
		value      int
		success    bool
		formula    string
		margin     int
		minA, maxA int
	}{
		{"The player rolls 1d8 ... and gets 5. The result of the ARCT is 7+4+5=16: the character succeeds the ARCT (the result is higher than the threshold).",
			5, 5, 16, true, "7+4+5=16", 7, -3, 5},
		{"In case the roll of the die is, for instance, 8, then a malus of -3 ... the result of the ARCT is 7+4-3=8: the outcome is below the threshold, hence the check is failed.",
			8, -3, 8, false, "7+4-3=8", -1, -3, 5},
	}
	for _, tt := range tests {
		r := rolls(tt.roll)
		got, err := c.Check(CheckInput{ARCInput: ARCInput{KS: 7, US: 4, ES: 5}, Threshold: avg}, r)
		if err != nil {
			t.Fatalf("%s: %v", tt.rule, err)
		}
		if len(r.sides) != 1 || r.sides[0] != 8 {
			t.Errorf("%s: rolled %v, want one d8", tt.rule, r.sides)
		}
		a := got.ARC
		if a.ESAdj != tt.esAdj || a.Value != tt.value || got.Success != tt.success || got.Margin != tt.margin ||
			a.Formula() != tt.formula || a.MinAdj != tt.minA || a.MaxAdj != tt.maxA || a.Die != 8 || a.Roll != tt.roll {
			t.Errorf("%s:\ngot  %+v (%s)\nwant adj %d, ARC %d (%s), success %v, margin %d", tt.rule, got, a.Formula(), tt.esAdj, tt.value, tt.formula, tt.success, tt.margin)
		}
	}
}

func TestCheckThresholdComparison(t *testing.T) {
	// "The success in the action is granted if the result is higher than
	// either the threshold or the opposite check. For tie or lower result,
	// the check is failed."
	c := DefaultConfig()
	tests := []struct {
		name      string
		ks, us    int
		roll      int
		threshold int
		success   bool
		margin    int
	}{
		{"higher succeeds", 3, 2, 5, 9, true, 1},            // 3+2+5 = 10 > 9
		{"a tie fails", 3, 1, 5, 9, false, 0},               // 9 = 9
		{"lower fails", 1, 1, 5, 9, false, -2},              // 7 < 9
		{"a malus turns it to a tie", 4, 4, 7, 6, false, 0}, // 4+4-2 = 6 = 6
	}
	for _, tt := range tests {
		got, err := c.Check(CheckInput{ARCInput: ARCInput{KS: tt.ks, US: tt.us, ES: 5}, Threshold: tt.threshold}, rolls(tt.roll))
		if err != nil {
			t.Fatal(err)
		}
		if got.Success != tt.success || got.Margin != tt.margin {
			t.Errorf("%s: ARC %d vs %d: success %v margin %d; want %v %d", tt.name, got.ARC.Value, tt.threshold, got.Success, got.Margin, tt.success, tt.margin)
		}
	}
}

func TestAdjustments(t *testing.T) {
	tests := []struct {
		rule string
		adj  Adjustments
		want int
	}{
		{"A PC is at the top of a staircase and the opponent is on the stairs below; this situation grants a +1 modifier against the opponent.",
			Adjustments{Advantages: 1}, 1},
		{"If, on top of that, the PC is exalted (+1) and is under the effects of a spell that enhances his capabilities (+1), the overall bonus increases to +3.",
			Adjustments{Advantages: 3}, 3},
		{"In case the opponent is on his knees because he lost his balance in the previous turn, then a malus of -1 is counted on any ARCO on his side.",
			Adjustments{Disadvantages: 1}, -1},
		{"a huge advantage of the character, he may consider a +2 instead of +1", Adjustments{HugeAdvantages: 1}, 2},
		{"(the same for a huge disadvantage)", Adjustments{HugeDisadvantages: 1}, -2},
		{"a +1 per single advantage and of a -1 per single disadvantage", Adjustments{Advantages: 2, Disadvantages: 1, HugeDisadvantages: 1}, -1},
		{"the sum of all these elements ... is the factor called 'Other adjustments'", Adjustments{Advantages: 1, Size: 2, Other: -3}, 0},
	}
	for _, tt := range tests {
		if got := tt.adj.Total(); got != tt.want {
			t.Errorf("%s: %+v totals %d, want %d", tt.rule, tt.adj, got, tt.want)
		}
	}
	// The adjustments enter the ARC: "ARC = KS score + US score + ES Adj. +
	// Other adj. (optional)".
	got, err := DefaultConfig().Check(CheckInput{ARCInput: ARCInput{KS: 7, US: 4, ES: 5, Adjustments: Adjustments{Advantages: 3}}, Threshold: 9}, rolls(5))
	if err != nil || got.ARC.Value != 19 || got.ARC.Other != 3 || got.ARC.Formula() != "7+4+5+3=19" {
		t.Errorf("7+4+5 with +3 other: %+v %v, want 19", got.ARC, err)
	}
	if _, err := DefaultConfig().Check(CheckInput{ARCInput: ARCInput{KS: 1, US: 1, ES: 5, Adjustments: Adjustments{Advantages: -1}}}, rolls(1)); err == nil {
		t.Error("a negative number of advantages: no error")
	}
}

func TestOpposed(t *testing.T) {
	// "Subject 1 value of ARCO < > Subject 2 value of ARCO ... The success
	// in the action is granted if the result is higher than ... the
	// opposite check. For tie or lower result, the check is failed."
	c := DefaultConfig()
	tests := []struct {
		name          string
		actor, target ARCInput
		faces         []int
		dice          []int
		a, b          int
		success       bool
		margin        int
	}{
		{"higher wins", ARCInput{KS: 7, US: 4, ES: 5}, ARCInput{KS: 5, US: 5, ES: 3}, []int{5, 2}, []int{8, 6}, 16, 12, true, 4},
		{"a tie fails the actor", ARCInput{KS: 7, US: 4, ES: 5}, ARCInput{KS: 6, US: 5, ES: 5}, []int{4, 4}, []int{8, 8}, 15, 15, false, 0},
		{"lower fails", ARCInput{KS: 2, US: 2, ES: 1}, ARCInput{KS: 3, US: 3, ES: 10}, []int{4, 12}, []int{4, 12}, 1, 4, false, -3},
		{"the opponent on his knees: a malus of -1 is counted on any ARCO on his side",
			ARCInput{KS: 5, US: 5, ES: 5}, ARCInput{KS: 5, US: 5, ES: 5, Adjustments: Adjustments{Disadvantages: 1}}, []int{3, 3}, []int{8, 8}, 13, 12, true, 1},
	}
	for _, tt := range tests {
		r := rolls(tt.faces...)
		got, err := c.Opposed(tt.actor, tt.target, r)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if fmt.Sprint(r.sides) != fmt.Sprint(tt.dice) {
			t.Errorf("%s: rolled d%v, want d%v (the actor's die first)", tt.name, r.sides, tt.dice)
		}
		if got.Actor.Value != tt.a || got.Target.Value != tt.b || got.Success != tt.success || got.Margin != tt.margin {
			t.Errorf("%s: %d vs %d success %v margin %d; want %d vs %d %v %d", tt.name, got.Actor.Value, got.Target.Value, got.Success, got.Margin, tt.a, tt.b, tt.success, tt.margin)
		}
	}
	if _, err := c.Opposed(ARCInput{KS: 1, US: 1, ES: 5}, ARCInput{KS: 1, US: 1, ES: 0}, rolls(1, 1)); err == nil || !strings.HasPrefix(err.Error(), "target: ES score must be") {
		t.Errorf("a target with ES 0: err = %v, want it named as the target's", err)
	}
}

func TestSizeAdjustments(t *testing.T) {
	// "difference in size (see Melee attacks)" is a driver of 'Other
	// adjustments'; the amount is ours: size_adj_per_step.
	c := DefaultConfig()
	tests := []struct {
		actor, target, a, b int
	}{
		{Medium, Medium, 0, 0},
		{1, Medium, 1, 0},
		{Medium, 3, 0, 3},
		{-2, 1, 0, 3},
	}
	for _, tt := range tests {
		a, b, err := c.SizeAdjustments(tt.actor, tt.target)
		if err != nil || a != tt.a || b != tt.b {
			t.Errorf("SizeAdjustments(%d, %d) = %d, %d, %v; want %d, %d", tt.actor, tt.target, a, b, err, tt.a, tt.b)
		}
	}
	c.SizeAdjPerStep = -1
	if a, b, _ := c.SizeAdjustments(2, 0); a != -2 || b != 0 {
		t.Errorf("size_adj_per_step -1: %d, %d; want -2 for the larger actor", a, b)
	}
	if _, _, err := c.SizeAdjustments(4, 0); err == nil {
		t.Error("size 4: no error; there are only 3 sizes bigger than medium")
	}
}

func TestThreshold(t *testing.T) {
	c := DefaultConfig()
	tests := []struct {
		in   string
		v    int
		name string
	}{
		{"average", 9, "average"}, // "threshold (average, i.e. 9 ...)"
		{"Average", 9, "average"},
		{"9", 9, "average"},
		{"very hard", 15, "very_hard"},
		{"very-hard", 15, "very_hard"},
		{"10", 10, ""},
		{"+4", 4, ""},
		{"trivial", 3, "trivial"},
		{"extreme", 18, "extreme"},
	}
	for _, tt := range tests {
		v, name, err := c.Threshold(tt.in)
		if err != nil || v != tt.v || name != tt.name {
			t.Errorf("Threshold(%q) = %d, %q, %v; want %d, %q", tt.in, v, name, err, tt.v, tt.name)
		}
	}
	_, _, err := c.Threshold("medium")
	if err == nil || !strings.Contains(err.Error(), "trivial (3), easy (6), average (9), hard (12), very_hard (15), extreme (18)") {
		t.Errorf("an unknown threshold: %v, want the names listed from the lowest", err)
	}
}

func TestActionsPerTurn(t *testing.T) {
	// "the score of an ES defines the number of actions a character can
	// perform in a turn" (actions_by_es), and in the V.6 example "his ES
	// score is high enough for 2 actions in the same turn".
	c := DefaultConfig()
	tests := []struct{ es, want int }{{1, 1}, {4, 1}, {5, 2}, {7, 2}, {8, 3}, {10, 3}}
	for _, tt := range tests {
		if got, err := c.ActionsPerTurn(tt.es); err != nil || got != tt.want {
			t.Errorf("ActionsPerTurn(%d) = %d, %v; want %d", tt.es, got, err, tt.want)
		}
	}
	// The check reports them too.
	got, err := c.Check(CheckInput{ARCInput: ARCInput{KS: 1, US: 1, ES: 8}, Threshold: 9}, rolls(1))
	if err != nil || got.ARC.Actions != 3 {
		t.Errorf("a check at ES 8: %d actions, %v; want 3", got.ARC.Actions, err)
	}
}

func TestConfigErrors(t *testing.T) {
	var empty Config
	if _, err := empty.ESDie(5); err == nil || !strings.Contains(err.Error(), "es_dice") {
		t.Errorf("no es_dice table: err = %v, want the key named", err)
	}
	c := DefaultConfig()
	c.MOVSizeFactor = c.MOVSizeFactor[:3]
	if _, err := c.Movement(MoveInput{Control: 5}); err == nil || !strings.Contains(err.Error(), "mov_size_factor needs 7 entries") {
		t.Errorf("a short size table: err = %v", err)
	}
	// A roller that fails is not the user's mistake: its error is kept.
	boom := errors.New("boom")
	if _, err := DefaultConfig().Check(CheckInput{ARCInput: ARCInput{KS: 1, US: 1, ES: 5}}, failing{boom}); !errors.Is(err, boom) {
		t.Errorf("a failing roller: err = %v, want it wrapped", err)
	}
}

type failing struct{ err error }

func (f failing) Roll(int) (int, error) { return 0, f.err }

func TestIsZero(t *testing.T) {
	if !(Config{}).IsZero() {
		t.Error("the zero Config is not IsZero")
	}
	if DefaultConfig().IsZero() {
		t.Error("DefaultConfig is IsZero")
	}
	if (Config{SizeAdjPerStep: 2}).IsZero() {
		t.Error("a Config with one key set is IsZero")
	}
}
