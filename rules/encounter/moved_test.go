package encounter_test

import (
	"testing"

	"github.com/tablehand/tablehand/rules/encounter"
)

// "A typed /init next that would end a turn the caller did not see (the
// turn moved in the last few seconds, by someone else) asks instead of
// acting" (issue 21). Times are milliseconds.
func TestUnseen(t *testing.T) {
	const at = int64(1_800_000_000_000)
	const w = encounter.DefaultNextWindow
	for _, tt := range []struct {
		name  string
		moved encounter.Moved
		user  string
		now   int64
		want  bool
	}{
		{"never moved", encounter.Moved{}, "gm", at, false},
		{"moved by the same user", encounter.Moved{By: "gm", At: at}, "gm", at + 1000, false},
		{"moved by another a moment ago", encounter.Moved{By: "alice", At: at}, "gm", at + 1000, true},
		{"moved by another at the same instant", encounter.Moved{By: "alice", At: at}, "gm", at, true},
		{"moved by another after it was typed", encounter.Moved{By: "alice", At: at}, "gm", at - 200, true},
		{"moved by another long after it was typed", encounter.Moved{By: "alice", At: at}, "gm", at - w, false},
		{"just inside the window", encounter.Moved{By: "alice", At: at}, "gm", at + w - 1, true},
		{"at the window's end", encounter.Moved{By: "alice", At: at}, "gm", at + w, false},
		{"long ago", encounter.Moved{By: "alice", At: at}, "gm", at + 3_600_000, false},
	} {
		e := encounter.New("")
		e.Moved = tt.moved
		if got := e.Unseen(tt.user, tt.now, w); got != tt.want {
			t.Errorf("%s: Unseen = %v, want %v", tt.name, got, tt.want)
		}
	}
	e := encounter.New("")
	e.Moved = encounter.Moved{By: "alice", At: at}
	if e.Unseen("gm", at, 0) {
		t.Error("a window of 0 sees every turn")
	}
}
