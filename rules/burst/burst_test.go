package burst

import (
	"reflect"
	"strings"
	"testing"

	"github.com/tablehand/tablehand/rules/dice"
)

// physical returns Dice that hand out vals in order, and a check, to defer,
// that every value was used.
func physical(t *testing.T, vals ...int) Dice {
	t.Helper()
	p := dice.NewPhysical(vals)
	t.Cleanup(func() {
		if err := p.Done(); err != nil && !t.Failed() {
			t.Errorf("dice %v: %v", vals, err)
		}
	})
	return FromRoller(p)
}

func TestBonusDiceSteps(t *testing.T) {
	tests := []struct {
		rule string
		in   Bonus
		want int
	}{
		{"Bonus dice will be d10 unless you are wounded or suffering Challenges", Bonus{Dice: 2}, 10},
		{"they will drop a step, from d10 to d8", Bonus{Dice: 2, Challenges: 1}, 8},
		{"d8 to d6", Bonus{Dice: 2, Challenges: 2}, 6},
		{"and if you are particularly hindered, d6 to d4", Bonus{Dice: 2, Challenges: 3}, 4},
		{"Bonus dice cannot be reduced below d4", Bonus{Dice: 2, Challenges: 7}, 4},
		{"heroic d10 become ordinary d8 (wounded)", Bonus{Dice: 2, Wounded: true}, 8},
		{"unless you are wounded or suffering Challenges: both drop a step each", Bonus{Dice: 2, Wounded: true, Challenges: 1}, 6},
		{"having a Charge ... from d10 to d12", Bonus{Dice: 2, Charges: 1}, 12},
		{"and d12 to d20", Bonus{Dice: 2, Charges: 2}, 20},
		{"d20 is the top rank", Bonus{Dice: 2, Charges: 5}, 20},
		{"Charges will counter challenges on a 1 to 1 basis, negating each other", Bonus{Dice: 2, Charges: 2, Challenges: 2}, 10},
		{"one charge left over after cancelling", Bonus{Dice: 2, Charges: 3, Challenges: 2}, 12},
		{"a charge lifts the wounded d8 back to d10", Bonus{Dice: 2, Charges: 1, Wounded: true}, 10},
		{"charges past the top still cancel challenges", Bonus{Dice: 2, Charges: 4, Challenges: 2}, 20},
	}
	for _, tt := range tests {
		if got := tt.in.Sides(); got != tt.want {
			t.Errorf("%q: %+v gives d%d, want d%d", tt.rule, tt.in, got, tt.want)
		}
	}
}

func TestActionRoll(t *testing.T) {
	tests := []struct {
		rule     string
		in       Bonus
		vals     []int
		expr     string
		action   int
		bonus    int
		bursts   int
		total    int
		bonusSdz int
	}{
		{"1d20 (the Action Dice) + any Bonus dice", Bonus{Dice: 2}, []int{14, 3, 5}, "1d20 [action] + 2d10! [agility]", 14, 8, 0, 22, 10},
		{"All Bonus Dice burst when you roll maximum value on the dice", Bonus{Dice: 2}, []int{9, 10, 4, 6}, "1d20 [action] + 2d10! [agility]", 9, 20, 1, 29, 10},
		{"a burst die that shows its maximum bursts again", Bonus{Dice: 1, Challenges: 3}, []int{2, 4, 4, 1}, "1d20 [action] + 1d4! [agility]", 2, 9, 2, 11, 4},
		{"nothing can ever reduce your Action dice: a 20 does not burst", Bonus{Dice: 1, Wounded: true}, []int{20, 3}, "1d20 [action] + 1d8! [agility]", 20, 3, 0, 23, 8},
		{"no bonus dice: the action die alone", Bonus{}, []int{11}, "1d20 [action]", 11, 0, 0, 11, 0},
		{"d12 and d20 burst on 12 and 20", Bonus{Dice: 2, Charges: 2}, []int{5, 20, 1, 7}, "1d20 [action] + 2d20! [agility]", 5, 28, 1, 33, 20},
	}
	for _, tt := range tests {
		r, err := ActionRoll(tt.in, "agility", physical(t, tt.vals...))
		if err != nil {
			t.Fatalf("%q: %v", tt.rule, err)
		}
		if r.Expr != tt.expr || r.Action != tt.action || r.Bonus != tt.bonus || r.Bursts != tt.bursts || r.Total != tt.total || r.BonusSides != tt.bonusSdz {
			t.Errorf("%q: got %s action %d bonus %d (d%d) bursts %d total %d; want %s %d %d (d%d) %d %d",
				tt.rule, r.Expr, r.Action, r.Bonus, r.BonusSides, r.Bursts, r.Total, tt.expr, tt.action, tt.bonus, tt.bonusSdz, tt.bursts, tt.total)
		}
	}
	if _, err := ActionRoll(Bonus{Dice: -1}, "x", physical(t)); err == nil {
		t.Error("negative bonus dice: no error")
	}
}

