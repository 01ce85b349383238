package ulm

import (
	"encoding/json"
	"errors"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/tablehand/tablehand/rules/dice"
	"github.com/tablehand/tablehand/rules/encounter"
)

var _ encounter.Policy = Policy{}

func stats(kv ...any) map[string]int {
	m := map[string]int{}
	for i := 0; i < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1].(int)
	}
	return m
}

// begun adds cs in order and begins the fight with no dice.
func begun(t *testing.T, p Policy, cs ...encounter.Combatant) (*encounter.Encounter, encounter.Event) {
	t.Helper()
	e := encounter.New(SystemName)
	for _, c := range cs {
		if _, err := e.Add(p, nil, "gm", c); err != nil {
			t.Fatalf("add %s: %v", c.Name, err)
		}
	}
	ev, err := e.Begin(p, dice.NewPhysical(nil), "gm")
	if err != nil {
		t.Fatalf("begin: %v", err)
	}
	return e, ev
}

func find(t *testing.T, e *encounter.Encounter, name string) *encounter.Combatant {
	t.Helper()
	c, err := e.Find(name)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func order(e *encounter.Encounter) []string {
	var out []string
	for _, c := range e.Combatants {
		out = append(out, c.Name)
	}
	return out
}

func lineTexts(ev encounter.Event) []string {
	var out []string
	for _, l := range ev.Lines {
		out = append(out, l.Text)
	}
	return out
}

func hasText(ev encounter.Event, s string) bool {
	return strings.Contains(ev.Summary, s) || slices.ContainsFunc(ev.Lines, func(l encounter.Line) bool { return strings.Contains(l.Text, s) })
}

func isInvalid(err error) bool {
	var ue *encounter.Error
	return errors.As(err, &ue) && errors.Is(err, encounter.ErrInvalid)
}

func TestNewPolicy(t *testing.T) {
	p := NewPolicy(Config{})
	if p.Name() != "ulm" || p.Resets() != encounter.ResetTurn {
		t.Errorf("name %q, resets %v", p.Name(), p.Resets())
	}
	if got := p.(Policy).cfg; got != DefaultConfig() {
		t.Errorf("the zero Config is not the defaults: %+v", got)
	}
	defer func() {
		if recover() == nil {
			t.Errorf("an invalid Config does not panic")
		}
	}()
	NewPolicy(Config{FullRoundSeconds: 0, ModifierMode: "x"})
}

// The text gives no roll and no rule for the order of the Active Phases
// (its Time chapter is not included): no dice, the "initiative" stat the
// table gives, highest first, and the order added for ties and the rest.
func TestOrder(t *testing.T) {
	p := newPolicy(DefaultConfig())
	tests := []struct {
		rule     string
		add      []encounter.Combatant
		want     []string
		skipping []string
		defeated []string
	}{
		{"no initiative: the order the combatants were added in",
			[]encounter.Combatant{{Name: "A"}, {Name: "B"}, {Name: "C"}},
			[]string{"A", "B", "C"}, nil, nil},
		{"initiative given by the table, highest first; those without it after",
			[]encounter.Combatant{{Name: "A"}, {Name: "B", Stats: stats("initiative", 3)}, {Name: "C", Stats: stats("initiative", 9)}},
			[]string{"C", "B", "A"}, nil, nil},
		{"a tie keeps the order added: nothing is rolled again",
			[]encounter.Combatant{{Name: "A", Stats: stats("initiative", 5)}, {Name: "B", Stats: stats("initiative", 7)}, {Name: "C", Stats: stats("initiative", 5)}},
			[]string{"B", "A", "C"}, nil, nil},
		{"negative initiative still ranks above none",
			[]encounter.Combatant{{Name: "A"}, {Name: "B", Stats: stats("initiative", -2)}},
			[]string{"B", "A"}, nil, nil},
		{"They remain Knocked Out for 3 Full Rounds: one Knocked Out sits out its Active Phase",
			[]encounter.Combatant{{Name: "A", Stats: stats("hp", 10, "knocked_out", 2)}, {Name: "B"}},
			[]string{"A", "B"}, []string{"A"}, nil},
		{"The Agony caused by this effect is disabling: the Maimed are out of the fight",
			[]encounter.Combatant{{Name: "A", Stats: stats("hp", 10, "maimed", 1, "shock", 60)}, {Name: "B"}},
			[]string{"A", "B"}, nil, []string{"A"}},
	}
	for _, tt := range tests {
		e := encounter.New(SystemName)
		for _, c := range tt.add {
			if _, err := e.Add(p, nil, "gm", c); err != nil {
				t.Fatal(err)
			}
		}
		r := dice.NewPhysical(nil)
		ev, err := e.Begin(p, r, "gm")
		if err != nil {
			t.Errorf("%s: %v", tt.rule, err)
			continue
		}
		if err := r.Done(); err != nil || ev.Rolls != nil {
			t.Errorf("%s: rolled dice: %v %v", tt.rule, ev.Rolls, err)
		}
		if got := order(e); !slices.Equal(got, tt.want) {
			t.Errorf("%s: order %v, want %v", tt.rule, got, tt.want)
		}
		var skipping, defeated []string
		for _, c := range e.Combatants {
			if c.Skipping {
				skipping = append(skipping, c.Name)
			}
			if c.Defeated {
				defeated = append(defeated, c.Name)
			}
		}
		// The one whose turn began first has had its Skipping consumed.
		for _, l := range ev.Lines {
			if name, ok := strings.CutSuffix(l.Text, "'s turn is skipped."); ok {
				skipping = append(skipping, name)
			}
		}
		if !slices.Equal(skipping, tt.skipping) || !slices.Equal(defeated, tt.defeated) {
			t.Errorf("%s: skipping %v defeated %v, want %v %v", tt.rule, skipping, defeated, tt.skipping, tt.defeated)
		}
	}

	// Physical dice given to Begin are not used: the caller's Done says so.
	e := encounter.New(SystemName)
	if _, err := e.Add(p, nil, "gm", encounter.Combatant{Name: "A"}); err != nil {
		t.Fatal(err)
	}
	r := dice.NewPhysical([]int{12})
	if _, err := e.Begin(p, r, "gm"); err != nil {
		t.Fatal(err)
	}
	if err := r.Done(); err == nil {
		t.Errorf("a die given to Begin was used")
	}
}

func TestOrderRefusesBadStats(t *testing.T) {
	p := newPolicy(DefaultConfig())
	for _, s := range []map[string]int{
		stats("alacrity", -1), stats("bonus", -1), stats("dilation", -2),
		stats("reserved", -1), stats("hp", 0), stats("hp", 10, "damage", -3),
		stats("hp", 10, "shock", -1), stats("hp", 10, "maimed", -1),
	} {
		e := encounter.New(SystemName)
		if _, err := e.Add(p, nil, "gm", encounter.Combatant{Name: "A", Stats: s}); err != nil {
			t.Fatal(err)
		}
		_, err := e.Begin(p, nil, "gm")
		if !isInvalid(err) {
			t.Errorf("%v: %v, want a user error", s, err)
		}
		if e.Begun {
			t.Errorf("%v: begun anyway", s)
		}
	}
}

func TestInsert(t *testing.T) {
	p := newPolicy(DefaultConfig())
	tests := []struct {
		rule string
		c    encounter.Combatant
		pos  int
	}{
		{"a newcomer without initiative goes last", encounter.Combatant{Name: "N"}, 3},
		{"one that beats everyone goes first", encounter.Combatant{Name: "N", Stats: stats("initiative", 20)}, 0},
		{"a tie goes after those it ties with", encounter.Combatant{Name: "N", Stats: stats("initiative", 8)}, 1},
		{"initiative beats those without it", encounter.Combatant{Name: "N", Stats: stats("initiative", 1)}, 2},
	}
	for _, tt := range tests {
		e, _ := begun(t, p,
			encounter.Combatant{Name: "A", Stats: stats("initiative", 8)},
			encounter.Combatant{Name: "B", Stats: stats("initiative", 4)},
			encounter.Combatant{Name: "C"})
		r := dice.NewPhysical(nil)
		ev, err := e.Add(p, r, "gm", tt.c)
		if err != nil {
			t.Fatal(err)
		}
		if got := slices.Index(order(e), "N"); got != tt.pos || ev.Rolls != nil || r.Done() != nil {
			t.Errorf("%s: position %d, want %d (rolls %v)", tt.rule, got, tt.pos, ev.Rolls)
		}
	}
	// A Knocked Out newcomer sits out; its state is kept from the start.
	e, _ := begun(t, p, encounter.Combatant{Name: "A"})
	if _, err := e.Add(p, nil, "gm", encounter.Combatant{Name: "K", Stats: stats("hp", 9, "knocked_out", 1)}); err != nil {
		t.Fatal(err)
	}
	if k := find(t, e, "K"); !k.Skipping || k.Resources[ResKnockedOutSeconds] != 10 || k.Resources[ResDamage] != 0 {
		t.Errorf("knocked out newcomer: %+v", k)
	}
	if _, err := e.Add(p, nil, "gm", encounter.Combatant{Name: "X", Stats: stats("alacrity", -1)}); !isInvalid(err) {
		t.Errorf("a newcomer with bad stats: %v", err)
	}
}

// Turn budgets: the Action Slots of an Active Phase.
func TestActionSlotsInTheFight(t *testing.T) {
	p := newPolicy(DefaultConfig())
	tests := []struct {
		rule  string
		stats map[string]int
		spent int
		want  string // the budget line
		why   string // the Active Phase line
	}{
		{"The base number of Action Slots a Character gains when their Active Phase begins is (5 +/- Agility).",
			stats("agility", 2), 0, "A: 7 Action Slots left.", "A's Active Phase: 7 Action Slots (5 + Agility 2)."},
		{"(5 +/- Agility): a negative Agility takes slots away",
			stats("agility", -2), 0, "A: 3 Action Slots left.", "A's Active Phase: 3 Action Slots (5 + Agility -2)."},
		{"(5 +/- Agility) below zero: min_action_slots (default 0) is the floor",
			stats("agility", -7), 0, "A: 0 Action Slots left.", "A's Active Phase: 0 Action Slots (5 + Agility -7, at least min_action_slots)."},
		{"A Character or Unit may only benefit from one source of Enhanced Alacrity: the stat is the strongest",
			stats("agility", 1, "alacrity", 3), 0, "A: 9 Action Slots left.", "A's Active Phase: 9 Action Slots (5 + Agility 1 + Enhanced Alacrity 3)."},
		{"a Character may only benefit from one source of Bonus Action Slots",
			stats("bonus", 2), 0, "A: 7 Action Slots left.", "A's Active Phase: 7 Action Slots (5 + Agility 0 + Bonus Action Slots 2)."},
		{"Time Dilation may be stacked indefinitely: the stat is their sum",
			stats("dilation", 3), 0, "A: 8 Action Slots left.", "A's Active Phase: 8 Action Slots (5 + Agility 0 + Time Dilation 3)."},
		{"Shock: The number of Action Slots you gain in each Active Phase is reduced to 1.",
			stats("hp", 10, "agility", 3, "shock", 60), 0, "A: 1 Action Slot left.", "A's Active Phase: 1 Action Slot: in Shock (8 without: 5 + Agility 3)."},
		{"slots spent are counted in the counter slots",
			stats("agility", 2), 2, "A: 5 Action Slots left.", ""},
		{"no Action Debt in the text: slots spent beyond those gained are shown",
			stats("agility", 2), 9, "A: 0 Action Slots left (2 spent beyond them).", ""},
	}
	for _, tt := range tests {
		e, ev := begun(t, p, encounter.Combatant{Name: "A", Stats: tt.stats}, encounter.Combatant{Name: "B"})
		if tt.why != "" && !slices.Contains(lineTexts(ev), tt.why) {
			t.Errorf("%s: no %q in %q", tt.rule, tt.why, lineTexts(ev))
		}
		if tt.spent > 0 {
			if _, err := e.Count("gm", "A", CountSlots, tt.spent); err != nil {
				t.Fatal(err)
			}
		} else if !slices.Contains(lineTexts(ev), tt.want) {
			t.Errorf("%s: no %q in %q", tt.rule, tt.want, lineTexts(ev))
		}
		if got := p.Budget(e, find(t, e, "A")) + "."; "A: "+got != tt.want {
			t.Errorf("%s: budget %q, want %q", tt.rule, got, tt.want)
		}
	}
}

// Reserved Slots for responses, and Momentum into the next Active Phase.
func TestEndOfActivePhase(t *testing.T) {
	tests := []struct {
		rule      string
		unspent   bool
		stats     map[string]int
		count     map[string]int // A's counters before its Active Phase ends
		reserved  string         // A's budget in B's turn
		momentum  int
		line      string
		spentResv int
	}{
		{"reserve_unspent_slots (default): the Action Slots not spent are the Reserved Slots",
			true, stats("agility", 2), map[string]int{CountSlots: 3}, "4 Reserved Slots left", 0, "A holds 4 Reserved Slots until its next Active Phase.", 0},
		{"the Activator must have the Reserved Slots needed to Activate it: spending them",
			true, stats("agility", 2), map[string]int{CountSlots: 3}, "3 Reserved Slots left", 0, "", 1},
		{"a reserved stat is the table's own count",
			true, stats("agility", 2, "reserved", 2), map[string]int{CountSlots: 7}, "2 Reserved Slots left", 0, "A holds 2 Reserved Slots until its next Active Phase.", 0},
		{"reserve_unspent_slots = false: none",
			false, stats("agility", 2), map[string]int{CountSlots: 3}, "0 Reserved Slots left", 0, "", 0},
		{"If we end our Active Phase by spending our last available Action Slot on either Jog, or Momentum, we begin our next Active Phase with Momentum.",
			true, stats("agility", 2), map[string]int{CountSlots: 7, CountMomentumNext: 1}, "0 Reserved Slots left", 1,
			"A spent its last Action Slot on Jog or Momentum: it begins its next Active Phase with Momentum.", 0},
		{"Jog or Momentum with slots still left is not the last available Action Slot",
			true, stats("agility", 2), map[string]int{CountSlots: 5, CountMomentumNext: 1}, "2 Reserved Slots left", 0,
			"A keeps no Momentum: 2 Action Slots left unspent, so the last one did not go on Jog or Momentum.", 0},
	}
	for _, tt := range tests {
		cfg := DefaultConfig()
		cfg.ReserveUnspent = tt.unspent
		p := newPolicy(cfg)
		e, _ := begun(t, p, encounter.Combatant{Name: "A", Stats: tt.stats}, encounter.Combatant{Name: "B"})
		for _, k := range slices.Sorted(maps.Keys(tt.count)) {
			if _, err := e.Count("gm", "A", k, tt.count[k]); err != nil {
				t.Fatal(err)
			}
		}
		ev, err := e.Next(p, "gm")
		if err != nil {
			t.Fatal(err)
		}
		if tt.spentResv > 0 {
			if _, err := e.Count("gm", "A", CountReserved, tt.spentResv); err != nil {
				t.Fatal(err)
			}
		}
		a := find(t, e, "A")
		if got := p.Budget(e, a); got != tt.reserved {
			t.Errorf("%s: budget %q, want %q", tt.rule, got, tt.reserved)
		}
		if a.Resources[ResMomentum] != tt.momentum {
			t.Errorf("%s: momentum %d, want %d", tt.rule, a.Resources[ResMomentum], tt.momentum)
		}
		if tt.line != "" && !slices.Contains(lineTexts(ev), tt.line) {
			t.Errorf("%s: no %q in %q", tt.rule, tt.line, lineTexts(ev))
		}
		// Back to A: the Reserve Phase ends, the slots are gained anew, and
		// Momentum carried shows.
		ev, err = e.Next(p, "gm")
		if err != nil {
			t.Fatal(err)
		}
		if a = find(t, e, "A"); a.Resources[ResReserved] != 0 || a.Counters[CountReserved] != 0 {
			t.Errorf("%s: reserved %d, spent %d in its Active Phase", tt.rule, a.Resources[ResReserved], a.Counters[CountReserved])
		}
		if want := "A: 7 Action Slots left, Momentum."; (tt.momentum == 1) != slices.Contains(lineTexts(ev), want) {
			t.Errorf("%s: Momentum %d but %q", tt.rule, tt.momentum, lineTexts(ev))
		}
	}
}

// End of round: one Full Round passes for everyone.
func TestEndRound(t *testing.T) {
	p := newPolicy(DefaultConfig())
	tests := []struct {
		rule      string
		res       map[string]int // kept state, besides damage 0
		defeated  bool
		want      map[string]int // resources after, besides reserved
		line      string
		skipping  bool
		defeatedA bool
	}{
		{"They remain Knocked Out for 3 Full Rounds: one Full Round passes, and it sits out its next Active Phase",
			map[string]int{ResKnockedOutSeconds: 30, ResShockSeconds: 3600}, false,
			map[string]int{ResKnockedOutSeconds: 20, ResShockSeconds: 3590}, "A is Knocked Out (2 Full Rounds left): its next Active Phase is skipped.", true, false},
		{"Knocked Out ends after the last of its Full Rounds",
			map[string]int{ResKnockedOutSeconds: 10, ResShockSeconds: 3580}, false,
			map[string]int{ResShockSeconds: 3570}, "A is no longer Knocked Out.", false, false},
		{"Shock is applied to them for 1 hour: it ends when the hour has passed",
			map[string]int{ResShockSeconds: 10}, false,
			map[string]int{}, "A's Shock ended.", false, false},
		{"Specialized healing or items may reverse the effect of a Maim only if performed within 10 Hours.",
			map[string]int{ResMaimed: 1, ResMaimSeconds: 5, ResShockSeconds: 600}, true,
			map[string]int{ResMaimed: 1, ResShockSeconds: 590}, "A's Maim can no longer be reversed: the 10 Hours have passed.", false, true},
		{"Receiving the proper healing and removing Shock will allow them to return to combat.",
			map[string]int{ResShockSeconds: 4}, true,
			map[string]int{}, "A returns to combat: its Maim was reversed and its Shock removed.", false, false},
		{"Divine Damage ... fades at the rate of 1 damage per day",
			map[string]int{ResDamage: 3, ResInjury + "holy": 3, ResFadingSeconds: 86_390}, false,
			map[string]int{ResDamage: 2, ResInjury + "holy": 2}, "A: 1 Holy and 0 Spite damage faded (damage 2).", false, false},
		{"fading is not healing: Vulnerable ends only when the damage no longer exceeds the Hit Points",
			map[string]int{ResDamage: 11, ResInjury + "spite": 11, ResFadingSeconds: 86_395, ResVulnerable: 1}, false,
			map[string]int{ResDamage: 10, ResInjury + "spite": 10, ResFadingSeconds: 5}, "A is no longer Vulnerable.", false, false},
		{"the dead are left alone",
			map[string]int{ResDead: 1, ResShockSeconds: 10}, true,
			map[string]int{ResDead: 1, ResShockSeconds: 10}, "", false, true},
	}
	for _, tt := range tests {
		res := map[string]int{ResDamage: 0}
		maps.Copy(res, tt.res)
		e, _ := begun(t, p, encounter.Combatant{Name: "B"}, encounter.Combatant{Name: "A", Stats: stats("hp", 10), Resources: res})
		a := find(t, e, "A")
		a.Defeated, a.Skipping = tt.defeated, false
		lines := p.EndRound(e)
		got := maps.Clone(a.Resources)
		for _, k := range []string{ResReserved, ResSlots} {
			delete(got, k)
		}
		want := map[string]int{ResDamage: 0}
		maps.Copy(want, tt.want)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %v\nwant %v", tt.rule, got, want)
		}
		var texts []string
		for _, l := range lines {
			texts = append(texts, l.Text)
		}
		if (tt.line == "") != (len(texts) == 0) || (tt.line != "" && !slices.Contains(texts, tt.line)) {
			t.Errorf("%s: lines %q, want %q", tt.rule, texts, tt.line)
		}
		if a.Skipping != tt.skipping || a.Defeated != tt.defeatedA {
			t.Errorf("%s: skipping %v defeated %v", tt.rule, a.Skipping, a.Defeated)
		}
	}
}

