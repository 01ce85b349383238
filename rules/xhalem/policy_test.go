package xhalem

import (
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tablehand/tablehand/rules/dice"
	"github.com/tablehand/tablehand/rules/encounter"
)

// Combatants for the policy's tests.
func mech(name, owner string, engine int, more ...int) encounter.Combatant {
	c := encounter.Combatant{Name: name, Owner: owner, NPC: owner == "",
		Stats: map[string]int{StatEngine: engine}, Resources: map[string]int{TrackHP: 20}}
	addStats(&c, more)
	return c
}

func creature(name, owner string, evasion int, more ...int) encounter.Combatant {
	c := encounter.Combatant{Name: name, Owner: owner, NPC: owner == "",
		Stats: map[string]int{StatEvasion: evasion}, Resources: map[string]int{TrackHP: 20}}
	addStats(&c, more)
	return c
}

// addStats reads more as a group number, then an init_bonus.
func addStats(c *encounter.Combatant, more []int) {
	if len(more) > 0 && more[0] != 0 {
		c.Stats[StatGroup] = more[0]
	}
	if len(more) > 1 {
		c.Stats[StatInitBonus] = more[1]
	}
}

// begin adds cs and begins the fight with the physical dice, checking that
// every die was used.
func begin(t *testing.T, cs []encounter.Combatant, faces ...int) (*encounter.Encounter, encounter.Event, error) {
	t.Helper()
	p := NewPolicy(DefaultConfig())
	e := encounter.New(SystemName)
	for _, c := range cs {
		if _, err := e.Add(p, nil, "gm", c); err != nil {
			t.Fatal(err)
		}
	}
	d := dice.NewPhysical(faces)
	ev, err := e.Begin(p, d, "gm")
	if err == nil {
		if derr := d.Done(); derr != nil {
			t.Errorf("dice %v: %v", faces, derr)
		}
	}
	return e, ev, err
}

func order(e *encounter.Encounter) []string {
	var out []string
	for _, c := range e.Combatants {
		out = append(out, c.Name)
	}
	return out
}

// rollsOf is each roll as "Name for total".
func rollsOf(rs []encounter.Roll) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.Name+" "+r.For+" "+itoa(r.Total))
	}
	return out
}