func TestCheck(t *testing.T) {
	def := DefaultConfig()
	strict := def
	strict.TieMeetsVS = false
	tests := []struct {
		rule    string
		in      CheckInput
		cfg     Config
		vals    []int
		vs      int
		success bool
		margin  int
	}{
		{"1d20 + any Bonus dice against a victory sum, VS: 16 vs 9", CheckInput{Bonus: Bonus{Dice: 1}, VS: 9}, def, []int{10, 6}, 9, true, 7},
		{"falls short of the VS", CheckInput{Bonus: Bonus{Dice: 1}, VS: 20}, def, []int{10, 6}, 20, false, -4},
		{"a total equal to the VS meets it (vs_tie_succeeds)", CheckInput{VS: 12}, def, []int{12}, 12, true, 0},
		{"vs_tie_succeeds = false: a tie fails", CheckInput{VS: 12}, strict, []int{12}, 12, false, 0},
		{"Reduced: Characters attempting to drive, navigate, or similar suffer +5 VS penalty", CheckInput{VS: 15, Visibility: Reduced}, def, []int{18}, 20, false, -2},
		{"Low: Piloting and navigation suffer a +10 VS", CheckInput{VS: 10, Visibility: Low}, def, []int{20}, 20, true, 0},
		{"Zero: Piloting by sight ... suffers a +15 VS", CheckInput{Bonus: Bonus{Dice: 1}, VS: 10, Visibility: Zero}, def, []int{20, 5}, 25, true, 0},
	}
	for _, tt := range tests {
		c, err := Check(tt.in, tt.cfg, physical(t, tt.vals...))
		if err != nil {
			t.Fatalf("%q: %v", tt.rule, err)
		}
		if c.VS != tt.vs || c.Success != tt.success || c.Margin != tt.margin {
			t.Errorf("%q: VS %d success %v margin %d; want %d %v %d", tt.rule, c.VS, c.Success, c.Margin, tt.vs, tt.success, tt.margin)
		}
	}
	if _, err := Check(CheckInput{VS: 0}, def, physical(t)); err == nil {
		t.Error("VS 0: no error")
	}
}

func TestResistanceDice(t *testing.T) {
	// "you will add one of your relevant Ability Score bonuses" and "If you
	// have general bonuses to your Resistance ... you always add this bonus."
	if got := ResistanceDice(2, 1); got != 3 {
		t.Errorf("Strength 2 + general Resistance 1 = %d bonus dice, want 3", got)
	}
}

