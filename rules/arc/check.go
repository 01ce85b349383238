package arc

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tablehand/tablehand/rules/dice"
)

// ESDie returns the sides of the die rolled for the ES Adjustment at the
// score es: "For every score of the ES, the player rolls the corresponding
// die to that score".
func (c Config) ESDie(es int) (int, error) {
	sides, err := byScore(c.ESDice, es, "ES score", "es_dice")
	if err != nil {
		return 0, err
	}
	if sides < 1 {
		return 0, fmt.Errorf("the arc config's es_dice gives a d%d for ES %d: a die needs at least 1 side", sides, es)
	}
	return sides, nil
}

// ESAdjustment is the ES Adjustment of a roll at the score es:
//
//   - "If the result is equal or lower to the character's ES score, the
//     result of the roll itself is the value of the adjustment."
//   - "If the result of the roll exceeds the score of the character's ES
//     score, the difference between the ES score and the result of the die
//     is the negative modifier to be applied within the ARC formula."
func ESAdjustment(es, roll int) int {
	if roll <= es {
		return roll
	}
	return es - roll
}

// ESRange returns the lowest and highest ES Adjustment of a die of sides
// at the score es: "The lowest ES Adjustment is the 'Min adj' in the table,
// while the highest ES Adjustment is the 'Max adj', or the maximum value a
// player can get from the die roll: the same value of the ES."
func ESRange(es, sides int) (lo, hi int) {
	lo, hi = ESAdjustment(es, sides), min(es, sides)
	if lo > 1 {
		lo = 1 // a die that never exceeds the score: its lowest face
	}
	return lo, hi
}

// ActionsPerTurn is the number of actions the score es allows in a turn:
// "Without any specific indication in the ES description, the score of an
// ES defines the number of actions a character can perform in a turn".
func (c Config) ActionsPerTurn(es int) (int, error) {
	return byScore(c.ActionsByES, es, "ES score", "actions_by_es")
}

// Adjustments are the 'Other adjustments' of an ARC: "The modifier of
// 'Other adjustments' is a value either positive or negative resulting by
// three main drivers: advantages/disadvantages of the situation (see
// below), difference in size (see Melee attacks), other specific rules
// (like the malus for an inadequate armor – see ES description)."
type Adjustments struct {
	// "a +1 per single advantage and of a -1 per single disadvantage".
	Advantages, Disadvantages int
	// "In case the GM is in front of a situation of a huge advantage of the
	// character, he may consider a +2 instead of +1 (the same for a huge
	// disadvantage)."
	HugeAdvantages, HugeDisadvantages int
	// Size is the adjustment for the difference in size (see
	// SizeAdjustments).
	Size int
	// Other is any other bonus or malus the GM applies ("other specific
	// rules").
	Other int
}

// Situation is the advantages/disadvantages modifier: "The calculation of
// the 'advantages/ disadvantages' modifier is the result of a +1 per single
// advantage and of a -1 per single disadvantage", +2 and -2 for huge ones.
func (a Adjustments) Situation() int {
	return a.Advantages - a.Disadvantages + 2*a.HugeAdvantages - 2*a.HugeDisadvantages
}

// Total is the 'Other adj.' of the ARC formula: "the sum of all these
// elements (playing either a positive or a negative factor) is the factor
// called 'Other adjustments' in the ARC".
func (a Adjustments) Total() int { return a.Situation() + a.Size + a.Other }

func (a Adjustments) check() error {
	for _, f := range []struct {
		n    int
		what string
	}{{a.Advantages, "advantages"}, {a.Disadvantages, "disadvantages"}, {a.HugeAdvantages, "huge advantages"}, {a.HugeDisadvantages, "huge disadvantages"}} {
		if f.n < 0 {
			return fmt.Errorf("the number of %s cannot be negative (%d)", f.what, f.n)
		}
		if f.n > maxScore {
			return fmt.Errorf("%d %s is more than any situation holds (at most %d)", f.n, f.what, maxScore)
		}
	}
	if a.Other > maxScore || a.Other < -maxScore || a.Size > maxScore || a.Size < -maxScore {
		return fmt.Errorf("an adjustment of %d is out of range (at most ±%d)", a.Other+a.Size, maxScore)
	}
	return nil
}

