package dice

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestNewRandomRange(t *testing.T) {
	r := NewRandom(rand.New(rand.NewPCG(5, 6)))
	for _, sides := range []int{1, 2, 6, 20, MaxSides} {
		for range 1000 {
			v, err := r.Roll(sides)
			if err != nil || v < 1 || v > sides {
				t.Fatalf("Roll(%d) = %d, %v", sides, v, err)
			}
		}
	}
	if _, err := r.Roll(0); err == nil {
		t.Errorf("Roll(0) gave no error")
	}
}

func TestPhysicalErrors(t *testing.T) {
	tests := []struct {
		name     string
		input    string
		values   []int
		rollErr  string
		doneErr  string
		physical int // dice marked Physical
	}{
		{name: "out of range", input: "1d20 + 2d6", values: []int{12, 3, 7},
			rollErr: "dice: value 7 at position 3 does not fit a d6 (1-6)"},
		{name: "zero", input: "1d6", values: []int{0},
			rollErr: "dice: value 0 at position 1 does not fit a d6 (1-6)"},
		{name: "too few", input: "2d6 + 1d20 + 1d6", values: []int{3, 4},
			doneErr: "dice: 2 values given, 2 more needed: 1d20, 1d6", physical: 2},
		{name: "too few, grouped by size", input: "3d6 + 1d20", values: []int{3},
			doneErr: "dice: 1 value given, 3 more needed: 2d6, 1d20", physical: 1},
		{name: "none given", input: "1d8", values: nil,
			doneErr: "dice: 0 values given, 1 more needed: 1d8"},
		{name: "too many", input: "3d6", values: []int{1, 2, 3, 4, 5},
			doneErr: "dice: 5 values given but only 3 dice rolled", physical: 3},
		{name: "one too many", input: "1d6", values: []int{1, 2},
			doneErr: "dice: 2 values given but only 1 die rolled", physical: 1},
		{name: "no dice in the roll", input: "5", values: []int{4},
			doneErr: "dice: 1 value given but the roll has no dice"},
		{name: "exact", input: "2d6", values: []int{1, 6}, physical: 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := NewPhysical(tt.values)
			res, err := mustParse(t, tt.input).Roll(p)
			if tt.rollErr != "" {
				var de *Error
				if !errors.As(err, &de) || err.Error() != tt.rollErr {
					t.Fatalf("Roll error = %v, want *Error %q", err, tt.rollErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("Roll: %v", err)
			}
			physical := 0
			for _, g := range res.Groups {
				for _, d := range g.Dice {
					if d.Physical {
						physical++
					}
				}
			}
			if physical != tt.physical {
				t.Errorf("%d dice marked Physical, want %d", physical, tt.physical)
			}
			err = p.Done()
			if tt.doneErr == "" {
				if err != nil {
					t.Errorf("Done: %v", err)
				}
				return
			}
			var de *Error
			if !errors.As(err, &de) || err.Error() != tt.doneErr {
				t.Errorf("Done error = %v, want *Error %q", err, tt.doneErr)
			}
		})
	}
}

func TestNewPhysicalCopies(t *testing.T) {
	values := []int{4}
	p := NewPhysical(values)
	values[0] = 99
	if v, err := p.Roll(6); v != 4 || err != nil {
		t.Errorf("Roll = %d, %v; want 4", v, err)
	}
}

func TestParsePhysical(t *testing.T) {
	tests := []struct {
		input string
		want  []int
	}{
		{"6,5,2,4", []int{6, 5, 2, 4}},
		{"6 5 2 4", []int{6, 5, 2, 4}},
		{"6, 5", []int{6, 5}},
		{" 20 ,\t1,,3 ", []int{20, 1, 3}},
		{"1000000", []int{MaxSides}},
	}
	for _, tt := range tests {
		got, err := ParsePhysical(tt.input)
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("ParsePhysical(%q) = %v, %v; want %v", tt.input, got, err, tt.want)
		}
	}
}

func TestParsePhysicalErrors(t *testing.T) {
	tests := []struct {
		input string
		want  string
	}{
		{"6, x, 2", `dice: "x" is not a die face: give whole numbers like 6, 5, 2 at column 4`},
		{"6,5.5", `dice: "5.5" is not a die face: give whole numbers like 6, 5, 2 at column 3`},
		{"-3", `dice: "-3" is not a die face: give whole numbers like 6, 5, 2 at column 1`},
		{"6;5", `dice: "6;5" is not a die face: give whole numbers like 6, 5, 2 at column 1`},
		{"4 0", `dice: "0" is not a die face: a die shows at least 1 at column 3`},
		{"1000001", `dice: "1000001" is larger than any die (at most 1000000) at column 1`},
		{"99999999999999999999", `dice: "99999999999999999999" is larger than any die (at most 1000000) at column 1`},
		{" , ", "dice: no values given: give the faces like 6, 5, 2 at column 1"},
	}
	for _, tt := range tests {
		_, err := ParsePhysical(tt.input)
		var de *Error
		if !errors.As(err, &de) || err.Error() != tt.want {
			t.Errorf("ParsePhysical(%q) error = %v, want *Error %q", tt.input, err, tt.want)
		}
	}
}

func TestParsePhysicalMaxDice(t *testing.T) {
	s := ""
	for range MaxDice {
		s += "6 "
	}
	if vs, err := ParsePhysical(s); err != nil || len(vs) != MaxDice {
		t.Fatalf("ParsePhysical(%d values) = %d values, %v", MaxDice, len(vs), err)
	}
	want := "dice: too many values (at most 1000) at column 2001"
	if _, err := ParsePhysical(s + "6"); err == nil || err.Error() != want {
		t.Errorf("ParsePhysical(%d values) error = %v, want %q", MaxDice+1, err, want)
	}
}
