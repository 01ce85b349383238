package arc

import (
	"strings"
	"testing"

	"github.com/tablehand/tablehand/rules/encounter"
)

// TestGivenInitiativeRefused: arc has no initiative score ("the
// declarations are in ascending order of State of Mind, from the
// character with the lowest score up to the highest one"): a given one is
// refused with that rule.
func TestGivenInitiativeRefused(t *testing.T) {
	p := NewPolicy(DefaultConfig())
	e := encounter.New(SystemName)
	c := encounter.Combatant{Name: "Mira", Stats: map[string]int{"som": 5, encounter.StatGiven: 12}}
	_, err := e.Add(p, nil, "gm", c)
	if err == nil || !strings.Contains(err.Error(), "arc has no initiative score: actions are declared in ascending order of State of Mind") {
		t.Errorf("Add with a given initiative: %v, want the rule", err)
	}
	delete(c.Stats, encounter.StatGiven)
	if _, err := e.Add(p, nil, "gm", c); err != nil {
		t.Errorf("Add without: %v", err)
	}
}
