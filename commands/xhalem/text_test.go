package xhalem

import (
	"testing"

	rules "github.com/tablehand/tablehand/rules/xhalem"
)

func TestKmAndSigned(t *testing.T) {
	for n, want := range map[int]string{0: "0 km", 999: "999 km", 1000: "1,000 km", 60000: "60,000 km", 1234567: "1,234,567 km", -60000: "-60,000 km"} {
		if got := km(n); got != want {
			t.Errorf("km(%d) = %q, want %q", n, got, want)
		}
	}
	for n, want := range map[int]string{0: "+0", 3: "+3", -2: "-2"} {
		if got := signed(n); got != want {
			t.Errorf("signed(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestModeNote(t *testing.T) {
	cloaked := rules.Source{Mode: rules.Detriment, Why: "cloaked target"}
	flank := rules.Source{Mode: rules.Advantage, Why: "flanking"}
	tests := []struct {
		m    rules.Mode
		why  []rules.Source
		want string
	}{
		{rules.Normal, nil, ""},
		{rules.Advantage, nil, "Engagement with advantage"},
		{rules.Detriment, []rules.Source{cloaked}, "Engagement with detriment (cloaked target)"},
		{rules.Disadvantage, []rules.Source{cloaked, flank}, "Engagement with disadvantage (cloaked target: detriment, flanking: advantage)"},
		{rules.Normal, []rules.Source{{Mode: rules.Disadvantage, Why: "underwater"}, {Mode: rules.Advantage, Why: "assisted"}},
			"Engagement with one die, the modes cancelling (underwater: disadvantage, assisted: advantage)"},
	}
	for _, tt := range tests {
		if got := modeNote("Engagement", tt.m, tt.why); got != tt.want {
			t.Errorf("modeNote(%v, %v) = %q, want %q", tt.m, tt.why, got, tt.want)
		}
	}
	if got, want := joinNotes([]string{"", "evasion with advantage", "", "you give away your position"}), "Evasion with advantage · you give away your position"; got != want {
		t.Errorf("joinNotes = %q, want %q", got, want)
	}
	if got := joinNotes([]string{"", ""}); got != "" {
		t.Errorf("joinNotes of nothing = %q", got)
	}
}
