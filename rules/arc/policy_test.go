package arc

import (
	"errors"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tablehand/tablehand/rules/dice"
	"github.com/tablehand/tablehand/rules/encounter"
)

const gm = "gm"

// char makes a combatant from "som=5 empathy=3 hp=7 npc hidden": hp sets
// the resource and its maximum, npc and hidden the flags, anything else a
// stat.
func char(name, spec string) encounter.Combatant {
	c := encounter.Combatant{Name: name, Stats: map[string]int{}}
	for _, f := range strings.Fields(spec) {
		k, v, _ := strings.Cut(f, "=")
		n, err := strconv.Atoi(v)
		switch {
		case k == "npc":
			c.NPC = true
		case k == "hidden":
			c.Hidden = true
		case err != nil:
			panic("char " + name + ": " + f)
		case k == "hp":
			c.Resources, c.Max = map[string]int{ResourceHP: n}, map[string]int{ResourceHP: n}
		default:
			c.Stats[k] = n
		}
	}
	return c
}

// arcFight is an arc encounter under test: every operation must succeed,
// and every state must survive a snapshot.
type arcFight struct {
	t     *testing.T
	e     *encounter.Encounter
	p     encounter.Policy
	turns []string // whose turn each begin or next started
}

func newArcFight(t *testing.T, cs ...encounter.Combatant) *arcFight {
	t.Helper()
	f := &arcFight{t: t, e: encounter.New("arc"), p: NewPolicy(DefaultConfig())}
	for _, c := range cs {
		f.do(f.e.Add(f.p, nil, gm, c))
	}
	return f
}

func (f *arcFight) do(ev encounter.Event, err error) encounter.Event {
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
		f.t.Fatalf("%s: the snapshot does not restore the state", ev.Kind)
	}
	return ev
}

// begin begins the fight with the physical dice given, which must all be
// used.
func (f *arcFight) begin(faces ...int) encounter.Event {
	f.t.Helper()
	d := dice.NewPhysical(faces)
	ev := f.do(f.e.Begin(f.p, d, gm))
	if err := d.Done(); err != nil {
		f.t.Errorf("begin: %v", err)
	}
	f.turns = append(f.turns, f.e.Current().Name)
	return ev
}

func (f *arcFight) next() encounter.Event {
	f.t.Helper()
	ev := f.do(f.e.Next(f.p, gm))
	f.turns = append(f.turns, f.e.Current().Name)
	return ev
}

func (f *arcFight) add(c encounter.Combatant, faces ...int) encounter.Event {
	f.t.Helper()
	d := dice.NewPhysical(faces)
	ev := f.do(f.e.Add(f.p, d, gm, c))
	if err := d.Done(); err != nil && len(faces) > 0 {
		f.t.Errorf("add %s: %v", c.Name, err)
	}
	return ev
}

func (f *arcFight) c(name string) *encounter.Combatant {
	f.t.Helper()
	c, err := f.e.Find(name)
	if err != nil {
		f.t.Fatal(err)
	}
	return c
}

// at checks the round, whose turn it is and the order.
func (f *arcFight) at(round int, turn, order string) {
	f.t.Helper()
	cur := f.e.Current()
	name := "<nil>"
	if cur != nil {
		name = cur.Name
	}
	if f.e.Round != round || name != turn || orderOf(f.e) != order {
		f.t.Errorf("round %d, %s's turn, order %s; want round %d, %s's turn, order %s", f.e.Round, name, orderOf(f.e), round, turn, order)
	}
}

// budget checks what the current combatant may still do.
func (f *arcFight) budget(want string) {
	f.t.Helper()
	if got := f.p.Budget(f.e, f.e.Current()); got != want {
		f.t.Errorf("%s's budget %q, want %q", f.e.Current().Name, got, want)
	}
}

func orderOf(e *encounter.Encounter) string {
	var out []string
	for _, c := range e.Combatants {
		out = append(out, c.Name)
	}
	return strings.Join(out, ", ")
}

// rollsOf writes rolls as "Bram:7 Goblin 1:3".
func rollsOf(rs []encounter.Roll) string {
	var out []string
	for _, r := range rs {
		out = append(out, r.Name+":"+strconv.Itoa(r.Total))
	}
	return strings.Join(out, " ")
}

// skipping lists those whose next turn is passed over.
func skipping(e *encounter.Encounter) string {
	var out []string
	for _, c := range e.Combatants {
		if c.Skipping {
			out = append(out, c.Name)
		}
	}
	return strings.Join(out, ", ")
}