// maxScore bounds every number a user gives, so sums cannot overflow and a
// typo such as ks:40000 is caught.
const maxScore = 1000

// ARCInput is what one side of an Action Resolution Check brings.
type ARCInput struct {
	KS, US, ES  int
	Adjustments Adjustments
}

// ARC is one Action Resolution Check: "ARC = KS score + US score + ES Adj.
// + Other adj. (optional)".
type ARC struct {
	KS, US, ES int
	// Die is the sides of the ES die, Roll its face, ESAdj the adjustment
	// it gives, MinAdj and MaxAdj the range the die allows.
	Die, Roll, ESAdj, MinAdj, MaxAdj int
	Adjustments                      Adjustments
	Other                            int // Adjustments.Total()
	Value                            int
	// Actions is how many actions the ES score allows in a turn.
	Actions int
}

// RollARC rolls the ES die of in and computes its ARC.
func (c Config) RollARC(in ARCInput, r dice.Roller) (ARC, error) {
	for _, s := range []struct {
		v    int
		name string
	}{{in.KS, "KS"}, {in.US, "US"}} {
		if s.v < -maxScore || s.v > maxScore {
			return ARC{}, fmt.Errorf("the %s score %d is out of range (at most ±%d)", s.name, s.v, maxScore)
		}
	}
	if err := in.Adjustments.check(); err != nil {
		return ARC{}, err
	}
	sides, err := c.ESDie(in.ES)
	if err != nil {
		return ARC{}, err
	}
	actions, err := c.ActionsPerTurn(in.ES)
	if err != nil {
		return ARC{}, err
	}
	roll, err := r.Roll(sides)
	if err != nil {
		return ARC{}, fmt.Errorf("roll the ES die (1d%d): %w", sides, err)
	}
	if roll < 1 || roll > sides {
		return ARC{}, fmt.Errorf("the ES die d%d cannot show %d", sides, roll)
	}
	return c.arc(in, sides, roll, actions), nil
}

func (c Config) arc(in ARCInput, sides, roll, actions int) ARC {
	a := ARC{KS: in.KS, US: in.US, ES: in.ES, Die: sides, Roll: roll, Adjustments: in.Adjustments, Actions: actions}
	a.ESAdj = ESAdjustment(in.ES, roll)
	a.MinAdj, a.MaxAdj = ESRange(in.ES, sides)
	a.Other = in.Adjustments.Total()
	a.Value = in.KS + in.US + a.ESAdj + a.Other
	return a
}

// Formula writes the ARC as the text does: "7+4+5=16", "7+4-3=8".
func (a ARC) Formula() string {
	var b strings.Builder
	b.WriteString(strconv.Itoa(a.KS))
	for _, v := range []int{a.US, a.ESAdj} {
		b.WriteString(signed(v))
	}
	if a.Other != 0 {
		b.WriteString(signed(a.Other))
	}
	b.WriteString("=" + strconv.Itoa(a.Value))
	return b.String()
}

func signed(v int) string {
	if v < 0 {
		return strconv.Itoa(v)
	}
	return "+" + strconv.Itoa(v)
}

