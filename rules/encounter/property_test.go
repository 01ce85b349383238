package encounter

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"strconv"
	"testing"

	"github.com/tablehand/tablehand/rules/dice"
)

// TestRandomOperations runs random sequences of operations, good and bad,
// and checks after each that nothing panicked and the invariants hold.
func TestRandomOperations(t *testing.T) {
	seeds := 300
	if testing.Short() {
		seeds = 30
	}
	for seed := range uint64(seeds) {
		runRandom(t, seed, 300)
	}
}

func FuzzOperations(f *testing.F) {
	for _, s := range []uint64{0, 1, 42, 1 << 40} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, seed uint64) { runRandom(t, seed, 200) })
}

// runRandom applies n random operations to an encounter and checks:
//
//   - an operation either succeeds or fails with an *Error (a mistake of
//     the user's) and leaves the encounter deeply equal to what it was;
//   - Validate holds: the turn index is in range, IDs and names unique;
//   - the round never decreases, except by one through Prev, or through a
//     restore;
//   - a snapshot restores to a deeply equal encounter, then and later.
func runRandom(t *testing.T, seed uint64, n int) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 0x7ab1e))
	roller := dice.NewRandom(rand.New(rand.NewPCG(seed, 1)))
	policies := []Policy{Generic{}, Generic{Base{CounterReset: ResetRound}}}
	p := policies[rng.IntN(len(policies))]
	e := New("")
	names := []string{"Aria", "Bram", "Goblin 1", "Goblin 2", "Ogre", "Shade", "nobody"}
	name := func() string { return names[rng.IntN(len(names))] }
	var history []step
	for i := range n {
		before := e.Clone()
		var ev Event
		var err error
		op := rng.IntN(20)
		switch op {
		case 0, 1:
			c := Combatant{Name: name(), NPC: rng.IntN(2) == 0, Hidden: rng.IntN(4) == 0, RevealOnTurn: rng.IntN(2) == 0,
				Stats: map[string]int{"init": rng.IntN(7) - 2}, Resources: map[string]int{"hp": rng.IntN(20)}}
			if rng.IntN(3) == 0 {
				c.Stats["initiative"] = rng.IntN(20)
			}
			ev, err = e.Add(p, roller, "gm", c)
		case 2:
			ev, err = e.Remove(p, "gm", name())
		case 3:
			ev, err = e.Begin(p, roller, "gm")
		case 4, 5, 6, 7:
			ev, err = e.Next(p, "gm")
		case 8:
			ev, err = e.Prev("gm")
		case 9:
			ev, err = e.Skip(p, "gm", name())
		case 10:
			ev, err = e.Move("gm", name(), rng.IntN(8)-1)
		case 11:
			after := ""
			if rng.IntN(2) == 0 {
				after = name()
			}
			ev, err = e.Delay(p, "gm", name(), after)
		case 12:
			ev, err = e.Damage(p, "gm", name(), rng.IntN(12)-2, "")
		case 13:
			ev, err = e.Heal(p, "gm", name(), rng.IntN(12)-2)
		case 14:
			cd := Condition{Name: []string{"stunned", "blessed", "prone"}[rng.IntN(3)], Rounds: rng.IntN(5) - 1,
				Relative: []Anchor{"", OnBearer, OnSource}[rng.IntN(3)], Ends: []Edge{"", AtStart, AtEnd}[rng.IntN(3)]}
			source := ""
			if rng.IntN(2) == 0 {
				source = name()
			}
			ev, err = e.AddCondition("gm", name(), cd, source)
		case 15:
			ev, err = e.RemoveCondition("gm", name(), "stunned")
		case 16:
			ev, err = e.Count("gm", name(), "reactions", rng.IntN(4)-1)
		case 17:
			ev, err = e.SetDefeated("gm", name(), rng.IntN(2) == 0)
		case 18:
			ev, err = e.Reveal("gm", name())
		case 19:
			if rng.IntN(10) == 0 || len(history) == 0 {
				ev, err = e.End(p, "gm")
			} else {
				// Undo to a random earlier state and go on from there.
				h := history[rng.IntN(len(history))]
				r, rerr := Restore(h.snap)
				if rerr != nil {
					t.Fatalf("seed %d, op %d: restore: %v", seed, i, rerr)
				}
				if !reflect.DeepEqual(r, h.state) {
					t.Fatalf("seed %d, op %d: restored %s\nwant %s", seed, i, mustJSON(t, r), mustJSON(t, h.state))
				}
				e = r
				continue
			}
		}
		where := "seed " + strconv.FormatUint(seed, 10) + ", op " + strconv.Itoa(i) + " (" + strconv.Itoa(op) + ")"
		if err != nil {
			var ee *Error
			if !errors.As(err, &ee) {
				t.Fatalf("%s: not a user's mistake: %v", where, err)
			}
			if !reflect.DeepEqual(e, before) {
				t.Fatalf("%s: failed with %q but changed the encounter", where, err)
			}
			continue
		}
		if err := e.Validate(); err != nil {
			t.Fatalf("%s: %s: %v\n%s", where, ev.Kind, err, mustJSON(t, e))
		}
		if e.Begun && len(e.Combatants) > 0 && (e.Turn < 0 || e.Turn >= len(e.Combatants)) {
			t.Fatalf("%s: turn %d of %d", where, e.Turn, len(e.Combatants))
		}
		switch {
		case ev.Kind == KindPrev && e.Round < before.Round-1,
			ev.Kind != KindPrev && e.Round < before.Round:
			t.Fatalf("%s: %s took the round from %d to %d", where, ev.Kind, before.Round, e.Round)
		}
		if ev.Round != e.Round || ev.Kind == "" || ev.Summary == "" {
			t.Fatalf("%s: event %s", where, mustJSON(t, ev))
		}
		snap, err := e.Snapshot()
		if err != nil {
			t.Fatal(err)
		}
		history = append(history, step{state: e.Clone(), snap: snap})
	}
	for i, h := range history {
		r, err := Restore(h.snap)
		if err != nil || !reflect.DeepEqual(r, h.state) {
			t.Fatalf("seed %d: snapshot %d does not restore: %v", seed, i, err)
		}
	}
}
