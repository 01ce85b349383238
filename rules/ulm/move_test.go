package ulm

import (
	"strings"
	"testing"

	"github.com/tablehand/tablehand/rules/dice"
)

// faces rolls the given faces in order, as a player's physical dice.
func faces(v ...int) Dice { return RollWith(dice.NewPhysical(v)) }

func TestMoveCelerityAndTiles(t *testing.T) {
	tests := []struct {
		rule     string
		in       MoveInput
		celerity int
		tiles    int
		momentum bool
	}{
		{"Line Step Celerity: (0|1) ... a null Celerity cost", MoveInput{Move: LineStep, Phase: Active}, 0, 0, false},
		{"Line Step: While in the Reserve Phase, it will consume 1 Reserved Slot.", MoveInput{Move: LineStep, Phase: Reserve}, 1, 0, false},
		{"Careful Step Celerity: (1|2) ... to an Adjacent Tile Center", MoveInput{Move: CarefulStep, Phase: Active}, 1, 1, false},
		{"Careful Step Celerity: (1|2), Reserve", MoveInput{Move: CarefulStep, Phase: Reserve}, 2, 1, false},
		{"Rush Celerity: (2|3) A Rush allows us to quickly move 3 Tiles.", MoveInput{Move: Rush, Phase: Active}, 2, 3, false},
		{"Rush Celerity: (2|3), Reserve", MoveInput{Move: Rush, Phase: Reserve}, 3, 3, false},
		{"Jog Celerity: (4|5) ... moving 8 Tiles, and also grants us Momentum", MoveInput{Move: Jog, Phase: Active}, 4, 8, true},
		{"Jog Celerity: (4|5), Reserve: Momentum is an Active Phase Only effect.", MoveInput{Move: Jog, Phase: Reserve}, 5, 8, false},
		{"Momentum Celerity: (1|-) we may move 3 Tiles for every 1 Action Slot spent.", MoveInput{Move: Momentum, Phase: Active, HasMomentum: true}, 1, 3, true},
		{"Momentum: 3 Tiles for every 1 Action Slot spent, 3 slots", MoveInput{Move: Momentum, Phase: Active, HasMomentum: true, Slots: 3}, 3, 9, true},
		{"Ascend/Descend Scramble Celerity: (2|3) Move up, down, or sideways 3 Tiles", MoveInput{Move: Scramble, Phase: Active, Surface: Minimal}, 2, 3, false},
		{"Ascend/Descend Free Climb Celerity: (2|3) Move ... 2 Tiles over Moderate Difficulty surfaces", MoveInput{Move: FreeClimb, Phase: Reserve, Surface: Moderate}, 3, 2, false},
		{"Ascend/Descend Careful Grip Celerity: (2|3) Move ... 1 Tile over Difficult surfaces", MoveInput{Move: CarefulGrip, Phase: Active, Surface: Difficult}, 2, 1, false},
		{"Careful Grip on an easier surface: a harder technique is allowed", MoveInput{Move: CarefulGrip, Phase: Active, Surface: Minimal}, 2, 1, false},
		{"Requires both hands and legs free or appropriate equipment: with equipment", MoveInput{Move: Scramble, Phase: Active, LimbsBusy: true, Gear: true}, 2, 3, false},
	}
	for _, tt := range tests {
		got, err := Act(tt.in, faces())
		if err != nil {
			t.Errorf("%s: %v", tt.rule, err)
			continue
		}
		if got.Celerity != tt.celerity || got.Tiles != tt.tiles || got.Momentum != tt.momentum || got.Check != nil {
			t.Errorf("%s: celerity %d, %d tiles, momentum %v, check %v; want %d, %d, %v, none",
				tt.rule, got.Celerity, got.Tiles, got.Momentum, got.Check, tt.celerity, tt.tiles, tt.momentum)
		}
	}
}

func TestMomentumNextPhase(t *testing.T) {
	// "If we end our Active Phase by spending our last available Action
	// Slot on either Jog, or Momentum, we begin our next Active Phase with
	// Momentum."
	tests := []struct {
		in   MoveInput
		want bool
	}{
		{MoveInput{Move: Jog, Phase: Active, LastSlot: true}, true},
		{MoveInput{Move: Momentum, Phase: Active, HasMomentum: true, LastSlot: true}, true},
		{MoveInput{Move: Jog, Phase: Active}, false},
		{MoveInput{Move: Rush, Phase: Active, LastSlot: true}, false},
		{MoveInput{Move: Jog, Phase: Reserve, LastSlot: true}, false},
	}
	for _, tt := range tests {
		got, err := Act(tt.in, faces())
		if err != nil {
			t.Errorf("%+v: %v", tt.in, err)
			continue
		}
		if got.MomentumNext != tt.want {
			t.Errorf("%s in %s phase, last slot %v: next phase with Momentum %v, want %v", tt.in.Move, tt.in.Phase, tt.in.LastSlot, got.MomentumNext, tt.want)
		}
	}
}

