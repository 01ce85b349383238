package burst

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/tablehand/tablehand/rules/dice"
	"github.com/tablehand/tablehand/rules/encounter"
)

// ints is a combatant's map of stats, resources, maxima or counters.
type ints = map[string]int

func combatant(name string, stats, res, maxima, counters ints) encounter.Combatant {
	return encounter.Combatant{Name: name, Stats: stats, Resources: res, Max: maxima, Counters: counters}
}

func mustDo(t *testing.T) func(encounter.Event, error) encounter.Event {
	return func(ev encounter.Event, err error) encounter.Event {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", ev.Kind, err)
		}
		return ev
	}
}

func names(cs []encounter.Combatant) string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Name)
	}
	return strings.Join(out, " ")
}

func texts(lines []encounter.Line) []string {
	var out []string
	for _, l := range lines {
		out = append(out, l.Text)
	}
	return out
}

func TestPolicyName(t *testing.T) {
	p := NewPolicy(DefaultConfig())
	if p.Name() != "burst" || p.Resets() != encounter.ResetRound {
		t.Errorf("name %q, resets %v", p.Name(), p.Resets())
	}
	// "At the end of each round, all combatants gain the benefits of
	// their recovery": counters are kept by the round.
	if !reflect.DeepEqual(NewPolicy(Config{}), p) {
		t.Error("the zero Config is not the defaults")
	}
}

func TestPolicyOrder(t *testing.T) {
	tests := []struct {
		rule     string
		stats    []ints // of A, B, C, added in that order
		res      []ints
		dice     []int
		order    string
		keys     [][]int // in the order
		first    ints    // first_round by name
		skipping string  // names, in the order
		defeated string
	}{
		{"Each round, all fighters act in order of their initiative roll from highest to lowest.",
			[]ints{{"initiative": 1}, nil, {"initiative": 2}}, nil,
			[]int{5, 4, 15, 3, 2, 1}, "B A C", [][]int{{15, 0}, {9, 1}, {6, 2}}, ints{"A": 2, "B": 2, "C": 2}, "", ""},
		{"Over Watch: gain a +1 bonus dice to initiative on the first turn of combat",
			[]ints{{"watch": 1}, {"initiative": 1}}, nil,
			[]int{10, 7, 12, 4}, "A B", [][]int{{17, 1}, {16, 1}}, ints{"A": 2, "B": 2}, "", ""},
		{"All Bonus Dice burst when you roll maximum value on the dice: the burst rolls again before the next die",
			[]ints{{"initiative": 2}, nil}, nil,
			[]int{3, 10, 10, 2, 6, 20}, "A B", [][]int{{31, 2}, {20, 0}}, nil, "", ""},
		{"being wounded reduces the rank of all bonus dice: a d8 bursts on 8",
			[]ints{{"initiative": 1}, {"initiative": 1}}, []ints{{"durability": 0, "health": 5}, {"durability": 1, "health": 5}},
			[]int{6, 8, 1, 6, 8}, "A B", [][]int{{15, 1}, {14, 1}}, nil, "", ""},
		{"charges and challenges step the initiative dice: d12 bursts on 12, d6 on 6",
			[]ints{{"initiative": 1, "init_charges": 1}, {"initiative": 1, "init_challenges": 2}}, nil,
			[]int{2, 12, 1, 2, 6, 2}, "A B", [][]int{{15, 1}, {10, 1}}, nil, "", ""},
		{"a tie goes to more bonus dice (our reading: the text gives no tie rule)",
			[]ints{{"initiative": 1}, {"initiative": 2}}, nil,
			[]int{10, 5, 9, 3, 3}, "B A", [][]int{{15, 2}, {15, 1}}, nil, "", ""},
		{"then to a d20 each, again while tied",
			[]ints{nil, nil, nil}, nil,
			[]int{12, 12, 3, 9, 9, 4, 11}, "B A C", [][]int{{12, 0, 9, 11}, {12, 0, 9, 4}, {3, 0}}, nil, "", ""},
		{"a tie that never breaks keeps the list order",
			[]ints{nil, nil}, nil,
			[]int{7, 7, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, "A B", [][]int{{7, 0, 1, 1, 1, 1, 1}, {7, 0, 1, 1, 1, 1, 1}}, nil, "", ""},
		{"Ambushed characters may only take 1 action at the beginning of the first round; Ambushers gain 1 extra action; Over Watch from another vector is Ambushed",
			[]ints{{"ambusher": 1}, {"ambushed": 1}, {"watch_other": 1, "actions": 3}}, nil,
			[]int{5, 6, 7}, "C B A", [][]int{{7, 0}, {6, 0}, {5, 0}}, ints{"A": 3, "B": 1, "C": 1}, "", ""},
		{"You gain additional actions through upgrading skill trees: an ambusher with 3 has 4",
			[]ints{{"ambusher": 1, "actions": 3}}, nil,
			[]int{5}, "A", [][]int{{5, 0}}, ints{"A": 4}, "", ""},
		{"If you exhaust your Vigor, you become Winded, and you cannot take any actions: it sits out its turn (C's Vigor is not tracked)",
			[]ints{nil, {"winded": 1}, {"winded": 1}}, []ints{{"vigor": 0}, {"vigor": 7}, nil},
			[]int{5, 6, 7}, "C B A", [][]int{{7, 0}, {6, 0}, {5, 0}}, nil, "B A", ""},
		{"When your Health is reduced to 0, you lose consciousness: defeated",
			nil, []ints{{"durability": 0, "health": 0}, {"durability": 0, "health": 3}},
			[]int{5, 6}, "B A", [][]int{{6, 0}, {5, 0}}, nil, "", "A"},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			p := NewPolicy(DefaultConfig())
			e := encounter.New("burst")
			n := max(len(tt.stats), len(tt.res))
			for i := range n {
				var s, r ints
				if i < len(tt.stats) {
					s = tt.stats[i]
				}
				if i < len(tt.res) {
					r = tt.res[i]
				}
				mustDo(t)(e.Add(p, nil, "gm", combatant(string(rune('A'+i)), s, r, nil, nil)))
			}
			d := dice.NewPhysical(tt.dice)
			ev := mustDo(t)(e.Begin(p, d, "gm"))
			if err := d.Done(); err != nil {
				t.Errorf("dice: %v", err)
			}
			if got := names(e.Combatants); got != tt.order {
				t.Errorf("order %s, want %s", got, tt.order)
			}
			var keys [][]int
			var skipping, defeated []string
			rolled := 0
			for _, c := range e.Combatants {
				keys = append(keys, c.Initiative)
				rolled += len(c.InitiativeRolls)
				if want, ok := tt.first[c.Name]; ok && c.Stats[StatFirstRound] != want {
					t.Errorf("%s: first round %d actions, want %d", c.Name, c.Stats[StatFirstRound], want)
				}
				if c.Skipping {
					skipping = append(skipping, c.Name)
				}
				if c.Defeated {
					defeated = append(defeated, c.Name)
				}
			}
			if !reflect.DeepEqual(keys, tt.keys) {
				t.Errorf("keys %v, want %v", keys, tt.keys)
			}
			if rolled != len(ev.Rolls) {
				t.Errorf("%d rolls in the event, %d kept", len(ev.Rolls), rolled)
			}
			if got := strings.Join(skipping, " "); got != tt.skipping {
				t.Errorf("skipping %q, want %q", got, tt.skipping)
			}
			if got := strings.Join(defeated, " "); got != tt.defeated {
				t.Errorf("defeated %q, want %q", got, tt.defeated)
			}
		})
	}
}