// line returns the line of ev (or its summary) that contains s.
func line(ev encounter.Event, s string) (encounter.Line, bool) {
	if strings.Contains(ev.Summary, s) {
		return encounter.Line{Text: ev.Summary, Secret: ev.Secret, Public: ev.Public}, true
	}
	for _, l := range ev.Lines {
		if strings.Contains(l.Text, s) {
			return l, true
		}
	}
	return encounter.Line{}, false
}

func wantLines(t *testing.T, what string, ev encounter.Event, want ...string) {
	t.Helper()
	for _, s := range want {
		if _, ok := line(ev, s); !ok {
			t.Errorf("%s: no line with %q in\n%s", what, s, ev.Text(true))
		}
	}
}

func TestPolicyName(t *testing.T) {
	p := NewPolicy(Config{})
	if p.Name() != "arc" {
		t.Errorf("name %q", p.Name())
	}
	got, err := encounter.NewPolicies(p).For("Arc")
	if err != nil || got.Name() != "arc" {
		t.Errorf("For(Arc): %v, %v", got, err)
	}
	if p.Resets() != encounter.ResetRound {
		t.Errorf("counters reset per turn of a character; an arc turn is a round")
	}
	if !reflect.DeepEqual(p.(Policy).cfg, DefaultConfig()) {
		t.Errorf("a zero Config is not the default one")
	}
}

func TestPolicyOrder(t *testing.T) {
	tests := []struct {
		rule   string
		roster []string // "A som=5 empathy=3", added in this order
		dice   []int
		order  string
		keys   map[string][]int
		rolls  string // who rolled what, in the order of the dice
		skip   string // those who sit out round 1, before it begins
	}{
		{"the declarations are in ascending order of State of Mind, from the character with the lowest score up to the highest one",
			[]string{"A som=7", "B som=2", "C som=5"}, nil, "B, C, A",
			map[string][]int{"A": {7, 0, 0}, "B": {2, 0, 0}, "C": {5, 0, 0}}, "", ""},
		{"In case of tie, the characters follow the ascending order of Empathy",
			[]string{"A som=5 empathy=6", "B som=5 empathy=3"}, nil, "B, A", map[string][]int{"B": {5, 3, 0}}, "", ""},
		{"then of Perception",
			[]string{"A som=5 empathy=3 perception=8", "B som=5 empathy=3 perception=4"}, nil, "B, A", map[string][]int{"B": {5, 3, 4}}, "", ""},
		{"Empathy and Perception as /arc order reads them (emp=, per=)",
			[]string{"A som=5 emp=3 per=8", "B som=5 empathy=3 per=4"}, nil, "B, A", map[string][]int{"A": {5, 3, 8}}, "", ""},
		{"then the result of a 1d10 roll (ascending; the dice in the order the characters were added)",
			[]string{"A som=5", "B som=5", "C som=1"}, []int{9, 2}, "C, B, A",
			map[string][]int{"A": {5, 0, 0, 9}, "B": {5, 0, 0, 2}, "C": {1, 0, 0}}, "A:9 B:2", ""},
		{"the d10s tie too: only those still tied roll again, right after",
			[]string{"A som=5", "B som=5", "C som=5"}, []int{6, 6, 3, 8, 1}, "C, B, A",
			map[string][]int{"A": {5, 0, 0, 6, 8}, "B": {5, 0, 0, 6, 1}, "C": {5, 0, 0, 3}}, "A:6 B:6 C:3 A:8 B:1", ""},
		{"two ties: the one that declares first rolls first",
			[]string{"A som=7", "B som=7", "C som=2", "D som=2"}, []int{4, 1, 5, 6}, "D, C, A, B", nil, "C:4 D:1 A:5 B:6", ""},
		{"a tie the d10s never break keeps the order the characters were added in",
			[]string{"A som=5", "B som=5"}, []int{3, 3, 3, 3, 3, 3, 3, 3, 3, 3}, "A, B",
			map[string][]int{"A": {5, 0, 0, 3, 3, 3, 3, 3}}, "A:3 B:3 A:3 B:3 A:3 B:3 A:3 B:3 A:3 B:3", ""},
		{"Any character involved in the actions of a turn who is unaware of what is happening (i.e. surprised or unconscious) will not be part of the declarations for that turn, he will act only in the next turn",
			// The first turn's declarations need no die (C, A); B is then
			// inserted, tied with A: A rolls, then B.
			[]string{"A som=5", "B som=5 surprised=1", "C som=2"}, []int{7, 3}, "C, B, A",
			map[string][]int{"A": {5, 0, 0, 7}, "B": {5, 0, 0, 3}}, "A:7 B:3", "B"},
		{"the surprised are placed after the first turn's ties are settled",
			[]string{"A som=5 surprised=1", "B som=5", "C som=5"}, []int{4, 9, 6}, "B, A, C",
			map[string][]int{"A": {5, 0, 0, 6}, "B": {5, 0, 0, 4}, "C": {5, 0, 0, 9}}, "B:4 C:9 A:6", "A"},
		{"When the character wears a weight heavier than this limit, he cannot act, move or perform any action",
			// Build 2: LOADT 6 kg, light up to 6 kg, Overloaded up to 12.
			[]string{"A som=3 build=2 load=20", "B som=4 build=2 load=12", "C som=5 build=2 load=14 size=1"}, nil, "A, B, C", nil, "", "A"},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			var cs []encounter.Combatant
			for _, s := range tt.roster {
				name, spec, _ := strings.Cut(s, " ")
				cs = append(cs, char(name, spec))
			}
			f := newArcFight(t, cs...)
			d := dice.NewPhysical(tt.dice)
			before := f.e.Clone()
			rolls, err := f.p.Order(before, d)
			if err != nil {
				t.Fatal(err)
			}
			if err := d.Done(); err != nil && len(tt.dice) > 0 {
				t.Errorf("dice: %v", err)
			}
			if got := orderOf(before); got != tt.order {
				t.Errorf("order %s, want %s", got, tt.order)
			}
			if got := rollsOf(rolls); got != tt.rolls {
				t.Errorf("rolls %q, want %q", got, tt.rolls)
			}
			for _, r := range rolls {
				if r.For != "tie-break" || r.Expr != "1d10" || len(r.Faces) != 1 {
					t.Errorf("roll %+v", r)
				}
			}
			n := 0
			for _, c := range before.Combatants {
				n += len(c.InitiativeRolls)
				if want, ok := tt.keys[c.Name]; ok && !slices.Equal(c.Initiative, want) {
					t.Errorf("%s: initiative %v, want %v", c.Name, c.Initiative, want)
				}
			}
			if n != len(rolls) {
				t.Errorf("%d initiative rolls kept, %d rolled", n, len(rolls))
			}
			if got := skipping(before); got != tt.skip {
				t.Errorf("skipping %q, want %q", got, tt.skip)
			}
		})
	}
}

