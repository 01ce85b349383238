package encounter

import (
	"encoding/json"
	"errors"
	"slices"
	"testing"
)

func TestViewJSON(t *testing.T) {
	e := small(t, false)
	mustDo(t)(e.Add(Generic{}, nil, "gm", Combatant{Name: "Spy", NPC: true, Hidden: true,
		Stats: map[string]int{"initiative": 1}, Resources: map[string]int{"hp": 4}}))
	mustDo(t)(e.Begin(Generic{}, physical(12, 10), "gm"))
	mustDo(t)(e.AddCondition("gm", "Goblin", Condition{Name: "stunned", Rounds: 1, Relative: OnSource}, "Aria"))
	ev := mustDo(t)(e.AddCondition("gm", "Bram", Condition{Name: "watched"}, "Spy"))
	if got, want := ev.Text(false), "watched on Bram (from someone): lasts until removed."; got != want {
		t.Errorf("players read %q, want %q", got, want)
	}
	mustDo(t)(e.Count("gm", "Aria", "reactions", 1))

	players := `{"round":1,"turn":"Aria","order":["Aria","Goblin","Bram"],"combatants":[` +
		`{"name":"Aria","resources":{"hp":20},"conditions":[],"defeated":false},` +
		`{"name":"Goblin","npc":true,"resources":{"hp":7},"conditions":[{"name":"stunned","rounds_left":1,"ends":"ends at the start of Aria's turn, round 2","source":"Aria"}],"defeated":false},` +
		`{"name":"Bram","resources":{},"conditions":[{"name":"watched","rounds_left":null,"ends":"lasts until removed","source":"someone"}],"defeated":false}]}`
	if got := mustJSON(t, e.View(false)); got != players {
		t.Errorf("players' view:\n got %s\nwant %s", got, players)
	}
	gm := `{"round":1,"turn":"Aria","order":["Aria","Goblin","Bram","Spy"],"combatants":[` +
		`{"name":"Aria","resources":{"hp":20},"conditions":[],"defeated":false,"hidden":false,"stats":{"init":3},"counters":{"reactions":1},"initiative":[15,3]},` +
		`{"name":"Goblin","npc":true,"resources":{"hp":7},"conditions":[{"name":"stunned","rounds_left":1,"ends":"ends at the start of Aria's turn, round 2","source":"Aria"}],"defeated":false,"hidden":false,"stats":{"init":2},"initiative":[12,2]},` +
		`{"name":"Bram","resources":{},"conditions":[{"name":"watched","rounds_left":null,"ends":"lasts until removed","source":"Spy"}],"defeated":false,"hidden":false,"stats":{"init":1,"initiative":12},"initiative":[12,1]},` +
		`{"name":"Spy","npc":true,"resources":{"hp":4},"conditions":[],"defeated":false,"hidden":true,"stats":{"initiative":1},"initiative":[1,0]}]}`
	if got := mustJSON(t, e.View(true)); got != gm {
		t.Errorf("GM's view:\n got %s\nwant %s", got, gm)
	}

	// Before the fight the turn is null and the round 0.
	var v map[string]any
	if err := json.Unmarshal([]byte(mustJSON(t, small(t, false).View(false))), &v); err != nil {
		t.Fatal(err)
	}
	if v["turn"] != nil || v["round"] != 0.0 {
		t.Errorf("before the fight: turn %v, round %v", v["turn"], v["round"])
	}
}

// TestHidden: a hidden combatant is out of the players' view until
// revealed, or with RevealOnTurn until its first turn starts; the GM sees
// it all along.
func TestHidden(t *testing.T) {
	for _, tt := range []struct {
		name     string
		c        Combatant
		reveal   bool // by Reveal after Begin
		nexts    int  // Nexts after which the players see it
		seenTurn string
	}{
		{"revealed on its first turn", Combatant{Name: "Lurker", Hidden: true, RevealOnTurn: true, Stats: map[string]int{"initiative": 13}}, false, 1, "Lurker"},
		{"revealed by the GM", Combatant{Name: "Lurker", Hidden: true, Stats: map[string]int{"initiative": 13}}, true, 0, "Lurker"},
		// On its turn the players see the turn after it, the Goblin's.
		{"never revealed", Combatant{Name: "Lurker", Hidden: true, Stats: map[string]int{"initiative": 13}}, false, -1, "Goblin"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := small(t, false)
			mustDo(t)(e.Add(Generic{}, nil, "gm", tt.c))
			mustDo(t)(e.Begin(Generic{}, physical(12, 10), "gm")) // Aria 15, Lurker 13, Goblin 12, Bram 12
			if tt.reveal {
				mustDo(t)(e.Reveal("gm", "lurker"))
			}
			for n := 0; n < 4; n++ {
				seen := slices.Contains(e.View(false).Order, "Lurker")
				if want := tt.nexts >= 0 && n >= tt.nexts; seen != want {
					t.Errorf("after %d nexts the players see the Lurker: %v, want %v", n, seen, want)
				}
				if !slices.Contains(e.View(true).Order, "Lurker") {
					t.Errorf("after %d nexts the GM does not see the Lurker", n)
				}
				if n == 1 {
					if got := deref(e.View(false).Turn); got != tt.seenTurn {
						t.Errorf("on its turn the players see %q", got)
					}
				}
				mustDo(t)(e.Next(Generic{}, "gm"))
			}
		})
	}
}