func hidden(c encounter.Combatant) encounter.Combatant {
	c.Hidden = true
	return c
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func itoa(n int) string { return strconv.Itoa(n) }

// texts is the event's lines.
func texts(ev encounter.Event) []string {
	var out []string
	for _, l := range ev.Lines {
		out = append(out, l.Text)
	}
	return out
}

func findLine(ev encounter.Event, s string) (encounter.Line, bool) {
	for _, l := range ev.Lines {
		if strings.Contains(l.Text, s) {
			return l, true
		}
	}
	return encounter.Line{}, false
}

func TestPolicyOrder(t *testing.T) {
	tests := []struct {
		rule   string
		cs     []encounter.Combatant
		dice   []int
		order  []string
		rolls  []string
		keys   map[string][]int
		lines  []string // in the Begin lines
		noLine string   // not in the Begin lines
		secret bool     // the lines are the GM's
	}{
		{
			rule:  "To determine your machine's Initiative, add your Engine score to 1D20. To determine your creature's Initiative, add your Evasion score to 1D20.",
			cs:    []encounter.Combatant{mech("Vanguard", "u1", 3), creature("Aria", "u2", 2)},
			dice:  []int{10, 12},
			order: []string{"Aria", "Vanguard"},
			rolls: []string{"Vanguard initiative 13", "Aria initiative 14"},
			keys:  map[string][]int{"Aria": {14}, "Vanguard": {13}},
		},
		{
			rule:  "The Architect would roll 1D20 for the whole group, adding Engine or Evasion scores, and whatever other benefits or penalties.",
			cs:    []encounter.Combatant{mech("Vanguard", "u1", 3, 0, -2), creature("Aria", "u2", 2, 0, 1)},
			dice:  []int{12, 11},
			order: []string{"Aria", "Vanguard"},
			rolls: []string{"Vanguard initiative 13", "Aria initiative 14"},
			keys:  map[string][]int{"Aria": {14}, "Vanguard": {13}},
		},
		{
			rule:  "The Initiative scores are then placed in order from highest to lowest, with the combatant with the highest score going first.",
			cs:    []encounter.Combatant{creature("Aria", "u2", 2), creature("Goblin", "", 1), mech("Drone", "", 4)},
			dice:  []int{3, 17, 9},
			order: []string{"Goblin", "Drone", "Aria"},
			rolls: []string{"Aria initiative 5", "Goblin initiative 18", "Drone initiative 13"},
		},
		{
			rule:   "If a tie occurs among Architect-controlled combatants, the Architect can determine the order.",
			cs:     []encounter.Combatant{creature("Goblin 1", "", 2), creature("Goblin 2", "", 5), creature("Aria", "u2", 0)},
			dice:   []int{14, 11, 2},
			order:  []string{"Goblin 1", "Goblin 2", "Aria"},
			rolls:  []string{"Goblin 1 initiative 16", "Goblin 2 initiative 16", "Aria initiative 2"},
			keys:   map[string][]int{"Goblin 1": {16}, "Goblin 2": {16}},
			lines:  []string{"Goblin 1 and Goblin 2 tie at 16: the Architect determines the order of the Architect's combatants, so they keep the order they were added in; /init move changes it."},
			noLine: "reroll",
		},
		{
			rule:   "the Architect can determine the order: a line naming a hidden combatant is the Architect's alone",
			cs:     []encounter.Combatant{creature("Goblin", "", 2), hidden(creature("Stalker", "", 2))},
			dice:   []int{14, 14},
			order:  []string{"Goblin", "Stalker"},
			lines:  []string{"Goblin and Stalker tie at 16: the Architect determines the order"},
			secret: true,
		},
		{
			rule:  "If a tie occurs between the Architect-controlled combatants and the player-controlled combatants, both the Architect and the player must reroll for Initiative.",
			cs:    []encounter.Combatant{creature("Ogre", "", 1), creature("Aria", "u2", 1)},
			dice:  []int{14, 14, 3, 9},
			order: []string{"Aria", "Ogre"},
			rolls: []string{"Ogre initiative 15", "Aria initiative 15", "Ogre reroll 4", "Aria reroll 10"},
			keys:  map[string][]int{"Aria": {15, 10}, "Ogre": {15, 4}},
		},
		{
			rule:  "If the tie occurs between player-controlled combatants, the player with the highest Engine score (machine) or Evasion score (creature) will succeed.",
			cs:    []encounter.Combatant{creature("Bram", "u1", 2), creature("Aria", "u2", 4)},
			dice:  []int{13, 11},
			order: []string{"Aria", "Bram"},
			rolls: []string{"Bram initiative 15", "Aria initiative 15"},
			keys:  map[string][]int{"Aria": {15, 4}, "Bram": {15, 2}},
		},
		{
			rule:  "the player with the highest Engine score (machine) or Evasion score (creature) will succeed: a machine's Engine against a creature's Evasion",
			cs:    []encounter.Combatant{creature("Aria", "u2", 2), mech("Vanguard", "u1", 5)},
			dice:  []int{16, 13},
			order: []string{"Vanguard", "Aria"},
			rolls: []string{"Aria initiative 18", "Vanguard initiative 18"},
		},
		{
			rule:  "If this option doesn't resolve a tie, the players will have to reroll for Initiative.",
			cs:    []encounter.Combatant{creature("Aria", "u2", 3), creature("Bram", "u1", 3)},
			dice:  []int{12, 12, 5, 8},
			order: []string{"Bram", "Aria"},
			rolls: []string{"Aria initiative 15", "Bram initiative 15", "Aria reroll 8", "Bram reroll 11"},
			keys:  map[string][]int{"Aria": {15, 8}, "Bram": {15, 11}},
		},
		{
			rule:  "the players will have to reroll for Initiative: a reroll that ties again is rerolled again",
			cs:    []encounter.Combatant{creature("Aria", "u2", 3), creature("Bram", "u1", 3)},
			dice:  []int{12, 12, 7, 7, 20, 1},
			order: []string{"Aria", "Bram"},
			rolls: []string{"Aria initiative 15", "Bram initiative 15", "Aria reroll 10", "Bram reroll 10", "Aria reroll 23", "Bram reroll 4"},
			keys:  map[string][]int{"Aria": {15, 10, 23}, "Bram": {15, 10, 4}},
		},
		{
			rule: "both the Architect and the player must reroll: a tie of both sides is rerolled by everyone in it, and the players tied again go by the higher score",
			cs:   []encounter.Combatant{creature("Goblin", "", 2), creature("Bram", "u1", 2), creature("Aria", "u2", 4)},
			// Goblin 13+2, Bram 13+2, Aria 11+4; rerolls Goblin 2+2,
			// Bram 8+2, Aria 6+4: Bram and Aria tie at 10, Aria's
			// Evasion is higher.
			dice:  []int{13, 13, 11, 2, 8, 6},
			order: []string{"Aria", "Bram", "Goblin"},
			rolls: []string{"Goblin initiative 15", "Bram initiative 15", "Aria initiative 15", "Goblin reroll 4", "Bram reroll 10", "Aria reroll 10"},
			keys:  map[string][]int{"Aria": {15, 10, 4}, "Bram": {15, 10, 2}, "Goblin": {15, 4}},
		},
		{
			rule: "combatants operating as a group, that share similar stats, and are controlled by the Architect, can get the same Initiative so that they can each take their action at the same time",
			cs: []encounter.Combatant{creature("Raider 1", "", 2, 7), creature("Aria", "u2", 3), creature("Raider 2", "", 2, 7),
				mech("Drone", "", 1)},
			dice:  []int{9, 15, 10},
			order: []string{"Aria", "Raider 1", "Raider 2", "Drone"},
			rolls: []string{"Raider 1, Raider 2 group initiative 11", "Aria initiative 18", "Drone initiative 11"},
			keys:  map[string][]int{"Raider 1": {11}, "Raider 2": {11}, "Drone": {11}},
			lines: []string{"Raider 1 and Raider 2 roll as group 7: one Initiative, 11, for all; they act one after another.",
				"Raider 1, Raider 2 and Drone tie at 11: the Architect determines the order"},
		},
		{
			rule:  "The Architect would roll 1D20 for the whole group: a group tied with a player rerolls once, for all",
			cs:    []encounter.Combatant{creature("Raider 1", "", 2, 7), creature("Raider 2", "", 2, 7), creature("Aria", "u2", 3)},
			dice:  []int{12, 11, 4, 19},
			order: []string{"Aria", "Raider 1", "Raider 2"},
			rolls: []string{"Raider 1, Raider 2 group initiative 14", "Aria initiative 14", "Raider 1, Raider 2 reroll 6", "Aria reroll 22"},
		},
		{
			rule:  "both the Architect and the player must reroll: dice that keep tying stop after 5 rerolls, in the order of the list",
			cs:    []encounter.Combatant{creature("Ogre", "", 0), creature("Aria", "u2", 0)},
			dice:  []int{10, 10, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5},
			order: []string{"Ogre", "Aria"},
			lines: []string{"Ogre and Aria are still tied at 10 after 5 rerolls: they keep the order of the list; /init move changes it."},
		},
		{
			rule:  "To determine your machine's Initiative, add your Engine score: a mech with an Evasion too says machine=1",
			cs:    []encounter.Combatant{{Name: "Vanguard", Owner: "u1", Stats: map[string]int{StatMachine: 1, StatEngine: 5, StatEvasion: 1}}},
			dice:  []int{10},
			order: []string{"Vanguard"},
			rolls: []string{"Vanguard initiative 15"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			e, ev, err := begin(t, tt.cs, tt.dice...)
			if err != nil {
				t.Fatal(err)
			}
			if got := order(e); !slices.Equal(got, tt.order) {
				t.Errorf("order %q, want %q", got, tt.order)
			}
			if got := rollsOf(ev.Rolls); tt.rolls != nil && !slices.Equal(got, tt.rolls) {
				t.Errorf("rolls %q, want %q", got, tt.rolls)
			}
			for name, want := range tt.keys {
				c, err := e.Find(name)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(c.Initiative, want) {
					t.Errorf("%s's initiative %v, want %v", name, c.Initiative, want)
				}
			}
			for _, want := range tt.lines {
				if l, ok := findLine(ev, want); !ok || l.Secret != tt.secret {
					t.Errorf("no line %q (secret %v) in %s", want, tt.secret, mustJSON(t, ev.Lines))
				}
			}
			if tt.noLine != "" {
				if _, ok := findLine(ev, tt.noLine); ok {
					t.Errorf("a line with %q in %q", tt.noLine, texts(ev))
				}
			}
			for _, c := range e.Combatants {
				if _, ok := c.Counters[beginMarker]; ok {
					t.Errorf("%s keeps the begin marker", c.Name)
				}
			}
		})
	}
}

func TestPolicyOrderMistakes(t *testing.T) {
	tests := []struct {
		why string
		c   encounter.Combatant
	}{
		{"a machine or a creature? engine and evasion, no machine stat",
			encounter.Combatant{Name: "Hybrid", Owner: "u1", Stats: map[string]int{StatEngine: 2, StatEvasion: 3}}},
		{"machine is 0 or 1",
			encounter.Combatant{Name: "Vanguard", Owner: "u1", Stats: map[string]int{StatMachine: 2}}},
		{"combatants operating as a group ... and are controlled by the Architect: not a player's",
			encounter.Combatant{Name: "Aria", Owner: "u1", Stats: map[string]int{StatGroup: 1}}},
		{"an Initiative too large to roll",
			encounter.Combatant{Name: "Titan", NPC: true, Stats: map[string]int{StatEvasion: 900_000, StatInitBonus: 900_000}}},
	}
	for _, tt := range tests {
		_, _, err := begin(t, []encounter.Combatant{tt.c}, 10)
		var ee *encounter.Error
		if !errors.As(err, &ee) || !errors.Is(err, encounter.ErrInvalid) {
			t.Errorf("%s: error %v, want an *encounter.Error", tt.why, err)
		}
	}
}

func TestPolicyInsert(t *testing.T) {
	// The fight: Aria 12+4 (player, Evasion 4), Goblin 1 and 2 (group 3)
	// 10+2, Bram 11+1 (player, Evasion 1), the group before Bram after
	// their rerolls, 5+2 against 3+1.
	roster := []encounter.Combatant{creature("Aria", "u2", 4), creature("Goblin 1", "", 2, 3),
		creature("Goblin 2", "", 2, 3), creature("Bram", "u1", 1)}
	startDice := []int{12, 10, 11, 5, 3}
	tests := []struct {
		rule  string
		c     encounter.Combatant
		dice  []int
		pos   int
		rolls []string
	}{
		{"with the combatant with the highest score going first",
			creature("Ogre", "", 1), []int{19}, 0, []string{"Ogre initiative 20"}},
		{"placed in order from highest to lowest",
			creature("Ogre", "", 1), []int{1}, 4, []string{"Ogre initiative 2"}},
		{"If a tie occurs among Architect-controlled combatants, the Architect can determine the order: the newcomer goes after the group, then meets Bram",
			creature("Ogre", "", 2), []int{10, 1, 10}, 4, []string{"Ogre initiative 12", "Ogre reroll 3", "Bram reroll 11"}},
		{"If a tie occurs between the Architect-controlled combatants and the player-controlled combatants, both the Architect and the player must reroll",
			creature("Ogre", "", 0), []int{16, 18, 7}, 0, []string{"Ogre initiative 16", "Ogre reroll 18", "Aria reroll 11"}},
		{"If the tie occurs between player-controlled combatants, the player with the highest Engine score (machine) or Evasion score (creature) will succeed.",
			creature("Cass", "u3", 5), []int{11}, 0, []string{"Cass initiative 16"}},
		{"the player with the highest Engine score (machine) or Evasion score (creature) will succeed: a lower one goes after",
			creature("Cass", "u3", 2), []int{14}, 1, []string{"Cass initiative 16"}},
		{"both the Architect and the player must reroll for Initiative: against a group, and again while they tie",
			creature("Cass", "u3", 0), []int{12, 9, 7, 20, 1}, 1, []string{"Cass initiative 12", "Cass reroll 9", "Goblin 1 reroll 9", "Cass reroll 20", "Goblin 1 reroll 3"}},
		{"The Architect would roll 1D20 for the whole group: a newcomer of the group shares its Initiative",
			creature("Goblin 3", "", 2, 3), nil, 3, nil},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			e, _, err := begin(t, roster, startDice...)
			if err != nil {
				t.Fatal(err)
			}
			if want := []string{"Aria", "Goblin 1", "Goblin 2", "Bram"}; !slices.Equal(order(e), want) {
				t.Fatalf("order %q, want %q", order(e), want)
			}
			p := NewPolicy(DefaultConfig())
			d := dice.NewPhysical(tt.dice)
			ev, err := e.Add(p, d, "gm", tt.c)
			if err != nil {
				t.Fatal(err)
			}
			if err := d.Done(); err != nil {
				t.Errorf("dice: %v", err)
			}
			c, err := e.Find(tt.c.Name)
			if err != nil {
				t.Fatal(err)
			}
			if got := slices.Index(order(e), tt.c.Name); got != tt.pos {
				t.Errorf("%s at %d in %q, want %d", tt.c.Name, got, order(e), tt.pos)
			}
			if got := rollsOf(ev.Rolls); !slices.Equal(got, tt.rolls) {
				t.Errorf("rolls %q, want %q", got, tt.rolls)
			}
			if len(c.Initiative) == 0 || len(c.InitiativeRolls) == 0 {
				t.Errorf("%s has no Initiative: %v %v", c.Name, c.Initiative, c.InitiativeRolls)
			}
		})
	}
}

