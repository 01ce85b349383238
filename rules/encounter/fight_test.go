package encounter

import (
	"strings"
	"testing"
)

// TestThreeRounds runs a fight of three rounds with the Generic policy and
// the dice a table would roll, checking round, turn and order after each
// step, conditions ending at the right start or end of a turn, counters,
// hidden combatants, and every snapshot restoring exactly.
func TestThreeRounds(t *testing.T) {
	f := newFight(t, Generic{})
	e := f.e
	const gm = "gm"

	roster := []Combatant{
		{Name: "Aria", Owner: "u1", Stats: map[string]int{"init": 3}, Resources: map[string]int{"hp": 20}, Max: map[string]int{"hp": 20}},
		{Name: "Bram", Owner: "u2", Stats: map[string]int{"init": 1, "initiative": 12}, Resources: map[string]int{"hp": 15}},
		{Name: "Goblin 1", NPC: true, Stats: map[string]int{"init": 2}, Resources: map[string]int{"hp": 7}},
		{Name: "Goblin 2", NPC: true, Stats: map[string]int{"init": 2}, Resources: map[string]int{"hp": 7}},
		{Name: "Assassin", NPC: true, Hidden: true, RevealOnTurn: true, Stats: map[string]int{"init": 4}, Resources: map[string]int{"hp": 10}},
		{Name: "Shade", NPC: true, Hidden: true, Resources: map[string]int{"hp": 5}},
	}
	for _, c := range roster {
		f.do(e.Add(f.p, nil, gm, c))
	}
	f.at(0, "<nil>", []string{"Aria", "Bram", "Goblin 1", "Goblin 2", "Assassin", "Shade"}, []string{"Aria", "Bram", "Goblin 1", "Goblin 2"})
	f.do(e.Count("u1", "aria", "reactions", 1))

	// Initiative: Aria 12+3 = 15, Bram 12 as given, the goblins 10+2 = 12
	// each (tied on init too: tie-break d20s 5 and 9), Assassin 16+4 = 20,
	// Shade 3.
	dice := physical(12, 10, 10, 16, 3, 5, 9)
	ev := f.do(e.Begin(f.p, dice, gm))
	if err := dice.Done(); err != nil {
		t.Errorf("begin: %v", err)
	}
	order := []string{"Assassin", "Aria", "Goblin 2", "Goblin 1", "Bram", "Shade"}
	f.at(1, "Assassin", order, order[:5])
	if len(ev.Rolls) != 7 || ev.Rolls[5].Name != "Goblin 1" || ev.Rolls[5].For != "tie-break" || ev.Rolls[6].Total != 9 {
		t.Errorf("begin rolls %s", mustJSON(t, ev.Rolls))
	}
	if !ev.Rolls[3].Secret || ev.Rolls[0].Secret {
		t.Errorf("begin: the hidden Assassin's roll must be secret, Aria's not: %s", mustJSON(t, ev.Rolls))
	}
	if found, secret := hasLine(ev, "Assassin appears."); !found || secret {
		t.Errorf("begin: Assassin is not revealed on its first turn: %s", mustJSON(t, ev))
	}
	if txt := ev.Text(false); strings.Contains(txt, "Shade") {
		t.Errorf("begin: the players read about Shade:\n%s", txt)
	}
	if txt := ev.Text(true); !strings.Contains(txt, "Shade") {
		t.Errorf("begin: the GM does not read about Shade:\n%s", txt)
	}
	// What the GM alone may read: the order with Shade, the Assassin's
	// roll; not Aria's roll, which the players read too.
	if got := ev.SecretText(); !strings.Contains(got, "Shade (hidden)") || !strings.Contains(got, "Assassin (initiative)") || strings.Contains(got, "Aria (initiative)") {
		t.Errorf("begin: the GM's secret text:\n%s", got)
	}
	if got := deref(e.View(true).Turn); got != "Assassin" {
		t.Errorf("turn %s", got)
	}

	// During the Assassin's turn: Aria poisoned for 1 round, to the end of
	// her turn, which is still to come this round.
	f.do(e.AddCondition(gm, "Aria", Condition{Name: "poisoned", Rounds: 1}, "Assassin"))
	checkCondition(t, e, "Aria", "poisoned", "ends at the end of Aria's turn, round 1", 1)

	ev = f.do(e.Next(f.p, gm))
	f.at(1, "Aria", order, order[:5])
	if ev.Summary != "Round 1: Aria's turn." {
		t.Errorf("next: summary %q", ev.Summary)
	}
	if got := f.combatant("Aria").Counters["reactions"]; got != 0 {
		t.Errorf("Aria's reactions %d at the start of her turn, want 0", got)
	}

	// On Aria's turn: Goblin 2 stunned until the start of Aria's next turn;
	// Goblin 1 marked for 2 rounds, to the start of its own turn.
	f.do(e.AddCondition("u1", "Goblin 2", Condition{Name: "stunned", Rounds: 1, Relative: OnSource}, "Aria"))
	checkCondition(t, e, "Goblin 2", "stunned", "ends at the start of Aria's turn, round 2", 1)
	f.do(e.AddCondition("u1", "Goblin 1", Condition{Name: "marked", Rounds: 2, Ends: AtStart}, ""))
	checkCondition(t, e, "Goblin 1", "marked", "ends at the start of Goblin 1's turn, round 2", 2)
	ev = f.do(e.Damage(f.p, "u1", "goblin 1", 7, ""))
	if ev.Summary != "Goblin 1 took 7 damage (hp 7 -> 0): defeated" || !f.combatant("Goblin 1").Defeated {
		t.Errorf("damage: %q", ev.Summary)
	}

	ev = f.do(e.Next(f.p, "u1"))
	f.at(1, "Goblin 2", order, order[:5])
	if found, _ := hasLine(ev, "poisoned on Aria ended: at the end of Aria's turn."); !found || len(ev.Expired) != 1 {
		t.Errorf("poisoned did not end with Aria's turn: %s", mustJSON(t, ev))
	}

	// Goblin 1 is defeated: passed over, but its turn's start goes by.
	f.do(e.Next(f.p, gm))
	f.at(1, "Bram", order, order[:5])
	checkCondition(t, e, "Goblin 1", "marked", "ends at the start of Goblin 1's turn, round 2", 1)

	ev = f.do(e.Next(f.p, "u2"))
	f.at(1, "Shade", order, order[:5])
	// To the players, the hidden Shade's turn is the start of the one
	// after it: round 2, the Assassin's (revealed in round 1).
	if pv := e.View(false); deref(pv.Turn) != "Assassin" || pv.Round != 2 {
		t.Errorf("players see the turn of %s in round %d", deref(pv.Turn), pv.Round)
	}
	if got := ev.Text(false); !ev.Secret || got != "Round 2 begins: Assassin's turn." {
		t.Errorf("Shade's turn is not secret: %s", mustJSON(t, ev))
	}
	if got := ev.SecretText(); got != "Round 1: Shade's turn." {
		t.Errorf("Shade's turn, as the GM alone reads it: %q", got)
	}

	ev = f.do(e.Next(f.p, gm))
	f.at(2, "Assassin", order, order[:5])
	if ev.Summary != "Round 2 begins: Assassin's turn." || ev.Lines != nil || ev.Text(false) != "" {
		t.Errorf("next to a new round the players have already seen: %s", mustJSON(t, ev))
	}
	f.do(e.Count(gm, "Assassin", "reactions", 1))

	// Back across the round boundary, and forward again: the Assassin's
	// turn does not start twice, so its counter stays.
	ev = f.do(e.Prev(gm))
	f.at(1, "Shade", order, order[:5])
	if want := (Mark{Round: 2, ID: f.combatant("Assassin").ID}); e.Reached != want {
		t.Errorf("reached %v after prev, want %v", e.Reached, want)
	}
	ev = f.do(e.Next(f.p, gm))
	f.at(2, "Assassin", order, order[:5])
	if got := f.combatant("Assassin").Counters["reactions"]; got != 1 || e.Reached != (Mark{}) {
		t.Errorf("after replaying the Assassin's turn: reactions %d, reached %v", got, e.Reached)
	}
	if ev.Summary != "Round 2 begins: Assassin's turn again." {
		t.Errorf("replay summary %q", ev.Summary)
	}

	// The Assassin waits for Goblin 2: Aria's turn starts and her stun on
	// Goblin 2 ends.
	ev = f.do(e.Delay(f.p, gm, "Assassin", "Goblin 2"))
	order = []string{"Aria", "Goblin 2", "Assassin", "Goblin 1", "Bram", "Shade"}
	f.at(2, "Aria", order, order[:5])
	if found, _ := hasLine(ev, "stunned on Goblin 2 ended: at the start of Aria's turn."); !found {
		t.Errorf("stunned did not end at the start of Aria's turn: %s", mustJSON(t, ev))
	}
	if !f.combatant("Assassin").Delayed {
		t.Errorf("the Assassin is not marked delayed")
	}
	f.do(e.Next(f.p, "u1"))
	f.at(2, "Goblin 2", order, order[:5])
	f.do(e.Next(f.p, gm))
	f.at(2, "Assassin", order, order[:5])
	if f.combatant("Assassin").Delayed {
		t.Errorf("the Assassin is still delayed on its turn")
	}

	ev = f.do(e.Skip(f.p, gm, "Bram"))
	if ev.Summary != "Bram's next turn will be skipped." || !f.combatant("Bram").Skipping {
		t.Errorf("skip: %s", mustJSON(t, ev))
	}
	ev = f.do(e.Next(f.p, gm))
	f.at(2, "Shade", order, order[:5])
	for _, want := range []string{"marked on Goblin 1 ended: at the start of Goblin 1's turn.", "Bram's turn is skipped."} {
		if found, _ := hasLine(ev, want); !found {
			t.Errorf("next: no %q in %s", want, mustJSON(t, ev))
		}
	}

	// An ogre joins: 13 on the d20 places it after Aria (15) and before
	// Goblin 2 (12), a place already past this round.
	ev = f.do(e.Add(f.p, physical(13), gm, Combatant{Name: "Ogre", NPC: true, Resources: map[string]int{"hp": 30}}))
	order = []string{"Aria", "Ogre", "Goblin 2", "Assassin", "Goblin 1", "Bram", "Shade"}
	f.at(2, "Shade", order, order[:6])
	if ev.Summary != "Ogre joins the fight after Aria." || len(ev.Rolls) != 1 || ev.Rolls[0].Total != 13 {
		t.Errorf("join: %s", mustJSON(t, ev))
	}
	if found, _ := hasLine(ev, "acts from round 3"); !found {
		t.Errorf("join: %s", mustJSON(t, ev))
	}

	// Shade leaves on its own turn: round 3 begins.
	f.do(e.Remove(f.p, gm, "Shade"))
	order = order[:6]
	f.at(3, "Aria", order, order)

	f.do(e.Move(gm, "Bram", 1))
	order = []string{"Bram", "Aria", "Ogre", "Goblin 2", "Assassin", "Goblin 1"}
	f.at(3, "Aria", order, order)
	f.do(e.AddCondition(gm, "Ogre", Condition{Name: "enraged"}, ""))
	checkCondition(t, e, "Ogre", "enraged", "lasts until removed", -1)
	ev = f.do(e.Heal(f.p, gm, "Goblin 1", 3))
	if ev.Summary != "Goblin 1 healed 3 (hp 0 -> 3): back in the fight" {
		t.Errorf("heal: %q", ev.Summary)
	}
	for _, want := range []string{"Ogre", "Goblin 2", "Assassin", "Goblin 1"} {
		f.do(e.Next(f.p, gm))
		f.at(3, want, order, order)
	}

	ev = f.do(e.End(f.p, gm))
	if ev.Summary != "The fight is over after 3 rounds." {
		t.Errorf("end: %q", ev.Summary)
	}
	if got, want := ev.Text(false), "The fight is over after 3 rounds.\nStill standing: Bram, Aria, Ogre, Goblin 2, Assassin, Goblin 1."; got != want {
		t.Errorf("end, players:\n%s\nwant\n%s", got, want)
	}
	if got := ev.Text(true); !strings.Contains(got, "Left the fight: Shade (hidden).") {
		t.Errorf("end, GM:\n%s", got)
	}
	if v := e.View(false); v.Turn != nil || !v.Ended {
		t.Errorf("after the end: turn %s", deref(v.Turn))
	}

	// Undo and redo: every snapshot restores the state it was taken of.
	for i, s := range f.steps {
		got, err := Restore(s.snap)
		if err != nil {
			t.Fatalf("step %d (%s): %v", i, s.what, err)
		}
		deepEqual(t, "restored "+s.what, got, s.state)
	}
	// Undo to before the delay and do it again: the same state and event.
	k := stepIndex(t, f.steps, "delay")
	again, err := Restore(f.steps[k-1].snap)
	if err != nil {
		t.Fatal(err)
	}
	ev, err = again.Delay(f.p, gm, "Assassin", "Goblin 2")
	if err != nil {
		t.Fatal(err)
	}
	deepEqual(t, "redone delay", again, f.steps[k].state)
	deepEqual(t, "redone delay's event", ev, f.steps[k].ev)
}