func TestPolicyOrderErrors(t *testing.T) {
	tests := []struct {
		name   string
		roster []encounter.Combatant
		dice   []int
		msg    string // nil for a roller's error
	}{
		{"no som", []encounter.Combatant{char("A", "empathy=3")}, nil, "A has no som"},
		{"som 0", []encounter.Combatant{char("A", "som=0")}, nil, "som must be 1 (Panicked) to 10 (Exalted), not 0"},
		{"es outside the table", []encounter.Combatant{char("A", "som=4 es=11")}, nil, "ES score must be 1-10, not 11"},
		{"load without build", []encounter.Combatant{char("A", "som=4 load=10")}, nil, "a load needs a build"},
		{"negative actions", []encounter.Combatant{char("A", "som=4 actions=-1")}, nil, "actions must be 0"},
		{"a d10 cannot show 11", []encounter.Combatant{char("A", "som=4"), char("B", "som=4")}, []int{11}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newArcFight(t, tt.roster...)
			before := f.e.Clone()
			_, err := f.e.Begin(f.p, dice.NewPhysical(tt.dice), gm)
			var ue *encounter.Error
			switch {
			case err == nil:
				t.Fatal("no error")
			case tt.msg == "":
				var de *dice.Error
				if !errors.As(err, &de) || errors.As(err, &ue) {
					t.Errorf("%v: want a *dice.Error, not the user's mistake", err)
				}
			case !errors.As(err, &ue) || !errors.Is(err, encounter.ErrInvalid) || !strings.Contains(err.Error(), tt.msg):
				t.Errorf("%v: want an invalid request saying %q", err, tt.msg)
			}
			if !reflect.DeepEqual(f.e, before) {
				t.Errorf("a failed begin changed the encounter")
			}
		})
	}
}

