package xhalem

import (
	"strings"
	"testing"
)

func TestGrapple(t *testing.T) {
	tests := []struct {
		rule   string
		in     GrappleInput
		faces  []int
		hit    bool
		margin *int
		auto   string
	}{
		{"To grapple using a machine, you must roll for engagement (D20) and add your Hull score. ... If they fail to evade, they are grappled.",
			GrappleInput{Kind: Machine, Score: 4, Evasion: 1}, []int{12, 9}, true, ptr(6), ""},
		{"As a creature, you roll for engagement and add your Strength score. ... If they manage to evade, the grapple fails.",
			GrappleInput{Kind: Creature, Score: 2, Evasion: 3}, []int{12, 11}, false, ptr(0), ""},
		{"Rolling a 20 with a D20 is an automatic success during an engagement. (a creature's grapple is an engagement)",
			GrappleInput{Kind: Creature, Score: 2, Evasion: 30}, []int{20}, true, nil, AutoNatural20},
		{"All underwater engagements have a disadvantage",
			GrappleInput{Kind: Machine, Score: 4, Evasion: 1, Water: Underwater}, []int{12, 3, 9}, false, ptr(-3), ""},
		{"A combatant can automatically be grappled if the target is incapacitated or immobilized.",
			GrappleInput{Kind: Machine, Score: 4, Evasion: 1, Helpless: true}, nil, true, nil, AutoHelpless},
		{"The target of your grapple must be no more than one size larger than you",
			GrappleInput{Kind: Creature, Score: 2, Evasion: 1, Size: Medium, TargetSize: Large}, []int{5, 5}, true, ptr(1), ""},
	}
	for _, tt := range tests {
		r, done := table(t, tt.faces...)
		got, err := Grapple(tt.in, DefaultConfig(), r)
		if err != nil {
			t.Fatalf("%s: %v", tt.rule, err)
		}
		done()
		if got.Hit != tt.hit || got.Automatic != tt.auto || (tt.margin != nil) != got.Compared || (tt.margin != nil && got.Margin != *tt.margin) {
			t.Errorf("%+v rolling %v: hit %v (%q) margin %d compared %v; want %v (%q) %v (%s)", tt.in, tt.faces, got.Hit, got.Automatic, got.Margin, got.Compared, tt.hit, tt.auto, tt.margin, tt.rule)
		}
	}
	r, _ := table(t)
	_, err := Grapple(GrappleInput{Kind: Creature, Size: Medium, TargetSize: ExtraLarge}, DefaultConfig(), r)
	if err == nil || !strings.Contains(err.Error(), "no more than one size larger") {
		t.Errorf("grappling two sizes up: %v; \"must be no more than one size larger than you\"", err)
	}
	if MightStat(Machine) != "hull" || MightStat(Creature) != "strength" {
		t.Error("grapple adds Hull (machine) or Strength (creature)")
	}
}

func TestEscape(t *testing.T) {
	tests := []struct {
		rule    string
		in      EscapeInput
		faces   []int
		success bool
		margin  int
	}{
		{"If their score is equal to or better than yours, they break free.",
			EscapeInput{Kind: Machine, Score: 3, Grappler: 5}, []int{10, 8}, true, 0},
		{"If their score is equal to or better than yours, they break free. (better)",
			EscapeInput{Kind: Creature, Score: 3, Grappler: 1}, []int{10, 8}, true, 4},
		{"If they fail, they are unable to move or take any further action.",
			EscapeInput{Kind: Creature, Score: 3, Grappler: 1, Bonus: -2}, []int{6, 9}, false, -3},
		{"When you take the Assist action, the combatant you aid gains advantage on the next ability check",
			EscapeInput{Kind: Machine, Score: 0, Grappler: 0, Mode: Advantage}, []int{6, 13, 9}, true, 4},
	}
	for _, tt := range tests {
		r, done := table(t, tt.faces...)
		got, err := Escape(tt.in, r)
		if err != nil {
			t.Fatal(err)
		}
		done()
		if got.Success != tt.success || got.Margin != tt.margin {
			t.Errorf("%+v rolling %v: %v by %d; want %v by %d (%s)", tt.in, tt.faces, got.Success, got.Margin, tt.success, tt.margin, tt.rule)
		}
	}
}

