package xhalem

import (
	"slices"
	"testing"
)

// The text's worked example of flanking, attacker by attacker.
func TestFlanks(t *testing.T) {
	tests := []struct {
		rule   string
		me     Position
		allies []Position
		want   bool
	}{
		{"You and your ally would have to be directly across from one another with the opponent between you.", Front, []Position{Back}, true},
		{"Flanking would provide both attackers advantage on an attack.", Back, []Position{Front}, true},
		{"If another ally joins the fight, the third attacker does not get an advantage.", Left, []Position{Front, Back}, false},
		{"If the third attacker is striking from directly above or directly below the flanked character (0-10 feet/hexes distance), then the third attacker has an advantage.", Above, []Position{Front, Back}, true},
		{"If the third attacker is striking from directly above or directly below the flanked character", Below, []Position{Left, Right}, true},
		{"If a target is being attacked from the front, back, left, and right sides, all four attackers will have an advantage", Left, []Position{Front, Back, Right}, true},
		{"If a target is being attacked from the front, back, left, and right sides, all four attackers will have an advantage", Right, []Position{Front, Back, Left}, true},
		{"If a fifth ally joins and they attack from directly above or below the target, they will have an advantage.", Above, []Position{Front, Back, Left, Right}, true},
		{"An ally that stands directly beside another ally to attack an opponent will never receive an advantage", Left, []Position{Front}, false},
		{"... unless another ally joins the fight directly across.", Left, []Position{Front, Right}, true},
		{"above with nobody flanking is not flanking", Above, []Position{Front}, false},
		{"above and below are directly across from each other", Above, []Position{Below}, true},
		{"alone", Front, nil, false},
	}
	for _, tt := range tests {
		if got := Flanks(tt.me, tt.allies); got != tt.want {
			t.Errorf("Flanks(%s, %v) = %v, want %v (%s)", tt.me, tt.allies, got, tt.want, tt.rule)
		}
	}
}

func TestParsePositions(t *testing.T) {
	got, err := ParsePositions("back, LEFT;above")
	if err != nil || !slices.Equal(got, []Position{Back, Left, Above}) {
		t.Errorf("ParsePositions = %v, %v", got, err)
	}
	if _, err := ParsePositions("back,behind"); err == nil {
		t.Error("an unknown position: no error")
	}
}
