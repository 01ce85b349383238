package ulm

import "testing"

func TestFall(t *testing.T) {
	tests := []struct {
		rule           string
		cfg            func(*Config)
		state          State
		in             FallInput
		faces          []int
		rounds, needed int
		used           int
		formula, min   int
		damage         int
		dies           bool
	}{
		{"A 2 Tile Drop is generally ignored in Action Economy; the formula is for falls between 3 Tiles and 100 Tiles",
			nil, State{HitPoints: 40}, FallInput{Tiles: 2}, nil, 1, 0, 0, 0, 0, 0, false},
		{"(3v:6+T) Damage, Minimum T% Hit Points: 3 Tiles, 2+3+4 + 3 = 12 against 3% of 40 (1.2, rounded up to 2); taller than 3 Tiles consume a slot, 3 does not",
			nil, State{HitPoints: 40}, FallInput{Tiles: 3}, []int{2, 3, 4}, 1, 0, 0, 12, 2, 12, false},
		{"Falls Shorter than 10 Tiles and taller than 3 Tiles still consume 1 Action Slot: 5 Tiles, 1+1+1 + 5 = 8",
			nil, State{HitPoints: 40}, FallInput{Tiles: 5}, []int{1, 1, 1}, 1, 1, 1, 8, 2, 8, false},
		{"each 10 Tiles a Character falls consumes 1 Action Slot: 30 Tiles, 3 slots; 6+6+6 + 30 = 48 over 30% of 50 = 15",
			nil, State{HitPoints: 50}, FallInput{Tiles: 30}, []int{6, 6, 6}, 1, 3, 3, 48, 15, 48, false},
		{"each 10 Tiles consumes 1 Action Slot: 15 Tiles round up to 2 (fall_slots_round_up)",
			nil, State{HitPoints: 50}, FallInput{Tiles: 15}, []int{1, 2, 3}, 1, 2, 2, 21, 8, 21, false},
		{"15 Tiles with fall_slots_round_up = false: 1 slot",
			func(c *Config) { c.FallSlotsRoundUp = false }, State{HitPoints: 50}, FallInput{Tiles: 15}, []int{1, 2, 3}, 1, 1, 1, 21, 8, 21, false},
		{"Minimum T% Hit Points: 50 Tiles against 300 Hit Points, 150 beats 3v:6+50",
			nil, State{HitPoints: 300}, FallInput{Tiles: 50}, []int{6, 6, 6}, 1, 5, 5, 68, 150, 150, false},
		{"Minimum T% Hit Points rounds up: 10% of 25 is 2.5, so 3",
			func(c *Config) { c.FallDamageType = Raw }, State{HitPoints: 25}, FallInput{Tiles: 10}, []int{1, 1, 1}, 1, 1, 1, 13, 3, 13, false},
		{"T = Tiles Fallen, T has a maximum Value of 100; each Full Round of falling is 100 Tiles: 250 Tiles, 3 rounds of 10, 10, 5 slots",
			nil, State{HitPoints: 500}, FallInput{Tiles: 250}, []int{2, 2, 2}, 3, 25, 25, 106, 500, 500, false},
		{"Falling farther than the Character has Action Slots for does not generate Action Debt: 7 slots a round over 250 Tiles use 7+7+5",
			nil, State{HitPoints: 500}, FallInput{Tiles: 250, Slots: 7, SlotsKnown: true}, []int{2, 2, 2}, 3, 25, 19, 106, 500, 500, false},
		{"If a Character Becomes Vulnerable due to damage from Falling, they die: 10 damage and 12 Tiles (1+2+3 + 12 = 18) on 20 Hit Points",
			nil, State{HitPoints: 20, Cards: []Card{{Type: Earlier, Damage: 10}}}, FallInput{Tiles: 12}, []int{1, 2, 3}, 1, 2, 2, 18, 3, 18, true},
		{"damage that stays within Hit Points does not make Vulnerable: 1 + 4 Tiles = 8 on 20 Hit Points with 10 damage",
			nil, State{HitPoints: 20, Cards: []Card{{Type: Earlier, Damage: 10}}}, FallInput{Tiles: 4}, []int{1, 1, 2}, 1, 1, 1, 8, 1, 8, false},
		{"already Vulnerable does not Become Vulnerable (fall_kills_already_vulnerable = false)",
			nil, State{HitPoints: 20, Vulnerable: true, Cards: []Card{{Type: Earlier, Damage: 25}}}, FallInput{Tiles: 4}, []int{1, 1, 2}, 1, 1, 1, 8, 1, 8, false},
		{"fall_kills_already_vulnerable = true",
			func(c *Config) { c.FallKillsVulnerable = true }, State{HitPoints: 20, Vulnerable: true, Cards: []Card{{Type: Earlier, Damage: 25}}}, FallInput{Tiles: 4}, []int{1, 1, 2}, 1, 1, 1, 8, 1, 8, true},
	}
	for _, tt := range tests {
		cfg := DefaultConfig()
		if tt.cfg != nil {
			tt.cfg(&cfg)
		}
		got, err := Fall(tt.state, tt.in, faces(tt.faces...), cfg)
		if err != nil {
			t.Errorf("%s: %v", tt.rule, err)
			continue
		}
		if got.Rounds != tt.rounds || got.SlotsNeeded != tt.needed || got.SlotsUsed != tt.used ||
			got.Formula != tt.formula || got.Damage != tt.damage || got.Dies != tt.dies {
			t.Errorf("%s:\n got rounds %d slots %d/%d formula %d damage %d dies %v\nwant rounds %d slots %d/%d formula %d damage %d dies %v",
				tt.rule, got.Rounds, got.SlotsUsed, got.SlotsNeeded, got.Formula, got.Damage, got.Dies,
				tt.rounds, tt.used, tt.needed, tt.formula, tt.damage, tt.dies)
		}
		if got.Damaging && got.Minimum != tt.min {
			t.Errorf("%s: minimum %d, want %d", tt.rule, got.Minimum, tt.min)
		}
		if tt.damage > 0 {
			c := got.Injury.Card
			if c == nil || c.Damage != tt.damage || c.Source != FallSource || c.Type != cfg.FallDamageType {
				t.Errorf("%s: Injury Card %+v, want %d %s damage from %s", tt.rule, c, tt.damage, cfg.FallDamageType, FallSource)
			}
		}
		if got.Injury.State.Dead != tt.dies {
			t.Errorf("%s: state dead %v, want %v", tt.rule, got.Injury.State.Dead, tt.dies)
		}
	}
}

func TestFallMinimumRoundDown(t *testing.T) {
	cfg := DefaultConfig()
	cfg.FallMinimumRoundUp = false
	got, err := Fall(State{HitPoints: 25}, FallInput{Tiles: 10}, faces(1, 1, 1), cfg)
	if err != nil || got.Minimum != 2 {
		t.Errorf("10%% of 25 rounded down: %d, %v; want 2", got.Minimum, err)
	}
}

func TestFallErrors(t *testing.T) {
	cfg := DefaultConfig()
	for _, tt := range []struct {
		s  State
		in FallInput
	}{
		{State{HitPoints: 10}, FallInput{Tiles: 0}},
		{State{HitPoints: 0}, FallInput{Tiles: 5}},
		{State{HitPoints: 10, Dead: true}, FallInput{Tiles: 5}},
		{State{HitPoints: 10}, FallInput{Tiles: 5, Slots: -1, SlotsKnown: true}},
	} {
		if _, err := Fall(tt.s, tt.in, faces(1, 1, 1), cfg); err == nil {
			t.Errorf("%+v, %+v: no error", tt.s, tt.in)
		}
	}
}
