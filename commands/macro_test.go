package commands

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/commands/kit/kittest"
)

// The server keeps at most 200 saved rolls of its own, apart from each
// player's 100: the 201st is refused with an example that deletes one of
// the server's, and a change of one it has is not.
func TestServerMacroLimit(t *testing.T) {
	r, _ := newCountingTable(t) // the server has one already: init
	for i := range 199 {
		kittest.Must(t, r, "gm", fmt.Sprintf("/macro set name:s%d roll:1d%d scope:server", i, i+2))
	}
	_, err := r.Handle(context.Background(), kittest.Request(t, r, "gm", "/macro set name:more roll:1d4 scope:server"))
	if ue, ok := kit.AsUserError(err); !ok || ue.Msg != "the server has 200 saved rolls, the most there may be: delete one first (example: /macro delete name:init scope:server; /macro list shows them)" {
		t.Errorf("the server's 201st: %v", err)
	}
	kittest.Must(t, r, "gm", "/macro set name:s5 roll:1d8 scope:server")
	// The GM's own are theirs, apart from the server's.
	kittest.Must(t, r, "gm", "/macro set name:more roll:1d4")
	if resp := kittest.Must(t, r, "bob", "/roll s5"); !strings.Contains(resp.Content, "s5 is the server's saved roll `1d8`") {
		t.Errorf("bob rolls the server's s5: %q", resp.Content)
	}
}

// Without a store of saved rolls, /roll reads words as stats as it
// always has, and /macro says that none are kept.
func TestNoMacroStore(t *testing.T) {
	deps := kittest.Deps(kittest.Store(t))
	deps.Macros = nil
	r := New(deps)
	_, err := r.Handle(context.Background(), kittest.Request(t, r, "alice", "/macro set name:atk roll:1d20"))
	if ue, ok := kit.AsUserError(err); !ok || !strings.Contains(ue.Msg, "keeps no saved rolls") {
		t.Errorf("/macro set without a store: %v", err)
	}
	if resp := kittest.Must(t, r, "alice", "/roll 1d20+5"); !strings.Contains(resp.Content, "rolled `1d20 + 5`") {
		t.Errorf("/roll without a store of saved rolls: %q", resp.Content)
	}
}
