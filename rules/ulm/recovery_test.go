package ulm

import (
	"reflect"
	"testing"
	"time"
)

func TestHeal(t *testing.T) {
	cards := func() []Card {
		return []Card{{Type: Holy, Damage: 4}, {Type: Incision, Damage: 6}, {Type: Fire, Damage: 3}}
	}
	tests := []struct {
		rule     string
		state    State
		in       Healing
		healed   int
		resisted int
		cards    []Card
		vuln     bool
		reversed bool
	}{
		{"Divine Damage can not be healed by normal means: 20 normal healing heals the 9 Incision and Fire and not the 4 Holy",
			State{HitPoints: 10, Cards: cards(), Vulnerable: true}, Healing{Amount: 20}, 9, 4, []Card{{Type: Holy, Damage: 4}}, false, false},
		{"healing takes the newest Injury Card first: 5 heals the 3 Fire and 2 of the Incision",
			State{HitPoints: 20, Cards: cards()}, Healing{Amount: 5}, 5, 0, []Card{{Type: Holy, Damage: 4}, {Type: Incision, Damage: 4}}, false, false},
		{"A Vulnerable Character or Unit which is healed ... will no longer be considered Vulnerable, even while 11 damage exceeds 10",
			State{HitPoints: 10, Cards: cards(), Vulnerable: true}, Healing{Amount: 2}, 2, 0, []Card{{Type: Holy, Damage: 4}, {Type: Incision, Damage: 6}, {Type: Fire, Damage: 1}}, false, false},
		{"or otherwise granted Hit Points or a Barrier will no longer be considered Vulnerable",
			State{HitPoints: 10, Cards: cards(), Vulnerable: true}, Healing{Barrier: true}, 0, 0, cards(), false, false},
		{"healing that finds only Holy damage is not healing: still Vulnerable",
			State{HitPoints: 3, Cards: []Card{{Type: Holy, Damage: 4}}, Vulnerable: true}, Healing{Amount: 2}, 0, 2, []Card{{Type: Holy, Damage: 4}}, true, false},
		{"specialized healing heals Holy damage too",
			State{HitPoints: 20, Cards: []Card{{Type: Holy, Damage: 4}}}, Healing{Amount: 3, Special: true}, 3, 0, []Card{{Type: Holy, Damage: 1}}, false, false},
		{"Specialized healing or items may reverse the effect of a Maim only if performed within 10 Hours",
			State{HitPoints: 20, Maimed: true, MaimWindow: time.Hour, Shock: time.Hour}, Healing{Special: true}, 0, 0, nil, false, true},
	}
	for _, tt := range tests {
		got, err := Heal(tt.state, tt.in)
		if err != nil {
			t.Errorf("%s: %v", tt.rule, err)
			continue
		}
		if got.Healed != tt.healed || got.Resisted != tt.resisted || !reflect.DeepEqual(nonNil(got.State.Cards), nonNil(tt.cards)) ||
			got.State.Vulnerable != tt.vuln || got.MaimReversed != tt.reversed {
			t.Errorf("%s:\n got healed %d resisted %d cards %v vulnerable %v reversed %v\nwant healed %d resisted %d cards %v vulnerable %v reversed %v",
				tt.rule, got.Healed, got.Resisted, got.State.Cards, got.State.Vulnerable, got.MaimReversed,
				tt.healed, tt.resisted, tt.cards, tt.vuln, tt.reversed)
		}
		// "A Maimed or Knocked Out Character or Unit may recover Hit Points
		// or gain Barriers, but they will remain in Shock for 1 hour."
		if got.State.Shock != tt.state.Shock {
			t.Errorf("%s: healing changed Shock from %v to %v", tt.rule, tt.state.Shock, got.State.Shock)
		}
	}
	// After 10 hours the Maim stays.
	got, err := Heal(State{HitPoints: 20, Maimed: true}, Healing{Amount: 1, Special: true})
	if err != nil || got.MaimReversed || !got.MaimTooLate || !got.State.Maimed {
		t.Errorf("specialized healing after 10 hours: %+v, %v; want the Maim to stay", got, err)
	}
	if _, err := Heal(State{HitPoints: 20, Dead: true}, Healing{Amount: 1}); err == nil {
		t.Error("healing the dead: no error")
	}
	if _, err := Heal(State{HitPoints: 20}, Healing{Amount: -1}); err == nil {
		t.Error("negative healing: no error")
	}
}

func nonNil(c []Card) []Card {
	if c == nil {
		return []Card{}
	}
	return c
}

