package ulm

import (
	"fmt"
	"strings"

	"github.com/tablehand/tablehand/rules/dice"
)

// Phase is the phase a Character acts in, which decides which Celerity an
// Action costs: "Celerity: (active|reserve)".
type Phase string

// Phases.
const (
	Active  Phase = "active"
	Reserve Phase = "reserve"
)

// Slot names what a phase's Celerity is paid with.
func (p Phase) Slot() string {
	if p == Reserve {
		return "Reserved Slot"
	}
	return "Action Slot"
}

// Celerity is the cost of an Action: "the default total Time, Action
// Slots, or Reserved Slots the Action requires to Activate", written
// (Active|Reserve). A "-" in the text, an Action the Reserve Phase cannot
// take, is NoReserve.
type Celerity struct{ Active, Reserve int }

// NoReserve is the "-" of "Celerity: (1|-)".
const NoReserve = -1

// Cost returns the Celerity in phase p, or an error when the Action cannot
// be taken in it.
func (c Celerity) Cost(p Phase) (int, error) {
	switch p {
	case Active:
		return c.Active, nil
	case Reserve:
		if c.Reserve == NoReserve {
			return 0, fmt.Errorf("its Celerity is (%d|-): it cannot be taken in the Reserve Phase", c.Active)
		}
		return c.Reserve, nil
	}
	return 0, fmt.Errorf("phase %q is not active or reserve", p)
}

func (c Celerity) String() string {
	if c.Reserve == NoReserve {
		return fmt.Sprintf("(%d|-)", c.Active)
	}
	return fmt.Sprintf("(%d|%d)", c.Active, c.Reserve)
}

// Move is a basic Movement Action.
type Move string

// The basic Movement Actions, climbing and jumping.
const (
	LineStep    Move = "line-step"
	CarefulStep Move = "careful-step"
	Rush        Move = "rush"
	Jog         Move = "jog"
	Momentum    Move = "momentum"
	Scramble    Move = "scramble"
	FreeClimb   Move = "free-climb"
	CarefulGrip Move = "careful-grip"
	Jump        Move = "jump"
	Leap        Move = "leap"
)

// Moves lists the Movement Actions in the order of the text.
var Moves = []Move{LineStep, CarefulStep, Rush, Jog, Momentum, Scramble, FreeClimb, CarefulGrip, Jump, Leap}

// MoveRule is what the text says of one Movement Action.
type MoveRule struct {
	Name     string
	Celerity Celerity
	Tiles    int     // Tiles moved (for Momentum, per Action Slot; for Leap, at most)
	Climb    Surface // for climbing: the hardest surface it crosses
	Text     string  // the text's own words for it
}

// MoveRules holds every Movement Action of the text.
var MoveRules = map[Move]MoveRule{
	LineStep: {"Line Step", Celerity{0, 1}, 0, "",
		"Moving between the Tile Center to the Tile Line during the Active Phase is considered to have a null Celerity cost. While in the Reserve Phase, it will consume 1 Reserved Slot."},
	CarefulStep: {"Careful Step", Celerity{1, 2}, 1, "",
		"we move from one Tile Center to an Adjacent Tile Center. ... they may avoid obvious hazards"},
	Rush: {"Rush", Celerity{2, 3}, 3, "",
		"A Rush allows us to quickly move 3 Tiles. This may trigger obvious hazards and hazards the Character is unaware of in those Tiles."},
	Jog: {"Jog", Celerity{4, 5}, 8, "",
		"moving 8 Tiles, and also grants us Momentum"},
	Momentum: {"Momentum", Celerity{1, NoReserve}, 3, "",
		"For as long as we have Momentum, we may move 3 Tiles for every 1 Action Slot spent."},
	Scramble: {"Ascend/Descend Scramble", Celerity{2, 3}, 3, Minimal,
		"Move up, down, or sideways 3 Tiles over Minimal Difficulty surfaces."},
	FreeClimb: {"Ascend/Descend Free Climb", Celerity{2, 3}, 2, Moderate,
		"Move up, down, or sideways 2 Tiles over Moderate Difficulty surfaces."},
	CarefulGrip: {"Ascend/Descend Careful Grip", Celerity{2, 3}, 1, Difficult,
		"Move up, down, or sideways 1 Tile over Difficult surfaces."},
	Jump: {"Jump", Celerity{2, 3}, 2, "",
		"Jump 2 Tiles horizontally or vertically from a standstill."},
	Leap: {"Leap", Celerity{1, NoReserve}, 4, "",
		"Jump up to 4 Tiles horizontally with 2 Tile vertical height from a jog or sprint. This clears 1 Tile height obstacles."},
}

// Surface is how hard a surface is to climb.
type Surface string

// The climbing surfaces, from easiest to hardest.
const (
	Minimal   Surface = "minimal"   // "Rope, Chain, or Ladder: Easiest to grip, minimal difficulty."
	Moderate  Surface = "moderate"  // "Rough Masonry or Rock: Easily grasped, moderate difficulty."
	Difficult Surface = "difficult" // "Smooth Brick or Wood: Requires careful grip, difficult."
	Sheer     Surface = "sheer"     // "Sheer Ice, Glass, or Stone: Extremely difficult"
)

