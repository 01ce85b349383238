package encounter

import (
	"strings"
	"testing"
)

// healthFight is small's fight with maxima: Aria (a player's, hp 20/20),
// Goblin (the GM's, hp 8/8), Bram (the GM's, no track).
func healthFight(t *testing.T) *Encounter {
	t.Helper()
	e := New("")
	for _, c := range []Combatant{
		{Name: "Aria", Owner: "alice", Stats: map[string]int{"init": 3}, Resources: map[string]int{"hp": 20}, Max: map[string]int{"hp": 20}},
		{Name: "Goblin", NPC: true, Stats: map[string]int{"init": 2}, Resources: map[string]int{"hp": 8}, Max: map[string]int{"hp": 8}},
		{Name: "Bram", Stats: map[string]int{"init": 1, "initiative": 12}},
	} {
		mustDo(t)(e.Add(Generic{}, nil, "gm", c))
	}
	mustDo(t)(e.Begin(Generic{}, physical(12, 10), "gm"))
	return e
}

func combatantView(t *testing.T, v View, name string) CombatantView {
	t.Helper()
	for _, c := range v.Combatants {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("no %s in the view", name)
	return CombatantView{}
}

// TestHealthWords: "bloodied" at half or less, as Foundry and Avrae word
// it; "down" at 0.
func TestHealthWords(t *testing.T) {
	for _, c := range []struct {
		hp, max  int
		defeated bool
		want     string
	}{
		{8, 8, false, WordUnhurt}, {7, 8, false, WordHurt}, {5, 8, false, WordHurt}, {4, 8, false, WordBloodied},
		{1, 8, false, WordBloodied}, {0, 8, false, WordDown}, {5, 8, true, WordDown}, {1, 1, false, WordUnhurt},
		{5, 9, false, WordHurt}, {4, 9, false, WordBloodied},
	} {
		cb := &Combatant{Resources: map[string]int{"hp": c.hp}, Max: map[string]int{"hp": c.max}, Defeated: c.defeated}
		if got := HealthWordOf(cb, "hp"); got != c.want {
			t.Errorf("hp %d/%d, defeated %v: %q, want %q", c.hp, c.max, c.defeated, got, c.want)
		}
	}
	if got := HealthWordOf(&Combatant{Resources: map[string]int{"hp": 3}}, "hp"); got != WordStanding {
		t.Errorf("no maximum: %q, want %q", got, WordStanding)
	}
}

// TestHealthChoice: the fight's choice holds for the GM's combatants, a
// combatant's for it alone; the players' view and the text of damage
// follow it, the GM's keep the numbers.
func TestHealthChoice(t *testing.T) {
	e := healthFight(t)
	// Exact by default: nothing changes for a fight without a choice.
	ev := mustDo(t)(e.Damage(Generic{}, "alice", "Goblin", 3, ""))
	if got, want := ev.Text(false), "Goblin took 3 damage (hp 8 -> 5)"; got != want {
		t.Errorf("exact: players read %q, want %q", got, want)
	}
	if g := combatantView(t, e.View(false), "Goblin"); g.Resources["hp"] != 5 || g.HealthShown != "" {
		t.Errorf("exact: players see %+v", g)
	}

	mustDo(t)(e.SetHealth("gm", "", HealthWord))
	ev = mustDo(t)(e.Damage(Generic{}, "alice", "Goblin", 1, "fire"))
	if got, want := ev.Text(false), "Goblin took 1 fire damage: bloodied."; got != want {
		t.Errorf("word: players read %q, want %q", got, want)
	}
	if got, want := ev.Text(true), "Goblin took 1 fire damage (hp 5 -> 4)"; got != want {
		t.Errorf("word: the GM reads %q, want %q", got, want)
	}
	g := combatantView(t, e.View(false), "Goblin")
	if len(g.Resources) != 0 || g.Max != nil || g.HealthShown != HealthWord || g.HealthWord != WordBloodied {
		t.Errorf("word: players see %+v", g)
	}
	if g := combatantView(t, e.View(true), "Goblin"); g.Resources["hp"] != 4 || g.HealthWord != WordBloodied {
		t.Errorf("word: the GM sees %+v", g)
	}
	// A player's combatant keeps its numbers under the fight's choice.
	if a := combatantView(t, e.View(false), "Aria"); a.Resources["hp"] != 20 || a.HealthShown != "" {
		t.Errorf("the fight's choice reached Aria, a player's: %+v", a)
	}

	// A combatant's own choice comes first, whoever controls it.
	mustDo(t)(e.SetHealth("gm", "aria", HealthNone))
	ev = mustDo(t)(e.Heal(Generic{}, "alice", "Aria", 1))
	if got, want := ev.Text(false), "Aria healed 1."; got != want {
		t.Errorf("none: players read %q, want %q", got, want)
	}
	ev = mustDo(t)(e.Damage(Generic{}, "gm", "Aria", 20, ""))
	if got, want := ev.Text(false), "Aria took 20 damage: defeated."; got != want {
		t.Errorf("none, defeated: players read %q, want %q", got, want)
	}
	if a := combatantView(t, e.View(false), "Aria"); len(a.Resources) != 0 || a.HealthShown != HealthNone || a.HealthWord != "" || !a.Defeated {
		t.Errorf("none: players see %+v", a)
	}
	mustDo(t)(e.SetHealth("gm", "Goblin", HealthExact))
	if g := combatantView(t, e.View(false), "Goblin"); g.Resources["hp"] != 4 {
		t.Errorf("exact for Goblin against the fight's word: players see %+v", g)
	}
	mustDo(t)(e.SetHealth("gm", "Goblin", HealthDefault))
	if g := combatantView(t, e.View(false), "Goblin"); g.HealthShown != HealthWord {
		t.Errorf("Goblin back under the fight's word: players see %+v", g)
	}

	// The choice survives a snapshot; a wrong one is refused.
	snap, err := e.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	back, err := Restore(snap)
	if err != nil || back.Health != HealthWord || back.Combatants[0].Health != HealthNone {
		t.Errorf("restored: %v, fight %q", err, back.Health)
	}
	if _, err := e.SetHealth("gm", "", "bloodied"); err == nil || !strings.Contains(err.Error(), `health is exact, word or none, not "bloodied"`) {
		t.Errorf("health \"bloodied\": %v, want the choices named", err)
	}
	mustDo(t)(e.End(Generic{}, "gm"))
	if _, err := e.SetHealth("gm", "", HealthNone); err == nil {
		t.Errorf("a choice after the end accepted")
	}
}
