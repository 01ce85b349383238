package encounter

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/tablehand/tablehand/rules/dice"
)

// fight runs operations on an encounter and keeps the state after each,
// as storage would, for the undo/redo checks.
type fight struct {
	t     *testing.T
	e     *Encounter
	p     Policy
	steps []step
}

type step struct {
	what  string
	ev    Event
	state *Encounter // a Clone of the state after
	snap  []byte     // its Snapshot
}

func newFight(t *testing.T, p Policy) *fight {
	f := &fight{t: t, e: New(p.Name()), p: p}
	f.record("new", Event{})
	return f
}

func (f *fight) record(what string, ev Event) {
	f.t.Helper()
	snap, err := f.e.Snapshot()
	if err != nil {
		f.t.Fatalf("%s: %v", what, err)
	}
	f.steps = append(f.steps, step{what: what, ev: ev, state: f.e.Clone(), snap: snap})
}

// do checks that an operation succeeded and records the state after it,
// as a step named by the event's kind.
func (f *fight) do(ev Event, err error) Event {
	f.t.Helper()
	what := string(ev.Kind)
	if err != nil {
		f.t.Fatalf("%s: %v", what, err)
	}
	if err := f.e.Validate(); err != nil {
		f.t.Fatalf("%s: invalid after: %v", what, err)
	}
	f.record(what, ev)
	return ev
}

// at checks the round, whose turn it is, and the order as the GM and the
// players see it.
func (f *fight) at(round int, turn string, gm, players []string) {
	f.t.Helper()
	v := f.e.View(true)
	if v.Round != round {
		f.t.Errorf("round %d, want %d", v.Round, round)
	}
	if got := deref(v.Turn); got != turn {
		f.t.Errorf("turn %q, want %q", got, turn)
	}
	if !slices.Equal(v.Order, gm) {
		f.t.Errorf("GM order %q, want %q", v.Order, gm)
	}
	if pv := f.e.View(false); !slices.Equal(pv.Order, players) {
		f.t.Errorf("player order %q, want %q", pv.Order, players)
	}
}

func deref(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}

func (f *fight) combatant(name string) *Combatant {
	f.t.Helper()
	c, err := f.e.Find(name)
	if err != nil {
		f.t.Fatal(err)
	}
	return c
}

// hasLine reports whether ev has a line (or summary) containing s, and
// whether it is secret.
func hasLine(ev Event, s string) (found, secret bool) {
	if strings.Contains(ev.Summary, s) {
		return true, ev.Secret
	}
	for _, l := range ev.Lines {
		if strings.Contains(l.Text, s) {
			return true, l.Secret
		}
	}
	return false, false
}

func physical(values ...int) *dice.Physical { return dice.NewPhysical(values) }

func mustJSON(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func deepEqual(t *testing.T, what string, got, want any) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s:\n got %s\nwant %s", what, mustJSON(t, got), mustJSON(t, want))
	}
}