func TestJumpAndLeap(t *testing.T) {
	tests := []struct {
		rule    string
		in      MoveInput
		faces   []int
		total   int
		success bool
		margin  int
		tiles   int
	}{
		{"Jump 2 Tiles ... Requires an Accuracy Check (v:20 + Accuracy =/+ 6): 3 + 3 = 6 meets it",
			MoveInput{Move: Jump, Phase: Active, Accuracy: 3}, []int{3}, 6, true, 0, 2},
		{"Jump (v:20 + Accuracy =/+ 6): 14 + 2 = 16 beats it by 10",
			MoveInput{Move: Jump, Phase: Active, Accuracy: 2}, []int{14}, 16, true, 10, 2},
		{"Jump: Failure results in only 1 Tile of Movement. 2 + 3 = 5 against 6",
			MoveInput{Move: Jump, Phase: Reserve, Accuracy: 3}, []int{2}, 5, false, -1, 1},
		{"Jump with a negative Accuracy: 7 - 2 = 5 against 6",
			MoveInput{Move: Jump, Phase: Active, Accuracy: -2}, []int{7}, 5, false, -1, 1},
		{"Leap: Jump up to 4 Tiles ... Requires Momentum and an Accuracy Check (v:20 + Accuracy =/+ 9): 7 + 2 = 9",
			MoveInput{Move: Leap, Phase: Active, Accuracy: 2, HasMomentum: true}, []int{7}, 9, true, 0, 4},
		{"Leap: Failure results in only (v:4-1) Tiles of Movement. 5 + 2 = 7 against 9, v:4 shows 4: 3 Tiles",
			MoveInput{Move: Leap, Phase: Active, Accuracy: 2, HasMomentum: true}, []int{5, 4}, 7, false, -2, 3},
		{"Leap failure, v:4 shows 1: (v:4-1) is 0 Tiles",
			MoveInput{Move: Leap, Phase: Active, Accuracy: 0, HasMomentum: true}, []int{1, 1}, 1, false, -8, 0},
	}
	for _, tt := range tests {
		got, err := Act(tt.in, faces(tt.faces...))
		if err != nil {
			t.Errorf("%s: %v", tt.rule, err)
			continue
		}
		c := got.Check
		if c == nil {
			t.Errorf("%s: no Accuracy Check", tt.rule)
			continue
		}
		if c.Total != tt.total || c.Success != tt.success || c.Margin != tt.margin || got.Tiles != tt.tiles {
			t.Errorf("%s: total %d success %v margin %d tiles %d; want %d %v %d %d",
				tt.rule, c.Total, c.Success, c.Margin, got.Tiles, tt.total, tt.success, tt.margin, tt.tiles)
		}
		if c.Die != tt.faces[0] {
			t.Errorf("%s: die %d, want %d", tt.rule, c.Die, tt.faces[0])
		}
	}
}

func TestMoveErrors(t *testing.T) {
	tests := []struct {
		rule string
		in   MoveInput
		want string
	}{
		{"Momentum Celerity: (1|-) ... Momentum is an Active Phase Only effect.", MoveInput{Move: Momentum, Phase: Reserve, HasMomentum: true}, "Reserve Phase"},
		{"Leap Celerity: (1|-)", MoveInput{Move: Leap, Phase: Reserve, HasMomentum: true}, "Reserve Phase"},
		{"For as long as we have Momentum: none, no Momentum action", MoveInput{Move: Momentum, Phase: Active}, "needs Momentum"},
		{"Leap Requires Momentum", MoveInput{Move: Leap, Phase: Active}, "Requires Momentum"},
		{"Normally Ascending or Descending Sheer Surfaces is impossible.", MoveInput{Move: CarefulGrip, Phase: Active, Surface: Sheer}, "normally impossible"},
		{"Scramble: 3 Tiles over Minimal Difficulty surfaces, not Smooth Brick", MoveInput{Move: Scramble, Phase: Active, Surface: Difficult}, "careful-grip"},
		{"Free Climb: Moderate Difficulty surfaces, not Smooth Brick", MoveInput{Move: FreeClimb, Phase: Active, Surface: Difficult}, "careful-grip"},
		{"Requires both hands and legs free or appropriate equipment.", MoveInput{Move: FreeClimb, Phase: Active, LimbsBusy: true}, "hands and legs free"},
		{"a surface is for climbing only", MoveInput{Move: Rush, Phase: Active, Surface: Minimal}, "for climbing"},
		{"only Momentum spends a chosen number of slots", MoveInput{Move: Rush, Phase: Active, Slots: 2}, "only Momentum"},
		{"unknown action", MoveInput{Move: "swim", Phase: Active}, "not a movement action"},
		{"unknown phase", MoveInput{Move: Rush, Phase: "resolve"}, "not active or reserve"},
	}
	for _, tt := range tests {
		_, err := Act(tt.in, faces())
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err %v, want one with %q", tt.rule, err, tt.want)
		}
	}
}