func TestPolicyOrderRolls(t *testing.T) {
	p := NewPolicy(DefaultConfig())
	e := encounter.New("burst")
	mustDo(t)(e.Add(p, nil, "gm", combatant("Aria", ints{"initiative": 2}, nil, nil, nil)))
	hidden := combatant("Shade", nil, nil, nil, nil)
	hidden.Hidden = true
	mustDo(t)(e.Add(p, nil, "gm", hidden))
	ev := mustDo(t)(e.Begin(p, dice.NewPhysical([]int{4, 10, 2, 3, 19}), "gm"))
	want := []encounter.Roll{
		{Combatant: 1, Name: "Aria", For: "initiative", Expr: "1d20 [action] + 2d10! [initiative]", Total: 19, Faces: []int{4, 10, 2, 3}},
		{Combatant: 2, Name: "Shade", For: "initiative", Expr: "1d20 [action]", Total: 19, Faces: []int{19}, Secret: true},
		{Combatant: 1, Name: "Aria", For: "tie-break", Expr: "1d20", Total: 1, Faces: []int{1}},
		{Combatant: 2, Name: "Shade", For: "tie-break", Expr: "1d20", Total: 1, Faces: []int{1}, Secret: true},
	}
	if len(ev.Rolls) < 2 {
		t.Fatalf("rolls %+v", ev.Rolls)
	}
	for i := range 2 {
		got := ev.Rolls[i]
		got.Text = ""
		if !reflect.DeepEqual(got, want[i]) {
			t.Errorf("roll %d:\n got %+v\nwant %+v", i, got, want[i])
		}
	}
	if ev.Rolls[0].Text == "" {
		t.Error("no text for the roll")
	}
}

func TestPolicyOrderErrors(t *testing.T) {
	tests := []struct {
		name  string
		stats ints
		dice  []int
		want  string
	}{
		{"ambusher and ambushed", ints{"ambusher": 1, "ambushed": 1}, nil, "both ambusher and ambushed"},
		{"watch and watch_other", ints{"watch": 1, "watch_other": 1}, nil, "both watch and watch_other"},
		{"Over Watch and an ambush", ints{"watch": 1, "ambushed": 1}, nil, "Over Watch or an ambush side"},
		{"too many actions", ints{"actions": 21}, nil, "actions must be 1 to 20"},
		{"negative actions", ints{"actions": -1}, nil, "give 1 to 20"},
		{"negative bonus dice", ints{"initiative": -1}, nil, "bonus dice must be 0 to 100"},
	}
	for _, tt := range tests {
		p := NewPolicy(DefaultConfig())
		e := encounter.New("burst")
		mustDo(t)(e.Add(p, nil, "gm", combatant("Aria", tt.stats, nil, nil, nil)))
		_, err := e.Begin(p, dice.NewPhysical(tt.dice), "gm")
		if !errors.Is(err, encounter.ErrInvalid) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want an invalid request with %q", tt.name, err, tt.want)
		}
		if e.Begun {
			t.Errorf("%s: the fight began", tt.name)
		}
	}
	// Physical dice that do not fit are the roller's failure, as with the
	// generic policy: a *dice.Error inside.
	p := NewPolicy(DefaultConfig())
	e := encounter.New("burst")
	mustDo(t)(e.Add(p, nil, "gm", combatant("Aria", nil, nil, nil, nil)))
	_, err := e.Begin(p, dice.NewPhysical([]int{21}), "gm")
	var de *dice.Error
	if !errors.As(err, &de) || errors.Is(err, encounter.ErrInvalid) {
		t.Errorf("a d20 showing 21: %v", err)
	}
}