func TestEffectRollOnlyChargesAndWounds(t *testing.T) {
	// "being wounded reduces the rank of all bonus dice to action and effect
	// rolls but attempting to hit a distant enemy with a ranged weapon only
	// challenges the bonus dice added to the attack roll."
	cfg := DefaultConfig()
	wounded := Bonus{Dice: 1, Wounded: true}
	atk, err := ActionRoll(Bonus{Dice: 1, Wounded: true, Challenges: 1}, "skill", physical(t, 10, 3))
	if err != nil {
		t.Fatal(err)
	}
	dmg, err := Damage(DamageInput{Count: 1, Quality: Ordinary, Bonus: wounded, BonusLabel: "skill", Type: Kinetic}, cfg, physical(t, 5, 2))
	if err != nil {
		t.Fatal(err)
	}
	if atk.BonusSides != 6 || dmg.Roll.BonusSides != 8 {
		t.Errorf("wounded and a distance challenge: attack d%d (want d6), damage d%d (want d8, the challenge stays on the attack)", atk.BonusSides, dmg.Roll.BonusSides)
	}
}

func TestTargetGuard(t *testing.T) {
	def := DefaultConfig()
	sum := def
	sum.BehindHalvesBaseGuard = false
	tests := []struct {
		rule   string
		in     GuardInput
		cfg    Config
		guard  int
		target int
	}{
		{"your target's Guard, which is 15 plus any bonuses from armor and abilities", GuardInput{Guard: 15, Size: Medium, TargetSize: Medium}, def, 15, 15},
		{"a surprise attack form behind must beat a Guard of 8, rather than 15", GuardInput{Guard: 15, Behind: true, Size: Medium, TargetSize: Medium}, def, 8, 8},
		{"your Guard is reduced by half, round up: 18 -> 9", GuardInput{Guard: 18, Behind: true, Size: Medium, TargetSize: Medium}, def, 9, 9},
		{"a medium sized creature ... attacking a Tiny creature ... the mouse's guard is +10 (2 sizes difference)", GuardInput{Guard: 15, Size: Medium, TargetSize: Tiny}, def, 25, 25},
		{"a colossal creature ... attacking a Medium sized creature ... will need to beat the human's Guard +20 (4 sizes difference)", GuardInput{Guard: 15, Size: Colossal, TargetSize: Medium}, def, 35, 35},
		{"a smaller attacker gains nothing", GuardInput{Guard: 15, Size: Tiny, TargetSize: Colossal}, def, 15, 15},
		{"Light Cover ... a +10 bonus to Guard from direct ranged attacks", GuardInput{Guard: 15, Ranged: true, Cover: LightCover, Size: Medium, TargetSize: Medium}, def, 25, 25},
		{"Light Cover ... Area attacks are unaffected", GuardInput{Guard: 15, Ranged: true, Area: true, Cover: LightCover, Size: Medium, TargetSize: Medium}, def, 15, 15},
		{"Partial cover, you have +3 bonus to Guard", GuardInput{Guard: 15, Ranged: true, Cover: PartialCover, Size: Medium, TargetSize: Medium}, def, 18, 18},
		{"Full Cover ... a +5 bonus to your Guard", GuardInput{Guard: 15, Ranged: true, Cover: FullCover, Size: Medium, TargetSize: Medium}, def, 20, 20},
		{"Reduced: Distanced attacks are limited to a 300 feet range with a +5 VS penalty", GuardInput{Guard: 15, Ranged: true, Visibility: Reduced, Feet: 300, Size: Medium, TargetSize: Medium}, def, 15, 20},
		{"Low: limited to 150 feet with a +10 VS penalty to strike", GuardInput{Guard: 15, Ranged: true, Visibility: Low, Feet: 100, Size: Medium, TargetSize: Medium}, def, 15, 25},
		{"Zero: limited to 30 feet with a +15 VS penalty", GuardInput{Guard: 15, Ranged: true, Visibility: Zero, Feet: 30, Size: Medium, TargetSize: Medium}, def, 15, 30},
		{"Zero: but no penalties at point blank (under 3 meters)", GuardInput{Guard: 15, Ranged: true, Visibility: Zero, Feet: 9, Size: Medium, TargetSize: Medium}, def, 15, 15},
		{"behind_halves_base_guard: halve 15, then partial cover +3", GuardInput{Guard: 15, Behind: true, Ranged: true, Cover: PartialCover, Size: Medium, TargetSize: Medium}, def, 11, 11},
		{"behind_halves_base_guard = false: halve 15 + 3", GuardInput{Guard: 15, Behind: true, Ranged: true, Cover: PartialCover, Size: Medium, TargetSize: Medium}, sum, 9, 9},
	}
	for _, tt := range tests {
		g, err := TargetGuard(tt.in, tt.cfg)
		if err != nil {
			t.Fatalf("%q: %v", tt.rule, err)
		}
		if g.Guard != tt.guard || g.Target != tt.target {
			t.Errorf("%q: Guard %d target %d; want %d %d", tt.rule, g.Guard, g.Target, tt.guard, tt.target)
		}
	}
	errs := []struct {
		rule string
		in   GuardInput
		want string
	}{
		{"Reduced: limited to a 300 feet range", GuardInput{Guard: 15, Ranged: true, Visibility: Reduced, Feet: 301}, "reach 300 feet"},
		{"Low: limited to 150 feet", GuardInput{Guard: 15, Ranged: true, Visibility: Low, Feet: 151}, "reach 150 feet"},
		{"Zero: limited to 30 feet", GuardInput{Guard: 15, Ranged: true, Visibility: Zero, Feet: 31}, "reach 30 feet"},
		{"Cover comes into play when an attacker at range is targeting an opponent", GuardInput{Guard: 15, Cover: FullCover}, "at range"},
		{"Guard is at least 1", GuardInput{Guard: 0}, "guard must be"},
	}
	for _, tt := range errs {
		if _, err := TargetGuard(tt.in, def); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: err = %v, want it to say %q", tt.rule, err, tt.want)
		}
	}
}

