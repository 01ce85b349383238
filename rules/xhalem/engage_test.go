package xhalem

import (
	"testing"
)

func TestEngage(t *testing.T) {
	mech := func(f func(*EngageInput)) EngageInput {
		in := EngageInput{Kind: Machine, Score: 3, Evasion: 2}
		if f != nil {
			f(&in)
		}
		return in
	}
	beast := func(f func(*EngageInput)) EngageInput {
		in := EngageInput{Kind: Creature, Score: 2, Evasion: 4}
		if f != nil {
			f(&in)
		}
		return in
	}
	tests := []struct {
		rule       string
		in         EngageInput
		faces      []int // the attacker's dice, then the target's
		mode       Mode
		targetMode Mode
		hit        bool
		margin     *int // nil when the totals were not compared
		evasionTo  int
		auto       string
		half       bool
	}{
		{"As a machine, you must always add your Systems score to the engagement roll (D20). ... is greater than the target's final score of their evasion roll ... then you successfully hit the target.",
			mech(nil), []int{14, 8}, Normal, Normal, true, ptr(7), 10, "", false},
		{"A tie always goes to the defender.",
			mech(nil), []int{9, 10}, Normal, Normal, false, ptr(0), 12, "", false},
		{"For all activities and rolls, each player must remember to add any additional bonuses or penalties",
			mech(func(in *EngageInput) { in.Bonus = -2 }), []int{14, 8}, Normal, Normal, true, ptr(5), 10, "", false},
		{"Generally, you will add your Agility score to all creature engagement rolls",
			beast(nil), []int{11, 9}, Normal, Normal, false, ptr(0), 13, "", false},
		{"Rolling a 1 with a D20 when attempting to engage as a creature is considered an automatic failure regardless of the penalties and bonuses",
			beast(func(in *EngageInput) { in.Bonus = 30 }), []int{1}, Normal, Normal, false, nil, 0, AutoNatural1, false},
		{"Rolling a 20 with a D20 is an automatic success during an engagement.",
			beast(func(in *EngageInput) { in.Evasion = 40 }), []int{20}, Normal, Normal, true, nil, 0, AutoNatural20, false},
		{"Added effects and automatic outcomes do not apply to machines. (a natural 20)",
			mech(func(in *EngageInput) { in.Evasion = 40 }), []int{20, 5}, Normal, Normal, false, ptr(-22), 45, "", false},
		{"Added effects and automatic outcomes do not apply to machines. (a natural 1)",
			mech(nil), []int{1, 1}, Normal, Normal, true, ptr(1), 3, "", false},
		{"the natural die of a creature is the one kept: with disadvantage, 20 and 1 keep the 1",
			beast(func(in *EngageInput) { in.Mode = Disadvantage }), []int{20, 1}, Disadvantage, Normal, false, nil, 0, AutoNatural1, false},
		{"When engaging a target that is cloaked, you must perform an engagement roll with a detriment ... the target is then able to perform an evasion roll with advantage (2D20).",
			mech(func(in *EngageInput) { in.Target = Cloaked }), []int{17, 12, 6, 15, 3, 11}, Detriment, Advantage, false, ptr(-4), 13, "", false},
		{"If the target is not within range, the engagement automatically fails and you lose your turn. (cloaked)",
			mech(func(in *EngageInput) { in.Target = Cloaked; in.Range = OutOfRange }), []int{17, 12, 16, 15}, Detriment, Advantage, false, nil, 0, AutoOutOfRange, false},
		{"When engaging a target that is concealed, you must perform an engagement roll with disadvantage (2D20) ... the target is then able to perform an evasion roll with advantage (2D20).",
			mech(func(in *EngageInput) { in.Target = Concealed }), []int{17, 12, 6, 4}, Disadvantage, Advantage, true, ptr(7), 8, "", false},
		{"If the target is not in range, or is protected from attack by their concealment, the engagement automatically fails",
			mech(func(in *EngageInput) { in.Target = Concealed; in.Range = Blocked }), []int{19, 18}, Disadvantage, Advantage, false, nil, 0, AutoBlocked, false},
		{"any engagement you make against a partially concealed target, the target has an advantage on its evasion roll. There is no disadvantage for engaging a partially concealed target.",
			mech(func(in *EngageInput) { in.Target = Partial }), []int{10, 4, 9}, Normal, Advantage, true, ptr(2), 11, "", false},
		{"Once your position is given away, whether cloaked or concealed, there is no disadvantage or detriment to engage you, but you would still receive an advantage on all of your evasion rolls",
			mech(func(in *EngageInput) { in.Target = Revealed }), []int{10, 12, 9}, Normal, Advantage, false, ptr(-1), 14, "", false},
		{"If you are engaging a target and you are cloaked or concealed, and your opponent is unaware of your presence, they are unable to roll for evasion and you have advantage on the engagement roll. Your engagement score still has to beat their base Evasion score.",
			mech(func(in *EngageInput) { in.Stealth = Unaware; in.Evasion = 13 }), []int{4, 10}, Advantage, Normal, false, ptr(0), 13, "", false},
		{"Once you move again, and your movement goes unnoticed ... all engagement and evasion rolls have an advantage.",
			mech(func(in *EngageInput) { in.Stealth = Hidden }), []int{4, 10, 7}, Advantage, Normal, true, ptr(4), 9, "", false},
		{"Flanking would provide both attackers advantage on an attack.",
			mech(func(in *EngageInput) { in.Position = Front; in.Allies = []Position{Back} }), []int{3, 12, 10}, Advantage, Normal, true, ptr(3), 12, "", false},
		{"If another ally joins the fight, the third attacker does not get an advantage.",
			mech(func(in *EngageInput) { in.Position = Left; in.Allies = []Position{Front, Back} }), []int{3, 10}, Normal, Normal, false, ptr(-6), 12, "", false},
		{"When you take the Assist action ... the first engagement roll is made with advantage against it.",
			mech(func(in *EngageInput) { in.Assisted = true }), []int{3, 12, 10}, Advantage, Normal, true, ptr(3), 12, "", false},
		{"This type of attack is a reaction as well, and it allows for a single melee weapon engagement against the target with advantage.",
			mech(func(in *EngageInput) { in.Opportunity = Provoked }), []int{3, 12, 10}, Advantage, Normal, true, ptr(3), 12, "", false},
		{"If you are moved against your will into and out of a combatant's reach, you will provoke an opportunity attack but with disadvantage.",
			mech(func(in *EngageInput) { in.Opportunity = Forced }), []int{3, 12, 10}, Disadvantage, Normal, false, ptr(-6), 12, "", false},
		{"If the target is out of the range, you must roll engagement with disadvantage and the damage is halved.",
			mech(func(in *EngageInput) { in.Range = OutOfRange }), []int{18, 15, 5}, Disadvantage, Normal, true, ptr(11), 7, "", true},
		{"All underwater engagements have a disadvantage",
			beast(func(in *EngageInput) { in.Water = Underwater }), []int{18, 15, 5}, Disadvantage, Normal, true, ptr(8), 9, "", false},
		{"unless you are a creature with the ability to breathe underwater or a mech with programming that allows specifically for such engagements",
			beast(func(in *EngageInput) { in.Water = Adapted }), []int{18, 5}, Normal, Normal, true, ptr(11), 9, "", false},
		{"the Architect's own call joins the situation: advantage and a cloaked target's detriment net to disadvantage",
			mech(func(in *EngageInput) { in.Mode = Advantage; in.Target = Cloaked }), []int{18, 15, 5, 2}, Disadvantage, Advantage, true, ptr(11), 7, "", false},
		{"the Architect's call for the target's evasion roll",
			mech(func(in *EngageInput) { in.TargetMode = Detriment }), []int{10, 20, 19, 18, 17}, Normal, Detriment, false, ptr(-6), 19, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			r, done := table(t, tt.faces...)
			got, err := Engage(tt.in, DefaultConfig(), r)
			if err != nil {
				t.Fatal(err)
			}
			done()
			if got.Mode != tt.mode || got.TargetMode != tt.targetMode {
				t.Errorf("modes %s / %s, want %s / %s", got.Mode, got.TargetMode, tt.mode, tt.targetMode)
			}
			if got.Hit != tt.hit || got.Automatic != tt.auto || got.HalfDamage != tt.half {
				t.Errorf("hit %v (%q), half damage %v; want %v (%q), %v", got.Hit, got.Automatic, got.HalfDamage, tt.hit, tt.auto, tt.half)
			}
			switch {
			case tt.margin == nil && got.Compared:
				t.Errorf("compared the totals (margin %d); the outcome was automatic", got.Margin)
			case tt.margin != nil && (!got.Compared || got.Margin != *tt.margin || got.EvasionTo != tt.evasionTo):
				t.Errorf("margin %d against %d (compared %v), want %d against %d", got.Margin, got.EvasionTo, got.Compared, *tt.margin, tt.evasionTo)
			}
			if want := tt.in.Stealth != Seen; got.GivesAway != want {
				t.Errorf("gives away position %v; \"Once you engage while undetected, you immediately give away your position\"", got.GivesAway)
			}
		})
	}
}

func TestEngageMistakes(t *testing.T) {
	for name, in := range map[string]EngageInput{
		"no kind":                 {Score: 3},
		"blocked visible target":  {Kind: Machine, Range: Blocked},
		"allies without position": {Kind: Machine, Allies: []Position{Back}},
	} {
		r, _ := table(t)
		if _, err := Engage(in, DefaultConfig(), r); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestEngageStat(t *testing.T) {
	if EngageStat(Machine) != "systems" || EngageStat(Creature) != "agility" {
		t.Error(`"As a machine, you must always add your Systems score to the engagement roll" / "you will add your Agility score to all creature engagement rolls"`)
	}
}