// A line about a hidden combatant at the end of a round is for the GM.
func TestEndRoundHidden(t *testing.T) {
	p := newPolicy(DefaultConfig())
	e, _ := begun(t, p, encounter.Combatant{Name: "A"},
		encounter.Combatant{Name: "Shade", Hidden: true, Stats: stats("hp", 5, "knocked_out", 1)})
	ev, err := e.Next(p, "gm")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range ev.Lines {
		if strings.Contains(l.Text, "Shade") && !l.Secret {
			t.Errorf("players read %q", l.Text)
		}
	}
	if !hasText(ev, "Shade is no longer Knocked Out.") || strings.Contains(ev.Text(false), "Shade") {
		t.Errorf("end of round with a hidden combatant:\n%s", ev.Text(true))
	}
}

// The damage track: Injury Cards, Vulnerable and the Epilogues.
func TestPolicyDamage(t *testing.T) {
	p := newPolicy(DefaultConfig())
	tests := []struct {
		rule     string
		c        encounter.Combatant
		amount   int
		kind     string
		summary  string
		want     map[string]int // resources after, besides reserved
		defeated bool
		skipping bool
	}{
		{"Each time a Character or Unit takes damage, an Injury card is made.",
			encounter.Combatant{Stats: stats("hp", 20)}, 7, "incision",
			"V took 7 incision damage, a Sharp-Force Trauma Injury Card (damage 0 -> 7, hp 20)",
			map[string]int{ResDamage: 7, "injury_incision": 7}, false, false},
		{"If the total Damage on Injury Cards exceeds Hit Points, the Character or Unit becomes Vulnerable: 15 (from the sheet) + 6 over 20",
			encounter.Combatant{Stats: stats("hp", 20, "damage", 15)}, 6, "Contusion",
			"V took 6 contusion damage, a Blunt-Force Trauma Injury Card (damage 15 -> 21, hp 20): Vulnerable",
			map[string]int{ResDamage: 21, ResUntyped: 15, "injury_contusion": 6, ResVulnerable: 1}, false, false},
		{"exceeds: 15 + 5 = 20 equals the Hit Points",
			encounter.Combatant{Stats: stats("hp", 20), Resources: stats("damage", 15)}, 5, "shock",
			"V took 5 shock damage, a Shock Trauma Injury Card (damage 15 -> 20, hp 20)",
			map[string]int{ResDamage: 20, ResUntyped: 15, "injury_shock": 5}, false, false},
		{"Hit Points given as a resource are read the same; no damage left, no card",
			encounter.Combatant{Resources: stats("hp", 20)}, 0, "fire",
			"V took 0 fire damage: no Injury Card (damage 0 -> 0, hp 20)",
			map[string]int{"hp": 20, ResDamage: 0}, false, false},
		{"Some Actions have Execution, which causes the Vulnerable Stage to be skipped, and Epilogue being applied during the Actions Resolution.",
			encounter.Combatant{Stats: stats("hp", 10)}, 12, "puncture execute",
			"V took 12 puncture damage, a Penetration Trauma Injury Card (damage 0 -> 12, hp 10): Vulnerable; Execution: Execute: dies",
			map[string]int{ResDamage: 12, "injury_puncture": 12, ResVulnerable: 1, ResDead: 1}, true, false},
		{"Execution applies nothing to a Victim that is not Vulnerable",
			encounter.Combatant{Stats: stats("hp", 10)}, 4, "puncture knockout",
			"V took 4 puncture damage, a Penetration Trauma Injury Card (damage 0 -> 4, hp 10)",
			map[string]int{ResDamage: 4, "injury_puncture": 4}, false, false},
		{"Knockout: They remain Knocked Out for 3 Full Rounds. Shock is applied to them for 1 hour.",
			encounter.Combatant{Stats: stats("hp", 10, "damage", 11)}, 0, "knockout",
			"V suffers Knockout (an Epilogue: its activator spends 1 Action Slot or Reserved Slot): Knocked Out for 3 Full Rounds, its Active Phases skipped; in Shock for 1 hour",
			map[string]int{ResDamage: 11, ResUntyped: 11, ResVulnerable: 1, ResKnockedOutSeconds: 30, ResShockSeconds: 3600}, false, true},
		{"Maim: They will remain in shock for 1 hour; The Agony caused by this effect is disabling.",
			encounter.Combatant{Stats: stats("hp", 10, "damage", 11)}, 0, "maim",
			"V suffers Maim (an Epilogue: its activator spends 1 Action Slot or Reserved Slot): Maimed, disabled: out of the fight; in Shock for 1 hour",
			map[string]int{ResDamage: 11, ResUntyped: 11, ResVulnerable: 1, ResMaimed: 1, ResMaimSeconds: 36_000, ResShockSeconds: 3600}, true, false},
		{"Execute: The Victim Dies",
			encounter.Combatant{Stats: stats("hp", 10, "damage", 11)}, 0, "execute",
			"V suffers Execute (an Epilogue: its activator spends 1 Action Slot or Reserved Slot): dies",
			map[string]int{ResDamage: 11, ResUntyped: 11, ResVulnerable: 1, ResDead: 1}, true, false},
	}
	for _, tt := range tests {
		c := tt.c
		c.Name = "V"
		e, _ := begun(t, p, encounter.Combatant{Name: "A"}, c)
		ev, err := e.Damage(p, "gm", "V", tt.amount, tt.kind)
		if err != nil {
			t.Errorf("%s: %v", tt.rule, err)
			continue
		}
		v := find(t, e, "V")
		got := maps.Clone(v.Resources)
		delete(got, ResReserved)
		if ev.Summary != tt.summary || !reflect.DeepEqual(got, tt.want) || v.Defeated != tt.defeated || v.Skipping != tt.skipping {
			t.Errorf("%s:\n got %q %v defeated %v skipping %v\nwant %q %v defeated %v skipping %v",
				tt.rule, ev.Summary, got, v.Defeated, v.Skipping, tt.summary, tt.want, tt.defeated, tt.skipping)
		}
	}
}

