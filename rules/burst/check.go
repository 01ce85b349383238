package burst

import "fmt"

// CheckInput is an action roll against a victory sum.
type CheckInput struct {
	Bonus Bonus
	Label string // where the bonus dice come from, shown beside them
	VS    int    // the victory sum
	// Visibility adds its VS penalty: "Characters attempting to drive,
	// navigate, or similar suffer +5 VS penalty" (reduced), "+10 VS" (low),
	// "+15 VS" (zero). Only for piloting and navigation by sight.
	Visibility Visibility
}

// CheckResult is the outcome of a check.
type CheckResult struct {
	Roll    Roll `json:"roll"`
	VS      int  `json:"vs"`      // the sum to reach, penalties included
	Penalty int  `json:"penalty"` // the visibility penalty in it
	Success bool `json:"success"`
	Margin  int  `json:"margin"` // total - VS
}

// MaxVS bounds a victory sum.
const MaxVS = 1000

// Check rolls "1d20 (the Action Dice) + any Bonus dice against a victory
// sum, VS". Whether a total equal to the VS succeeds is cfg.TieMeetsVS.
func Check(in CheckInput, cfg Config, d Dice) (CheckResult, error) {
	if in.VS < 1 || in.VS > MaxVS {
		return CheckResult{}, fmt.Errorf("the victory sum must be 1 to %d, not %d", MaxVS, in.VS)
	}
	label := in.Label
	if label == "" {
		label = "bonus"
	}
	r, err := ActionRoll(in.Bonus, label, d)
	if err != nil {
		return CheckResult{}, err
	}
	pen := in.Visibility.pilotPenalty()
	vs := in.VS + pen
	return CheckResult{Roll: r, VS: vs, Penalty: pen, Success: meets(r.Total, vs, cfg), Margin: r.Total - vs}, nil
}

func meets(total, vs int, cfg Config) bool {
	if cfg.TieMeetsVS {
		return total >= vs
	}
	return total > vs
}

// ResistanceDice returns the bonus dice of a Resistance check: "you will
// add one of your relevant Ability Score bonuses" and "If you have general
// bonuses to your Resistance from talents or class abilities, you always
// add this bonus."
func ResistanceDice(ability, general int) int { return ability + general }

// MedicineVS is the victory sum of stabilising a creature in Shock ("a
// successful Medicine or Medical Science check VS 20") and of emergency
// aid ("on a Medicine (treatment) VS 20 check").
const MedicineVS = 20

// StabiliseResult is the outcome of an attempt to stabilise a creature in
// Shock.
type StabiliseResult struct {
	CheckResult
	// Stable: "If you are stabilized, you remain unconscious until you
	// recover at least 1 point of health."
	Stable bool `json:"stable"`
}

// Stabilise rolls "a successful Medicine or Medical Science check VS 20"
// for a creature in Shock.
func Stabilise(medicine Bonus, cfg Config, d Dice) (StabiliseResult, error) {
	c, err := Check(CheckInput{Bonus: medicine, Label: "medicine", VS: MedicineVS}, cfg, d)
	if err != nil {
		return StabiliseResult{}, err
	}
	return StabiliseResult{CheckResult: c, Stable: c.Success}, nil
}

// AidActions is what emergency aid costs: "using 2 Actions".
const AidActions = 2

// AidInput is emergency aid on a wounded or injured creature.
type AidInput struct {
	Medicine Bonus
	// Durability is the patient's Durability before the aid, and
	// MaxDurability caps it when above 0 (the text sets no cap; a sheet
	// usually has one).
	Durability, MaxDurability int
}

// AidResult is the outcome of emergency aid.
type AidResult struct {
	CheckResult
	Restore    *Roll `json:"restore,omitempty"` // the 1d10, rolled on a success
	Restored   int   `json:"restored"`          // Durability restored, after the cap
	Durability int   `json:"durability"`        // the patient's Durability after
	Actions    int   `json:"actions"`
}

// Aid rolls emergency aid: "You may also perform emergency aid on a wounded
// or injured creature, using 2 Actions and restoring 1d10 Durability on a
// Medicine (treatment) VS 20 check." The 1d10 is rolled only on a success,
// after the check.
func Aid(in AidInput, cfg Config, d Dice) (AidResult, error) {
	if in.Durability < 0 || in.MaxDurability < 0 {
		return AidResult{}, fmt.Errorf("durability cannot be negative")
	}
	if in.MaxDurability > 0 && in.Durability > in.MaxDurability {
		return AidResult{}, fmt.Errorf("durability %d is above its maximum %d", in.Durability, in.MaxDurability)
	}
	c, err := Check(CheckInput{Bonus: in.Medicine, Label: "medicine", VS: MedicineVS}, cfg, d)
	if err != nil {
		return AidResult{}, err
	}
	out := AidResult{CheckResult: c, Durability: in.Durability, Actions: AidActions}
	if !c.Success {
		return out, nil
	}
	r, err := PlainRoll(1, 10, "durability", d)
	if err != nil {
		return AidResult{}, err
	}
	out.Restore = &r
	after := in.Durability + r.Total
	if in.MaxDurability > 0 {
		after = min(after, in.MaxDurability)
	}
	out.Restored, out.Durability = after-in.Durability, after
	return out, nil
}