func TestPolicyInsert(t *testing.T) {
	// A, then B and C tied on every score (d10s 4 and 7), then D; B's turn.
	setup := func(t *testing.T) *arcFight {
		f := newArcFight(t, char("A", "som=2"), char("B", "som=5 empathy=3"), char("C", "som=5 empathy=3"), char("D", "som=8"))
		f.begin(4, 7)
		f.do(f.e.Next(f.p, gm))
		f.at(1, "B", "A, B, C, D")
		return f
	}
	tests := []struct {
		rule  string
		spec  string
		dice  []int
		order string
		rolls string
		keys  map[string][]int
		skip  string
	}{
		{"New characters jumping into the action are inserted in the previously established order",
			"som=6", nil, "A, B, C, N, D", "", map[string][]int{"N": {6, 0, 0}}, ""},
		{"a newcomer tied with those who rolled d10s rolls one; they keep theirs",
			"som=5 empathy=3", []int{5}, "A, B, N, C, D", "N:5",
			map[string][]int{"N": {5, 3, 0, 5}, "B": {5, 3, 0, 4}, "C": {5, 3, 0, 7}}, ""},
		{"tied on the d10 too: the one tied rolls its next d10 first",
			"som=5 empathy=3", []int{7, 2, 6}, "A, B, C, N, D", "N:7 C:2 N:6",
			map[string][]int{"N": {5, 3, 0, 7, 6}, "C": {5, 3, 0, 7, 2}}, ""},
		{"tied with one who never needed a d10: both roll, the one in the fight first",
			"som=8", []int{3, 9}, "A, B, C, D, N", "D:3 N:9", map[string][]int{"D": {8, 0, 0, 3}, "N": {8, 0, 0, 9}}, ""},
		{"a place already past this round: the newcomer acts from the next",
			"som=1", nil, "N, A, B, C, D", "", nil, ""},
		{"a surprised newcomer sits out the turn it joins: he will act only in the next turn",
			"som=6 surprised=1", nil, "A, B, C, N, D", "", nil, "N"},
		{"a surprised newcomer whose place is past acts from the next turn anyway",
			"som=1 surprised=1", nil, "N, A, B, C, D", "", nil, ""},
		{"one beyond the Overloaded limit cannot act",
			"som=9 build=1 load=5", nil, "A, B, C, D, N", "", nil, "N"},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			f := setup(t)
			ev := f.add(char("N", tt.spec), tt.dice...)
			f.at(1, "B", tt.order)
			if got := rollsOf(ev.Rolls); got != tt.rolls {
				t.Errorf("rolls %q, want %q", got, tt.rolls)
			}
			for name, want := range tt.keys {
				if got := f.c(name).Initiative; !slices.Equal(got, want) {
					t.Errorf("%s: initiative %v, want %v", name, got, want)
				}
			}
			if got := skipping(f.e); got != tt.skip {
				t.Errorf("skipping %q, want %q", got, tt.skip)
			}
		})
	}
	t.Run("a newcomer with no som", func(t *testing.T) {
		f := setup(t)
		before := f.e.Clone()
		_, err := f.e.Add(f.p, nil, gm, char("N", "empathy=2"))
		if !errors.Is(err, encounter.ErrInvalid) || !reflect.DeepEqual(f.e, before) {
			t.Errorf("%v", err)
		}
	})
}

func TestPolicyBudget(t *testing.T) {
	fewer := DefaultConfig()
	fewer.ActionsByES = []int{2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 4, 4}
	tests := []struct {
		rule     string
		cfg      Config
		spec     string
		counters map[string]int
		want     string
	}{
		{"the score of an ES defines the number of actions a character can perform in a turn (ES 1)", DefaultConfig(), "es=1", nil, "1 action"},
		{"his ES score is high enough for 2 actions in the same turn (ES 5)", DefaultConfig(), "es=5", nil, "2 actions"},
		{"ES 8", DefaultConfig(), "es=8", nil, "3 actions"},
		{"a campaign's actions_by_es", fewer, "es=12", nil, "4 actions"},
		{"Without any specific indication in the ES description: the actions stat is that indication", DefaultConfig(), "es=1 actions=4", nil, "4 actions"},
		{"actions used this turn", DefaultConfig(), "es=5", map[string]int{CounterActions: 1}, "1 of 2 actions left"},
		{"more used than allowed", DefaultConfig(), "es=1", map[string]int{CounterActions: 2}, "0 of 1 action left"},
		{"A failure results in a loss of the turn for the character", DefaultConfig(), "es=5", map[string]int{CounterLosesTurn: 1}, "no actions: the turn is lost to a failed reaction check"},
		{"he cannot act, move or perform any action", DefaultConfig(), "es=5 build=6 load=80", nil, "no actions: over the Overloaded limit"},
		{"Overloaded but within the limit still acts", DefaultConfig(), "es=5 build=6 load=60", nil, "2 actions"},
		{"no es: no count", DefaultConfig(), "", nil, ""},
	}
	for _, tt := range tests {
		c := char("A", "som=5 "+tt.spec)
		c.Counters = tt.counters
		if got := NewPolicy(tt.cfg).Budget(encounter.New("arc"), &c); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.rule, got, tt.want)
		}
	}
}