func stepIndex(t *testing.T, steps []step, what string) int {
	t.Helper()
	for i, s := range steps {
		if s.what == what {
			return i
		}
	}
	t.Fatalf("no step %s", what)
	return -1
}

// checkCondition checks a condition's end in words and its rounds left as
// the view shows them (-1 for none).
func checkCondition(t *testing.T, e *Encounter, who, name, ends string, left int) {
	t.Helper()
	for _, c := range e.View(true).Combatants {
		if c.Name != who {
			continue
		}
		for _, cd := range c.Conditions {
			if cd.Name != name {
				continue
			}
			got := -1
			if cd.RoundsLeft != nil {
				got = *cd.RoundsLeft
			}
			if cd.Ends != ends || got != left {
				t.Errorf("%s on %s: %q, %d left; want %q, %d left", name, who, cd.Ends, got, ends, left)
			}
			return
		}
	}
	t.Errorf("%s has no condition %s", who, name)
}

// TestPlayersTurnPinnedDuringHiddenTurn: during a hidden turn the players
// see the turn of the combatant after it, as it was when the hidden turn
// began: defeating that combatant then does not move the turn they see
// (without the hidden combatant it would be that combatant's own turn,
// which a defeat does not end), and a new one added before it does not
// take it. The next turn, and the next hidden turn, see afresh.
func TestPlayersTurnPinnedDuringHiddenTurn(t *testing.T) {
	f := newFight(t, Generic{})
	e := f.e
	for _, c := range []Combatant{
		{Name: "Shade", NPC: true, Hidden: true, Stats: map[string]int{"initiative": 20}, Resources: map[string]int{"hp": 5}},
		{Name: "Gob", NPC: true, Stats: map[string]int{"initiative": 15}, Resources: map[string]int{"hp": 3}},
		{Name: "Brom", Owner: "u1", Stats: map[string]int{"initiative": 10}, Resources: map[string]int{"hp": 12}},
	} {
		f.do(e.Add(f.p, nil, "gm", c))
	}
	f.do(e.Begin(f.p, nil, "gm"))
	players := func(want string) {
		t.Helper()
		if c, _ := e.PlayersTurn(); c == nil || c.Name != want {
			t.Errorf("the players see %v's turn, want %s's", c, want)
		}
	}
	players("Gob")
	f.do(e.Damage(f.p, "gm", "Gob", 3, ""))
	if !f.combatant("Gob").Defeated {
		t.Fatal("Gob is not defeated")
	}
	players("Gob")
	f.do(e.Add(f.p, nil, "gm", Combatant{Name: "Imp", NPC: true, Stats: map[string]int{"initiative": 18}, Resources: map[string]int{"hp": 2}}))
	players("Gob")
	// The snapshot keeps the pin.
	restored, err := Restore(f.steps[len(f.steps)-1].snap)
	if err != nil {
		t.Fatal(err)
	}
	if c, _ := restored.PlayersTurn(); c == nil || c.Name != "Gob" {
		t.Errorf("after a restore the players see %v's turn, want Gob's", c)
	}
	f.do(e.Next(f.p, "gm"))
	players("Imp")
	if e.Pinned != nil {
		t.Errorf("a visible turn keeps a pin: %+v", e.Pinned)
	}
}