func TestPolicyDamageRefused(t *testing.T) {
	p := newPolicy(DefaultConfig())
	tests := []struct {
		rule   string
		c      encounter.Combatant
		amount int
		kind   string
		msg    string
	}{
		{"an Injury Card records its Damage Type", encounter.Combatant{Stats: stats("hp", 10)}, 3, "", "needs its Damage Type"},
		{"the damage types of the text only", encounter.Combatant{Stats: stats("hp", 10)}, 3, "acid", "needs its Damage Type"},
		{"a type, then an Epilogue", encounter.Combatant{Stats: stats("hp", 10)}, 3, "execute incision", "needs its Damage Type"},
		{"an Epilogue deals no damage", encounter.Combatant{Stats: stats("hp", 10, "damage", 11)}, 3, "maim", "an Epilogue deals no damage"},
		{"When a Character or Unit is Vulnerable ... may spend 1 Slot to activate an Epilogue: only then", encounter.Combatant{Stats: stats("hp", 10)}, 0, "execute", "only a Vulnerable Victim"},
		{"no Hit Points, no damage track", encounter.Combatant{}, 3, "fire", "no Hit Points"},
		{"the dead take no more damage", encounter.Combatant{Stats: stats("hp", 10), Resources: stats("damage", 0, "dead", 1)}, 3, "fire", "dead"},
	}
	for _, tt := range tests {
		c := tt.c
		c.Name = "V"
		e, _ := begun(t, p, encounter.Combatant{Name: "A"}, c)
		before := e.Clone()
		_, err := e.Damage(p, "gm", "V", tt.amount, tt.kind)
		if !isInvalid(err) || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("%s: %v, want a user error with %q", tt.rule, err, tt.msg)
		}
		if !reflect.DeepEqual(e, before) {
			t.Errorf("%s: the encounter changed", tt.rule)
		}
	}
}

