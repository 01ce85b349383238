package arc

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/db"
	rules "github.com/tablehand/tablehand/rules/arc"
	"github.com/tablehand/tablehand/rules/dice"
)

// noSheets is a character store without characters.
type noSheets struct{ kit.CharacterStore }

func (noSheets) CharactersNamed(ctx context.Context, guildID, name string) ([]db.Character, error) {
	return nil, nil
}

func (noSheets) Characters(context.Context, string, string, string, string, int) ([]db.Character, error) {
	return nil, nil
}

// newRouter is a router with /arc alone, on default rules, without
// characters or a roll log: enough for mistakes.
func newRouter() *kit.Router {
	roller := dice.NewRandom(rand.New(rand.NewPCG(1, 2)))
	r := kit.NewRouter(nil, nil)
	deps := kit.NewDeps(nil, kit.Rules{rules.SystemName: rules.DefaultConfig()})
	deps.Roller = func() dice.Roller { return roller }
	deps.Characters = noSheets{}
	env := &kit.Env{Deps: deps, Router: r}
	Mount(env, r)
	return r
}

// Every subcommand has a handler, and every option that autocompletes a
// suggester (register panics otherwise).
func TestRoutes(t *testing.T) {
	r := newRouter()
	for _, line := range []string{"/arc check threshold:easy", "/arc opposed", "/arc reaction", "/arc order who:x", "/arc move"} {
		req, err := r.ParseLine(line)
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		if _, err := r.Handle(context.Background(), req); err != nil {
			if _, ok := kit.AsUserError(err); !ok {
				t.Errorf("%s: %v, want a route answering with the user's mistake", line, err)
			}
		}
	}
}

// /arc names a mistake in the options before one in `dice:`, which it
// reads last, just before the dice roll (see pipeline).
func TestOptionsBeforeDice(t *testing.T) {
	tests := []struct{ line, want string }{
		{"/arc check ks:4 us:3 threshold:average dice:x", "/arc check needs es: give es:<number>, or character:<name> to read it from a sheet (example: /arc check threshold:average ks:7 us:4 es:5)"},
		{"/arc check ks:4 us:3 es:5 threshold:easy dice:x", `dice: "x" is not a die face`},
		{"/arc opposed ks:7 us:4 es:5 dice:x", "/arc opposed needs target_ks: give target_ks:<number>, or target:<name> to read it from the opponent's sheet"},
		{"/arc reaction dice:x", "/arc reaction needs som: give som:<number>, or character:<name> to read it from a sheet"},
		{`/arc order who:"Bob som=4" dice:x`, "Bob needs empathy"},
		{`/arc order who:"Bob som=4 emp=1 per=2" surprised:Al dice:x`, `surprised: "Al" is not in who:`},
	}
	r := newRouter()
	for _, tt := range tests {
		req, err := r.ParseLine(tt.line)
		if err != nil {
			t.Fatalf("%s: %v", tt.line, err)
		}
		_, err = r.Handle(context.Background(), req)
		ue, ok := kit.AsUserError(err)
		if !ok || !strings.HasPrefix(ue.Msg, tt.want) {
			t.Errorf("%s: err = %v, want a user error starting %q", tt.line, err, tt.want)
		}
	}
}