func TestPolicyInsert(t *testing.T) {
	tests := []struct {
		name  string
		stats ints
		dice  []int
		pos   int
		first int
	}{
		{"beats everyone", ints{"initiative": 1}, []int{20, 5}, 0, 2},
		{"ties Bram on both keys: after him", ints{"initiative": 1}, []int{10, 5}, 2, 2},
		{"ties Bram's 15 with more bonus dice: before him", ints{"initiative": 2}, []int{5, 5, 5}, 1, 2},
		{"last, an ambusher", ints{"ambusher": 1}, []int{2}, 3, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := NewPolicy(DefaultConfig())
			e := encounter.New("burst")
			// Aria 18 (2 dice), Bram 15 (1 die), Goblin 9.
			mustDo(t)(e.Add(p, nil, "gm", combatant("Aria", ints{"initiative": 2}, nil, nil, nil)))
			mustDo(t)(e.Add(p, nil, "gm", combatant("Bram", ints{"initiative": 1}, nil, nil, nil)))
			mustDo(t)(e.Add(p, nil, "gm", combatant("Goblin", nil, nil, nil, nil)))
			mustDo(t)(e.Begin(p, dice.NewPhysical([]int{10, 4, 4, 10, 5, 9}), "gm"))
			if got := names(e.Combatants); got != "Aria Bram Goblin" {
				t.Fatalf("order %s", got)
			}
			d := dice.NewPhysical(tt.dice)
			ev := mustDo(t)(e.Add(p, d, "gm", combatant("Ogre", tt.stats, ints{"vigor": 0}, nil, nil)))
			if err := d.Done(); err != nil {
				t.Errorf("dice: %v", err)
			}
			c, err := e.Find("Ogre")
			if err != nil {
				t.Fatal(err)
			}
			if i := slices.IndexFunc(e.Combatants, func(x encounter.Combatant) bool { return x.Name == "Ogre" }); i != tt.pos {
				t.Errorf("position %d, want %d (%s)", i, tt.pos, names(e.Combatants))
			}
			if len(ev.Rolls) != 1 || c.Stats[StatFirstRound] != tt.first {
				t.Errorf("rolls %+v, first round %d", ev.Rolls, c.Stats[StatFirstRound])
			}
			// At 0 Vigor it is winded: it sits out its next turn.
			if !c.Skipping || c.Stats[StatWinded] != 1 {
				t.Errorf("a winded newcomer: skipping %v, stats %v", c.Skipping, c.Stats)
			}
		})
	}
}

func TestPolicyBudget(t *testing.T) {
	defending := []encounter.Condition{{Name: "Defending", Rounds: 1, AnchorID: 1, EndRound: 3, Relative: encounter.OnBearer, Ends: encounter.AtStart}}
	tests := []struct {
		rule  string
		round int
		c     encounter.Combatant
		want  string
	}{
		{"You begin with 2 Actions.", 2, combatant("A", nil, nil, nil, nil), "2 actions"},
		{"You gain additional actions through upgrading skill trees", 2, combatant("A", ints{"actions": 3}, nil, nil, nil), "3 actions"},
		{"Ambushers gain 1 extra action for the first round", 1, combatant("A", ints{"ambusher": 1, "first_round": 3}, nil, nil, nil), "3 actions (ambusher)"},
		{"Ambushed characters may only take 1 action at the beginning of the first round", 1, combatant("A", ints{"ambushed": 1, "first_round": 1}, nil, nil, nil), "1 action (ambushed)"},
		{"the ambush lasts the first round only", 2, combatant("A", ints{"ambushed": 1, "first_round": 1}, nil, nil, nil), "2 actions"},
		{"On your turn you may take as many actions as you have: the actions counter takes from them", 2, combatant("A", nil, nil, nil, ints{"actions": 1}), "1 action"},
		{"reactions consume Vigor, which limits the number of reactions: Defense consumes 5", 2, combatant("A", nil, ints{"vigor": 12}, nil, nil),
			"2 actions, 2 reactions off its turn (Vigor 12, Defense costs 5)"},
		{"Vigor spent this round is gone", 2, combatant("A", nil, ints{"vigor": 12}, nil, ints{"vigor": 5}),
			"2 actions, 1 reaction off its turn (Vigor 7, Defense costs 5)"},
		{"Defend: reducing the Vigor cost of defensive reactions until the beginning of your next turn by 2", 2,
			encounter.Combatant{Name: "A", Resources: ints{"vigor": 12}, Conditions: defending},
			"2 actions, 4 reactions off its turn (Vigor 12, Defense costs 3)"},
		{"you may only take one reaction to any trigger: the reactions taken are counted", 2, combatant("A", nil, ints{"vigor": 12}, nil, ints{"reactions": 1, "vigor": 5}),
			"2 actions, 1 reaction off its turn (Vigor 7, Defense costs 5), 1 reaction taken this round"},
		{"If you exhaust your Vigor, you become Winded, and you cannot take any actions", 2, combatant("A", nil, ints{"vigor": 5}, nil, ints{"vigor": 5}),
			"winded: no actions until it has 5 Vigor, 0 reactions off its turn (Vigor 0, Defense costs 5)"},
		{"This condition remains until you recover at least 5 points of Vigor", 2, combatant("A", ints{"winded": 1}, ints{"vigor": 4}, nil, nil),
			"winded: no actions until it has 5 Vigor, 0 reactions off its turn (Vigor 4, Defense costs 5)"},
		{"abilities consume Vigor or Mana", 2, combatant("A", nil, ints{"mana": 6}, nil, ints{"mana": 2}), "2 actions, Mana 4"},
		{"When your Health is reduced to 0, you lose consciousness", 2, combatant("A", nil, ints{"durability": 0, "health": 0, "vigor": 9}, nil, nil),
			"unconscious in Shock: no actions or reactions"},
		{"killed outright", 2, combatant("A", ints{"dead": 1}, ints{"durability": 0, "health": 0}, nil, nil), "dead"},
		{"an object is destroyed", 2, combatant("A", ints{"object": 1}, ints{"durability": 0}, nil, nil), "destroyed"},
	}
	p := NewPolicy(DefaultConfig())
	for _, tt := range tests {
		e := &encounter.Encounter{System: "burst", Round: tt.round, Begun: true}
		if got := p.Budget(e, &tt.c); got != tt.want {
			t.Errorf("%q:\n got %q\nwant %q", tt.rule, got, tt.want)
		}
	}
}