func TestAttack(t *testing.T) {
	cfg := DefaultConfig()
	ten := 10
	tests := []struct {
		rule       string
		in         AttackInput
		vals       []int
		hit        bool
		success    bool
		margin     int
		challenges int
		vigorCost  int
		defended   bool
	}{
		{"To land your attack, you must roll higher than your target's Guard", AttackInput{Bonus: Bonus{Dice: 1}, Guard: GuardInput{Guard: 15}}, []int{10, 6}, true, true, 1, 0, 0, false},
		{"must roll higher: a tie misses", AttackInput{Bonus: Bonus{Dice: 1}, Guard: GuardInput{Guard: 15}}, []int{10, 5}, false, false, 0, 0, 0, false},
		{"The Off-Hand attack suffers a 2 Challenge penalty to your Bonus Dice to hit", AttackInput{Bonus: Bonus{Dice: 1}, Guard: GuardInput{Guard: 15}, OffHand: true, Vigor: &ten}, []int{12, 5}, true, true, 2, 2, 8, false},
		{"ranged attacks against you [prone] are made with a Challenge", AttackInput{Bonus: Bonus{Dice: 1}, Guard: GuardInput{Guard: 15, Ranged: true}, Prone: true}, []int{12, 7}, true, true, 4, 1, 0, false},
		{"a prone target in melee: no challenge", AttackInput{Bonus: Bonus{Dice: 1}, Guard: GuardInput{Guard: 15}, Prone: true}, []int{12, 10, 1}, true, true, 8, 0, 0, false},
		{"Take Opening ... an ordinary attack action at the cost of 5 Vigor", AttackInput{Bonus: Bonus{Dice: 1}, Guard: GuardInput{Guard: 15}, Opening: true, Vigor: &ten}, []int{3, 2}, false, false, -10, 0, 5, false},
		{"If they score higher than the attacker, they successfully defend", AttackInput{Bonus: Bonus{Dice: 1}, Guard: GuardInput{Guard: 15}, Defense: &DefenseInput{Speed: 1}}, []int{12, 6, 15, 4}, true, false, -1, 0, 0, true},
		{"If they tie, the contest goes to the attacker, and the strike hits", AttackInput{Bonus: Bonus{Dice: 1}, Guard: GuardInput{Guard: 15}, Defense: &DefenseInput{Speed: 1}}, []int{12, 6, 14, 4}, true, true, 0, 0, 0, true},
		{"an attack that misses Guard needs no reaction", AttackInput{Bonus: Bonus{Dice: 1}, Guard: GuardInput{Guard: 15}, Defense: &DefenseInput{Speed: 1}}, []int{2, 6}, false, false, -7, 0, 0, false},
	}
	for _, tt := range tests {
		a, err := Attack(tt.in, cfg, physical(t, tt.vals...))
		if err != nil {
			t.Fatalf("%q: %v", tt.rule, err)
		}
		if a.Hit != tt.hit || a.Success != tt.success || a.Margin != tt.margin || a.Challenges != tt.challenges || a.VigorCost != tt.vigorCost || (a.Defense != nil) != tt.defended {
			t.Errorf("%q: hit %v success %v margin %d challenges %d vigor %d defended %v; want %v %v %d %d %d %v",
				tt.rule, a.Hit, a.Success, a.Margin, a.Challenges, a.VigorCost, a.Defense != nil, tt.hit, tt.success, tt.margin, tt.challenges, tt.vigorCost, tt.defended)
		}
		if tt.in.Vigor != nil && (a.Vigor == nil || *a.Vigor != *tt.in.Vigor-tt.vigorCost) {
			t.Errorf("%q: vigor left %v, want %d", tt.rule, a.Vigor, *tt.in.Vigor-tt.vigorCost)
		}
	}
	if _, err := Attack(AttackInput{Guard: GuardInput{Guard: 15}, OffHand: true, Opening: true}, cfg, physical(t)); err == nil {
		t.Error("off-hand and opening together: no error")
	}
	seven := 7
	if _, err := Attack(AttackInput{Guard: GuardInput{Guard: 15}, OffHand: true, Vigor: &seven}, cfg, physical(t)); err == nil || !strings.Contains(err.Error(), "not enough Vigor") {
		t.Errorf("off-hand with 7 Vigor: err = %v, want not enough Vigor", err)
	}
}