func TestPolicyHeal(t *testing.T) {
	p := newPolicy(DefaultConfig())
	tests := []struct {
		rule     string
		res      map[string]int
		h        Healing
		summary  string
		want     map[string]int
		defeated bool
	}{
		{"healing takes damage off the Injury Cards",
			map[string]int{ResDamage: 7, "injury_incision": 7}, Healing{Amount: 5},
			"V healed 5 (damage 7 -> 2, hp 10)", map[string]int{ResDamage: 2, "injury_incision": 2}, false},
		{"Divine Damage can not be healed by normal means",
			map[string]int{ResDamage: 6, "injury_incision": 2, "injury_holy": 4}, Healing{Amount: 5},
			"V healed 5 (damage 6 -> 4, hp 10): 3 Holy or Spite damage cannot be healed by normal means",
			map[string]int{ResDamage: 4, "injury_holy": 4}, false},
		{"A Vulnerable Character or Unit which is healed ... will no longer be considered Vulnerable.",
			map[string]int{ResDamage: 12, "injury_fire": 12, ResVulnerable: 1}, Healing{Amount: 1},
			"V healed 1 (damage 12 -> 11, hp 10): no longer Vulnerable", map[string]int{ResDamage: 11, "injury_fire": 11}, false},
		{"... or otherwise granted Hit Points or a Barrier",
			map[string]int{ResDamage: 12, "injury_fire": 12, ResVulnerable: 1}, Healing{Barrier: true},
			"V gained a Barrier and healed 0 (damage 12 -> 12, hp 10): no longer Vulnerable", map[string]int{ResDamage: 12, "injury_fire": 12}, false},
		{"A Maimed ... Character or Unit may recover Hit Points ..., but they will remain in Shock for 1 hour.",
			map[string]int{ResDamage: 3, "injury_raw": 3, ResMaimed: 1, ResMaimSeconds: 100, ResShockSeconds: 3000}, Healing{Amount: 3},
			"V healed 3 (damage 3 -> 0, hp 10)", map[string]int{ResDamage: 0, ResMaimed: 1, ResMaimSeconds: 100, ResShockSeconds: 3000}, true},
		{"Specialized healing or items may reverse the effect of a Maim only if performed within 10 Hours; and removing Shock",
			map[string]int{ResDamage: 3, "injury_raw": 3, ResMaimed: 1, ResMaimSeconds: 100, ResShockSeconds: 3000}, Healing{Amount: 1, Special: true},
			"V received specialized healing of 1 (damage 3 -> 2, hp 10): Maim reversed; it returns to combat when its Shock is removed (50 minutes left)",
			map[string]int{ResDamage: 2, "injury_raw": 2, ResShockSeconds: 3000}, true},
		{"Receiving the proper healing and removing Shock will allow them to return to combat.",
			map[string]int{ResDamage: 0, ResMaimed: 1, ResMaimSeconds: 100}, Healing{Special: true},
			"V received specialized healing of 0 (damage 0 -> 0, hp 10): Maim reversed: back in the fight",
			map[string]int{ResDamage: 0}, false},
		{"only within 10 Hours",
			map[string]int{ResDamage: 0, ResMaimed: 1}, Healing{Special: true},
			"V received specialized healing of 0 (damage 0 -> 0, hp 10): too late to reverse the Maim: the 10 Hours have passed",
			map[string]int{ResDamage: 0, ResMaimed: 1}, true},
	}
	for _, tt := range tests {
		e, _ := begun(t, p, encounter.Combatant{Name: "A"}, encounter.Combatant{Name: "V", Stats: stats("hp", 10), Resources: maps.Clone(tt.res)})
		v := find(t, e, "V")
		_, got, err := p.HealWith(e, v, tt.h)
		if err != nil {
			t.Errorf("%s: %v", tt.rule, err)
			continue
		}
		res := maps.Clone(v.Resources)
		delete(res, ResReserved)
		if got != tt.summary || !reflect.DeepEqual(res, tt.want) || v.Defeated != tt.defeated {
			t.Errorf("%s:\n got %q %v defeated %v\nwant %q %v defeated %v", tt.rule, got, res, v.Defeated, tt.summary, tt.want, tt.defeated)
		}
	}
	// Through the encounter: normal healing; the dead are beyond it.
	e, _ := begun(t, p, encounter.Combatant{Name: "V", Stats: stats("hp", 10, "damage", 4)}, encounter.Combatant{Name: "D", Stats: stats("hp", 10), Resources: stats("damage", 0, "dead", 1)})
	if ev, err := e.Heal(p, "gm", "V", 3); err != nil || ev.Summary != "V healed 3 (damage 4 -> 1, hp 10)" {
		t.Errorf("heal: %q %v", ev.Summary, err)
	}
	if _, err := e.Heal(p, "gm", "D", 3); !isInvalid(err) {
		t.Errorf("healing the dead: %v", err)
	}
}