func TestPolicyDamage(t *testing.T) {
	noCarry := DefaultConfig()
	noCarry.CarryOver = false
	tests := []struct {
		rule     string
		cfg      *Config
		c        encounter.Combatant
		amount   int
		kind     string
		want     string
		res      ints
		dead     bool
		defeated bool
	}{
		{"Damage is first subtracted from your Durability.", nil,
			combatant("Aria", nil, ints{"durability": 10, "health": 8}, nil, nil), 4, "",
			"Aria took 4 damage (durability 10 -> 6, health 8 -> 8)", ints{"durability": 6, "health": 8}, false, false},
		{"When your Durability is reduced to 0, you are wounded, and you begin to subtract damage from your Health.", nil,
			combatant("Aria", nil, ints{"durability": 3, "health": 8}, nil, nil), 5, "",
			"Aria took 5 damage (durability 3 -> 0, health 8 -> 6): wounded", ints{"durability": 0, "health": 6}, false, false},
		{"damage_carries_to_health = false", &noCarry,
			combatant("Aria", nil, ints{"durability": 3, "health": 8}, nil, nil), 5, "",
			"Aria took 5 damage (durability 3 -> 0, health 8 -> 8): wounded, 2 did not go on to Health", ints{"durability": 0, "health": 8}, false, false},
		{"You reduce your incoming damage by your Armor Rank", nil,
			combatant("Aria", ints{"armor": 2}, ints{"durability": 10, "health": 8}, nil, nil), 7, "kinetic",
			"Aria took 7 kinetic damage, 2 stopped by Armor Rank 2 (durability 10 -> 5, health 8 -> 8)", ints{"durability": 5, "health": 8}, false, false},
		{"If you have two or more Armor Ranks, you use the highest", nil,
			combatant("Aria", ints{"armor": 2, "other_armor": 4}, ints{"durability": 10, "health": 8}, nil, nil), 7, "",
			"Aria took 7 damage, 4 stopped by Armor Rank 4 (durability 10 -> 7, health 8 -> 8)", ints{"durability": 7, "health": 8}, false, false},
		{"normal armor only protects you from physical damage, not energy attack such as fire or lightning", nil,
			combatant("Aria", ints{"armor": 2}, ints{"durability": 10, "health": 8}, nil, nil), 7, "Thermal",
			"Aria took 7 thermal damage (durability 10 -> 3, health 8 -> 8)", ints{"durability": 3, "health": 8}, false, false},
		{"Unless stated otherwise (sealed)", nil,
			combatant("Aria", ints{"armor": 2, "sealed": 1}, ints{"durability": 10, "health": 8}, nil, nil), 7, "electrical",
			"Aria took 7 electrical damage, 2 stopped by Armor Rank 2 (durability 10 -> 5, health 8 -> 8)", ints{"durability": 5, "health": 8}, false, false},
		{"a hit the armor stops entirely", nil,
			combatant("Aria", ints{"armor": 3}, ints{"durability": 10, "health": 8}, nil, nil), 2, "",
			"Aria took 2 damage, 2 stopped by Armor Rank 3 (durability 10 -> 10, health 8 -> 8)", ints{"durability": 10, "health": 8}, false, false},
		{"When you are reduced to 0 Health you do not die instantly, but you do go into Shock ... will die in a number rounds equal to your Stamina score", nil,
			combatant("Bram", ints{"stamina": 3}, ints{"durability": 0, "health": 2}, nil, nil), 5, "",
			"Bram took 5 damage (durability 0 -> 0, health 2 -> 0): unconscious in Shock, dies in 3 rounds", ints{"durability": 0, "health": 0, "shock": 3}, false, true},
		{"If you take any additional damage while you are in shock, you are killed outright.", nil,
			combatant("Bram", ints{"stamina": 3}, ints{"durability": 0, "health": 0, "shock": 2}, nil, nil), 1, "",
			"Bram took 1 damage (durability 0 -> 0, health 0 -> 0): killed outright in Shock", ints{"durability": 0, "health": 0}, true, true},
		{"stabilised, still in Shock: more damage still kills", nil,
			encounter.Combatant{Name: "Bram", Resources: ints{"durability": 0, "health": 0, "shock": 2}, Conditions: []encounter.Condition{{Name: "stable", Relative: encounter.OnBearer, Ends: encounter.AtEnd}}}, 1, "",
			"Bram took 1 damage (durability 0 -> 0, health 0 -> 0): killed outright in Shock", ints{"durability": 0, "health": 0}, true, true},
		{"When an inanimate object's Durability is depleted it is destroyed beyond meaningful use.", nil,
			combatant("Door", ints{"object": 1}, ints{"durability": 5}, nil, nil), 7, "",
			"Door took 7 damage (durability 5 -> 0): destroyed", ints{"durability": 0}, false, true},
		{"In the case of objects, A.R. is simply subtracted from the damage done to the object.", nil,
			combatant("Door", ints{"object": 1, "armor": 3}, ints{"durability": 10}, nil, nil), 5, "",
			"Door took 5 damage, 3 stopped by Armor Rank 3 (durability 10 -> 8)", ints{"durability": 8}, false, false},
		{"Pure toxic damage ... only harm living creatures.", nil,
			combatant("Door", ints{"object": 1}, ints{"durability": 10}, nil, nil), 5, "toxic",
			"Door took 5 toxic damage, which harms only living creatures (durability 10 -> 10)", ints{"durability": 10}, false, false},
	}
	for _, tt := range tests {
		cfg := DefaultConfig()
		if tt.cfg != nil {
			cfg = *tt.cfg
		}
		p := NewPolicy(cfg)
		e := &encounter.Encounter{System: "burst", Round: 1, Begun: true}
		c := tt.c.Clone()
		got, err := p.Damage(e, &c, tt.amount, tt.kind)
		if err != nil {
			t.Errorf("%q: %v", tt.rule, err)
			continue
		}
		if got != tt.want {
			t.Errorf("%q:\n got %q\nwant %q", tt.rule, got, tt.want)
		}
		if !reflect.DeepEqual(c.Resources, tt.res) || (c.Stats[StatDead] == 1) != tt.dead || c.Defeated != tt.defeated {
			t.Errorf("%q: resources %v, stats %v, defeated %v; want %v, dead %v, defeated %v", tt.rule, c.Resources, c.Stats, c.Defeated, tt.res, tt.dead, tt.defeated)
		}
	}
}