func TestPass(t *testing.T) {
	cfg := DefaultConfig()
	tests := []struct {
		rule        string
		cfg         func(*Config)
		state       State
		d           time.Duration
		holy, spite int
		cards       []Card
		shock, ko   time.Duration
		shockEnded  bool
		wokeUp      bool
		maimFixed   bool
		vulnerable  bool
	}{
		{"Holy ... fades at the rate of 1 damage per day: 3 days take 3 of 5 Holy",
			nil, State{HitPoints: 20, Cards: []Card{{Type: Holy, Damage: 5}}}, 3 * Day, 3, 0, []Card{{Type: Holy, Damage: 2}}, 0, 0, false, false, false, false},
		{"Spite ... fades at the rate of 1 damage per day, Holy too, each on its own; other damage does not fade",
			nil, State{HitPoints: 20, Cards: []Card{{Type: Spite, Damage: 1}, {Type: Contusion, Damage: 4}, {Type: Holy, Damage: 2}}}, 2 * Day, 2, 1, []Card{{Type: Contusion, Damage: 4}}, 0, 0, false, false, false, false},
		{"1 damage per day of the type, from the oldest card (fade_per_card = false)",
			nil, State{HitPoints: 20, Cards: []Card{{Type: Holy, Damage: 2}, {Type: Holy, Damage: 2}}}, Day, 1, 0, []Card{{Type: Holy, Damage: 1}, {Type: Holy, Damage: 2}}, 0, 0, false, false, false, false},
		{"1 damage per day from every card (fade_per_card = true)",
			func(c *Config) { c.FadePerCard = true }, State{HitPoints: 20, Cards: []Card{{Type: Holy, Damage: 2}, {Type: Holy, Damage: 2}}}, Day, 2, 0, []Card{{Type: Holy, Damage: 1}, {Type: Holy, Damage: 1}}, 0, 0, false, false, false, false},
		{"less than a day: nothing fades yet",
			nil, State{HitPoints: 20, Cards: []Card{{Type: Holy, Damage: 2}}}, 23 * time.Hour, 0, 0, []Card{{Type: Holy, Damage: 2}}, 0, 0, false, false, false, false},
		{"remain in shock for 1 hour: after 1 hour Shock ends",
			nil, State{HitPoints: 20, Shock: time.Hour}, time.Hour, 0, 0, nil, 0, 0, true, false, false, false},
		{"They remain Knocked Out for 3 Full Rounds: after 2 Full Rounds, 1 left, Shock runs on",
			nil, State{HitPoints: 20, Shock: time.Hour, KnockedOut: 3 * cfg.FullRound()}, 2 * cfg.FullRound(), 0, 0, nil, time.Hour - 2*cfg.FullRound(), cfg.FullRound(), false, false, false, false},
		{"Knocked Out for 3 Full Rounds: after 3 it ends",
			nil, State{HitPoints: 20, Shock: time.Hour, KnockedOut: 3 * cfg.FullRound()}, 3 * cfg.FullRound(), 0, 0, nil, time.Hour - 3*cfg.FullRound(), 0, false, true, false, false},
		{"a Maim reversible only within 10 Hours: after them it stays",
			nil, State{HitPoints: 20, Maimed: true, MaimWindow: 10 * time.Hour, Shock: time.Hour}, 10 * time.Hour, 0, 0, nil, 0, 0, true, false, true, false},
		{"Vulnerable while fading Holy damage still exceeds Hit Points: 12 on 10, a day later 11",
			nil, State{HitPoints: 10, Vulnerable: true, Cards: []Card{{Type: Holy, Damage: 12}}}, Day, 1, 0, []Card{{Type: Holy, Damage: 11}}, 0, 0, false, false, false, true},
		{"and not once it fades to 10 on 10",
			nil, State{HitPoints: 10, Vulnerable: true, Cards: []Card{{Type: Holy, Damage: 12}}}, 2 * Day, 2, 0, []Card{{Type: Holy, Damage: 10}}, 0, 0, false, false, false, false},
	}
	for _, tt := range tests {
		c := cfg
		if tt.cfg != nil {
			tt.cfg(&c)
		}
		got, err := Pass(tt.state, tt.d, c)
		if err != nil {
			t.Errorf("%s: %v", tt.rule, err)
			continue
		}
		s := got.State
		if got.FadedHoly != tt.holy || got.FadedSpite != tt.spite || !reflect.DeepEqual(nonNil(s.Cards), nonNil(tt.cards)) ||
			s.Shock != tt.shock || s.KnockedOut != tt.ko || got.ShockEnded != tt.shockEnded || got.WokeUp != tt.wokeUp ||
			got.MaimFixed != tt.maimFixed || s.Vulnerable != tt.vulnerable {
			t.Errorf("%s:\n got %+v", tt.rule, got)
		}
	}
	// Fading carries part days over: 12 hours twice is a day.
	half, err := Pass(State{HitPoints: 20, Cards: []Card{{Type: Spite, Damage: 3}}}, 12*time.Hour, cfg)
	if err != nil {
		t.Fatal(err)
	}
	whole, err := Pass(half.State, 12*time.Hour, cfg)
	if err != nil || whole.FadedSpite != 1 {
		t.Errorf("12 hours then 12 more: %d Spite faded, %v; want 1", whole.FadedSpite, err)
	}
	if _, err := Pass(State{HitPoints: 20}, -time.Hour, cfg); err == nil {
		t.Error("time passing backward: no error")
	}
}