// Movement, falls and Epilogues spend the slots of the phase the
// combatant is in.
func TestActions(t *testing.T) {
	p := newPolicy(DefaultConfig())
	type step struct {
		who  string // "A" acts on its turn; "B" is in its Reserve Phase
		do   func(e *encounter.Encounter, c *encounter.Combatant, d Dice) (string, error)
		dice []int
		line string
		err  string
	}
	move := func(m Move, slots int) func(*encounter.Encounter, *encounter.Combatant, Dice) (string, error) {
		return func(e *encounter.Encounter, c *encounter.Combatant, d Dice) (string, error) {
			_, line, err := p.Move(e, c, MoveInput{Move: m, Slots: slots}, d)
			return line, err
		}
	}
	fall := func(tiles int) func(*encounter.Encounter, *encounter.Combatant, Dice) (string, error) {
		return func(e *encounter.Encounter, c *encounter.Combatant, d Dice) (string, error) {
			_, line, err := p.Fall(e, c, tiles, d)
			return line, err
		}
	}
	epilogue := func(kind Epilogue, victim string) func(*encounter.Encounter, *encounter.Combatant, Dice) (string, error) {
		return func(e *encounter.Encounter, c *encounter.Combatant, d Dice) (string, error) {
			v, err := e.Find(victim)
			if err != nil {
				return "", err
			}
			_, line, err := p.Epilogue(e, c, v, EpilogueInput{Kind: kind})
			return line, err
		}
	}
	tests := []struct {
		rule  string
		steps []step
		after map[string]int // A's counters after
	}{
		{"Jump: Celerity (2|3); Requires an Accuracy Check (v:20 + Accuracy =/+ 6)",
			[]step{{"A", move(Jump, 0), []int{3}, "A: Jump, 2 Tiles for 2 Action Slots (5 left); Accuracy Check 3 + 3 = 6 vs 6: success", ""}},
			map[string]int{CountSlots: 2}},
		{"Jump: Failure results in only 1 Tile of Movement.",
			[]step{{"A", move(Jump, 0), []int{2}, "A: Jump, 1 Tile for 2 Action Slots (5 left); Accuracy Check 2 + 3 = 5 vs 6: failure; failing to land, the Character falls or ends its movement before the target Tile", ""}},
			map[string]int{CountSlots: 2}},
		{"A quick Jog ... also grants us Momentum; Leap: Requires Momentum ... Failure results in only (v:4-1) Tiles",
			[]step{
				{"A", move(Leap, 0), nil, "", "Requires Momentum"},
				{"A", move(Jog, 0), nil, "A: Jog, 8 Tiles for 4 Action Slots (3 left); Momentum", ""},
				{"A", move(Leap, 0), []int{5, 4}, "A: Leap, 3 Tiles for 1 Action Slot (2 left); Accuracy Check 5 + 3 = 8 vs 9: failure, v:4 (4) - 1 Tiles; Momentum; failing to land, the Character falls or ends its movement before the target Tile", ""},
				{"A", move(Momentum, 2), nil, "A: Momentum, 6 Tiles for 2 Action Slots (0 left); it begins its next Active Phase with Momentum", ""},
			},
			map[string]int{CountSlots: 7, CountMomentumNext: 1}},
		{"the Celerity must be paid: no Action Debt",
			[]step{
				{"A", move(Jog, 0), nil, "A: Jog, 8 Tiles for 4 Action Slots (3 left); Momentum", ""},
				{"A", move(Jog, 0), nil, "", "Jog costs 4 Action Slots and A has 3 left"},
			},
			map[string]int{CountSlots: 4}},
		{"Reserve Phase: Celerity (2|3) is paid with Reserved Slots; Momentum is an Active Phase Only effect",
			[]step{
				{"B", move(Rush, 0), nil, "B: Rush, 3 Tiles for 3 Reserved Slots (1 left); may trigger obvious hazards and hazards the Character is unaware of", ""},
				{"B", move(Momentum, 0), nil, "", "Reserve Phase"},
				{"B", move(CarefulStep, 0), nil, "", "Careful Step costs 2 Reserved Slots and B has 1 left"},
			},
			map[string]int{}},
		{"(3v:6+T) Damage, Minimum T% Hit Points; Falls Shorter than 10 Tiles and taller than 3 Tiles still consume 1 Action Slot.",
			[]step{{"A", fall(5), []int{1, 2, 3}, "A fell 5 Tiles (1 Action Slot, 6 left): 3v:6 (6) + 5 = 11, minimum 1: 11 contusion damage (damage 0 -> 11, hp 20)", ""}},
			map[string]int{CountSlots: 1}},
		{"A 2 Tile Drop is generally ignored in Action Economy.",
			[]step{{"A", fall(2), nil, "A fell 2 Tiles (0 Action Slots, 7 left): no damage, under 3 Tiles", ""}},
			map[string]int{}},
		{"Falling farther than the Character has Action Slots for does not generate Action Debt; If a Character Becomes Vulnerable due to damage from Falling, they die.",
			[]step{{"A", fall(100), []int{6, 6, 6}, "A fell 100 Tiles (7 Action Slots, 0 left): 3v:6 (18) + 100 = 118, minimum 20: 118 contusion damage (damage 0 -> 118, hp 20): Vulnerable: dies", ""}},
			map[string]int{CountSlots: 7}},
		{"Characters do not begin falling until they gain their Action Slots: none spent in the Reserve Phase",
			[]step{{"B", fall(12), []int{1, 1, 1}, "B fell 12 Tiles (2 Action Slots when its Active Phase begins): 3v:6 (3) + 12 = 15, minimum 3: 15 contusion damage (damage 0 -> 15, hp 20)", ""}},
			map[string]int{}},
		{"a Character or Unit who has an Action Slot or Reserved Slot may spend 1 Slot to activate an Epilogue",
			[]step{
				{"A", epilogue(Maim, "B"), nil, "", "only a Vulnerable Victim"},
				{"A", epilogue(Knockout, "V"), nil, "A activates Knockout on V (1 Action Slot, 6 left): Knocked Out for 3 Full Rounds, its Active Phases skipped; in Shock for 1 hour", ""},
				{"B", epilogue(Execute, "V"), nil, "B activates Execute on V (1 Reserved Slot, 3 left): dies", ""},
				{"B", epilogue(Execute, "V"), nil, "", "already dead"},
			},
			map[string]int{CountSlots: 1}},
	}
	for _, tt := range tests {
		e, _ := begun(t, p,
			encounter.Combatant{Name: "B", Stats: stats("hp", 20, "reserved", 4, "initiative", 1)},
			encounter.Combatant{Name: "A", Stats: stats("hp", 20, "agility", 2, "accuracy", 3, "initiative", 2)},
			encounter.Combatant{Name: "V", Stats: stats("hp", 10, "damage", 11)})
		for i, s := range tt.steps {
			x := e.Clone()
			r := dice.NewPhysical(s.dice)
			line, err := s.do(x, find(t, x, s.who), RollWith(r))
			switch {
			case s.err != "":
				if !isInvalid(err) || !strings.Contains(err.Error(), s.err) {
					t.Errorf("%s: step %d: %v, want a user error with %q", tt.rule, i, err, s.err)
				}
				continue
			case err != nil:
				t.Errorf("%s: step %d: %v", tt.rule, i, err)
				continue
			}
			if err := r.Done(); err != nil {
				t.Errorf("%s: step %d: %v", tt.rule, i, err)
			}
			if line != s.line {
				t.Errorf("%s: step %d:\n got %q\nwant %q", tt.rule, i, line, s.line)
			}
			if err := x.Validate(); err != nil {
				t.Fatal(err)
			}
			*e = *x
		}
		got := maps.Clone(find(t, e, "A").Counters)
		if len(got) == 0 {
			got = map[string]int{}
		}
		if !reflect.DeepEqual(got, tt.after) {
			t.Errorf("%s: A's counters %v, want %v", tt.rule, got, tt.after)
		}
	}
}