func TestPolicyDamage(t *testing.T) {
	tests := []struct {
		rule     string
		begun    bool
		hp       string // "7" or "0 defeated" or "0 falling"
		op       func(f *arcFight) (encounter.Event, error)
		summary  string
		after    string
		defeated bool
	}{
		{"the track: damage lowers hp", true, "7",
			func(f *arcFight) (encounter.Event, error) { return f.e.Damage(f.p, gm, "G", 3, "fire") },
			"G took 3 fire damage (hp 7 -> 4)", "4", false},
		{"before the fight, 0 is out at once", false, "7",
			func(f *arcFight) (encounter.Event, error) { return f.e.Damage(f.p, gm, "G", 9, "") },
			"G took 9 damage (hp 7 -> 0): defeated", "0", true},
		{"Effects, consequences or results that occur within a turn are considered simultaneous and take place conventionally at the end of the turn",
			true, "7",
			func(f *arcFight) (encounter.Event, error) { return f.e.Damage(f.p, gm, "G", 7, "") },
			"G took 7 damage (hp 7 -> 0): falls when the round ends (V.1: effects within a turn take place at its end)", "0", false},
		{"healed before the round ends, it does not fall", true, "0 falling",
			func(f *arcFight) (encounter.Event, error) { return f.e.Heal(f.p, gm, "G", 2) },
			"G healed 2 (hp 0 -> 2): no longer falls when the round ends", "2", false},
		{"healed once fallen, it is back", true, "0 defeated",
			func(f *arcFight) (encounter.Event, error) { return f.e.Heal(f.p, gm, "G", 20) },
			"G healed 20 (hp 0 -> 7): back in the fight", "7", false},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			f := newArcFight(t, char("A", "som=1"), char("G", "som=5 hp=7 npc"))
			if tt.begun {
				f.begin()
			}
			g := f.c("G")
			switch tt.hp {
			case "0 falling":
				g.Resources[ResourceHP], g.Counters = 0, map[string]int{CounterFalling: 1}
			case "0 defeated":
				g.Resources[ResourceHP], g.Defeated = 0, true
			}
			ev := f.do(tt.op(f))
			if ev.Summary != tt.summary {
				t.Errorf("summary %q, want %q", ev.Summary, tt.summary)
			}
			g = f.c("G")
			if got := strconv.Itoa(g.Resources[ResourceHP]); got != tt.after || g.Defeated != tt.defeated {
				t.Errorf("hp %s, defeated %v; want %s, %v", got, g.Defeated, tt.after, tt.defeated)
			}
			if falling := g.Counters[CounterFalling] > 0; falling != (tt.after == "0" && !tt.defeated) {
				t.Errorf("falling %v", falling)
			}
		})
	}
	f := newArcFight(t, char("A", "som=1"))
	if _, err := f.e.Damage(f.p, gm, "A", 1, ""); !errors.Is(err, encounter.ErrInvalid) {
		t.Errorf("damage to one with no hp: %v", err)
	}
}