func TestPolicyDamageErrors(t *testing.T) {
	tests := []struct {
		c    encounter.Combatant
		kind string
		want string
	}{
		{combatant("Aria", nil, ints{"durability": 3, "health": 4}, nil, nil), "fire", "damage type must be one of kinetic, thermal"},
		{combatant("Aria", nil, ints{"hp": 3}, nil, nil), "", "Aria has no damage track"},
		{combatant("Aria", nil, ints{"durability": 3}, nil, nil), "", "Aria has no damage track"},
		{combatant("Aria", ints{"dead": 1}, ints{"durability": 0, "health": 0}, nil, nil), "", "Aria is dead already"},
		{combatant("Door", ints{"object": 1}, ints{"durability": 0}, nil, nil), "", "Door is destroyed already"},
		{combatant("Aria", ints{"armor": -1}, ints{"durability": 3, "health": 4}, nil, nil), "", "armor ranks must be 0 to"},
		{combatant("Aria", ints{"stamina": -1}, ints{"durability": 0, "health": 1}, nil, nil), "", "stamina cannot be negative"},
	}
	p := NewPolicy(DefaultConfig())
	for _, tt := range tests {
		e := &encounter.Encounter{System: "burst", Round: 1, Begun: true}
		c := tt.c.Clone()
		_, err := p.Damage(e, &c, 3, tt.kind)
		if !errors.Is(err, encounter.ErrInvalid) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s %v: error %v, want %q", tt.c.Name, tt.c.Resources, err, tt.want)
		}
	}
}

func TestPolicyHeal(t *testing.T) {
	tests := []struct {
		rule     string
		c        encounter.Combatant
		amount   int
		want     string
		res      ints
		defeated bool
	}{
		{"emergency aid ... restoring 1d10 Durability: the wounded are wounded no longer", combatant("Aria", nil, ints{"durability": 0, "health": 5}, ints{"durability": 10}, nil), 6,
			"Aria healed 6 (durability 0 -> 6): no longer wounded", ints{"durability": 6, "health": 5}, false},
		{"not above the maximum", combatant("Aria", nil, ints{"durability": 8, "health": 5}, ints{"durability": 10}, nil), 6,
			"Aria healed 6 (durability 8 -> 10)", ints{"durability": 10, "health": 5}, false},
		{"you remain unconscious until you recover at least 1 point of health", encounter.Combatant{Name: "Bram", Defeated: true, Resources: ints{"durability": 0, "health": 0, "shock": 2}}, 4,
			"Bram healed 4 (durability 0 -> 4): still unconscious in Shock until it recovers 1 Health", ints{"durability": 4, "health": 0, "shock": 2}, true},
	}
	p := NewPolicy(DefaultConfig())
	for _, tt := range tests {
		e := &encounter.Encounter{System: "burst", Round: 1, Begun: true}
		c := tt.c.Clone()
		got, err := p.Heal(e, &c, tt.amount)
		if err != nil {
			t.Errorf("%q: %v", tt.rule, err)
			continue
		}
		if got != tt.want || !reflect.DeepEqual(c.Resources, tt.res) || c.Defeated != tt.defeated {
			t.Errorf("%q:\n got %q %v defeated %v\nwant %q %v defeated %v", tt.rule, got, c.Resources, c.Defeated, tt.want, tt.res, tt.defeated)
		}
	}
	for _, c := range []encounter.Combatant{
		combatant("Dead", ints{"dead": 1}, ints{"durability": 0, "health": 0}, nil, nil),
		combatant("Door", ints{"object": 1}, ints{"durability": 0}, nil, nil),
		combatant("Ghost", nil, nil, nil, nil),
	} {
		if _, err := p.Heal(&encounter.Encounter{}, &c, 3); !errors.Is(err, encounter.ErrInvalid) {
			t.Errorf("heal %s: error %v", c.Name, err)
		}
	}
}

