package kit

import (
	"context"
	"strings"
	"testing"
)

func mountPanics(cmd Command, rt Routes) (msg string) {
	defer func() {
		if p := recover(); p != nil {
			msg = p.(string)
		}
	}()
	NewRouter(nil, nil).Mount(cmd, rt)
	return ""
}

// Mount routes what the definition holds and panics, at start, where the
// definition and the routes disagree.
func TestMount(t *testing.T) {
	answer := func(context.Context, *Request) (Response, error) { return Response{Content: "ok"}, nil }
	cmd := Command{Name: "duel", Options: []Option{
		{Type: SubCommand, Name: "strike", Options: []Option{{Type: String, Name: "character", Autocomplete: true}}},
		{Type: SubCommandGroup, Name: "stance", Options: []Option{{Type: SubCommand, Name: "set"}}},
	}}
	full := Routes{
		Handlers: map[string]Handler{"strike": answer, "stance/set": answer},
		GMOnly:   []string{"stance/set"},
		Suggest:  map[string]Handler{"character": answer},
	}
	r := NewRouter(nil, nil)
	r.Mount(cmd, full)
	if !r.HasRoute("duel/strike") || !r.HasRoute("duel/stance/set") || !r.HasAutocomplete("duel/strike", "character") {
		t.Error("Mount left out a route")
	}
	if _, err := r.Handle(context.Background(), &Request{Kind: KindCommand, Path: "duel/stance/set"}); err != ErrNotGM {
		t.Errorf("a GM-only subcommand run by a player: %v", err)
	}
	for _, tt := range []struct {
		rt   Routes
		want string
	}{
		{Routes{Handlers: map[string]Handler{"strike": answer}, Suggest: full.Suggest}, "no handler for /duel stance set"},
		{Routes{Handlers: map[string]Handler{"strike": answer, "stance/set": answer, "parry": answer}, Suggest: full.Suggest}, "/duel has no subcommand parry"},
		{Routes{Handlers: full.Handlers}, "no suggestions for character: of /duel strike"},
	} {
		if got := mountPanics(cmd, tt.rt); !strings.Contains(got, tt.want) {
			t.Errorf("Mount panicked with %q, want %q", got, tt.want)
		}
	}
}