func TestPolicyBudget(t *testing.T) {
	p := NewPolicy(DefaultConfig())
	e := encounter.New(SystemName)
	tests := []struct {
		rule     string
		c        encounter.Combatant
		counters map[string]int
		conds    []string
		want     string
	}{
		{"each player or the Architect can take one action and one movement on their turn; All mechs start with a base speed of 25 hexes",
			mech("Vanguard", "u1", 3), nil, nil, "1 action, 25 hexes of movement"},
		{"The base speed for creatures depend on the race. (creature_speed)",
			creature("Aria", "u1", 3), nil, nil, "1 action, 30 feet of movement"},
		{"The base speed for creatures depend on the race: the speed stat",
			withStats(creature("Aria", "u1", 3), StatSpeed, 40), nil, nil, "1 action, 40 feet of movement"},
		{"You can divide movement into parts so that actions can be taken between movements: move 20, engage",
			withStats(creature("Aria", "u1", 3), StatSpeed, 40), map[string]int{CounterMoved: 20, CounterAction: 1}, nil, "no action, 20 of 40 feet of movement"},
		{"There are times when players can include a secondary action. This action only comes after the primary action",
			withStats(mech("Vanguard", "u1", 3), StatSecondary, 1), nil, nil, "1 action, 1 secondary action after it, 25 hexes of movement"},
		{"This action only comes after the primary action, such as an engagement",
			withStats(mech("Vanguard", "u1", 3), StatSecondary, 1), map[string]int{CounterAction: 1}, nil, "no action, 1 secondary action, 25 hexes of movement"},
		{"you can not take a secondary action first and then a primary action",
			withStats(mech("Vanguard", "u1", 3), StatSecondary, 2), map[string]int{CounterSecondary: 1}, nil, "no action after a secondary one, 1 secondary action, 25 hexes of movement"},
		{"You can use an action to increase your speed ... You take your maximum speed and then double it.",
			mech("Vanguard", "u1", 3), map[string]int{CounterDash: 1, CounterMoved: 30}, nil, "no action, 20 of 50 hexes of movement"},
		{"On your turn you can move your entire movement/total speed.",
			creature("Aria", "u1", 3), map[string]int{CounterMoved: 30}, nil, "1 action, no movement"},
		{"the reactions a sheet grants",
			withStats(creature("Aria", "u1", 3), StatReactions, 1), map[string]int{CounterReactions: 1}, nil, "1 action, 30 feet of movement, 0 reactions"},
		{"If they fail, they are unable to move or take any further action.",
			creature("Aria", "u1", 3), nil, []string{"Grappled"}, "1 action, no movement while grappled"},
		{"You are unable to take any other action while grappling and you are unable to move unless your ability checks to do so were successful.",
			withStats(creature("Ogre", "", 1), StatSecondary, 1), nil, []string{"grappling"}, "no other action while grappling, movement only after a successful check"},
		{"If you are immobilize or otherwise incapacitated, you can not react in any way.",
			withStats(creature("Aria", "u1", 3), StatReactions, 1), nil, []string{"immobilized"}, "1 action, no movement while immobilized, no reactions"},
		{"If you are immobilize or otherwise incapacitated, you can not react in any way. (incapacitated)",
			withStats(creature("Aria", "u1", 3), StatReactions, 2), nil, []string{"incapacitated"}, "1 action, 30 feet of movement, no reactions"},
		{"a speed of 0",
			withStats(creature("Aria", "u1", 3), StatSpeed, 0), nil, nil, "1 action, no movement"},
	}
	for _, tt := range tests {
		c := tt.c
		c.Counters = tt.counters
		for _, name := range tt.conds {
			c.Conditions = append(c.Conditions, encounter.Condition{Name: name})
		}
		if got := p.Budget(e, &c); got != tt.want {
			t.Errorf("%s:\n got %q\nwant %q", tt.rule, got, tt.want)
		}
	}
}