func TestDefend(t *testing.T) {
	cfg := DefaultConfig()
	down := cfg
	down.ProneRoundUp = false
	five, nine := 5, 9
	tests := []struct {
		rule      string
		in        DefenseInput
		cfg       Config
		vals      []int
		speedDice int
		success   bool
		margin    int
		cost      int
		vigor     *int
		winded    bool
	}{
		{"Roll your action dice (1d20) plus any Bonus Dice you have from Speed. If you score higher ... you successfully evade", DefenseInput{Attack: 16, Speed: 2}, cfg, []int{10, 4, 3}, 2, true, 1, 5, nil, false},
		{"If they tie, the contest goes to the attacker", DefenseInput{Attack: 16, Speed: 1}, cfg, []int{10, 6}, 1, false, 0, 5, nil, false},
		{"Using the Defense reaction consumes 5 Vigor", DefenseInput{Attack: 16, Speed: 1, Vigor: &nine}, cfg, []int{1, 1}, 1, false, -14, 5, ptr(4), false},
		{"If you exhaust your Vigor, you become Winded", DefenseInput{Attack: 16, Speed: 1, Vigor: &five}, cfg, []int{1, 1}, 1, false, -14, 5, ptr(0), true},
		{"Defend ... reducing the Vigor cost of defensive reactions ... by 2", DefenseInput{Attack: 16, Speed: 1, Vigor: &five, Defending: true}, cfg, []int{1, 1}, 1, false, -14, 3, ptr(2), false},
		{"prone: your Speed is reduced to 1/4 for ... your Bonus Dice to Defense (5 -> 2, rounding up)", DefenseInput{Attack: 16, Speed: 5, Prone: true}, cfg, []int{1, 1, 1}, 2, false, -13, 5, nil, false},
		{"prone_round_up = false: 5 -> 1", DefenseInput{Attack: 16, Speed: 5, Prone: true}, down, []int{1, 1}, 1, false, -14, 5, nil, false},
	}
	for _, tt := range tests {
		d, err := Defend(tt.in, tt.cfg, physical(t, tt.vals...))
		if err != nil {
			t.Fatalf("%q: %v", tt.rule, err)
		}
		if d.SpeedDice != tt.speedDice || d.Success != tt.success || d.Margin != tt.margin || d.VigorCost != tt.cost || !reflect.DeepEqual(d.Vigor, tt.vigor) || d.Winded != tt.winded {
			t.Errorf("%q: speed dice %d success %v margin %d cost %d vigor %v winded %v; want %d %v %d %d %v %v",
				tt.rule, d.SpeedDice, d.Success, d.Margin, d.VigorCost, deref(d.Vigor), d.Winded, tt.speedDice, tt.success, tt.margin, tt.cost, deref(tt.vigor), tt.winded)
		}
	}
	zero := 0
	if _, err := Defend(DefenseInput{Attack: 16, Vigor: &zero}, cfg, physical(t)); err == nil || !strings.Contains(err.Error(), "winded") {
		t.Errorf("defending at 0 Vigor: err = %v; \"If you exhaust your Vigor, you become Winded, and you cannot take any actions.\"", err)
	}
}

