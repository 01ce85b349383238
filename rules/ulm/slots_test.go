package ulm

import (
	"reflect"
	"testing"
)

func TestActionSlots(t *testing.T) {
	cfg := DefaultConfig()
	tests := []struct {
		rule string
		in   SlotsInput
		want SlotsResult
	}{
		{
			"The base number of Action Slots a Character gains when their Active Phase begins is (5 +/- Agility).",
			SlotsInput{Agility: 2},
			SlotsResult{Base: 7, Unshocked: 7, Slots: 7},
		},
		{
			"(5 +/- Agility): a negative Agility takes slots away",
			SlotsInput{Agility: -2},
			SlotsResult{Base: 3, Unshocked: 3, Slots: 3},
		},
		{
			"(5 +/- Agility) below zero: min_action_slots (default 0) is the floor",
			SlotsInput{Agility: -7},
			SlotsResult{Base: -2, Unshocked: 0, Slots: 0},
		},
		{
			"the Strongest Source (The one which gives the most Enhanced Alacrity) is used to determine total Enhanced Alacrity.",
			SlotsInput{Agility: 1, Alacrity: []int{1, 3, 2}},
			SlotsResult{Base: 6, Alacrity: 3, Unshocked: 9, Slots: 9},
		},
		{
			"a Character may only benefit from one source of Bonus Action Slots. Additional Sources simply fail to add more Bonus Action Slots.",
			SlotsInput{Agility: 0, Bonus: []int{2, 4}},
			SlotsResult{Base: 5, Bonus: 2, BonusFailed: []int{4}, Unshocked: 7, Slots: 7},
		},
		{
			"they gain 1 Physical Stress for every single additional Bonus Action Slot used during second and all later instances of Bonus Action Slots.",
			SlotsInput{Agility: 0, Bonus: []int{3}, BonusInstance: 2},
			SlotsResult{Base: 5, Bonus: 3, Stress: 3, Unshocked: 8, Slots: 8},
		},
		{
			"the first instance of Bonus Action Slots in a Full Round costs no Physical Stress",
			SlotsInput{Agility: 0, Bonus: []int{3}, BonusInstance: 1},
			SlotsResult{Base: 5, Bonus: 3, Unshocked: 8, Slots: 8},
		},
		{
			"Effects which give Characters or Units additional Action Slots from Time Dilation may be stacked indefinitely.",
			SlotsInput{Agility: 0, Dilation: []int{1, 2, 3}},
			SlotsResult{Base: 5, Dilation: 6, DilationEffects: 3, Unshocked: 11, Slots: 11},
		},
		{
			"Shock: The number of Action Slots you gain in each Active Phase is reduced to 1.",
			SlotsInput{Agility: 3, Alacrity: []int{2}, Dilation: []int{1}, Shock: true},
			SlotsResult{Base: 8, Alacrity: 2, Dilation: 1, DilationEffects: 1, Unshocked: 11, Slots: 1, Shock: true},
		},
	}
	for _, tt := range tests {
		got, err := ActionSlots(tt.in, cfg)
		if err != nil {
			t.Errorf("%s\n%+v: %v", tt.rule, tt.in, err)
			continue
		}
		if len(got.BonusFailed) == 0 {
			got.BonusFailed = nil
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s\n%+v:\n got %+v\nwant %+v", tt.rule, tt.in, got, tt.want)
		}
	}
}

func TestActionSlotsConfigFloor(t *testing.T) {
	cfg := DefaultConfig()
	cfg.MinActionSlots = 1
	got, err := ActionSlots(SlotsInput{Agility: -9}, cfg)
	if err != nil || got.Slots != 1 {
		t.Errorf("min_action_slots = 1, Agility -9: %d slots, %v; want 1", got.Slots, err)
	}
}

func TestActionSlotsErrors(t *testing.T) {
	for _, in := range []SlotsInput{
		{Alacrity: []int{-1}},
		{Bonus: []int{-2}},
		{Dilation: []int{1, -1}},
		{BonusInstance: -1},
	} {
		if _, err := ActionSlots(in, DefaultConfig()); err == nil {
			t.Errorf("%+v: no error", in)
		}
	}
}
