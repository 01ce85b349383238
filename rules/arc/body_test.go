package arc

import (
	"fmt"
	"strings"
	"testing"
)

func TestTime(t *testing.T) {
	// "One turn equals 6 seconds."
	if TurnSeconds != 6 {
		t.Errorf("a turn is %d seconds, want 6", TurnSeconds)
	}
}

func TestSize(t *testing.T) {
	c := DefaultConfig()
	// "Humans are considered medium size. ... There are 3 sizes bigger and
	// 3 sizes smaller"
	if got := len(c.SizeNames); got != 7 {
		t.Fatalf("%d size names, want 3 smaller + medium + 3 bigger", got)
	}
	tests := []struct {
		in   string
		want int
	}{
		{"medium", Medium}, {"Medium", 0}, {"0", 0},
		{"small", -1}, // "a small dog", one size below "a medium size dog"
		{"minute", -3}, {"tiny", -2}, {"large", 1}, {"huge", 2}, {"gigantic", 3},
		{"-3", -3}, {"+3", 3},
	}
	for _, tt := range tests {
		got, err := c.Size(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("Size(%q) = %d, %v; want %d", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []string{"4", "-4", "colossal", ""} {
		if _, err := c.Size(bad); err == nil {
			t.Errorf("Size(%q): no error", bad)
		}
	}
	if c.SizeName(-1) != "small" || c.SizeName(0) != "medium" || c.SizeName(3) != "gigantic" {
		t.Errorf("SizeName: %s %s %s", c.SizeName(-1), c.SizeName(0), c.SizeName(3))
	}
}

func TestMovement(t *testing.T) {
	c := DefaultConfig()
	tests := []struct {
		rule string
		in   MoveInput
		want Movement
	}{
		{"The baseline for humans is a MOV of 8 m/turn (Control 5: our neutral score)",
			MoveInput{Control: 5, Burden: Light}, Movement{Base: 8, SizeFactor: 1, Sized: 8, Effective: 8, BurdenFactor: 1, MOV: 8}},
		{"a score in Control above it will grant a bonus", MoveInput{Control: 7, Burden: Light},
			Movement{Base: 8, SizeFactor: 1, Sized: 8, ControlAdj: 2, Effective: 10, BurdenFactor: 1, MOV: 10}},
		{"while a score below it generates a malus", MoveInput{Control: 2, Burden: Light},
			Movement{Base: 8, SizeFactor: 1, Sized: 8, ControlAdj: -3, Effective: 5, BurdenFactor: 1, MOV: 5}},
		{"If the GM has the MOV of a medium size dog (e.g. 16m/turn), then he can derive the MOV of a small dog starting from the medium-size one (e.g. 8m/turn).",
			MoveInput{Base: 16, Size: -1, Control: 5, Burden: Light}, Movement{Base: 16, SizeFactor: 0.5, Sized: 8, Effective: 8, BurdenFactor: 1, MOV: 8}},
		{"the medium size dog itself", MoveInput{Base: 16, Size: 0, Control: 5, Burden: Light},
			Movement{Base: 16, SizeFactor: 1, Sized: 16, Effective: 16, BurdenFactor: 1, MOV: 16}},
		{"Each burden status has the following consequences on the character's movement (burden_mov_factor: heavy)",
			MoveInput{Control: 7, Burden: Heavy}, Movement{Base: 8, SizeFactor: 1, Sized: 8, ControlAdj: 2, Effective: 10, BurdenFactor: 0.5, MOV: 5}},
		{"burden_mov_factor: medium, rounded down", MoveInput{Control: 5, Burden: MediumBurden},
			Movement{Base: 8, SizeFactor: 1, Sized: 8, Effective: 8, BurdenFactor: 0.75, MOV: 6}},
		{"burden_mov_factor: overloaded", MoveInput{Control: 5, Burden: Overloaded},
			Movement{Base: 8, SizeFactor: 1, Sized: 8, Effective: 8, BurdenFactor: 0.25, MOV: 2}},
		{"he cannot act, move or perform any action", MoveInput{Control: 10, Burden: Immobile},
			Movement{Base: 8, SizeFactor: 1, Sized: 8, ControlAdj: 5, Effective: 13, MOV: 0}},
		{"a Build that bears clothing only moves freely", MoveInput{Control: 5, Burden: Clothing},
			Movement{Base: 8, SizeFactor: 1, Sized: 8, Effective: 8, BurdenFactor: 1, MOV: 8}},
		{"never below 0", MoveInput{Size: -3, Control: 1, Burden: Light},
			Movement{Base: 8, SizeFactor: 0.125, Sized: 1, ControlAdj: -4, Effective: 0, BurdenFactor: 1, MOV: 0}},
		{"a large human", MoveInput{Size: 1, Control: 5, Burden: Light},
			Movement{Base: 8, SizeFactor: 2, Sized: 16, Effective: 16, BurdenFactor: 1, MOV: 16}},
	}
	for _, tt := range tests {
		got, err := c.Movement(tt.in)
		if err != nil || fmt.Sprintf("%+v", got) != fmt.Sprintf("%+v", tt.want) {
			t.Errorf("%s:\n got %+v %v\nwant %+v", tt.rule, got, err, tt.want)
		}
	}
	for _, in := range []MoveInput{{Control: 0}, {Control: 11}, {Control: 5, Size: 4}, {Control: 5, Base: -1}, {Control: 5, Burden: Immobile + 1}} {
		if _, err := c.Movement(in); err == nil {
			t.Errorf("Movement(%+v): no error", in)
		}
	}
}

func TestLoad(t *testing.T) {
	c := DefaultConfig()
	tests := []struct {
		rule   string
		in     LoadInput
		loadt  float64
		levels int
		max    float64
		over   float64
		status Burden
	}{
		{"LOADT = Build x 3kg: A character with Build 6 ... can carry a weight up to 3 times his LOADT (6x3 = 18kg)",
			LoadInput{Build: 6, Weight: 18}, 18, 3, 54, 72, Light},
		{"Build 6: light/medium/heavy burdened (medium)", LoadInput{Build: 6, Weight: 30}, 18, 3, 54, 72, MediumBurden},
		{"Build 6: light/medium/heavy burdened (heavy, up to 54)", LoadInput{Build: 6, Weight: 54}, 18, 3, 54, 72, Heavy},
		{"in case he wears or brings a weight heavier than 54kg, he will be Overloaded", LoadInput{Build: 6, Weight: 54.5}, 18, 3, 54, 72, Overloaded},
		{"When the character wears a weight heavier than this limit, he cannot act, move or perform any action (overloaded_loadt)",
			LoadInput{Build: 6, Weight: 73}, 18, 3, 54, 72, Immobile},
		{"Any character with a score of 1 in Build is unable to carry any load except clothing",
			LoadInput{Build: 1, Weight: 2, Clothing: 2}, 3, 0, 2, 5, Clothing},
		{"Build 1: any load beyond clothing is too heavy: Overloaded", LoadInput{Build: 1, Weight: 3, Clothing: 2}, 3, 0, 2, 5, Overloaded},
		{"burden_levels_by_build: Build 3 bears light only", LoadInput{Build: 3, Weight: 10}, 9, 1, 9, 18, Overloaded},
		{"burden_levels_by_build: Build 4 bears up to medium", LoadInput{Build: 4, Weight: 24}, 12, 2, 24, 36, MediumBurden},
		{"the standard to define the LOADT according to the size (loadt_size_factor: large)", LoadInput{Build: 6, Size: 1, Weight: 40}, 36, 3, 108, 144, MediumBurden},
		{"loadt_size_factor: small", LoadInput{Build: 6, Size: -1, Weight: 10}, 9, 3, 27, 36, MediumBurden},
	}
	for _, tt := range tests {
		got, err := c.Load(tt.in)
		if err != nil {
			t.Fatalf("%s: %v", tt.rule, err)
		}
		if got.LOADT != tt.loadt || got.Levels != tt.levels || got.MaxBurden != tt.max || got.OverloadedLimit != tt.over || got.Status != tt.status || got.CanAct != (tt.status != Immobile) {
			t.Errorf("%s:\n got LOADT %g, %d levels, max %g, overloaded to %g, %s (can act %v)\nwant %g, %d, %g, %g, %s",
				tt.rule, got.LOADT, got.Levels, got.MaxBurden, got.OverloadedLimit, got.Status, got.CanAct, tt.loadt, tt.levels, tt.max, tt.over, tt.status)
		}
		if len(got.Limits) != got.Levels {
			t.Errorf("%s: limits %v for %d levels", tt.rule, got.Limits, got.Levels)
		}
	}
	six, _ := c.Load(LoadInput{Build: 6})
	if fmt.Sprint(six.Limits) != "[18 36 54]" {
		t.Errorf("Build 6 limits %v, want light 18, medium 36, heavy 54", six.Limits)
	}
	for _, in := range []LoadInput{{Build: 0}, {Build: 11}, {Build: 5, Weight: -1}, {Build: 5, Weight: 1, Clothing: 2}, {Build: 5, Size: -4}} {
		if _, err := c.Load(in); err == nil {
			t.Errorf("Load(%+v): no error", in)
		}
	}
	if _, err := c.Load(LoadInput{Build: 12}); err == nil || !strings.Contains(err.Error(), "Build score must be 1-10") {
		t.Errorf("Build 12: %v", err)
	}
}
