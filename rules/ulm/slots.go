package ulm

import (
	"fmt"
	"slices"
)

// BaseActionSlots is the 5 of "(5 +/- Agility)".
const BaseActionSlots = 5

// SlotsInput is what decides how many Action Slots a Character gains when
// its Active Phase begins.
type SlotsInput struct {
	// Agility: "The base number of Action Slots a Character gains when
	// their Active Phase begins is (5 +/- Agility)."
	Agility int
	// Alacrity lists the sources of Enhanced Alacrity present, each the
	// Action Slots it gives: "the Strongest Source (The one which gives the
	// most Enhanced Alacrity) is used".
	Alacrity []int
	// Bonus lists the sources of Bonus Action Slots present, in the order
	// gained: "a Character may only benefit from one source of Bonus Action
	// Slots. Additional Sources simply fail to add more".
	Bonus []int
	// BonusInstance is which time this Full Round the Character gains Bonus
	// Action Slots: 1 (or 0) for the first, 2 for the second and so on.
	BonusInstance int
	// Dilation lists the Time Dilation effects, each the Action Slots it
	// gives: they "may be stacked indefinitely".
	Dilation []int
	// Shock: "The number of Action Slots you gain in each Active Phase is
	// reduced to 1."
	Shock bool
}

// SlotsResult is the count of Action Slots and how it came about.
type SlotsResult struct {
	Base            int   // 5 + Agility
	Alacrity        int   // the strongest source of Enhanced Alacrity
	Bonus           int   // the one source of Bonus Action Slots that counts
	BonusFailed     []int // the other sources, which "simply fail to add more"
	Dilation        int   // all Time Dilation, stacked
	DilationEffects int   // Time Dilation effects: each applies its Temporal Sickness, and they stack
	// Stress is the Physical Stress the Bonus Action Slots cost when used
	// in the second or a later instance this Full Round: 1 per slot used.
	Stress    int
	Unshocked int // the slots without Shock
	Slots     int // the Action Slots gained
	Shock     bool
}

// ActionSlots counts the Action Slots a Character gains when its Active
// Phase begins.
func ActionSlots(in SlotsInput, cfg Config) (SlotsResult, error) {
	for _, src := range []struct {
		name string
		vals []int
	}{{"Enhanced Alacrity", in.Alacrity}, {"Bonus Action Slots", in.Bonus}, {"Time Dilation", in.Dilation}} {
		for _, v := range src.vals {
			if v < 0 {
				return SlotsResult{}, fmt.Errorf("a source of %s gives %d slots; it must give 0 or more", src.name, v)
			}
		}
	}
	if in.BonusInstance < 0 {
		return SlotsResult{}, fmt.Errorf("bonus instance %d: count the times Bonus Action Slots were gained this Full Round from 1", in.BonusInstance)
	}
	res := SlotsResult{Base: BaseActionSlots + in.Agility, Shock: in.Shock, DilationEffects: len(in.Dilation)}
	if len(in.Alacrity) > 0 {
		// "the Strongest Source (The one which gives the most Enhanced
		// Alacrity) is used to determine total Enhanced Alacrity"
		res.Alacrity = slices.Max(in.Alacrity)
	}
	if len(in.Bonus) > 0 {
		// "Additional Sources simply fail to add more Bonus Action Slots":
		// the first source gained is the one that counts.
		res.Bonus = in.Bonus[0]
		res.BonusFailed = slices.Clone(in.Bonus[1:])
	}
	if in.BonusInstance >= 2 {
		// "they gain 1 Physical Stress for every single additional Bonus
		// Action Slot used during second and all later instances"
		res.Stress = res.Bonus
	}
	for _, d := range in.Dilation {
		res.Dilation += d
	}
	res.Unshocked = max(res.Base+res.Alacrity+res.Bonus+res.Dilation, cfg.MinActionSlots)
	res.Slots = res.Unshocked
	if in.Shock {
		res.Slots = min(res.Slots, 1)
	}
	return res, nil
}
