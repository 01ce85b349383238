package ulm

import (
	"strings"
	"testing"
	"time"
)

func TestEpilogues(t *testing.T) {
	cfg := DefaultConfig()
	vulnerable := State{HitPoints: 10, Vulnerable: true, Cards: []Card{{Type: Incision, Damage: 12}}}
	tests := []struct {
		rule   string
		in     EpilogueInput
		maimed bool
		window time.Duration
		shock  time.Duration
		ko     int // Full Rounds
		dead   bool
	}{
		{"Maim: They will remain in shock for 1 hour. Specialized healing or items may reverse the effect of a Maim only if performed within 10 Hours.",
			EpilogueInput{Kind: Maim, Phase: Active}, true, 10 * time.Hour, time.Hour, 0, false},
		{"Knockout: They remain Knocked Out for 3 Full Rounds. Shock is applied to them for 1 hour.",
			EpilogueInput{Kind: Knockout, Phase: Reserve, Slots: 1, SlotsKnown: true}, false, 0, time.Hour, 3, false},
		{"Execute: The Victim Dies",
			EpilogueInput{Kind: Execute, Phase: Active, Slots: 4, SlotsKnown: true}, false, 0, 0, 0, true},
	}
	for _, tt := range tests {
		got, err := ActivateEpilogue(vulnerable, tt.in, cfg)
		if err != nil {
			t.Errorf("%s: %v", tt.rule, err)
			continue
		}
		s := got.State
		if s.Maimed != tt.maimed || s.MaimWindow != tt.window || s.Shock != tt.shock || Rounds(s.KnockedOut, cfg) != tt.ko || s.Dead != tt.dead {
			t.Errorf("%s: %+v", tt.rule, s)
		}
		// "Celerity: (1|1)": "may spend 1 Slot to activate an Epilogue"
		if got.Celerity != 1 || got.Phase != tt.in.Phase {
			t.Errorf("%s: spent %d %s, want 1", tt.rule, got.Celerity, got.Phase.Slot())
		}
	}
}

func TestEpilogueErrors(t *testing.T) {
	cfg := DefaultConfig()
	vulnerable := State{HitPoints: 10, Vulnerable: true, Cards: []Card{{Type: Incision, Damage: 12}}}
	tests := []struct {
		rule  string
		state State
		in    EpilogueInput
		want  string
	}{
		{"When a Character or Unit is Vulnerable, ... may spend 1 Slot to activate an Epilogue: not Vulnerable",
			State{HitPoints: 10, Cards: []Card{{Type: Incision, Damage: 9}}}, EpilogueInput{Kind: Maim, Phase: Active}, "only a Vulnerable Victim"},
		{"a Character or Unit who has an Action Slot or Reserved Slot: none left",
			vulnerable, EpilogueInput{Kind: Maim, Phase: Reserve, SlotsKnown: true}, "costs 1 Reserved Slot"},
		{"only ... if their currently equipped equipment is able to Reach the Victim or they have an Epilogue Effect and the Victim is within Range",
			vulnerable, EpilogueInput{Kind: Execute, Phase: Active, OutOfReach: true}, "Reach"},
		{"The Victim Dies: no Epilogue after death",
			State{HitPoints: 10, Vulnerable: true, Dead: true}, EpilogueInput{Kind: Maim, Phase: Active}, "already dead"},
		{"Maim, Knockout, or Execute only",
			vulnerable, EpilogueInput{Kind: "banish", Phase: Active}, "not an Epilogue"},
	}
	for _, tt := range tests {
		_, err := ActivateEpilogue(tt.state, tt.in, cfg)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err %v, want one with %q", tt.rule, err, tt.want)
		}
	}
	for _, s := range []string{"maim", "knockout", "execute"} {
		if _, err := ParseEpilogue(s); err != nil {
			t.Errorf("ParseEpilogue(%q): %v", s, err)
		}
	}
	if _, err := ParseEpilogue("Maim!"); err == nil {
		t.Error("ParseEpilogue(\"Maim!\"): no error")
	}
}
