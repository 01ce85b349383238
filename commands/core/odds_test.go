package core

import (
	"encoding/json"
	"testing"
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