func TestPolicyEndOfRound(t *testing.T) {
	tests := []struct {
		rule     string
		roster   []encounter.Combatant
		during   func(f *arcFight) // on the first turn of round 1
		lines    []string          // in the events up to round 2
		secret   string            // a line that must be secret
		order    string            // in round 2
		turns    string            // the turns taken in round 1, then the first of round 2
		defeated string
	}{
		{"Effects, consequences or results that occur within a turn are considered simultaneous and take place conventionally at the end of the turn",
			[]encounter.Combatant{char("P", "som=1 hp=5"), char("G", "som=5 hp=5 npc"), char("H", "som=6 hp=5 npc")},
			func(f *arcFight) { f.do(f.e.Damage(f.p, gm, "G", 5, "")) },
			[]string{"G is at hp 0 and falls when the round ends; until then G still acts", "G falls (hp 0)", "The first of the GM's side has fallen: the GM may call for reaction checks"},
			"", "P, G, H", "P G H P", "G"},
		{"when more than half of the allies die",
			[]encounter.Combatant{char("P", "som=1 hp=5"), char("Q", "som=2 hp=5"), char("R", "som=3 hp=5"), char("G", "som=5 hp=5 npc")},
			func(f *arcFight) {
				f.c("P").Defeated = true
				f.do(f.e.Damage(f.p, gm, "Q", 5, ""))
			},
			[]string{"Q falls (hp 0)", "More than half of the players' side is down"},
			"", "P, Q, R, G", "P Q R G R", "P Q"},
		{"a hidden one falls: the GM alone reads it",
			[]encounter.Combatant{char("P", "som=1 hp=5"), char("S", "som=5 hp=5 npc hidden")},
			func(f *arcFight) { f.do(f.e.Damage(f.p, gm, "S", 5, "")) },
			[]string{"S falls"}, "The first of the GM's side has fallen", "P, S", "P S P", "S"},
		{"A failure results in a loss of the turn for the character: he will only act from the following turn onwards",
			[]encounter.Combatant{char("P", "som=1"), char("Q", "som=4"), char("R", "som=6")},
			func(f *arcFight) { f.do(f.e.Count(gm, "Q", CounterLosesTurn, 1)) },
			[]string{"Q failed a reaction check and loses this turn: it acts only from the next round onwards (V.5).", "Q's turn is skipped."},
			"", "P, Q, R", "P R P", ""},
		{"a failed check after one's turn costs nothing more: the next turn it acts",
			[]encounter.Combatant{char("P", "som=1"), char("Q", "som=4")},
			func(f *arcFight) {
				f.next()
				f.do(f.e.Count(gm, "P", CounterLosesTurn, 1))
			},
			nil, "", "P, Q", "P Q P", ""},
		{"he cannot act, move or perform any action, every turn",
			[]encounter.Combatant{char("M", "som=1 build=1 load=4"), char("P", "som=4")},
			nil,
			[]string{"M bears more than the Overloaded limit and cannot act, move or perform any action (V.4): its next turn is passed over.", "M's turn is skipped."},
			"", "M, P", "P P", ""},
		{"maintained and updated (in case of changes in SOM)",
			[]encounter.Combatant{char("P", "som=1"), char("Q", "som=4"), char("S", "som=6 hidden")},
			func(f *arcFight) { f.c("P").Stats[StatSOM] = 9 },
			[]string{`The order is updated for the changed scores (V.6: "maintained and updated (in case of changes in SOM)"): Q, S (hidden), P.`},
			"The order is updated", "Q, S, P", "P Q S Q", ""},
		{"a change that needs a d10 between turns keeps the order",
			[]encounter.Combatant{char("P", "som=1"), char("Q", "som=4")},
			func(f *arcFight) { f.c("P").Stats[StatSOM] = 4 },
			[]string{"the order is kept; place the tied characters with /init move"},
			"", "P, Q", "P Q P", ""},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			f := newArcFight(t, tt.roster...)
			evs := []encounter.Event{f.begin()}
			if tt.during != nil {
				tt.during(f)
			}
			for f.e.Round == 1 {
				evs = append(evs, f.next())
			}
			all := encounter.Event{}
			for _, ev := range evs {
				all.Lines = append(all.Lines, encounter.Line{Text: ev.Summary, Secret: ev.Secret, Public: ev.Public})
				all.Lines = append(all.Lines, ev.Lines...)
			}
			wantLines(t, "round 1", all, tt.lines...)
			if tt.secret != "" {
				if l, ok := line(all, tt.secret); !ok || !l.Secret || strings.Contains(l.Public, "(hidden)") {
					t.Errorf("line %q is not secret: %+v", tt.secret, l)
				}
			}
			if got := orderOf(f.e); got != tt.order {
				t.Errorf("order %s, want %s", got, tt.order)
			}
			if got := strings.Join(f.turns, " "); got != tt.turns {
				t.Errorf("turns %s, want %s", got, tt.turns)
			}
			var down []string
			for _, c := range f.e.Combatants {
				if c.Defeated {
					down = append(down, c.Name)
				}
				if c.Counters[CounterFalling] != 0 || c.Counters[CounterLosesTurn] != 0 {
					t.Errorf("%s: counters %v in round 2", c.Name, c.Counters)
				}
			}
			if got := strings.Join(down, " "); got != tt.defeated {
				t.Errorf("defeated %q, want %q", got, tt.defeated)
			}
		})
	}
}