func TestShove(t *testing.T) {
	base := ShoveInput{Kind: Machine, Score: 2, Evasion: 1, Might: 4, Resist: 3}
	tests := []struct {
		rule    string
		in      ShoveInput
		cfg     func(*Config)
		faces   []int // engagement, evasion, then the two checks
		hit     bool
		success bool
		margin  *int // of the check
	}{
		{"Roll for engagement, if you manage to overcome the opponents evasion roll, you make a Hull (machine) or Strength (creature) check. The opponent would need to do the same to see who is successful.",
			base, nil, []int{15, 6, 11, 9}, true, true, ptr(3)},
		{"if you manage to overcome the opponents evasion roll (it does not: no check)",
			base, nil, []int{5, 6}, false, false, nil},
		{"The opponent would need to do the same to see who is successful. (a tie: shove_tie defender)",
			base, nil, []int{15, 6, 10, 11}, true, false, ptr(0)},
		{"shove_tie attacker",
			base, func(c *Config) { c.ShoveTie = "attacker" }, []int{15, 6, 10, 11}, true, true, ptr(0)},
		{"check_sides sets the check's die",
			base, func(c *Config) { c.CheckSides = 10 }, []int{15, 6, 10, 8}, true, true, ptr(3)},
		{"You succeed automatically if the target is incapacitated.",
			ShoveInput{Kind: Creature, Helpless: true}, nil, nil, true, true, nil},
	}
	for _, tt := range tests {
		cfg := DefaultConfig()
		if tt.cfg != nil {
			tt.cfg(&cfg)
		}
		r, done := table(t, tt.faces...)
		got, err := Shove(tt.in, cfg, r)
		if err != nil {
			t.Fatalf("%s: %v", tt.rule, err)
		}
		done()
		if got.Engagement.Hit != tt.hit || got.Success != tt.success || (got.Check != nil) != (tt.margin != nil) || (tt.margin != nil && got.Check.Margin != *tt.margin) {
			t.Errorf("rolling %v: hit %v, success %v, check %+v; want %v, %v, margin %v (%s)", tt.faces, got.Engagement.Hit, got.Success, got.Check, tt.hit, tt.success, tt.margin, tt.rule)
		}
	}
	r, _ := table(t)
	if _, err := Shove(ShoveInput{Kind: Creature, Size: Small, TargetSize: Large}, DefaultConfig(), r); err == nil {
		t.Error("\"The target must be no more than one size larger than you\": a small creature shoved a large one")
	}
}

func TestCheck(t *testing.T) {
	tests := []struct {
		rule    string
		in      CheckInput
		faces   []int
		total   int
		success bool
	}{
		{"the attacker's roll to scan must beat the CR of the field in order to detect the mech",
			CheckInput{Score: 3, CR: 15}, []int{13}, 16, true},
		{"must beat the CR (a tie does not beat it)",
			CheckInput{Score: 3, CR: 16}, []int{13}, 16, false},
		{"Creatures must beat your Stealth check total.",
			CheckInput{Score: 1, Bonus: 1, CR: 12, Mode: Advantage}, []int{4, 11}, 13, true},
	}
	for _, tt := range tests {
		r, done := table(t, tt.faces...)
		roll, ok, err := Check(tt.in, DefaultConfig(), r)
		if err != nil {
			t.Fatal(err)
		}
		done()
		if roll.Total != tt.total || ok != tt.success {
			t.Errorf("%+v rolling %v: %d, %v; want %d, %v (%s)", tt.in, tt.faces, roll.Total, ok, tt.total, tt.success, tt.rule)
		}
	}
}
