package xhalem

import (
	"errors"
	"fmt"
	"math"
)

// Size is a combatant's size.
type Size string

// Sizes the text names: "small, medium, and large-size", "extra large",
// "giant or behemoth" creatures; "Small mechs" and "Gargantuan-sized
// models". Their order is Config.SizeRanks.
const (
	Small      Size = "small"
	Medium     Size = "medium"
	Large      Size = "large"
	ExtraLarge Size = "extra_large"
	Giant      Size = "giant"
	Gargantuan Size = "gargantuan"
	Behemoth   Size = "behemoth"
)

// SizeWords are the words of a Size; "" is unknown.
var SizeWords = Words[Size]{What: "size", List: []Word[Size]{
	{[]string{""}, ""},
	{[]string{"small"}, Small},
	{[]string{"medium"}, Medium},
	{[]string{"large"}, Large},
	{[]string{"extra_large"}, ExtraLarge},
	{[]string{"giant"}, Giant},
	{[]string{"gargantuan"}, Gargantuan},
	{[]string{"behemoth"}, Behemoth},
}}

// Sizes lists the sizes, for choices and messages.
var Sizes = SizeWords.Values()

// ParseSize reads a Size (SizeWords).
func ParseSize(s string) (Size, error) { return SizeWords.Parse(s) }

// SizeDiff returns how many sizes larger b is than a (negative when
// smaller), by Config.SizeRanks.
func (c Config) SizeDiff(a, b Size) (int, error) {
	ra, ok := c.SizeRanks[string(a)]
	if !ok {
		return 0, fmt.Errorf("size_ranks has no rank for %q", a)
	}
	rb, ok := c.SizeRanks[string(b)]
	if !ok {
		return 0, fmt.Errorf("size_ranks has no rank for %q", b)
	}
	return rb - ra, nil
}

// Movement constants the text states.
const (
	// HexFeet: "1 hex equals 15 feet."
	HexFeet = 15
	// MechSpeed: "All mechs start with a base speed of 25 hexes, with the
	// exception of Gargantuan-sized models."
	MechSpeed = 25
	// GargantuanSpeed: "Gargantuan mechs have a base speed of 35 hexes."
	GargantuanSpeed = 35
	// SpaceFactor: "multiply your Engine and Reactor scores together and
	// then multiply by 10,000."
	SpaceFactor = 10_000
	// SpaceInterval: "When in space, however, all combatants move at
	// intervals of 1,000 kilometers in any direction."
	SpaceInterval = 1_000
	// RoundSeconds: "each round is 10 seconds, regardless of how many
	// characters/turns. This would mean that there are 6 rounds in a
	// minute and 360 rounds in an hour."
	RoundSeconds = 10

	// MaxScore and MaxRounds bound what Speed takes, so that a space
	// speed (at most 10^16 km) cannot overflow; a distance over many
	// rounds is checked on its own.
	MaxScore  = 1_000_000
	MaxRounds = 100_000
)

// Reach is a combatant's melee (and unarmed) reach in feet or hexes: "All
// combatants have a range of 5 hexes/feet when using a melee weapon, with
// the exception of gargantuan-sized mechs, and giant and behemoth-sized
// creatures. Their reach is 10 hexes/feet."
func Reach(k Kind, s Size) int {
	if (k == Machine && s == Gargantuan) || (k == Creature && (s == Giant || s == Behemoth)) {
		return 10
	}
	return 5
}

// Interval is the step a combatant moves in during combat: "A creature
// that is small, medium, and large-size moves in intervals of 5 feet
// during combat. Creatures that are extra large move in intervals of 10
// feet, and giant or behemoth in size move in intervals of 15 feet" and
// "During combat, all combatants move at intervals of 5 feet or hexes".
func Interval(k Kind, s Size) int {
	if k == Creature {
		switch s {
		case ExtraLarge:
			return 10
		case Giant, Behemoth:
			return 15
		}
	}
	return 5
}

// SpaceSpeed is a machine's speed in space, in km a round: "multiply your
// Engine and Reactor scores together and then multiply by 10,000. ... You
// can never move at negative speed, therefore, you would be unable to
// move while in space with a score of 0 or a negative."
func SpaceSpeed(engine, reactor int) int {
	if engine <= 0 || reactor <= 0 {
		return 0
	}
	return engine * reactor * SpaceFactor
}

// PerSecond is a space speed per second: "To determine your speed per
// second, divide your space speed by 10." (a round is 10 seconds).
func PerSecond(space int) int { return space / RoundSeconds }

// Rounds is how many whole rounds pass in seconds of game time.
func Rounds(seconds int) int { return seconds / RoundSeconds }

// Remaining is how far a combatant can still move at speed after moving
// moved this turn, in any speed: "You can divide movement into parts so
// that actions can be taken between movements" and, switching between a
// walking and a flying speed, "Whenever you switch, subtract the distance
// you've already moved from the new speed. The result determines how much
// farther you can move. If the result is 0, you can't use the new speed".
func Remaining(speed, moved int) int { return max(0, speed-moved) }