// TestPolicyThreeRounds runs a fight of three arc turns (rounds) through
// the encounter API with the dice a table would roll, checking the order,
// the budgets and what comes back each round.
func TestPolicyThreeRounds(t *testing.T) {
	aria := char("Aria", "som=6 empathy=4 perception=5 es=5 hp=12")
	aria.Owner = "u1"
	bram := char("Bram", "som=4 empathy=3 perception=3 es=8 hp=10")
	bram.Owner = "u2"
	picker := char("Picker", "som=6 empathy=4 perception=5 es=5 surprised=1 hp=9")
	picker.Owner = "u3"
	f := newArcFight(t, aria, bram,
		char("Goblin 1", "som=4 empathy=3 perception=3 es=2 hp=6 npc"),
		char("Goblin 2", "som=4 empathy=3 perception=3 es=2 hp=6 npc"),
		picker,
		// Build 2: LOADT 6 kg; 20 kg is beyond the Overloaded limit (12).
		char("Mule", "som=2 build=2 load=20 hp=8 npc"),
		char("Shade", "som=9 es=1 hp=5 npc hidden"),
	)
	e := f.e

	// Round 1. The first turn's declarations leave the surprised Picker
	// out: Mule (SOM 2); Bram and the goblins tie on SOM 4, Empathy 3,
	// Perception 3: d10s 7, 3, 7 (in the order added), then Bram and Goblin
	// 2 again: 2, 9; Aria (6); Shade (9). Picker then joins the order, tied
	// with Aria on every score: Aria 8, Picker 4.
	ev := f.begin(7, 3, 7, 2, 9, 8, 4)
	order := "Mule, Goblin 1, Bram, Goblin 2, Picker, Aria, Shade"
	f.at(1, "Goblin 1", order)
	if got, want := rollsOf(ev.Rolls), "Bram:7 Goblin 1:3 Goblin 2:7 Bram:2 Goblin 2:9 Aria:8 Picker:4"; got != want {
		t.Errorf("begin rolls %s, want %s", got, want)
	}
	wantLines(t, "begin", ev, "Order: Mule, Goblin 1, Bram, Goblin 2, Picker, Aria, Shade (hidden).", "Mule's turn is skipped.", "Goblin 1: 1 action.")
	if !f.c("Picker").Skipping {
		t.Errorf("the surprised Picker does not sit out round 1")
	}
	for name, want := range map[string][]int{"Mule": {2, 0, 0}, "Goblin 1": {4, 3, 3, 3}, "Bram": {4, 3, 3, 7, 2}, "Goblin 2": {4, 3, 3, 7, 9}, "Picker": {6, 4, 5, 4}, "Aria": {6, 4, 5, 8}, "Shade": {9, 0, 0}} {
		if got := f.c(name).Initiative; !slices.Equal(got, want) {
			t.Errorf("%s: initiative %v, want %v", name, got, want)
		}
	}
	f.do(e.Count(gm, "Goblin 1", CounterActions, 1))
	f.budget("0 of 1 action left")

	ev = f.do(e.Next(f.p, gm))
	f.at(1, "Bram", order)
	wantLines(t, "Bram's turn", ev, "Bram: 3 actions.")
	f.do(e.Count("u2", "Bram", CounterActions, 2))
	f.budget("1 of 3 actions left")
	// Bram cuts Goblin 2 down; it still acts this turn.
	ev = f.do(e.Damage(f.p, "u2", "Goblin 2", 8, ""))
	if !strings.HasSuffix(ev.Summary, "(hp 6 -> 0): falls when the round ends (V.1: effects within a turn take place at its end)") || f.c("Goblin 2").Defeated {
		t.Errorf("damage: %s", ev.Summary)
	}

	ev = f.do(e.Next(f.p, "u2"))
	f.at(1, "Goblin 2", order)
	wantLines(t, "Goblin 2's turn", ev, "Goblin 2 is at hp 0 and falls when the round ends", "Goblin 2: 1 action.")
	// Aria fails a reaction check (/arc reaction: loses_turn).
	f.do(e.Count(gm, "Aria", CounterLosesTurn, 1))

	ev = f.do(e.Next(f.p, gm))
	f.at(1, "Shade", order)
	wantLines(t, "to Shade", ev, "Aria failed a reaction check and loses this turn", "Picker's turn is skipped.", "Aria's turn is skipped.", "Shade: 1 action.")
	if l, _ := line(ev, "Shade: 1 action."); !l.Secret {
		t.Errorf("the hidden Shade's budget is not secret")
	}
	if strings.Contains(ev.Text(false), "Shade") {
		t.Errorf("the players read about Shade:\n%s", ev.Text(false))
	}

	// Round 2: Goblin 2 falls at the end of round 1; the counters are back
	// to 0; Picker and Aria act.
	ev = f.do(e.Next(f.p, gm))
	f.at(2, "Goblin 1", order)
	wantLines(t, "round 2", ev, "Goblin 2 falls (hp 0)", "The first of the GM's side has fallen", "Mule bears more than the Overloaded limit", "Mule's turn is skipped.", "Goblin 1: 1 action.")
	if ev.Summary != "Round 2 begins: Goblin 1's turn." || !f.c("Goblin 2").Defeated {
		t.Errorf("round 2: %s", ev.Text(true))
	}
	f.budget("1 action")
	for _, name := range []string{"Goblin 1", "Bram", "Aria"} {
		if c := f.c(name); c.Counters[CounterActions] != 0 || c.Counters[CounterLosesTurn] != 0 {
			t.Errorf("%s's counters in round 2: %v", name, c.Counters)
		}
	}
	// Goblin 1 knocks Bram prone until the end of Bram's turn.
	f.do(e.AddCondition(gm, "Bram", encounter.Condition{Name: "prone", Rounds: 1}, "Goblin 1"))

	ev = f.do(e.Next(f.p, gm))
	f.at(2, "Bram", order)
	f.budget("3 actions")
	f.do(e.Damage(f.p, "u2", "Goblin 1", 4, ""))

	ev = f.do(e.Next(f.p, "u2"))
	f.at(2, "Picker", order)
	wantLines(t, "Picker's turn", ev, "prone on Bram ended: at the end of Bram's turn.", "Picker: 2 actions.")

	ev = f.do(e.Next(f.p, "u3"))
	f.at(2, "Aria", order)
	f.budget("2 actions")
	f.do(e.Count("u1", "Aria", CounterActions, 2))
	f.budget("0 of 2 actions left")

	f.do(e.Next(f.p, "u1"))
	f.at(2, "Shade", order)
	// The Shade strikes Aria down, and Bram's potion (healing) lands in
	// the same turn: she does not fall.
	f.do(e.Damage(f.p, gm, "Aria", 12, ""))
	ev = f.do(e.Heal(f.p, "u2", "Aria", 3))
	if ev.Summary != "Aria healed 3 (hp 0 -> 3): no longer falls when the round ends" {
		t.Errorf("heal: %s", ev.Summary)
	}

	// Round 3: a third goblin joins, tied with Bram and Goblin 2 on its
	// d10 (7), then between them on the next (5): its place is still to
	// come this round.
	ev = f.do(e.Next(f.p, gm))
	f.at(3, "Goblin 1", order)
	if f.c("Aria").Defeated {
		t.Errorf("Aria fell")
	}
	ev = f.add(char("Goblin 3", "som=4 empathy=3 perception=3 es=2 hp=6 npc"), 7, 5)
	order = "Mule, Goblin 1, Bram, Goblin 3, Goblin 2, Picker, Aria, Shade"
	f.at(3, "Goblin 1", order)
	if ev.Summary != "Goblin 3 joins the fight after Bram." || rollsOf(ev.Rolls) != "Goblin 3:7 Goblin 3:5" {
		t.Errorf("join: %s", ev.Text(true))
	}
	for _, want := range []struct {
		turn, budget string
	}{{"Bram", "3 actions"}, {"Goblin 3", "1 action"}, {"Picker", "2 actions"}, {"Aria", "2 actions"}, {"Shade", "1 action"}} {
		f.do(e.Next(f.p, gm))
		f.at(3, want.turn, order)
		f.budget(want.budget)
	}
	ev = f.do(e.End(f.p, gm))
	if got, want := ev.Text(false), "The fight is over after 3 rounds.\nStill standing: Mule, Goblin 1, Bram, Goblin 3, Picker, Aria.\nDefeated: Goblin 2."; got != want {
		t.Errorf("end:\n%s\nwant\n%s", got, want)
	}
}

// TestPolicyImports holds rules/arc to the standard library, rules/dice
// and rules/encounter.
func TestPolicyImports(t *testing.T) {
	allowed := map[string]bool{
		"github.com/tablehand/tablehand/rules/dice":      true,
		"github.com/tablehand/tablehand/rules/encounter": true,
	}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if first, _, _ := strings.Cut(path, "/"); strings.Contains(first, ".") && !allowed[path] {
				t.Errorf("%s imports %s: rules/arc uses the standard library, rules/dice and rules/encounter only", name, path)
			}
		}
	}
}