// TestHiddenDrawsLast: a hidden combatant added before the others draws
// its initiative die after them, so the players' dice are those they
// would roll without it (issue 20).
func TestHiddenDrawsLast(t *testing.T) {
	lurker := Combatant{Name: "Lurker", NPC: true, Hidden: true, Resources: map[string]int{"hp": 4}}
	begin := func(withLurker bool, faces ...int) *Encounter {
		e := New("")
		cs := []Combatant{
			{Name: "Aria", Stats: map[string]int{"init": 3}, Resources: map[string]int{"hp": 20}},
			{Name: "Goblin", NPC: true, Stats: map[string]int{"init": 2}, Resources: map[string]int{"hp": 7}},
		}
		if withLurker {
			cs = append([]Combatant{lurker}, cs...)
		}
		for _, c := range cs {
			mustDo(t)(e.Add(Generic{}, nil, "gm", c))
		}
		mustDo(t)(e.Begin(Generic{}, physical(faces...), "gm"))
		return e
	}
	without := mustJSON(t, begin(false, 7, 15).View(false))
	with := begin(true, 7, 15, 19)
	if got := mustJSON(t, with.View(false)); got != without {
		t.Errorf("the players read\n%s\nwith the Lurker, and\n%s\nwithout", got, without)
	}
	// The Lurker drew the last die, 19: it goes first for the GM.
	if got := with.View(true).Order; !slices.Equal(got, []string{"Lurker", "Goblin", "Aria"}) {
		t.Errorf("the GM's order %v, want Lurker (19), Goblin (15+2), Aria (7+3)", got)
	}
}

// TestHiddenYieldsItsName: a combatant the players see may take the name
// of a hidden one, which is not there for them; the hidden one is renamed
// where only the GMs read it (issue 20). A hidden newcomer may not take a
// name in use.
func TestHiddenYieldsItsName(t *testing.T) {
	e := small(t, false)
	mustDo(t)(e.Add(Generic{}, nil, "gm", Combatant{Name: "Ogre", NPC: true, Hidden: true, Resources: map[string]int{"hp": 20}}))
	mustDo(t)(e.Add(Generic{}, nil, "gm", Combatant{Name: "Ogre (2)", NPC: true, Hidden: true, Resources: map[string]int{"hp": 5}}))
	ev := mustDo(t)(e.Add(Generic{}, nil, "bob", Combatant{Name: "ogre", Owner: "bob", Resources: map[string]int{"hp": 9}}))
	if got, want := ev.Text(false), "ogre joins the encounter."; got != want {
		t.Errorf("the players read %q, want %q", got, want)
	}
	if got, want := ev.Text(true), "ogre joins the encounter.\nThe hidden Ogre is now Ogre (3): ogre takes its name."; got != want {
		t.Errorf("the GMs read %q, want %q", got, want)
	}
	if c, _ := e.Find("Ogre (3)"); c == nil || !c.Hidden || c.Resources["hp"] != 20 {
		t.Errorf("the hidden Ogre: %+v", c)
	}
	if c, _ := e.Find("Ogre"); c == nil || c.Hidden || c.Owner != "bob" {
		t.Errorf("Ogre now names %+v, want bob's", c)
	}
	if _, err := e.Add(Generic{}, nil, "gm", Combatant{Name: "Aria", Hidden: true}); !errors.Is(err, ErrDuplicate) {
		t.Errorf("a hidden Aria beside the players': %v, want ErrDuplicate", err)
	}
}

// TestBreakTiesSeenFirst: in a run of tied combatants those the players
// see break their tie among themselves, first, and a hidden one ties only
// with hidden ones, after them (issue 20), so no one the players see rolls
// a tie-break because of a hidden combatant.
func TestBreakTiesSeenFirst(t *testing.T) {
	begin := func(t *testing.T, cs []Combatant, faces ...int) (*Encounter, []string) {
		t.Helper()
		e := New("")
		for _, c := range cs {
			c.Stats = map[string]int{StatInitiative: 12}
			c.Resources = map[string]int{"hp": 5}
			mustDo(t)(e.Add(Generic{}, nil, "gm", c))
		}
		d := physical(faces...)
		ev := mustDo(t)(e.Begin(Generic{}, d, "gm"))
		if err := d.Done(); err != nil {
			t.Fatal(err)
		}
		var rolled []string
		for _, r := range ev.Rolls {
			rolled = append(rolled, r.Name)
		}
		return e, rolled
	}
	// One the players see, tied with a hidden one: no tie-break at all.
	e, rolled := begin(t, []Combatant{{Name: "Ogre", Hidden: true}, {Name: "Aria"}})
	if len(rolled) != 0 || !slices.Equal(e.View(true).Order, []string{"Aria", "Ogre"}) {
		t.Errorf("Aria and a hidden Ogre: rolls %v, order %v; want none, Aria first", rolled, e.View(true).Order)
	}
	// Two of each: Aria 5 and Bram 15 break theirs first, then Ogre 9
	// and Gob 3 theirs; the hidden come after those the players see.
	e, rolled = begin(t, []Combatant{{Name: "Ogre", Hidden: true}, {Name: "Aria"}, {Name: "Gob", Hidden: true}, {Name: "Bram"}}, 5, 15, 9, 3)
	if !slices.Equal(rolled, []string{"Aria", "Bram", "Ogre", "Gob"}) {
		t.Errorf("tie-breaks rolled by %v, want Aria, Bram, then Ogre, Gob", rolled)
	}
	if got := e.View(true).Order; !slices.Equal(got, []string{"Bram", "Aria", "Ogre", "Gob"}) {
		t.Errorf("order %v, want Bram (15), Aria (5), Ogre (9), Gob (3)", got)
	}
}
