package commands

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/commands/kit/kittest"
)

// "Two /init next a moment apart (two GMs, or a player ending their turn
// as the GM types) must not skip a turn" (issue 21): an /init next typed
// less than encounter.DefaultNextWindow after someone else moved the turn
// asks, with a button that ends the new turn; turn: ends only the turn it
// names. The clock is the test's.
func TestInitNextAMomentApart(t *testing.T) {
	it := newInitTable(t)
	clock := time.Date(2026, 11, 27, 20, 0, 0, 0, time.UTC)
	it.now = func() time.Time { return clock }
	it.restart()
	it.setup() // the hidden Assassin's turn
	// typed runs a line as typed on Discord: its user may not have seen
	// the answers before it.
	typed := func(user, line string) (kit.Response, error) {
		t.Helper()
		req := kittest.Request(t, it.R, user, line)
		req.SeenAll = false
		return it.R.Handle(context.Background(), req)
	}
	mustTyped := func(user, line string) kit.Response {
		t.Helper()
		resp, err := typed(user, line)
		if err != nil {
			t.Fatalf("%s %s: %v", user, line, err)
		}
		return resp
	}
	if v := view(t, mustTyped("gm", "/init next")); turnOf(v) != "Aria" {
		t.Fatalf("the GM's next: %s's turn", turnOf(v))
	}
	// A moment after the GM started it, alice has not seen her turn.
	clock = clock.Add(time.Second)
	if resp := mustTyped("alice", "/init next"); !resp.Ephemeral || !strings.Contains(resp.Content, "it is now **Aria**'s turn") {
		t.Errorf("alice a second after her turn began: %+v", resp)
	}
	// Half a minute later she ends it; the GM, typing /init next at the
	// same time to end it too, is asked instead of ending Bram's.
	clock = clock.Add(30 * time.Second)
	if v := view(t, mustTyped("alice", "/init next")); turnOf(v) != "Bram" {
		t.Fatalf("alice's next: %s's turn", turnOf(v))
	}
	before := it.Stored()
	clock = clock.Add(2 * time.Second)
	ask := mustTyped("gm", "/init next")
	want := "The turn moved 2 seconds ago, by someone else: it is now **Bram**'s turn, so your /init next did nothing."
	if !ask.Ephemeral || !strings.HasPrefix(ask.Content, want) || turnOf(view(t, ask)) != "Bram" {
		t.Errorf("the GM's next a moment later:\n got %+v\nwant %q", ask, want)
	}
	if after := it.Stored(); after != before {
		t.Errorf("the asking next changed the fight: seq %d -> %d", before.Seq, after.Seq)
	}
	if len(ask.Rows) != 1 || len(ask.Rows[0]) != 1 || ask.Rows[0][0].Label != "End Bram's turn" || !strings.HasPrefix(ask.Rows[0][0].CustomID, "init:nextasked:") {
		t.Fatalf("the ask's button: %+v", ask.Rows)
	}
	// turn: names the turn to end: another's is refused, its own ended.
	if _, err := typed("gm", "/init next turn:Aria"); err == nil || err.Error() != "it is Bram's turn now, not Aria's: the turn has moved on, so nothing was done (to end Bram's turn: /init next turn:Bram)" {
		t.Errorf("turn:Aria on Bram's turn: %v", err)
	}
	// The button ends Bram's turn, and tells the channel as /init next
	// does (the ask is the GM's alone); only once: a second click is stale.
	click := it.Must("gm", "click:"+ask.Rows[0][0].CustomID)
	if v := view(t, click); turnOf(v) != "Goblin" || click.Ephemeral || click.Type == kit.UpdateMessage || !strings.Contains(click.Content, "Goblin's turn") {
		t.Errorf("the ask's button: %+v", click)
	}
	if _, err := it.Do("gm", "click:"+ask.Rows[0][0].CustomID); err == nil || !strings.Contains(err.Error(), "out of date") {
		t.Errorf("the ask's button twice: %v", err)
	}
	// The GM's own move a moment ago does not ask; nor does turn:.
	clock = clock.Add(time.Second)
	if v := view(t, mustTyped("gm", "/init next turn:goblin")); turnOf(v) != "Assassin" {
		t.Errorf("turn:goblin: %s's turn", turnOf(v))
	}
	if v := view(t, mustTyped("gm", "/init next")); turnOf(v) != "Aria" {
		t.Errorf("round 2, the Assassin's turn ended: %s's turn", turnOf(v))
	}
	// bob typing as the turn moves to Aria: not his to end, as before.
	if _, err := typed("bob", "/init next"); err == nil || !strings.Contains(err.Error(), "it is Aria's turn, not yours") {
		t.Errorf("bob on Aria's turn: %v", err)
	}
	// Past the window, alice ends her turn without being asked.
	clock = clock.Add(10 * time.Second)
	if v := view(t, mustTyped("alice", "/init next")); turnOf(v) != "Bram" {
		t.Errorf("alice past the window: %s's turn", turnOf(v))
	}
}
