package core

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/rules/dice"
)

func TestOddsDistJSON(t *testing.T) {
	js, err := json.Marshal(OddsDist{{2, 0.25}, {3, 0.5}, {10, 0.25}, {-1, 1e-200}})
	if err != nil {
		t.Fatal(err)
	}
	// In the order given, increasing values; not sorted as strings.
	if got, want := string(js), `{"2":0.25,"3":0.5,"10":0.25,"-1":1e-200}`; got != want {
		t.Errorf("%s, want %s", got, want)
	}
	if js, err := json.Marshal(OddsDist{}); err != nil || string(js) != "{}" {
		t.Errorf("empty: %s, %v", js, err)
	}
}

// Wide distributions are worked out a few at a time: while every slot is
// taken, /odds 1000d1000 waits (and gives up with its request), and a
// narrow one such as 3d6 goes on at once.
func TestBigOddsWaitForASlot(t *testing.T) {
	deps := kit.NewDeps(nil, nil)
	deps.Roller = func() dice.Roller { return dice.NewRandom(rand.New(rand.NewPCG(1, 2))) }
	h := &handlers{Env: &kit.Env{Deps: deps}, bigOdds: make(chan struct{}, 1)}
	ask := func(ctx context.Context, expr string) (kit.Response, error) {
		return h.odds(ctx, &kit.Request{Options: kit.Options{"expression": expr}})
	}
	h.bigOdds <- struct{}{} // every slot taken
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ask(ctx, "1000d1000"); !errors.Is(err, context.Canceled) {
		t.Fatalf("1000d1000 with every slot taken and its request gone: %v; want it to have waited and given up", err)
	}
	if resp, err := ask(ctx, "3d6"); err != nil || resp.Result.(OddsResult).Mean != 10.5 {
		t.Fatalf("3d6 with every slot taken: %v, %+v; want it worked out at once", err, resp.Result)
	}
	<-h.bigOdds
	resp, err := ask(context.Background(), "1000d1000")
	if err != nil || !resp.Result.(OddsResult).Exact {
		t.Fatalf("1000d1000 with a slot free: %v, %+v", err, resp.Result)
	}
	if len(h.bigOdds) != 0 {
		t.Errorf("the slot was not given back")
	}
}

// TestOddsRangeAndExactness: the range an answer shows is the roll's
// whole range, "Exact" is said only of what is exact, and an estimate
// lists no most likely values its rolls cannot rank.
func TestOddsRangeAndExactness(t *testing.T) {
	deps := kit.NewDeps(nil, nil)
	deps.Roller = func() dice.Roller { return dice.NewRandom(rand.New(rand.NewPCG(1, 2))) }
	h := &handlers{Env: &kit.Env{Deps: deps}, bigOdds: make(chan struct{}, 1)}
	sixth16 := math.Pow(1.0/6, 16) // a d6 exploding a 16th time in a row
	for _, tt := range []struct {
		expr, rangeName, rangeValue string // rangeValue: a prefix
		likelyName, footer          string
		cut                         float64
		exact                       bool
	}{
		// The lowest total of 1000d6! is 1000, though the values worked
		// out start at 1601 (6^-1000 is 0 in a float64); each die
		// explodes at most 100 times: 1000·606. Explosions are followed
		// to 15 in a row, which cuts at most 1000·(1/6)^16 = 3.5e-10.
		{"1000d6!", "Range", "at least 1000, at most 606000 (a die explodes at most 100 times in a row); 99.9% of totals are ",
			"Most likely", "Exact to 1 in 10^9: an explosion is followed until a longer chain is less likely than 1 in 10^12", 1000 * sixth16, true},
		{"3d6!", "Range", "at least 3, at most 1818 (a die explodes at most 100 times in a row); 99.9% of totals are 3 to ",
			"Most likely", "Exact to 1 in 10^11: an explosion is followed until a longer chain is less likely than 1 in 10^12", 3 * sixth16, true},
		{"1d20", "Range", "1 to 20", "Most likely", "Exact", 0, true},
		{"4d6kh3", "Range", "3 to 18", "Most likely", "Exact", 0, true},
		// 100,000 rolls of 2d1000000: each total a few times at most.
		{"2d1000000", "Range", "2 to 2000000 (seen in 100,000 rolls: ",
			"Middle 90% of rolls (estimated from 100,000 rolls)", "2d1000000 estimated from 100,000 rolls: beyond what is worked out exactly", 0, false},
		// 8d6!kh3: its extra dice may be kept or dropped, so it is
		// estimated and its whole range is not worked out; its 5th
		// likeliest total came up over 10,000 times in 100,000.
		{"8d6!kh3", "Range seen in 100,000 rolls (not the whole range)", "",
			"Most likely (estimated from 100,000 rolls)", "8d6!kh3 estimated from 100,000 rolls: beyond what is worked out exactly", 0, false},
	} {
		resp, err := h.odds(context.Background(), &kit.Request{Options: kit.Options{"expression": tt.expr}})
		if err != nil {
			t.Fatalf("%s: %v", tt.expr, err)
		}
		e := resp.Embeds[0]
		if f := e.Fields[2]; f.Name != tt.rangeName || !strings.HasPrefix(f.Value, tt.rangeValue) {
			t.Errorf("%s: range field %q: %q; want %q: %q...", tt.expr, f.Name, f.Value, tt.rangeName, tt.rangeValue)
		}
		if f := e.Fields[3]; f.Name != tt.likelyName {
			t.Errorf("%s: field %q, want %q", tt.expr, f.Name, tt.likelyName)
		}
		if e.Footer != tt.footer {
			t.Errorf("%s: footer %q, want %q", tt.expr, e.Footer, tt.footer)
		}
		res := resp.Result.(OddsResult)
		cut := 0.0
		if res.PCut != nil {
			cut = *res.PCut
		}
		if res.Exact != tt.exact || math.Abs(cut-tt.cut) > 1e-9*tt.cut {
			t.Errorf("%s: exact %v, p_cut %g; want %v, %g", tt.expr, res.Exact, cut, tt.exact, tt.cut)
		}
	}
}