// Surfaces lists the surfaces from easiest to hardest.
var Surfaces = []Surface{Minimal, Moderate, Difficult, Sheer}

// SurfaceText is what the text says each surface is.
var SurfaceText = map[Surface]string{
	Minimal:   "Rope, Chain, or Ladder",
	Moderate:  "Rough Masonry or Rock",
	Difficult: "Smooth Brick or Wood",
	Sheer:     "Sheer Ice, Glass, or Stone",
}

func (s Surface) rank() int {
	for i, x := range Surfaces {
		if x == s {
			return i
		}
	}
	return -1
}

// The Accuracy Checks of jumping: "(v:20 + Accuracy =/+ 6)" for a Jump,
// "(v:20 + Accuracy =/+ 9)" for a Leap; "=/+" is "equal or more".
const (
	JumpTarget = 6
	LeapTarget = 9
	// LeapFailExpr is "Failure results in only (v:4-1) Tiles of Movement."
	LeapFailExpr = "1v:4 - 1"
	// JumpFailTiles is "Failure results in only 1 Tile of Movement."
	JumpFailTiles = 1
)

// MoveInput is one Movement Action.
type MoveInput struct {
	Move  Move
	Phase Phase
	// Accuracy is the Character's Accuracy, for the checks of Jump and Leap.
	// AccuracyKnown says it was given, so Policy.Move does not read the
	// combatant's stat instead of an Accuracy of 0; Act ignores it.
	Accuracy      int
	AccuracyKnown bool
	// HasMomentum: the Character has Momentum now (from a Jog, or from
	// ending the last Active Phase on Jog or Momentum).
	HasMomentum bool
	// Slots is the Action Slots spent on Momentum (0 means 1): "3 Tiles for
	// every 1 Action Slot spent".
	Slots int
	// LastSlot: the Action spends the last Action Slot of the Active Phase.
	LastSlot bool
	// Surface climbed, for the climbing Actions; "" when not said.
	Surface Surface
	// LimbsBusy: the Character lacks "both hands and legs free", and
	// Gear: it has "appropriate equipment" (or gear for sheer surfaces).
	LimbsBusy, Gear bool
}

// Check is one Accuracy Check.
type Check struct {
	Die      int  // the v:20
	Accuracy int  // added to it
	Total    int  // v:20 + Accuracy
	Target   int  // 6 for a Jump, 9 for a Leap
	Success  bool // Total meets or beats Target ("=/+")
	Margin   int  // Total - Target
}

// MoveResult is a Movement Action done.
type MoveResult struct {
	Move     Move
	Name     string
	Phase    Phase
	Celerity int    // slots spent, of the kind Phase.Slot() names
	Tiles    int    // Tiles moved
	Check    *Check // for Jump and Leap
	FailDie  int    // for a failed Leap, the v:4 of (v:4-1)
	// Momentum: the Character has Momentum after the Action; MomentumNext:
	// it begins its next Active Phase with Momentum.
	Momentum, MomentumNext bool
	Notes                  []string // what the text adds: hazards, the Tile Line, landing
}