func TestPolicyEndRound(t *testing.T) {
	stable := []encounter.Condition{{Name: "Stable", Relative: encounter.OnBearer, Ends: encounter.AtEnd}}
	tests := []struct {
		rule     string
		c        encounter.Combatant
		res      ints // after
		winded   bool
		dead     bool
		skipping bool
		defeated bool
		lines    []string
	}{
		{"You'll recover 1 point of Vigor for every 5 points of Stamina.",
			combatant("A", ints{"stamina": 12}, ints{"vigor": 4}, ints{"vigor": 20}, nil),
			ints{"vigor": 6}, false, false, false, false, []string{"A recovers: Vigor 4 -> 6."}},
		{"not above its maximum",
			combatant("A", ints{"stamina": 12}, ints{"vigor": 9}, ints{"vigor": 10}, nil),
			ints{"vigor": 10}, false, false, false, false, []string{"A recovers: Vigor 9 -> 10."}},
		{"Throughout each round, you will consume Vigor: the round's spending is paid first",
			combatant("A", ints{"stamina": 12}, ints{"vigor": 10}, nil, ints{"vigor": 6}),
			ints{"vigor": 6}, false, false, false, false, []string{"A recovers: Vigor 10 -> 6 (6 spent)."}},
		{"If you exhaust your Vigor, you become Winded, and you cannot take any actions: it sits out its next turn",
			combatant("A", ints{"stamina": 12}, ints{"vigor": 6}, nil, ints{"vigor": 6}),
			ints{"vigor": 2}, true, false, true, false, []string{"A recovers: Vigor 6 -> 2 (6 spent).", "A is winded (Vigor 2, needs 5): it sits out its next turn."}},
		{"This condition remains until you recover at least 5 points of Vigor.",
			combatant("A", ints{"stamina": 10, "winded": 1}, ints{"vigor": 3}, nil, nil),
			ints{"vigor": 5}, false, false, false, false, []string{"A recovers: Vigor 3 -> 5.", "A is no longer winded."}},
		{"spending more than it has: Vigor 0",
			combatant("A", nil, ints{"vigor": 3}, nil, ints{"vigor": 5}),
			ints{"vigor": 0}, true, false, true, false,
			[]string{"A spent 5 Vigor but had 3: not enough Vigor: this costs 5 and 3 is left; Vigor 0.", "A recovers: Vigor 3 -> 0 (5 spent).", "A is winded (Vigor 0, needs 5): it sits out its next turn."}},
		{"Durability. If you have a special ability, you may recover some Durability.",
			combatant("A", ints{"regen": 3}, ints{"durability": 4, "health": 5}, ints{"durability": 10}, nil),
			ints{"durability": 7, "health": 5}, false, false, false, false, []string{"A recovers: Durability 4 -> 7."}},
		{"you no longer recover Durability quickly (wounded)",
			combatant("A", ints{"regen": 3}, ints{"durability": 0, "health": 5}, ints{"durability": 10}, nil),
			ints{"durability": 0, "health": 5}, false, false, false, false, nil},
		{"Mana. You may recover some depleted Mana if you have a special ability.",
			combatant("A", ints{"mana_regen": 1}, ints{"mana": 5}, nil, ints{"mana": 2}),
			ints{"mana": 4}, false, false, false, false, []string{"A recovers: Mana 5 -> 4 (2 spent)."}},
		{"A creature in Shock is on death's door and will die in a number rounds equal to your Stamina score.",
			encounter.Combatant{Name: "A", Defeated: true, Stats: ints{"stamina": 3}, Resources: ints{"durability": 0, "health": 0, "shock": 3}},
			ints{"durability": 0, "health": 0, "shock": 2}, false, false, false, true, []string{"A is in Shock: dies in 2 rounds."}},
		{"... the last of those rounds",
			encounter.Combatant{Name: "A", Defeated: true, Stats: ints{"stamina": 3}, Resources: ints{"durability": 0, "health": 0, "shock": 1, "vigor": 2}},
			ints{"durability": 0, "health": 0, "vigor": 2}, false, true, false, true, []string{"A dies in Shock."}},
		{"A creature in shock can be stabilized",
			encounter.Combatant{Name: "A", Defeated: true, Stats: ints{"stamina": 3}, Resources: ints{"durability": 0, "health": 0, "shock": 1}, Conditions: stable},
			ints{"durability": 0, "health": 0, "shock": 1}, false, false, false, true, []string{"A is stable in Shock: unconscious until it recovers 1 Health."}},
		{"If you are stabilized, you remain unconscious until you recover at least 1 point of health.",
			encounter.Combatant{Name: "A", Defeated: true, Stats: ints{"health_regen": 1}, Resources: ints{"durability": 0, "health": 0, "shock": 1}, Conditions: stable},
			ints{"durability": 0, "health": 1}, false, false, false, false, []string{"A recovers: Health 0 -> 1.", "A recovers Health and wakes from Shock: back in the fight."}},
		{"the dead recover nothing",
			combatant("A", ints{"dead": 1, "stamina": 10}, ints{"durability": 0, "health": 0, "vigor": 2}, nil, nil),
			ints{"durability": 0, "health": 0, "vigor": 2}, false, true, false, false, nil},
	}
	p := NewPolicy(DefaultConfig())
	for _, tt := range tests {
		e := &encounter.Encounter{System: "burst", Round: 1, Begun: true, Combatants: []encounter.Combatant{tt.c.Clone()}}
		lines := p.EndRound(e)
		c := &e.Combatants[0]
		if got := texts(lines); !reflect.DeepEqual(got, tt.lines) {
			t.Errorf("%q: lines\n got %q\nwant %q", tt.rule, got, tt.lines)
		}
		if !reflect.DeepEqual(c.Resources, tt.res) || flag(c, StatWinded) != tt.winded || flag(c, StatDead) != tt.dead ||
			c.Skipping != tt.skipping || c.Defeated != tt.defeated {
			t.Errorf("%q: resources %v stats %v skipping %v defeated %v; want %v winded %v dead %v skipping %v defeated %v",
				tt.rule, c.Resources, c.Stats, c.Skipping, c.Defeated, tt.res, tt.winded, tt.dead, tt.skipping, tt.defeated)
		}
		if hasCondition(c, ConditionStable) != (tt.c.Conditions != nil && c.Resources[ResourceShock] > 0) {
			t.Errorf("%q: conditions %v", tt.rule, c.Conditions)
		}
	}
}

func TestPolicyTurnHooks(t *testing.T) {
	p := NewPolicy(DefaultConfig())
	e := &encounter.Encounter{System: "burst", Round: 2, Begun: true}
	// "your Bonus Dice move down one step"
	c := combatant("Aria", nil, ints{"durability": 0, "health": 5}, nil, ints{"actions": 3})
	c.Hidden = true
	got := p.StartTurn(e, &c)
	if want := []string{"Aria is wounded: its bonus dice are one step lower."}; !reflect.DeepEqual(texts(got), want) || !got[0].Secret {
		t.Errorf("start of a wounded, hidden combatant's turn: %+v", got)
	}
	c.Delayed = true
	if got := p.StartTurn(e, &c); got != nil {
		t.Errorf("a delayed turn starting again: %+v", got)
	}
	// "On your turn you may take as many actions as you have."
	if got := texts(p.EndTurn(e, &c)); !reflect.DeepEqual(got, []string{"Aria took 3 actions with 2 actions."}) {
		t.Errorf("end of a turn of 3 actions: %q", got)
	}
	c.Counters["actions"] = 2
	if got := p.EndTurn(e, &c); got != nil {
		t.Errorf("end of a turn of 2 actions: %+v", got)
	}
	// Recovery lines about a hidden combatant are secret.
	e.Combatants = []encounter.Combatant{combatant("Shade", ints{"stamina": 5}, ints{"vigor": 1}, nil, nil)}
	e.Combatants[0].Hidden = true
	lines := p.EndRound(e)
	if len(lines) == 0 {
		t.Error("no recovery for the Shade")
	}
	for _, l := range lines {
		if !l.Secret {
			t.Errorf("a line about the hidden Shade is public: %+v", l)
		}
	}
}