// SpeedInput is what a combatant's movement on one turn depends on.
type SpeedInput struct {
	Kind Kind
	Size Size // "" is not gargantuan, and moves in steps of 5
	// Base overrides the base speed: a creature's race speed (hexes are
	// for machines, feet for creatures), a ship's profile. 0 takes the
	// text's mech speed or Config.CreatureSpeed.
	Base int
	// Bonus is "any benefits and penalties" to the maximum speed.
	Bonus int
	// Mount is the speed of the mount ridden, 0 for none: "Their movement
	// speed replaces your movement."
	Mount int
	// Drag is the size of a grappled combatant dragged or carried: "your
	// speed is halved, unless the combatant is two or more sizes smaller
	// than you." It needs Size.
	Drag Size
	// Dash: "You take your maximum speed and then double it."
	Dash bool
	// Difficult: the move is through difficult terrain, on the ground or
	// in the air; each foot or hex costs Config.DifficultCost.
	Difficult bool
	// Moved is how far the combatant has already moved this turn.
	Moved int
	// Space: Engine and Reactor are known, so the speed in space is
	// computed (machines only).
	Space           bool
	Engine, Reactor int
	// Rounds, when above 0, asks how far the combatant goes in that many
	// rounds.
	Rounds int
}

// SpeedResult is a combatant's movement on a turn.
type SpeedResult struct {
	Unit      string `json:"unit"`      // hexes (machines) or feet (creatures)
	Base      int    `json:"base"`      // the base or mount speed
	Max       int    `json:"max"`       // with benefits and penalties, halved when dragging
	Dragging  bool   `json:"dragging"`  // halved for a grappled combatant
	Difficult bool   `json:"difficult"` // divided by the cost of difficult terrain
	Total     int    `json:"-"`         // Max, doubled by a dash or thrust (a caller's result shows it as its total)
	Feet      int    `json:"feet"`      // Total in feet
	Remaining int    `json:"remaining"` // after Moved
	Interval  int    `json:"interval"`  // the step of movement in combat
	Reach     int    `json:"reach"`     // melee and unarmed reach
	// Space speed in km a round and a second (machines with Engine and
	// Reactor).
	SpaceKm     *int `json:"space_km,omitempty"`
	PerSecondKm *int `json:"per_second_km,omitempty"`
	// Over Rounds: the time and the distance on the ground (Total a round)
	// and in space.
	Seconds       int  `json:"seconds,omitempty"`
	Distance      int  `json:"distance,omitempty"`
	SpaceDistance *int `json:"space_distance_km,omitempty"`
}

// Speed works out a combatant's movement for a turn. The steps, in order:
// the base speed (mech 25 or 35 hexes, a creature's race speed, or a
// mount's speed instead), plus benefits and penalties, never below 0
// ("You can never move at negative speed"), halved while dragging a
// grappled combatant, doubled by a dash or thrust ("The maximum speed is
// to include any benefits and penalties"), and last the distance that
// speed covers through difficult terrain.
func Speed(in SpeedInput, cfg Config) (SpeedResult, error) {
	if in.Kind != Machine && in.Kind != Creature {
		return SpeedResult{}, fmt.Errorf("kind %q: use machine or creature", in.Kind)
	}
	if in.Base < 0 || in.Mount < 0 || in.Moved < 0 || in.Rounds < 0 {
		return SpeedResult{}, errors.New("speeds, distance moved and rounds cannot be negative")
	}
	if in.Space && (in.Engine > MaxScore || in.Reactor > MaxScore) {
		return SpeedResult{}, fmt.Errorf("Engine and Reactor: at most %d", MaxScore)
	}
	if in.Space && in.Kind != Machine {
		return SpeedResult{}, errors.New("only machines have a space speed: \"When in space, however, all machines with engines have mobility\"")
	}
	out := SpeedResult{Unit: "hexes", Interval: Interval(in.Kind, in.Size), Reach: Reach(in.Kind, in.Size)}
	switch {
	case in.Mount > 0:
		out.Base = in.Mount
	case in.Base > 0:
		out.Base = in.Base
	case in.Kind == Machine && in.Size == Gargantuan:
		out.Base = GargantuanSpeed
	case in.Kind == Machine:
		out.Base = MechSpeed
	default:
		out.Base = cfg.CreatureSpeed
	}
	if in.Kind == Creature {
		out.Unit = "feet"
	}
	out.Max = max(0, out.Base+in.Bonus)
	if in.Drag != "" {
		if in.Size == "" {
			return SpeedResult{}, errors.New("dragging a grappled combatant needs your own size, to compare")
		}
		d, err := cfg.SizeDiff(in.Size, in.Drag)
		if err != nil {
			return SpeedResult{}, err
		}
		if d > -2 {
			out.Dragging = true
			if out.Max, err = cfg.half(out.Max); err != nil {
				return SpeedResult{}, err
			}
		}
	}
	out.Total = out.Max
	if in.Dash {
		out.Total *= 2
	}
	if in.Difficult {
		if cfg.DifficultCost < 1 {
			return SpeedResult{}, fmt.Errorf("difficult_cost %d: at least 1", cfg.DifficultCost)
		}
		out.Difficult = true
		out.Total /= cfg.DifficultCost
	}
	out.Feet = out.Total
	if in.Kind == Machine {
		out.Feet *= HexFeet
	}
	out.Remaining = Remaining(out.Total, in.Moved)
	if in.Space {
		s := SpaceSpeed(in.Engine, in.Reactor)
		ps := PerSecond(s)
		out.SpaceKm, out.PerSecondKm = &s, &ps
	}
	if in.Rounds > 0 {
		if in.Rounds > MaxRounds {
			return SpeedResult{}, fmt.Errorf("%d rounds: at most %d (a day is 8,640)", in.Rounds, MaxRounds)
		}
		out.Seconds = in.Rounds * RoundSeconds
		out.Distance = in.Rounds * out.Total
		if out.SpaceKm != nil {
			if *out.SpaceKm > math.MaxInt/in.Rounds {
				return SpeedResult{}, fmt.Errorf("%d km a round for %d rounds is too far to count", *out.SpaceKm, in.Rounds)
			}
			d := in.Rounds * *out.SpaceKm
			out.SpaceDistance = &d
		}
	}
	return out, nil
}
