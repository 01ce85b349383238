package encounter

import (
	"errors"
	"fmt"
	"testing"
)

// counting is the Generic policy that logs its turn and round hooks.
type counting struct {
	Generic
	log *[]string
}

func (p counting) StartTurn(e *Encounter, c *Combatant) []Line {
	*p.log = append(*p.log, fmt.Sprintf("start %s %d", c.Name, e.Round))
	return nil
}

func (p counting) EndTurn(e *Encounter, c *Combatant) []Line {
	*p.log = append(*p.log, fmt.Sprintf("end %s %d", c.Name, e.Round))
	return nil
}

func (p counting) EndRound(e *Encounter) []Line {
	*p.log = append(*p.log, fmt.Sprintf("round %d", e.Round))
	return []Line{{Text: "Everyone catches their breath."}}
}

// TestPrevReplays: going back and forward again runs every hook once, even
// when a combatant is defeated in between.
func TestPrevReplays(t *testing.T) {
	var log []string
	p := counting{log: &log}
	e := small(t, true) // Aria, Goblin, Bram; Aria's turn
	mustDo(t)(e.Next(p, "gm"))
	mustDo(t)(e.Next(p, "gm")) // Bram, round 1
	mustDo(t)(e.Next(p, "gm")) // Aria, round 2
	log = nil
	mustDo(t)(e.Prev("gm")) // Bram, round 1
	mustDo(t)(e.Prev("gm")) // Goblin, round 1
	if e.Round != 1 || e.Current().Name != "Goblin" {
		t.Fatalf("after two prevs: round %d, %s", e.Round, e.Current().Name)
	}
	for _, op := range []func(*Encounter) (Event, error){
		func(e *Encounter) (Event, error) { return e.Move("gm", "Bram", 1) },
		func(e *Encounter) (Event, error) { return e.Delay(p, "gm", "Goblin", "") },
		func(e *Encounter) (Event, error) { return e.Add(p, nil, "gm", Combatant{Name: "Ogre"}) },
		func(e *Encounter) (Event, error) { return e.Remove(p, "gm", "Aria") },
	} {
		_, err := op(e)
		if !errors.Is(err, ErrInvalid) || err.Error() != "the turn was moved back with /init prev: first go forward to Aria's turn, round 2, with /init next" {
			t.Errorf("while rewound: %v", err)
		}
	}
	// Bram falls before the fight comes back to where it was.
	mustDo(t)(e.Damage(p, "gm", "Goblin", 7, ""))
	mustDo(t)(e.SetDefeated("gm", "Bram", true))
	ev := mustDo(t)(e.Next(p, "gm"))
	if ev.Summary != "Round 2 begins: Aria's turn again." || len(log) != 0 {
		t.Errorf("replay: %s; hooks %q", mustJSON(t, ev), log)
	}
	mustDo(t)(e.SetDefeated("gm", "Bram", false))
	mustDo(t)(e.Next(p, "gm")) // Goblin is defeated: Bram
	mustDo(t)(e.Next(p, "gm")) // round 3
	want := []string{"end Aria 2", "start Bram 2", "end Bram 2", "round 2", "start Aria 3"}
	if fmt.Sprint(log) != fmt.Sprint(want) {
		t.Errorf("hooks %q\nwant  %q", log, want)
	}
}

// TestPrevThenDefeatTheFurthest: when the turn the fight had reached is
// of a combatant defeated meanwhile, the fight goes on past it and the
// round's end runs, once.
func TestPrevThenDefeatTheFurthest(t *testing.T) {
	var log []string
	p := counting{log: &log}
	e := small(t, true)
	mustDo(t)(e.Next(p, "gm"))
	mustDo(t)(e.Next(p, "gm")) // Bram, round 1
	mustDo(t)(e.Prev("gm"))    // Goblin
	log = nil
	mustDo(t)(e.SetDefeated("gm", "Bram", true))
	ev := mustDo(t)(e.Next(p, "gm"))
	if ev.Summary != "Round 2 begins: Aria's turn." || e.Reached != (Mark{}) {
		t.Errorf("next: %s, reached %v", mustJSON(t, ev), e.Reached)
	}
	if found, _ := hasLine(ev, "Everyone catches their breath."); !found {
		t.Errorf("no end of round: %s", mustJSON(t, ev))
	}
	if want := "[round 1 start Aria 2]"; fmt.Sprint(log) != want {
		t.Errorf("hooks %q, want %s", log, want)
	}
}