// TestBurstFight runs three rounds of a fight through the encounter API
// with the dice a table rolled, checking the order, each turn's budget and
// the Recovery Phase round by round.
func TestBurstFight(t *testing.T) {
	p := NewPolicy(DefaultConfig())
	e := encounter.New("burst")
	do := mustDo(t)
	var snaps [][]byte
	var states []*encounter.Encounter
	step := func(ev encounter.Event, err error) encounter.Event {
		t.Helper()
		ev = do(ev, err)
		b, err := e.Snapshot()
		if err != nil {
			t.Fatal(err)
		}
		snaps, states = append(snaps, b), append(states, e.Clone())
		return ev
	}
	budget := func(name, want string) {
		t.Helper()
		c, err := e.Find(name)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.Budget(e, c); got != want {
			t.Errorf("round %d, %s's budget:\n got %q\nwant %q", e.Round, name, got, want)
		}
	}
	at := func(round int, turn string) {
		t.Helper()
		c := e.Current()
		if e.Round != round || c == nil || c.Name != turn {
			t.Fatalf("at round %d, %v; want round %d, %s's turn", e.Round, c, round, turn)
		}
		if got := names(e.Combatants); got != "Bram Aria Ogre Goblin" {
			t.Errorf("order %s", got)
		}
	}
	lines := func(ev encounter.Event, want ...string) {
		t.Helper()
		if got := texts(ev.Lines); !reflect.DeepEqual(got, want) {
			t.Errorf("%s lines:\n got %q\nwant %q", ev.Kind, got, want)
		}
	}
	res := func(name string, want ints) {
		t.Helper()
		c, err := e.Find(name)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(c.Resources, want) {
			t.Errorf("round %d, %s: resources %v, want %v", e.Round, name, c.Resources, want)
		}
	}

	for _, c := range []encounter.Combatant{
		{Name: "Aria", Owner: "u1", Stats: ints{"initiative": 2, "ambusher": 1, "stamina": 12, "armor": 2},
			Resources: ints{"durability": 10, "health": 8, "vigor": 10}, Max: ints{"durability": 10, "health": 8, "vigor": 12}},
		{Name: "Bram", Owner: "u2", Stats: ints{"initiative": 1, "watch": 1, "stamina": 10},
			Resources: ints{"durability": 6, "health": 6, "vigor": 5}, Max: ints{"durability": 6, "health": 6, "vigor": 10}},
		{Name: "Goblin", NPC: true, Stats: ints{"initiative": 1, "ambushed": 1, "stamina": 5, "regen": 1},
			Resources: ints{"durability": 4, "health": 3, "vigor": 5}, Max: ints{"durability": 4, "health": 3, "vigor": 5}},
		{Name: "Ogre", NPC: true, Stats: ints{"initiative": 2, "stamina": 15, "regen": 2, "armor": 3},
			Resources: ints{"durability": 12, "health": 10, "vigor": 6}, Max: ints{"durability": 12, "health": 10, "vigor": 15}},
	} {
		step(e.Add(p, nil, "gm", c))
	}

	// Initiative, in the order added: Aria 12 + 3 + 4 = 19 (2 dice);
	// Bram 4 + 10 (bursts: 2) + 3 = 19 (1 die and the Over Watch die);
	// Goblin 8 + 6 = 14 (1 die); Ogre 9 + 3 + 2 = 14 (2 dice), before the
	// Goblin on bonus dice. Aria and Bram tie on both: d20s 7 and 7, then
	// 5 and 15.
	d := dice.NewPhysical([]int{12, 3, 4, 4, 10, 2, 3, 8, 6, 9, 3, 2, 7, 7, 5, 15})
	ev := step(e.Begin(p, d, "gm"))
	if err := d.Done(); err != nil {
		t.Errorf("begin: %v", err)
	}
	at(1, "Bram")
	lines(ev, "Order: Bram, Aria, Ogre, Goblin.",
		"Bram: 2 actions, 1 reaction off its turn (Vigor 5, Defense costs 5).",
		"Round 1: Bram's turn.")
	if len(ev.Rolls) != 8 || ev.Rolls[1].Total != 19 || !slices.Equal(ev.Rolls[1].Faces, []int{4, 10, 2, 3}) || ev.Rolls[7].Name != "Bram" || ev.Rolls[7].For != "tie-break" {
		t.Errorf("begin rolls %+v", ev.Rolls)
	}
	for _, c := range e.Combatants {
		want := map[string][]int{"Bram": {19, 2, 7, 15}, "Aria": {19, 2, 7, 5}, "Ogre": {14, 2}, "Goblin": {14, 1}}[c.Name]
		if !slices.Equal(c.Initiative, want) {
			t.Errorf("%s's initiative %v, want %v", c.Name, c.Initiative, want)
		}
	}

	// Round 1. Bram hits the Goblin.
	ev = step(e.Damage(p, "u2", "Goblin", 5, ""))
	if ev.Summary != "Goblin took 5 damage (durability 4 -> 0, health 3 -> 2): wounded" {
		t.Errorf("damage: %q", ev.Summary)
	}
	step(e.Count("u2", "Bram", "actions", 2))
	budget("Bram", "0 actions, 1 reaction off its turn (Vigor 5, Defense costs 5)")

	ev = step(e.Next(p, "u2"))
	at(1, "Aria")
	lines(ev, "Aria: 3 actions (ambusher), 2 reactions off its turn (Vigor 10, Defense costs 5).")
	ev = step(e.Damage(p, "u1", "Ogre", 9, "kinetic"))
	if ev.Summary != "Ogre took 9 kinetic damage, 3 stopped by Armor Rank 3 (durability 12 -> 6, health 10 -> 10)" {
		t.Errorf("damage: %q", ev.Summary)
	}
	step(e.Count("u1", "Aria", "actions", 3))

	ev = step(e.Next(p, "u1"))
	at(1, "Ogre")
	lines(ev, "Ogre: 2 actions, 1 reaction off its turn (Vigor 6, Defense costs 5).")
	// The Ogre's fire blast: Aria's Defense (5 Vigor) fails, and her armor
	// does not stop thermal damage. The blast costs the Ogre 6 Vigor.
	step(e.Count("u1", "Aria", "reactions", 1))
	step(e.Count("u1", "Aria", "vigor", 5))
	ev = step(e.Damage(p, "gm", "Aria", 7, "thermal"))
	if ev.Summary != "Aria took 7 thermal damage (durability 10 -> 3, health 8 -> 8)" {
		t.Errorf("damage: %q", ev.Summary)
	}
	step(e.Count("gm", "Ogre", "vigor", 6))
	step(e.Count("gm", "Ogre", "actions", 2))
	budget("Aria", "0 actions (ambusher), 1 reaction off its turn (Vigor 5, Defense costs 5), 1 reaction taken this round")
	budget("Ogre", "winded: no actions until it has 5 Vigor, 0 reactions off its turn (Vigor 0, Defense costs 5)")

	ev = step(e.Next(p, "gm"))
	at(1, "Goblin")
	lines(ev, "Goblin is wounded: its bonus dice are one step lower.",
		"Goblin: 1 action (ambushed), 1 reaction off its turn (Vigor 5, Defense costs 5).")

	// The end of round 1: the Recovery Phase.
	ev = step(e.Next(p, "gm"))
	at(2, "Bram")
	if ev.Summary != "Round 2 begins: Bram's turn." {
		t.Errorf("summary %q", ev.Summary)
	}
	lines(ev, "Bram recovers: Vigor 5 -> 7.",
		"Aria recovers: Vigor 10 -> 7 (5 spent).",
		"Ogre recovers: Vigor 6 -> 3 (6 spent), Durability 6 -> 8.",
		"Ogre is winded (Vigor 3, needs 5): it sits out its next turn.",
		"Bram: 2 actions, 1 reaction off its turn (Vigor 7, Defense costs 5).")
	res("Goblin", ints{"durability": 0, "health": 2, "vigor": 5}) // wounded: no regen
	if c, _ := e.Find("Ogre"); !c.Skipping || c.Stats[StatWinded] != 1 {
		t.Errorf("the Ogre is not winded: %+v", c)
	}
	for _, c := range e.Combatants {
		for k, v := range c.Counters {
			if v != 0 {
				t.Errorf("%s's %s is %d in a new round", c.Name, k, v)
			}
		}
	}

	// Round 2. Bram puts the Goblin into Shock.
	ev = step(e.Damage(p, "u2", "Goblin", 4, ""))
	if ev.Summary != "Goblin took 4 damage (durability 0 -> 0, health 2 -> 0): unconscious in Shock, dies in 5 rounds" {
		t.Errorf("damage: %q", ev.Summary)
	}
	ev = step(e.Next(p, "u2"))
	at(2, "Aria")
	lines(ev, "Aria: 2 actions, 1 reaction off its turn (Vigor 7, Defense costs 5).")
	ev = step(e.Next(p, "u1"))
	at(3, "Bram")
	lines(ev, "Ogre's turn is skipped.",
		"Bram recovers: Vigor 7 -> 9.",
		"Aria recovers: Vigor 7 -> 9.",
		"Ogre recovers: Vigor 3 -> 6, Durability 8 -> 10.",
		"Ogre is no longer winded.",
		"Goblin is in Shock: dies in 4 rounds.",
		"Bram: 2 actions, 1 reaction off its turn (Vigor 9, Defense costs 5).")
	res("Goblin", ints{"durability": 0, "health": 0, "vigor": 5, "shock": 4})

	// Round 3. Bram defends: Defense costs him 3 until his next turn.
	step(e.AddCondition("u2", "Bram", encounter.Condition{Name: "defending", Rounds: 1, Ends: encounter.AtStart}, ""))
	budget("Bram", "2 actions, 3 reactions off its turn (Vigor 9, Defense costs 3)")
	step(e.Next(p, "u2"))
	at(3, "Aria")
	ev = step(e.Next(p, "u1"))
	at(3, "Ogre")
	lines(ev, "Ogre: 2 actions, 1 reaction off its turn (Vigor 6, Defense costs 5).")
	ev = step(e.Damage(p, "gm", "Goblin", 1, ""))
	if ev.Summary != "Goblin took 1 damage (durability 0 -> 0, health 0 -> 0): killed outright in Shock" {
		t.Errorf("damage: %q", ev.Summary)
	}
	step(e.Count("u2", "Bram", "vigor", 3))
	step(e.Count("u2", "Bram", "reactions", 1))
	ev = step(e.Next(p, "gm"))
	at(4, "Bram")
	lines(ev, "Bram recovers: Vigor 9 -> 8 (3 spent).",
		"Aria recovers: Vigor 9 -> 11.",
		"Ogre recovers: Vigor 6 -> 9, Durability 10 -> 12.",
		"defending on Bram ended: at the start of Bram's turn.",
		"Bram: 2 actions, 1 reaction off its turn (Vigor 8, Defense costs 5).")
	res("Goblin", ints{"durability": 0, "health": 0, "vigor": 5})
	if c, _ := e.Find("Goblin"); !c.Defeated || c.Stats[StatDead] != 1 {
		t.Errorf("the Goblin is not dead: %+v", c)
	}
	step(e.End(p, "gm"))

	// Every snapshot restores the state it was taken of.
	for i, s := range snaps {
		got, err := encounter.Restore(s)
		if err != nil {
			t.Fatalf("snapshot %d: %v", i, err)
		}
		if !reflect.DeepEqual(got, states[i]) {
			t.Errorf("snapshot %d does not restore", i)
		}
	}
}