// Threshold resolves the threshold of an ARCT, given as a name of the
// config's thresholds (any case; spaces and dashes as underscores) or as a
// number. name is "" for a number that no name has.
func (c Config) Threshold(text string) (value int, name string, err error) {
	t := strings.ToLower(strings.TrimSpace(text))
	if n, err := strconv.Atoi(strings.TrimPrefix(t, "+")); err == nil {
		if n < -maxScore || n > maxScore {
			return 0, "", fmt.Errorf("threshold %d is out of range (at most ±%d)", n, maxScore)
		}
		for _, nm := range c.ThresholdNames() {
			if c.Thresholds[nm] == n {
				return n, nm, nil
			}
		}
		return n, "", nil
	}
	t = strings.NewReplacer(" ", "_", "-", "_").Replace(t)
	if v, ok := c.Thresholds[t]; ok {
		return v, t, nil
	}
	return 0, "", fmt.Errorf("threshold %q is neither a number nor one of: %s", text, c.thresholdList())
}

func (c Config) thresholdList() string {
	var parts []string
	for _, n := range c.ThresholdNames() {
		parts = append(parts, fmt.Sprintf("%s (%d)", n, c.Thresholds[n]))
	}
	return strings.Join(parts, ", ")
}

// CheckInput is an ARCT: one side's ARC against a fixed threshold.
type CheckInput struct {
	ARCInput
	Threshold int
}

// CheckResult is the outcome of an ARCT.
type CheckResult struct {
	ARC       ARC
	Threshold int
	// Success: "The success in the action is granted if the result is
	// higher than either the threshold or the opposite check. For tie or
	// lower result, the check is failed."
	Success bool
	// Margin is the ARC minus the threshold: above 0 a success by that
	// much, 0 a tie (failed), below 0 a failure.
	Margin int
}

// Check rolls an ARCT: "An ARCT has to be compared against a fixed value,
// a threshold: Value of ARCT < > Threshold".
func (c Config) Check(in CheckInput, r dice.Roller) (CheckResult, error) {
	if in.Threshold < -maxScore || in.Threshold > maxScore {
		return CheckResult{}, fmt.Errorf("threshold %d is out of range (at most ±%d)", in.Threshold, maxScore)
	}
	a, err := c.RollARC(in.ARCInput, r)
	if err != nil {
		return CheckResult{}, err
	}
	return CheckResult{ARC: a, Threshold: in.Threshold, Success: a.Value > in.Threshold, Margin: a.Value - in.Threshold}, nil
}

// SizeAdjustments returns the size adjustments of an ARCO between beings of
// the sizes actor and target: the larger side gets SizeAdjPerStep for each
// size of difference ("difference in size (see Melee attacks)"; see
// Config.SizeAdjPerStep).
func (c Config) SizeAdjustments(actor, target int) (actorAdj, targetAdj int, err error) {
	for _, s := range []int{actor, target} {
		if s < MinSize || s > MaxSize {
			return 0, 0, fmt.Errorf("size must be %d to %d, not %d", MinSize, MaxSize, s)
		}
	}
	if d := actor - target; d > 0 {
		return d * c.SizeAdjPerStep, 0, nil
	} else if d < 0 {
		return 0, -d * c.SizeAdjPerStep, nil
	}
	return 0, 0, nil
}

// OpposedResult is the outcome of an ARCO.
type OpposedResult struct {
	Actor, Target ARC
	// Success: "The success in the action is granted if the result is
	// higher than ... the opposite check. For tie or lower result, the
	// check is failed."
	Success bool
	// Margin is the actor's ARC minus the target's.
	Margin int
}

// Opposed rolls an ARCO, the actor's ES die first and then the target's:
// "the second character has to perform a check and compare his result with
// the first one: Subject 1 value of ARCO < > Subject 2 value of ARCO".
func (c Config) Opposed(actor, target ARCInput, r dice.Roller) (OpposedResult, error) {
	a, err := c.RollARC(actor, r)
	if err != nil {
		return OpposedResult{}, fmt.Errorf("actor: %w", err)
	}
	t, err := c.RollARC(target, r)
	if err != nil {
		return OpposedResult{}, fmt.Errorf("target: %w", err)
	}
	return OpposedResult{Actor: a, Target: t, Success: a.Value > t.Value, Margin: a.Value - t.Value}, nil
}
