package faction

import (
	"errors"
	"fmt"
	"testing"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/db"
	"github.com/tablehand/tablehand/rules/dice"
	rules "github.com/tablehand/tablehand/rules/faction"
)

// factionError: the rules' own mistakes and a bad dice: value are the
// user's, shown as worded; anything else stays ours.
func TestFactionError(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		user bool
		msg  string
	}{
		{"rules mistake", fmt.Errorf("%w: no such asset", rules.ErrUnknownAsset), true, "unknown asset: no such asset"},
		{"user error", kit.Errorf("there is no faction %q", "Red"), true, `there is no faction "Red"`},
		{"dice", &dice.Error{Pos: -1, Msg: "dice: 1 more needed"}, true, "dice: 1 more needed"},
		{"ours", errors.New("disk on fire"), false, ""},
	} {
		err := factionError(tc.err)
		ue, ok := kit.AsUserError(err)
		if ok != tc.user || ok && ue.Msg != tc.msg {
			t.Errorf("%s: %v (user %v), want user %v %q", tc.name, err, ok, tc.user, tc.msg)
		}
	}
	if factionError(nil) != nil {
		t.Error("factionError(nil) is not nil")
	}
}

// change.result: no campaign first, then the change's own error without
// the store's wrapping, then the store's.
func TestChangeResult(t *testing.T) {
	mistake := kit.Errorf("Red's home must be one of its habitats")
	ch := &change{fn: func(*rules.Campaign) error { return mistake }}
	if err := ch.run(&Campaign{Campaign: &rules.Campaign{}}); err != mistake {
		t.Fatalf("run: %v", err)
	}
	if err := ch.result(fmt.Errorf("update faction campaign: %w", mistake)); err != mistake {
		t.Errorf("the change's mistake: %v", err)
	}
	if err := ch.result(fmt.Errorf("load: %w", db.ErrNotFound)); err != NoCampaign {
		t.Errorf("no campaign: %v", err)
	}
	ok := &change{}
	store := errors.New("disk full")
	if err := ok.result(store); err != store {
		t.Errorf("the store's error: %v", err)
	}
}

func TestButtonIDs(t *testing.T) {
	for _, tc := range []struct {
		id   string
		a, b int64
		ok   bool
	}{
		{"fans:12:1", 12, 1, true},
		{"fapply:3:1736186400", 3, 1736186400, true},
		{"fans:12", 0, 0, false},
		{"fans:x:1", 0, 0, false},
		{"fans:1:2:3", 0, 0, false},
	} {
		a, b, ok := buttonIDs(tc.id)
		if ok != tc.ok || ok && (a != tc.a || b != tc.b) {
			t.Errorf("%s: %d %d %v, want %d %d %v", tc.id, a, b, ok, tc.a, tc.b, tc.ok)
		}
	}
}