func withStats(c encounter.Combatant, kv ...any) encounter.Combatant {
	for i := 0; i+1 < len(kv); i += 2 {
		c.Stats[kv[i].(string)] = kv[i+1].(int)
	}
	return c
}

func TestPolicyDamage(t *testing.T) {
	tests := []struct {
		rule     string
		hp       int
		amount   int
		kind     string
		conds    []string
		want     string
		defeated bool
	}{
		{"Your weapon, program, or specialty will determine the dice you use to calculate the damage",
			20, 7, "", nil, "Drone took 7 damage (hp 20 -> 13)", false},
		{"at 0 hp the combatant is defeated (the tracker's default)",
			5, 7, "kinetic", nil, "Drone took 7 kinetic damage (hp 5 -> 0): defeated", true},
		{"While fully immersed, all creatures and mechs are immune to fire damage",
			20, 7, "fire", []string{"immersed"}, "Drone took 0 fire damage (7, immune while fully immersed) (hp 20 -> 20)", false},
		{"yet not immune if less than fully immersed",
			20, 7, "fire", []string{"partly immersed"}, "Drone took 7 fire damage (hp 20 -> 13)", false},
		{"All creatures and mechs are vulnerable to electrical damage even if partially immersed, or at least 25% covered.",
			20, 7, "Electrical", []string{"Partly Immersed"}, "Drone took 14 Electrical damage (7 × 2, vulnerable while partly immersed) (hp 20 -> 6)", false},
		{"vulnerable to electrical damage ... fully immersed",
			20, 12, "electrical", []string{"immersed"}, "Drone took 24 electrical damage (12 × 2, vulnerable while fully immersed) (hp 20 -> 0): defeated", true},
		{"Creatures are unaffected by electrical damage to a mech while inside the mech, even if the mech is fully immersed.",
			20, 7, "electrical", []string{"immersed", "inside mech"}, "Drone took 0 electrical damage (7, unaffected inside a mech) (hp 20 -> 20)", false},
		{"Creatures inside of mechs are not immune to fire damage if the fire occurs inside the mech",
			20, 7, "fire", []string{"immersed", "inside mech"}, "Drone took 7 fire damage (hp 20 -> 13)", false},
	}
	p := NewPolicy(DefaultConfig())
	for _, tt := range tests {
		e := encounter.New(SystemName)
		c := mech("Drone", "", 2)
		c.Resources[TrackHP] = tt.hp
		if _, err := e.Add(p, nil, "gm", c); err != nil {
			t.Fatal(err)
		}
		for _, name := range tt.conds {
			if _, err := e.AddCondition("gm", "Drone", encounter.Condition{Name: name}, ""); err != nil {
				t.Fatal(err)
			}
		}
		ev, err := e.Damage(p, "gm", "Drone", tt.amount, tt.kind)
		if err != nil {
			t.Fatalf("%s: %v", tt.rule, err)
		}
		got, err := e.Find("Drone")
		if err != nil {
			t.Fatal(err)
		}
		if ev.Summary != tt.want || got.Defeated != tt.defeated {
			t.Errorf("%s:\n got %q, defeated %v\nwant %q, defeated %v", tt.rule, ev.Summary, got.Defeated, tt.want, tt.defeated)
		}
	}

	// Healing: Base's, on hp, up to its maximum; one without hp is told.
	e := encounter.New(SystemName)
	c := mech("Drone", "", 2)
	c.Resources[TrackHP], c.Max = 0, map[string]int{TrackHP: 10}
	c.Defeated = true
	if _, err := e.Add(p, nil, "gm", c); err != nil {
		t.Fatal(err)
	}
	ev, err := e.Heal(p, "gm", "Drone", 15)
	if err != nil || ev.Summary != "Drone healed 15 (hp 0 -> 10): back in the fight" {
		t.Errorf("heal: %q, %v", ev.Summary, err)
	}
	if _, err := e.Add(p, nil, "gm", encounter.Combatant{Name: "Rock", NPC: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Damage(p, "gm", "Rock", 3, ""); !errors.Is(err, encounter.ErrInvalid) {
		t.Errorf("damage without hp: %v", err)
	}
}

func TestPolicyEndRound(t *testing.T) {
	p := NewPolicy(DefaultConfig())
	tests := []struct {
		round int
		want  string
	}{
		{1, "End of round 1: 10 seconds of game time so far (a round is 10 seconds)."},
		{6, "End of round 6: 1 minute of game time so far (a round is 10 seconds)."},
		{15, "End of round 15: 2 minutes 30 seconds of game time so far (a round is 10 seconds)."},
	}
	for _, tt := range tests {
		lines := p.EndRound(&encounter.Encounter{System: SystemName, Begun: true, Round: tt.round})
		if len(lines) != 1 || lines[0].Text != tt.want || lines[0].Secret {
			t.Errorf("round %d: %+v, want %q (\"each round is 10 seconds ... 6 rounds in a minute\")", tt.round, lines, tt.want)
		}
	}
	if p.Resets() != encounter.ResetRound {
		t.Errorf("counters reset %v, want per round: \"each player gets one turn per round\"", p.Resets())
	}
	if p.Name() != "xhalem" {
		t.Errorf("name %q", p.Name())
	}
}

// xfight runs operations on an xhalem encounter, checking each leaves a
// valid encounter whose snapshot restores it exactly.
type xfight struct {
	t *testing.T
	e *encounter.Encounter
	p encounter.Policy
}

func (f *xfight) do(ev encounter.Event, err error) encounter.Event {
	f.t.Helper()
	if err != nil {
		f.t.Fatalf("%s: %v", ev.Kind, err)
	}
	snap, err := f.e.Snapshot()
	if err != nil {
		f.t.Fatal(err)
	}
	back, err := encounter.Restore(snap)
	if err != nil {
		f.t.Fatal(err)
	}
	if !reflect.DeepEqual(back, f.e) {
		f.t.Errorf("%s: the snapshot does not restore the encounter", ev.Kind)
	}
	return ev
}

// at checks the round, whose turn it is and the order.
func (f *xfight) at(round int, turn string, want []string) {
	f.t.Helper()
	c := f.e.Current()
	if f.e.Round != round || c == nil || c.Name != turn {
		name := "<nil>"
		if c != nil {
			name = c.Name
		}
		f.t.Errorf("round %d, %s's turn; want round %d, %s's turn", f.e.Round, name, round, turn)
	}
	if got := order(f.e); !slices.Equal(got, want) {
		f.t.Errorf("order %q, want %q", got, want)
	}
}

// budget checks the budget of the combatant named, as the tracker shows it.
func (f *xfight) budget(name, want string) {
	f.t.Helper()
	c, err := f.e.Find(name)
	if err != nil {
		f.t.Fatal(err)
	}
	if got := f.p.Budget(f.e, c); got != want {
		f.t.Errorf("%s's budget %q, want %q", name, got, want)
	}
}

func (f *xfight) line(ev encounter.Event, want string, secret bool) {
	f.t.Helper()
	l, ok := findLine(ev, want)
	if !ok {
		f.t.Errorf("no line %q in %q", want, texts(ev))
		return
	}
	if l.Secret != secret {
		f.t.Errorf("line %q secret %v, want %v", want, l.Secret, secret)
	}
}

// TestPolicyFight runs three rounds through the encounter API with the
// dice a table would roll: the order and its ties, the budgets, the
// counters going back to 0 each round, a group, the water rules, a
// grapple, a newcomer and a delayed turn.
func TestPolicyFight(t *testing.T) {
	p := NewPolicy(DefaultConfig())
	f := &xfight{t: t, e: encounter.New(SystemName), p: p}
	e := f.e
	const gm = "gm"

	roster := []encounter.Combatant{
		withStats(mech("Vanguard", "u1", 3), StatSecondary, 1),
		withStats(creature("Aria", "u2", 4), StatReactions, 1),
		mech("Drone 1", "", 2, 1),
		mech("Drone 2", "", 2, 1),
		creature("Stalker", "", 3),
	}
	roster[2].Resources[TrackHP], roster[3].Resources[TrackHP] = 8, 8
	roster[4].Hidden = true
	for _, c := range roster {
		f.do(e.Add(p, nil, gm, c))
	}

	// Initiative, in the order of the list: Vanguard 12+3, Aria 11+4, the
	// drones' group 13+2, the Stalker 5+3. Vanguard, Aria and the drones
	// tie at 15, both sides: all reroll, Vanguard 7+3, Aria 6+4, the
	// drones 4+2. Vanguard and Aria tie again at 10: players, and Aria's
	// Evasion 4 beats Vanguard's Engine 3.
	d := dice.NewPhysical([]int{12, 11, 13, 5, 7, 6, 4})
	ev := f.do(e.Begin(p, d, gm))
	if err := d.Done(); err != nil {
		t.Errorf("begin: %v", err)
	}
	all := []string{"Aria", "Vanguard", "Drone 1", "Drone 2", "Stalker"}
	f.at(1, "Aria", all)
	if got, want := rollsOf(ev.Rolls), []string{"Vanguard initiative 15", "Aria initiative 15", "Drone 1, Drone 2 group initiative 15",
		"Stalker initiative 8", "Vanguard reroll 10", "Aria reroll 10", "Drone 1, Drone 2 reroll 6"}; !slices.Equal(got, want) {
		t.Errorf("begin rolls %q, want %q", got, want)
	}
	if !ev.Rolls[3].Secret || ev.Rolls[0].Secret {
		t.Errorf("the hidden Stalker's roll must be secret, Vanguard's not")
	}
	wantLines := []string{
		"Order: Aria, Vanguard, Drone 1, Drone 2, Stalker (hidden).",
		"Drone 1 and Drone 2 roll as group 1: one Initiative, 15, for all; they act one after another.",
		"Aria: 1 action, 30 feet of movement, 1 reaction.",
		"Round 1: Aria's turn.",
	}
	if got := texts(ev); !slices.Equal(got, wantLines) {
		t.Errorf("begin lines:\n%q\nwant\n%q", got, wantLines)
	}

	// Aria moves 20 feet and engages Drone 1, which stands partly
	// immersed: 5 electrical damage, doubled.
	f.do(e.Count("u2", "Aria", CounterMoved, 20))
	f.do(e.Count("u2", "Aria", CounterAction, 1))
	f.budget("Aria", "no action, 10 of 30 feet of movement, 1 reaction")
	f.do(e.AddCondition(gm, "Drone 1", encounter.Condition{Name: "partly immersed"}, ""))
	ev = f.do(e.Damage(p, "u2", "Drone 1", 5, "electrical"))
	if want := "Drone 1 took 10 electrical damage (5 × 2, vulnerable while partly immersed) (hp 8 -> 0): defeated"; ev.Summary != want {
		t.Errorf("damage %q, want %q", ev.Summary, want)
	}

	ev = f.do(e.Next(p, "u2"))
	f.at(1, "Vanguard", all)
	f.line(ev, "Vanguard: 1 action, 1 secondary action after it, 25 hexes of movement.", false)
	// Vanguard thrusts: its action, and twice its speed; then a secondary
	// action ("A secondary action can occur before or after a dash/thrust").
	f.do(e.Count("u1", "Vanguard", CounterDash, 1))
	f.budget("Vanguard", "no action, 1 secondary action, 50 hexes of movement")
	f.do(e.Count("u1", "Vanguard", CounterSecondary, 1))
	f.do(e.Count("u1", "Vanguard", CounterMoved, 45))
	f.budget("Vanguard", "no action, 5 of 50 hexes of movement")

	// Drone 1 is defeated: its turn is passed over.
	ev = f.do(e.Next(p, "u1"))
	f.at(1, "Drone 2", all)
	f.line(ev, "Drone 2: 1 action, 25 hexes of movement.", false)
	// Drone 2 grapples Aria; Aria reacts (a standby she held).
	f.do(e.AddCondition(gm, "Aria", encounter.Condition{Name: "grappled"}, "Drone 2"))
	f.do(e.AddCondition(gm, "Drone 2", encounter.Condition{Name: "grappling"}, ""))
	f.do(e.Count("u2", "Aria", CounterReactions, 1))
	f.budget("Aria", "no action, no movement while grappled, 0 reactions")
	f.budget("Drone 2", "no other action while grappling, movement only after a successful check")

	ev = f.do(e.Next(p, gm))
	f.at(1, "Stalker", all)
	if l, ok := findLine(ev, "Stalker: 1 action, 30 feet of movement."); !ok || !l.Secret {
		t.Errorf("the hidden Stalker's budget must be a secret line: %q", texts(ev))
	}
	if txt := ev.Text(false); strings.Contains(txt, "Stalker") {
		t.Errorf("the players read about the Stalker:\n%s", txt)
	}
	// The players read of the turn they see, Aria's in round 2, now, as
	// they would without the Stalker: the end of round 1, its start, and
	// its budget with its counters reset.
	if txt := ev.Text(false); !strings.Contains(txt, "Round 2 begins: Aria's turn.\nEnd of round 1: 10 seconds of game time so far (a round is 10 seconds).\nAria is grappled: it can use its action to break free, 1d20 + Strength against the grappler's (/xhalem escape); failing, it cannot move or take any further action.\nAria: 1 action, no movement while grappled, 1 reaction.") {
		t.Errorf("the players do not read of Aria's turn at the Stalker's:\n%s", txt)
	}

	// Round 2: ten seconds have passed; the counters are back to 0; Aria
	// is still grappled.
	ev = f.do(e.Next(p, gm))
	f.at(2, "Aria", all)
	if ev.Summary != "Round 2 begins: Aria's turn." {
		t.Errorf("summary %q", ev.Summary)
	}
	f.line(ev, "End of round 1: 10 seconds of game time so far (a round is 10 seconds).", true)
	// Its start and budget they read at the Stalker's turn already.
	f.line(ev, "Aria is grappled: it can use its action to break free, 1d20 + Strength against the grappler's (/xhalem escape); failing, it cannot move or take any further action.", true)
	f.line(ev, "Aria: 1 action, no movement while grappled, 1 reaction.", true)
	f.budget("Vanguard", "1 action, 1 secondary action after it, 25 hexes of movement")
	// She breaks free with her action.
	f.do(e.Count("u2", "Aria", CounterAction, 1))
	f.do(e.RemoveCondition(gm, "Aria", "grappled"))
	f.do(e.RemoveCondition(gm, "Drone 2", "grappling"))
	f.budget("Aria", "no action, 30 feet of movement, 1 reaction")

	// An ogre joins: 14+1 ties Aria's 15, both sides: the Ogre rerolls 9+1,
	// Aria 2+4; it goes first, a place already past this round.
	d = dice.NewPhysical([]int{14, 9, 2})
	ev = f.do(e.Add(p, d, gm, creature("Ogre", "", 1)))
	if err := d.Done(); err != nil {
		t.Errorf("join: %v", err)
	}
	all = []string{"Ogre", "Aria", "Vanguard", "Drone 1", "Drone 2", "Stalker"}
	f.at(2, "Aria", all)
	if got, want := rollsOf(ev.Rolls), []string{"Ogre initiative 15", "Ogre reroll 10", "Aria reroll 6"}; !slices.Equal(got, want) {
		t.Errorf("join rolls %q, want %q", got, want)
	}
	f.line(ev, "acts from round 3", false)

	ev = f.do(e.Next(p, "u2"))
	f.at(2, "Vanguard", all)
	// Vanguard engages, then delays the rest of its turn until after Drone
	// 2: its turn starts again, what it spent still spent.
	f.do(e.Count("u1", "Vanguard", CounterAction, 1))
	ev = f.do(e.Delay(p, "u1", "Vanguard", "Drone 2"))
	all = []string{"Ogre", "Aria", "Drone 1", "Drone 2", "Vanguard", "Stalker"}
	f.at(2, "Drone 2", all)
	// Drone 1, defeated, is healed after its place went by.
	ev = f.do(e.Heal(p, gm, "Drone 1", 4))
	if ev.Summary != "Drone 1 healed 4 (hp 0 -> 4): back in the fight" {
		t.Errorf("heal %q", ev.Summary)
	}
	ev = f.do(e.Next(p, gm))
	f.at(2, "Vanguard", all)
	f.line(ev, "Vanguard: no action, 1 secondary action, 25 hexes of movement.", false)
	ev = f.do(e.Next(p, "u1"))
	f.at(2, "Stalker", all)
	if txt := ev.Text(false); !strings.Contains(txt, "Ogre: 1 action, 30 feet of movement.") {
		t.Errorf("the players do not read of the Ogre's turn at the Stalker's:\n%s", txt)
	}

	// Round 3: twenty seconds; the Ogre's first turn, Drone 1 back.
	ev = f.do(e.Next(p, gm))
	f.at(3, "Ogre", all)
	f.line(ev, "End of round 2: 20 seconds of game time so far (a round is 10 seconds).", true)
	f.line(ev, "Ogre: 1 action, 30 feet of movement.", true)
	for _, l := range ev.Lines {
		if strings.Contains(l.Text, "tie at") || strings.Contains(l.Text, "roll as group") {
			t.Errorf("the notes on the order come back: %q", l.Text)
		}
	}
	for _, want := range []string{"Aria", "Drone 1", "Drone 2", "Vanguard", "Stalker"} {
		f.do(e.Next(p, gm))
		f.at(3, want, all)
	}
	f.budget("Drone 1", "1 action, 25 hexes of movement")
	ev = f.do(e.End(p, gm))
	if ev.Summary != "The fight is over after 3 rounds." {
		t.Errorf("end %q", ev.Summary)
	}
}