func ptr(n int) *int { return &n }

func deref(p *int) any {
	if p == nil {
		return nil
	}
	return *p
}

func TestMovement(t *testing.T) {
	cfg := DefaultConfig()
	// "You move your combat movement distance, this is 1 foot per point of
	// your Speed Score." "Regardless of how many move actions you take,
	// each action can only take you 1 foot per point of your Speed Score."
	if got := Movement(30, false, cfg); got != 30 {
		t.Errorf("Speed Score 30: %d feet a Move action, want 30", got)
	}
	// "While you are knocked down and prone, your Speed is reduced to 1/4
	// for calculating your movement"
	if got := Movement(30, true, cfg); got != 8 {
		t.Errorf("Speed Score 30 prone: %d feet, want 8 (30/4 rounded up)", got)
	}
}

func TestAttackStatAndWeaponStat(t *testing.T) {
	// "Agility for weapons and hand to hand, Soul for spells, and Speed for
	// many techniques."
	for with, want := range map[string]string{"weapon": "agility", "unarmed": "agility", "spell": "soul", "technique": "speed"} {
		if got, err := AttackStat(with); err != nil || got != want {
			t.Errorf("attack with %s adds %q (%v), want %s", with, got, err, want)
		}
	}
	// "an unarmed attack, a melee weapon, or a pull bow, you add your
	// Strength Bonus Dice" and "a crossbow, modern weapon, or magic
	// projectile you add your Skill Bonus Dice".
	for kind, want := range map[string]string{"unarmed": "strength", "melee": "strength", "bow": "strength", "crossbow": "skill", "modern": "skill", "magic": "skill", "other": ""} {
		if got, err := WeaponStat(kind); err != nil || got != want {
			t.Errorf("damage with %s adds %q (%v), want %q", kind, got, err, want)
		}
	}
	if _, err := WeaponStat("sling"); err == nil {
		t.Error("unknown weapon kind: no error")
	}
	// The with: and kind: choices are the words these read.
	for _, with := range AttackWith() {
		if _, err := AttackStat(with); err != nil {
			t.Errorf("AttackStat(%q), a with: choice: %v", with, err)
		}
	}
	for _, kind := range WeaponKinds() {
		if _, err := WeaponStat(kind); err != nil {
			t.Errorf("WeaponStat(%q), a kind: choice: %v", kind, err)
		}
	}
	if _, err := AttackStat("sword"); err == nil || err.Error() != `an attack is with a weapon, unarmed, a spell or a technique, not "sword"` {
		t.Errorf("AttackStat(sword) = %v", err)
	}
}