// Act does one Movement Action, rolling the Accuracy Check of a Jump or a
// Leap (and a failed Leap's distance) with d.
func Act(in MoveInput, d Dice) (MoveResult, error) {
	rule, ok := MoveRules[in.Move]
	if !ok {
		return MoveResult{}, fmt.Errorf("%q is not a movement action (%s)", in.Move, moveList())
	}
	cost, err := rule.Celerity.Cost(in.Phase)
	if err != nil {
		return MoveResult{}, fmt.Errorf("%s: %w", rule.Name, err)
	}
	res := MoveResult{Move: in.Move, Name: rule.Name, Phase: in.Phase, Celerity: cost, Tiles: rule.Tiles, Momentum: in.HasMomentum}
	if in.Slots < 0 {
		return MoveResult{}, fmt.Errorf("%d Action Slots on Momentum: spend 1 or more", in.Slots)
	}
	if in.Slots > 1 && in.Move != Momentum {
		return MoveResult{}, fmt.Errorf("only Momentum spends a chosen number of Action Slots; %s costs %s", rule.Name, rule.Celerity)
	}
	if in.Surface != "" && rule.Climb == "" {
		return MoveResult{}, fmt.Errorf("a surface is for climbing (scramble, free-climb, careful-grip), not %s", rule.Name)
	}
	switch in.Move {
	case LineStep:
		res.Notes = append(res.Notes, "to the Tile Line: standing on it occupies both Tiles")
	case CarefulStep:
		res.Notes = append(res.Notes, "avoids obvious hazards without chance of triggering them")
	case Rush:
		res.Notes = append(res.Notes, "may trigger obvious hazards and hazards the Character is unaware of")
	case Jog:
		// "A quick Jog ... also grants us Momentum"; "Momentum is an Active
		// Phase Only effect", so a Jog in the Reserve Phase grants none.
		if in.Phase == Active {
			res.Momentum = true
		}
	case Momentum:
		if !in.HasMomentum {
			return MoveResult{}, fmt.Errorf("Momentum needs Momentum: gain it with a Jog, or by ending the last Active Phase on Jog or Momentum")
		}
		n := max(in.Slots, 1)
		res.Celerity = n * rule.Celerity.Active
		res.Tiles = n * rule.Tiles
	case Scramble, FreeClimb, CarefulGrip:
		if err := canClimb(in, rule); err != nil {
			return MoveResult{}, err
		}
	case Jump:
		c, err := accuracyCheck(d, in.Accuracy, JumpTarget)
		if err != nil {
			return MoveResult{}, fmt.Errorf("jump: %w", err)
		}
		res.Check = &c
		if !c.Success {
			res.Tiles = JumpFailTiles
			res.Notes = append(res.Notes, "failing to land, the Character falls or ends its movement before the target Tile")
		}
	case Leap:
		if !in.HasMomentum {
			return MoveResult{}, fmt.Errorf("a Leap \"Requires Momentum\": gain it with a Jog, or by ending the last Active Phase on Jog or Momentum")
		}
		c, err := accuracyCheck(d, in.Accuracy, LeapTarget)
		if err != nil {
			return MoveResult{}, fmt.Errorf("leap: %w", err)
		}
		res.Check = &c
		if !c.Success {
			r, err := d.Roll(LeapFailExpr)
			if err != nil {
				return MoveResult{}, fmt.Errorf("leap failure distance: %w", err)
			}
			res.Tiles = r.Total
			res.FailDie = firstDie(r)
			res.Notes = append(res.Notes, "failing to land, the Character falls or ends its movement before the target Tile")
		} else {
			res.Notes = append(res.Notes, "up to 4 Tiles with 2 Tiles of height: clears 1 Tile high obstacles")
		}
	}
	// "If we end our Active Phase by spending our last available Action
	// Slot on either Jog, or Momentum, we begin our next Active Phase with
	// Momentum."
	if in.LastSlot && in.Phase == Active && (in.Move == Jog || in.Move == Momentum) {
		res.MomentumNext = true
	}
	return res, nil
}

// canClimb checks the climbing rules: limbs free and a surface the Action
// can cross.
func canClimb(in MoveInput, rule MoveRule) error {
	if in.LimbsBusy && !in.Gear {
		return fmt.Errorf("%s \"Requires both hands and legs free or appropriate equipment\"", rule.Name)
	}
	if in.Surface == "" {
		return nil
	}
	r := in.Surface.rank()
	switch {
	case r < 0:
		return fmt.Errorf("surface %q is not one of %s", in.Surface, surfaceList())
	case in.Surface == Sheer:
		// "Normally Ascending or Descending Sheer Surfaces is impossible.
		// They require specialized gear or effects." What the gear or
		// effect allows is its own rule, not this text's.
		return fmt.Errorf("climbing %s is normally impossible: it requires specialized gear or effects, which say how far you climb", SurfaceText[Sheer])
	case r > rule.Climb.rank():
		// Each climbing Action names the surfaces it crosses; one made for
		// easier surfaces does not cross harder ones. A harder technique on
		// an easier surface is allowed: the text does not forbid it.
		return fmt.Errorf("%s crosses %s difficulty surfaces; %s (%s) needs %s", rule.Name, rule.Climb, SurfaceText[in.Surface], in.Surface, climberFor(in.Surface))
	}
	return nil
}

func climberFor(s Surface) Move {
	for _, m := range []Move{Scramble, FreeClimb, CarefulGrip} {
		if MoveRules[m].Climb == s {
			return m
		}
	}
	return ""
}

// accuracyCheck rolls v:20 + Accuracy against target.
func accuracyCheck(d Dice, accuracy, target int) (Check, error) {
	r, err := d.Roll("1v:20" + plus(accuracy))
	if err != nil {
		return Check{}, fmt.Errorf("accuracy check: %w", err)
	}
	return NewCheck(firstDie(r), accuracy, target), nil
}

// firstDie is the value of the first die of r: the v:20 of a check.
func firstDie(r *dice.Result) int {
	if len(r.Groups) == 0 || len(r.Groups[0].Dice) == 0 {
		return r.Total
	}
	return r.Groups[0].Total
}

// NewCheck judges an Accuracy Check from the face of its v:20.
func NewCheck(die, accuracy, target int) Check {
	total := die + accuracy
	return Check{Die: die, Accuracy: accuracy, Total: total, Target: target, Success: total >= target, Margin: total - target}
}

func moveList() string {
	s := make([]string, len(Moves))
	for i, m := range Moves {
		s[i] = string(m)
	}
	return strings.Join(s, ", ")
}

func surfaceList() string {
	s := make([]string, len(Surfaces))
	for i, x := range Surfaces {
		s[i] = string(x)
	}
	return strings.Join(s, ", ")
}