// TestThreeRounds runs a fight of three rounds through the encounter API,
// with the dice a table would roll, checking the order, the budgets and
// the recovery round by round, and that every state restores exactly.
func TestThreeRounds(t *testing.T) {
	p := newPolicy(DefaultConfig())
	e := encounter.New("ulm")
	var snaps [][]byte
	do := func(ev encounter.Event, err error) encounter.Event {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", ev.Kind, err)
		}
		b, err := e.Snapshot()
		if err != nil {
			t.Fatal(err)
		}
		snaps = append(snaps, b)
		return ev
	}
	// act runs one of the policy's own actions on a copy, as a command does.
	act := func(f func(x *encounter.Encounter) (string, error)) string {
		t.Helper()
		x := e.Clone()
		line, err := f(x)
		if err != nil {
			t.Fatal(err)
		}
		*e = *x
		return line
	}
	at := func(round int, turn string, budget string, ev encounter.Event) {
		t.Helper()
		c := e.Current()
		if e.Round != round || c == nil || c.Name != turn {
			t.Fatalf("round %d, turn %v; want round %d, %s's turn", e.Round, c, round, turn)
		}
		if want := turn + ": " + budget + "."; !slices.Contains(lineTexts(ev), want) {
			t.Errorf("round %d, %s: no %q in %q", round, turn, want, lineTexts(ev))
		}
	}
	wantLines := func(ev encounter.Event, lines ...string) {
		t.Helper()
		for _, l := range lines {
			if !slices.Contains(lineTexts(ev), l) {
				t.Errorf("no %q in %q", l, lineTexts(ev))
			}
		}
	}

	for _, c := range []encounter.Combatant{
		{Name: "Ayla", Owner: "u1", Stats: stats("hp", 20, "agility", 2, "accuracy", 3, "initiative", 12)},
		{Name: "Bram", Owner: "u2", Stats: stats("hp", 25, "alacrity", 1, "initiative", 15)},
		{Name: "Cass", Owner: "u3", Stats: stats("hp", 18, "agility", 1, "initiative", 12)},
		{Name: "Bandit", NPC: true, Stats: stats("hp", 10, "agility", 1)},
		// Knocked Out for 1 more Full Round and in Shock 5 more minutes.
		{Name: "Ghoul", NPC: true, Hidden: true, RevealOnTurn: true, Stats: stats("hp", 12, "agility", -1, "knocked_out", 1, "shock", 5)},
	} {
		do(e.Add(p, nil, "gm", c))
	}

	// The order: Bram 15, Ayla 12 and Cass 12 in the order added, then the
	// two without initiative in the order added. No dice.
	r := dice.NewPhysical(nil)
	ev := do(e.Begin(p, r, "gm"))
	if err := r.Done(); err != nil || ev.Rolls != nil {
		t.Errorf("begin rolled %v: %v", ev.Rolls, err)
	}
	wantOrder := []string{"Bram", "Ayla", "Cass", "Bandit", "Ghoul"}
	if got := order(e); !slices.Equal(got, wantOrder) {
		t.Fatalf("order %v, want %v", got, wantOrder)
	}

	// Round 1.
	at(1, "Bram", "6 Action Slots left", ev)
	wantLines(ev, "Bram's Active Phase: 6 Action Slots (5 + Agility 0 + Enhanced Alacrity 1).")
	do(e.Count("u2", "Bram", CountSlots, 4))

	ev = do(e.Next(p, "u2"))
	at(1, "Ayla", "7 Action Slots left", ev)
	wantLines(ev, "Bram holds 2 Reserved Slots until its next Active Phase.")
	ev = do(e.Damage(p, "u1", "Bandit", 12, "incision"))
	if ev.Summary != "Bandit took 12 incision damage, a Sharp-Force Trauma Injury Card (damage 0 -> 12, hp 10): Vulnerable" {
		t.Errorf("damage: %q", ev.Summary)
	}
	ev = do(e.Damage(p, "u1", "Bandit", 0, "knockout"))
	do(e.Count("u1", "Ayla", CountSlots, 1))
	if b := find(t, e, "Bandit"); !b.Skipping || b.Resources[ResKnockedOutSeconds] != 30 {
		t.Errorf("knocked out Bandit: %+v", b)
	}
	// Bram answers in his Reserve Phase: a Rush costs (2|3)... he has 2.
	if _, _, err := p.Move(e.Clone(), find(t, e, "Bram"), MoveInput{Move: Rush}, nil); !isInvalid(err) {
		t.Errorf("a Rush for 3 Reserved Slots out of 2: %v", err)
	}
	if line := act(func(x *encounter.Encounter) (string, error) {
		_, line, err := p.Move(x, find(t, x, "Bram"), MoveInput{Move: CarefulStep}, nil)
		return line, err
	}); line != "Bram: Careful Step, 1 Tile for 2 Reserved Slots (0 left); avoids obvious hazards without chance of triggering them" {
		t.Errorf("careful step: %q", line)
	}
	if got := p.Budget(e, find(t, e, "Bram")); got != "0 Reserved Slots left" {
		t.Errorf("Bram's budget %q", got)
	}
	// Ayla jumps (v:20: 4) and ends on a Jog with her last slots.
	if line := act(func(x *encounter.Encounter) (string, error) {
		_, line, err := p.Move(x, find(t, x, "Ayla"), MoveInput{Move: Jump}, RollWith(dice.NewPhysical([]int{4})))
		return line, err
	}); line != "Ayla: Jump, 2 Tiles for 2 Action Slots (4 left); Accuracy Check 4 + 3 = 7 vs 6: success" {
		t.Errorf("jump: %q", line)
	}
	act(func(x *encounter.Encounter) (string, error) {
		_, line, err := p.Move(x, find(t, x, "Ayla"), MoveInput{Move: Jog}, nil)
		return line, err
	})
	if got := p.Budget(e, find(t, e, "Ayla")); got != "0 Action Slots left, Momentum" {
		t.Errorf("Ayla's budget %q", got)
	}

	ev = do(e.Next(p, "u1"))
	at(1, "Cass", "6 Action Slots left", ev)
	wantLines(ev, "Ayla spent its last Action Slot on Jog or Momentum: it begins its next Active Phase with Momentum.")
	// Cass falls 5 Tiles: 3v:6 rolls 1, 2, 3.
	if line := act(func(x *encounter.Encounter) (string, error) {
		_, line, err := p.Fall(x, find(t, x, "Cass"), 5, RollWith(dice.NewPhysical([]int{1, 2, 3})))
		return line, err
	}); line != "Cass fell 5 Tiles (1 Action Slot, 5 left): 3v:6 (6) + 5 = 11, minimum 1: 11 contusion damage (damage 0 -> 11, hp 18)" {
		t.Errorf("fall: %q", line)
	}

	// The Bandit and the hidden Ghoul are Knocked Out: skipped. The round
	// ends: a Full Round passes.
	ev = do(e.Next(p, "u3"))
	at(2, "Bram", "6 Action Slots left", ev)
	wantLines(ev, "Bandit's turn is skipped.", "Ghoul's turn is skipped.", "Cass holds 5 Reserved Slots until its next Active Phase.",
		"Bandit is Knocked Out (2 Full Rounds left): its next Active Phase is skipped.", "Ghoul is no longer Knocked Out.")
	if txt := ev.Text(false); strings.Contains(txt, "Ghoul") {
		t.Errorf("the players read about the hidden Ghoul:\n%s", txt)
	}
	if g := find(t, e, "Ghoul"); g.Resources[ResShockSeconds] != 290 || g.Skipping {
		t.Errorf("Ghoul after round 1: %+v", g)
	}

	// Round 2.
	ev = do(e.Next(p, "u2"))
	at(2, "Ayla", "7 Action Slots left, Momentum", ev)
	wantLines(ev, "Ayla begins its Active Phase with Momentum.", "Bram holds 6 Reserved Slots until its next Active Phase.")
	// A Leap (1|-) from her Momentum: v:20 2 + 3 fails; v:4 3 - 1 = 2 Tiles.
	if line := act(func(x *encounter.Encounter) (string, error) {
		_, line, err := p.Move(x, find(t, x, "Ayla"), MoveInput{Move: Leap}, RollWith(dice.NewPhysical([]int{2, 3})))
		return line, err
	}); !strings.HasPrefix(line, "Ayla: Leap, 2 Tiles for 1 Action Slot (6 left); Accuracy Check 2 + 3 = 5 vs 9: failure, v:4 (3) - 1 Tiles") {
		t.Errorf("leap: %q", line)
	}
	ev = do(e.Heal(p, "u1", "Cass", 4))
	if ev.Summary != "Cass healed 4 (damage 11 -> 7, hp 18)" {
		t.Errorf("heal: %q", ev.Summary)
	}

	ev = do(e.Next(p, "u1"))
	at(2, "Cass", "6 Action Slots left", ev)
	wantLines(ev, "Ayla holds 6 Reserved Slots until its next Active Phase.")
	if find(t, e, "Ayla").Resources[ResMomentum] != 0 {
		t.Errorf("Ayla kept Momentum past her Active Phase")
	}

	// The Ghoul is awake: it appears on its turn, in Shock (1 Action Slot).
	ev = do(e.Next(p, "u3"))
	at(2, "Ghoul", "1 Action Slot left", ev)
	wantLines(ev, "Bandit's turn is skipped.", "Ghoul appears.", "Ghoul's Active Phase: 1 Action Slot: in Shock (4 without: 5 + Agility -1).")

	// Round 3.
	ev = do(e.Next(p, "gm"))
	at(3, "Bram", "6 Action Slots left", ev)
	wantLines(ev, "Ghoul holds 1 Reserved Slot until its next Active Phase.", "Bandit is Knocked Out (1 Full Round left): its next Active Phase is skipped.")
	ev = do(e.Next(p, "u2"))
	at(3, "Ayla", "7 Action Slots left", ev)
	ev = do(e.Next(p, "u1"))
	at(3, "Cass", "6 Action Slots left", ev)
	ev = do(e.Next(p, "u3"))
	at(3, "Ghoul", "1 Action Slot left", ev)
	wantLines(ev, "Bandit's turn is skipped.")

	// The third Full Round since the Knockout ends: the Bandit wakes, in
	// Shock, and is still Vulnerable.
	ev = do(e.Next(p, "gm"))
	at(4, "Bram", "6 Action Slots left", ev)
	wantLines(ev, "Bandit is no longer Knocked Out.")
	b := find(t, e, "Bandit")
	if b.Skipping || b.Resources[ResShockSeconds] != 3570 || b.Resources[ResVulnerable] != 1 {
		t.Errorf("Bandit after round 3: %+v", b)
	}
	ev = do(e.Next(p, "u2"))
	ev = do(e.Next(p, "u1"))
	ev = do(e.Next(p, "u3"))
	at(4, "Bandit", "1 Action Slot left", ev)
	wantLines(ev, "Bandit is Vulnerable (damage 12, hp 10): it may act as normal until healed or an Epilogue is Activated.")

	for i, s := range snaps {
		if _, err := encounter.Restore(s); err != nil {
			t.Errorf("snapshot %d: %v", i, err)
		}
	}
	var v encounter.View
	if err := json.Unmarshal(mustJSON(t, e.View(false)), &v); err != nil {
		t.Fatal(err)
	}
	if got := v.Combatants[3].Resources; !reflect.DeepEqual(got, map[string]int{
		ResDamage: 12, "injury_incision": 12, ResVulnerable: 1, ResShockSeconds: 3570, ResSlots: 1, ResReserved: 0,
	}) {
		t.Errorf("the players' view of the Bandit: %v", got)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A delayed Active Phase starts again: its slots are gained anew, and the
// count of those spent starts over with it.
func TestDelayedActivePhase(t *testing.T) {
	p := newPolicy(DefaultConfig())
	e, _ := begun(t, p, encounter.Combatant{Name: "A", Stats: stats("agility", 1)}, encounter.Combatant{Name: "B", Stats: stats("reserved", 1)})
	ev, err := e.Delay(p, "gm", "A", "B")
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Budget(e, find(t, e, "A")); got != "0 Reserved Slots left" {
		t.Errorf("A while delayed: %q", got)
	}
	ev, err = e.Next(p, "gm")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(lineTexts(ev), "A's Active Phase (delayed): 6 Action Slots (5 + Agility 1).") || !slices.Contains(lineTexts(ev), "B holds 1 Reserved Slot until its next Active Phase.") {
		t.Errorf("delayed turn: %q", lineTexts(ev))
	}
	if got := order(e); !slices.Equal(got, []string{"B", "A"}) {
		t.Errorf("order %v", got)
	}
}
