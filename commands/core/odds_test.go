package core

import (
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
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
