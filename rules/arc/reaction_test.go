package arc

import (
	"fmt"
	"testing"
)

func TestReaction(t *testing.T) {
	tests := []struct {
		rule    string
		som     int
		roll    int
		success bool
	}{
		{"If the roll is higher than SOM, the check is failed", 5, 6, false},
		{"if it is equal or lower than SOM, the check succeeds (equal)", 5, 5, true},
		{"if it is equal or lower than SOM, the check succeeds (lower)", 5, 2, true},
		{"Characters with a SOM of 10 (Exalted) always succeed a reaction check.", 10, 10, true},
		{"SOM 10 (Exalted) always succeeds", 10, 1, true},
		{"Characters with a SOM of 1 (Panicked) succeed only with a roll of 1.", 1, 1, true},
		{"SOM 1 (Panicked) fails on anything but 1", 1, 2, false},
		{"SOM 1 fails on a 10", 1, 10, false},
	}
	for _, tt := range tests {
		r := rolls(tt.roll)
		got, err := Reaction(tt.som, r)
		if err != nil {
			t.Fatalf("%s: %v", tt.rule, err)
		}
		if fmt.Sprint(r.sides) != "[10]" {
			t.Errorf("%s: rolled d%v, want one d10 (\"the result of 1d10\")", tt.rule, r.sides)
		}
		// "A failure results in a loss of the turn for the character: he
		// will only act from the following turn onwards."
		want := ReactionResult{SOM: tt.som, Roll: tt.roll, Success: tt.success, Margin: tt.som - tt.roll, LosesTurn: !tt.success}
		if got != want {
			t.Errorf("%s: %+v, want %+v", tt.rule, got, want)
		}
	}
	// Every SOM on every face: success exactly when the roll is at most SOM.
	for som := MinSOM; som <= MaxSOM; som++ {
		for roll := 1; roll <= 10; roll++ {
			got, err := ReactionOf(som, roll)
			if err != nil || got.Success != (roll <= som) {
				t.Errorf("SOM %d, roll %d: %+v %v", som, roll, got, err)
			}
		}
	}
	for _, som := range []int{0, 11, -1} {
		if _, err := Reaction(som, rolls(1)); err == nil {
			t.Errorf("SOM %d: no error", som)
		}
	}
	if _, err := ReactionOf(5, 11); err == nil {
		t.Error("a d10 showing 11: no error")
	}
}
