package commands

import (
	"testing"

	"github.com/tablehand/tablehand/rules/dice"
)

// Every stat a system reads from a sheet can be set with /character set
// and read by a roll (1d20+som): none of their names reads as dice syntax.
func TestSystemStatsAreNames(t *testing.T) {
	for _, sys := range Systems {
		var names []string
		for _, st := range sys.Stats {
			names = append(names, st.Name)
		}
		names = append(append(names, sys.OrderNeeds...), sys.Resources...)
		for _, name := range names {
			if dice.Reserved(name) {
				t.Errorf("%s: the stat %s reads as dice syntax: no sheet may hold it, no roll read it", sys.Name, name)
			}
		}
	}
}
