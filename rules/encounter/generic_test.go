package encounter

import (
	"errors"
	"slices"
	"testing"

	"github.com/tablehand/tablehand/rules/dice"
)

func TestGenericOrder(t *testing.T) {
	tests := []struct {
		name  string
		stats []map[string]int // of A, B, C, added in that order
		dice  []int
		order string
		keys  [][]int // in the order
	}{
		{"highest first", []map[string]int{{"init": 1}, {"init": 0}, {"init": 5}}, []int{10, 15, 2},
			"B A C", [][]int{{15, 0}, {11, 1}, {7, 5}}},
		{"a tie goes to the higher init", []map[string]int{{"init": 1}, {"init": 3}, nil}, []int{12, 10, 4},
			"B A C", [][]int{{13, 3}, {13, 1}, {4, 0}}},
		{"then to the higher tie-break d20", []map[string]int{{"init": 2}, {"init": 2}, nil}, []int{10, 10, 1, 7, 18},
			"B A C", [][]int{{12, 2, 18}, {12, 2, 7}, {1, 0}}},
		{"tie-breaks roll again while they tie", []map[string]int{nil, nil, nil}, []int{5, 5, 5, 9, 9, 3, 4, 6},
			"B A C", [][]int{{5, 0, 9, 6}, {5, 0, 9, 4}, {5, 0, 3}}},
		{"a tie that never breaks keeps the order of adding", []map[string]int{nil, nil, {"init": -1}}, []int{8, 8, 9, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1},
			"A B C", [][]int{{8, 0, 1, 1, 1, 1, 1}, {8, 0, 1, 1, 1, 1, 1}, {8, -1}}},
		{"initiative given, no die", []map[string]int{{"initiative": 14}, {"init": 2}, {"initiative": 3, "init": 9}}, []int{11},
			"A B C", [][]int{{14, 0}, {13, 2}, {3, 9}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := New("")
			for i, s := range tt.stats {
				mustDo(t)(e.Add(Generic{}, nil, "gm", Combatant{Name: string(rune('A' + i)), Stats: s}))
			}
			d := physical(tt.dice...)
			ev := mustDo(t)(e.Begin(Generic{}, d, "gm"))
			if err := d.Done(); err != nil {
				t.Errorf("dice: %v", err)
			}
			var order string
			var keys [][]int
			for i, c := range e.Combatants {
				if i > 0 {
					order += " "
				}
				order += c.Name
				keys = append(keys, c.Initiative)
			}
			if order != tt.order {
				t.Errorf("order %s, want %s", order, tt.order)
			}
			deepEqual(t, "keys", keys, tt.keys)
			rolled := 0
			for _, c := range e.Combatants {
				rolled += len(c.InitiativeRolls)
			}
			if rolled != len(ev.Rolls) || len(ev.Rolls) != len(tt.dice) {
				t.Errorf("%d rolls in the event, %d kept, %d dice", len(ev.Rolls), rolled, len(tt.dice))
			}
		})
	}
}

func TestGenericInsert(t *testing.T) {
	tests := []struct {
		name  string
		stats map[string]int
		die   []int
		pos   int
	}{
		{"beats everyone", map[string]int{"init": 2}, []int{20}, 0},
		{"ties the first on both keys: after it", map[string]int{"init": 3}, []int{12}, 1},
		{"ties Goblin's 12 with more init: before it", map[string]int{"init": 5}, []int{7}, 1},
		{"ties Bram on both keys: after it", map[string]int{"init": 1}, []int{11}, 3},
		{"last", map[string]int{"initiative": -3}, nil, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := small(t, true) // Aria [15 3], Goblin [12 2], Bram [12 1]
			mustDo(t)(e.Next(Generic{}, "gm"))
			mustDo(t)(e.Add(Generic{}, physical(tt.die...), "gm", Combatant{Name: "Ogre", Stats: tt.stats}))
			i := slices.IndexFunc(e.Combatants, func(c Combatant) bool { return c.Name == "Ogre" })
			if i != tt.pos {
				t.Errorf("Ogre at %d, want %d", i, tt.pos)
			}
			if c := e.Current(); c.Name != "Goblin" {
				t.Errorf("the turn moved to %s", c.Name)
			}
		})
	}
}

func TestPhysicalDiceMistakes(t *testing.T) {
	e := small(t, false)
	_, err := e.Begin(Generic{}, physical(12, 21), "gm")
	var de *dice.Error
	if !errors.As(err, &de) {
		t.Errorf("a 21 on a d20: %v, want a *dice.Error", err)
	}
}

func TestPolicies(t *testing.T) {
	type other struct{ Generic }
	ps := NewPolicies()
	for _, name := range []string{"", "generic", "Generic"} {
		if p, err := ps.For(name); err != nil || p.Name() != GenericName {
			t.Errorf("For(%q) = %v, %v", name, p, err)
		}
	}
	_, err := ps.For("gurps")
	if !errors.Is(err, ErrInvalid) || err.Error() != "there is no system named gurps: use one of generic" {
		t.Errorf("For(gurps): %v", err)
	}
	defer func() {
		if recover() == nil {
			t.Errorf("two policies of one name did not panic")
		}
	}()
	NewPolicies(other{}, other{})
}

func TestBaseTrack(t *testing.T) {
	p := Base{Track: "health"}
	c := &Combatant{Name: "Ogre", Resources: map[string]int{"health": 5}, Max: map[string]int{"health": 8}}
	tests := []struct {
		heal   bool
		amount int
		kind   string
		want   string
	}{
		{false, 2, "fire", "Ogre took 2 fire damage (health 5 -> 3)"},
		{false, 9, "", "Ogre took 9 damage (health 3 -> 0): defeated"},
		{false, 1, "", "Ogre took 1 damage (health 0 -> 0)"},
		{true, 20, "", "Ogre healed 20 (health 0 -> 8): back in the fight"},
	}
	for _, tt := range tests {
		var got string
		var err error
		if tt.heal {
			got, err = p.Heal(nil, c, tt.amount)
		} else {
			got, err = p.Damage(nil, c, tt.amount, tt.kind)
		}
		if err != nil || got != tt.want {
			t.Errorf("got %q, %v; want %q", got, err, tt.want)
		}
	}
}
