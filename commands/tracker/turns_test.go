package tracker

import (
	"testing"

	"github.com/tablehand/tablehand/commands/kit"
)

// A tracker button names the turn it was shown for; anything else is a
// button that no longer works.
func TestParseButton(t *testing.T) {
	for _, tc := range []struct {
		id   string
		want button
		ok   bool
	}{
		{"init:next:12:3.4", button{kind: "next", encounter: 12, round: 3, combatant: 4}, true},
		{"init:endturn:1:1.2", button{kind: "endturn", encounter: 1, round: 1, combatant: 2}, true},
		{"init:next:12:3", button{}, false},
		{"init:next:x:3.4", button{}, false},
		{"init:skip:12:3.4", button{}, false},
		{"init:next:12", button{}, false},
	} {
		got, err := parseButton(tc.id)
		if tc.ok != (err == nil) || got != tc.want {
			t.Errorf("parseButton(%q) = %+v, %v; want %+v, ok %v", tc.id, got, err, tc.want, tc.ok)
		}
		if err != nil {
			if ue, ok := kit.AsUserError(err); !ok || ue.Msg != "this button no longer works: use /init list" {
				t.Errorf("parseButton(%q): %v, not the user's mistake", tc.id, err)
			}
		}
	}
}
