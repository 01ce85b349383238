package arc

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// TurnSeconds is the length of a turn: "Time is measured in turns ... One
// turn equals 6 seconds."
const TurnSeconds = 6

// Sizes: "Humans are considered medium size. Any other being is measured
// starting from the base size of humans. There are 3 sizes bigger and 3
// sizes smaller". A size is a number of steps from medium (0).
const (
	MinSize = -3
	Medium  = 0
	MaxSize = 3
	Sizes   = MaxSize - MinSize + 1
)

// Size reads a size given as one of the config's size names or as a number
// of steps from medium (-3 to 3).
func (c Config) Size(text string) (int, error) {
	t := strings.ToLower(strings.TrimSpace(text))
	if n, err := strconv.Atoi(strings.TrimPrefix(t, "+")); err == nil {
		if n < MinSize || n > MaxSize {
			return 0, fmt.Errorf("size must be %d to %d (medium is 0), not %d", MinSize, MaxSize, n)
		}
		return n, nil
	}
	t = strings.NewReplacer(" ", "_", "-", "_").Replace(t)
	for i, name := range c.SizeNames {
		if strings.EqualFold(name, t) {
			return i + MinSize, nil
		}
	}
	return 0, fmt.Errorf("size %q is neither a number from %d to %d nor one of: %s", text, MinSize, MaxSize, strings.Join(c.SizeNames, ", "))
}

// SizeName is the config's name of size, or its number when unnamed.
func (c Config) SizeName(size int) string {
	if i := size - MinSize; i >= 0 && i < len(c.SizeNames) {
		return c.SizeNames[i]
	}
	return strconv.Itoa(size)
}

// HumanMOV is the base movement of a medium being: "The baseline for humans
// is a MOV of 8 m/turn".
const HumanMOV = 8

// Burden is a burden status.
type Burden int

// Burden statuses: "A character with Build 6 is able to act as
// light/medium/heavy burdened ... For any weight heavier than the allowed
// maximum capacity, the character falls in the Overloaded status." Beyond
// the Overloaded limit "he cannot act, move or perform any action": that is
// Immobile. Clothing is the status of a Build that may carry nothing but
// clothing and carries no more.
const (
	Clothing Burden = iota
	Light
	MediumBurden
	Heavy
	Overloaded
	Immobile
)

func (b Burden) String() string {
	switch b {
	case Clothing:
		return "clothing only"
	case Light:
		return "light"
	case MediumBurden:
		return "medium"
	case Heavy:
		return "heavy"
	case Overloaded:
		return "overloaded"
	case Immobile:
		return "immobile"
	}
	return "burden(" + strconv.Itoa(int(b)) + ")"
}

// LoadInput is what load capacity depends on.
type LoadInput struct {
	Build int
	Size  int
	// Weight is everything borne, in kg: "Every character has a burden
	// based on the weight borne (including clothing, equipped and carried
	// items)".
	Weight float64
	// Clothing is the part of Weight that is clothing, which matters only
	// to a Build that allows no burden: "Any character with a score of 1 in
	// Build is unable to carry any load except clothing."
	Clothing float64
}

// Load is a being's load capacity and, for a weight, its burden status.
type Load struct {
	// LOADT is the Load Threshold: "LOADT = Build x 3kg" for a medium
	// being, times the size's factor.
	LOADT float64
	// Levels is how many burden levels the Build allows (0 to 3) and
	// Limits the highest weight of each: light, medium, heavy.
	Levels int
	Limits []float64
	// MaxBurden is the heaviest weight before Overloaded (the clothing for
	// a Build with no levels); OverloadedLimit the heaviest weight at all
	// ("not able to carry any load heavier than the maximum allowed in the
	// Overloaded status").
	MaxBurden, OverloadedLimit float64
	Weight                     float64
	Status                     Burden
	// CanAct is false beyond the Overloaded limit: "When the character
	// wears a weight heavier than this limit, he cannot act, move or
	// perform any action."
	CanAct bool
}

// maxKg bounds a weight a user gives.
const maxKg = 1e6

// Load computes the LOADT of in's Build and size and the burden status of
// its weight. Each burden level holds one LOADT: "A character with Build 6
// is able to act as light/medium/heavy burdened, thus meaning that he can
// carry a weight up to 3 times his LOADT (6x3 = 18kg) and, in case he wears
// or brings a weight heavier than 54kg, he will be Overloaded."
func (c Config) Load(in LoadInput) (Load, error) {
	levels, err := byScore(c.BurdenLevelsByBuild, in.Build, "Build score", "burden_levels_by_build")
	if err != nil {
		return Load{}, err
	}
	if levels < 0 || levels > 3 {
		return Load{}, fmt.Errorf("the arc config's burden_levels_by_build gives %d levels for Build %d; there are 0 to 3 (light, medium, heavy)", levels, in.Build)
	}
	factor, err := bySize(c.LOADTSizeFactor, in.Size, "loadt_size_factor")
	if err != nil {
		return Load{}, err
	}
	for _, w := range []struct {
		v    float64
		what string
	}{{in.Weight, "weight"}, {in.Clothing, "clothing"}} {
		if math.IsNaN(w.v) || w.v < 0 || w.v > maxKg {
			return Load{}, fmt.Errorf("the %s must be 0 to %g kg, not %g", w.what, maxKg, w.v)
		}
	}
	if in.Clothing > in.Weight {
		return Load{}, fmt.Errorf("the clothing (%g kg) is part of the weight borne (%g kg), so it cannot weigh more", in.Clothing, in.Weight)
	}
	l := Load{LOADT: float64(in.Build) * 3 * factor, Levels: levels, Weight: in.Weight, CanAct: true}
	for i := 1; i <= levels; i++ {
		l.Limits = append(l.Limits, float64(i)*l.LOADT)
	}
	l.MaxBurden = float64(levels) * l.LOADT
	if levels == 0 {
		l.MaxBurden = in.Clothing
	}
	l.OverloadedLimit = l.MaxBurden + c.OverloadedLOADT*l.LOADT
	switch {
	case in.Weight > l.OverloadedLimit:
		l.Status, l.CanAct = Immobile, false
	case in.Weight > l.MaxBurden:
		l.Status = Overloaded
	case levels == 0:
		l.Status = Clothing
	default:
		l.Status = Light
		for in.Weight > l.Limits[l.Status-Light] {
			l.Status++
		}
	}
	return l, nil
}

// MoveInput is what movement depends on.
type MoveInput struct {
	// Base is the being's MOV at medium size in m/turn; 0 means a human's,
	// HumanMOV: "Every being has a base movement rate (MOV) which is
	// measured in meters per turn (m/turn)."
	Base    int
	Size    int
	Control int
	// Burden is the burden status, Light when the weight is not known.
	Burden Burden
}

// Movement is the MOV of a being.
type Movement struct {
	Base       int     // at medium size
	SizeFactor float64 // "the MOV is affected by the size"
	Sized      float64 // Base times SizeFactor
	ControlAdj int     // "a score in Control above it will grant a bonus while a score below it generates a malus"
	// Effective is "the effective movement rate resulting from an
	// adjustment according to the score of Control", in m/turn, rounded
	// down and never below 0.
	Effective    int
	BurdenFactor float64 // "Each burden status has the following consequences on the character's movement"
	// MOV is Effective after the burden, rounded down: the metres the being
	// covers in a turn.
	MOV int
}

// Movement computes a being's MOV: the base MOV scaled by size (the dog
// example scales the base: "derive the MOV of a small dog starting from the
// medium-size one"), then the Control adjustment, then the burden.
func (c Config) Movement(in MoveInput) (Movement, error) {
	base := in.Base
	if base == 0 {
		base = HumanMOV
	}
	if base < 0 || base > maxScore {
		return Movement{}, fmt.Errorf("the base MOV must be 1 to %d m/turn, not %d", maxScore, base)
	}
	sf, err := bySize(c.MOVSizeFactor, in.Size, "mov_size_factor")
	if err != nil {
		return Movement{}, err
	}
	adj, err := byScore(c.MOVControlAdj, in.Control, "Control score", "mov_control_adj")
	if err != nil {
		return Movement{}, err
	}
	bf := 0.0
	switch {
	case in.Burden == Immobile:
		// "he cannot act, move or perform any action"
	case in.Burden == Clothing:
		bf = 1
	case in.Burden >= Light && in.Burden <= Overloaded:
		if bf, err = byScore(c.BurdenMOVFactor, int(in.Burden), "burden status", "burden_mov_factor"); err != nil {
			return Movement{}, err
		}
	default:
		return Movement{}, fmt.Errorf("unknown burden status %d", in.Burden)
	}
	m := Movement{Base: base, SizeFactor: sf, Sized: float64(base) * sf, ControlAdj: adj, BurdenFactor: bf}
	m.Effective = max(0, int(math.Floor(m.Sized+float64(adj))))
	m.MOV = max(0, int(math.Floor(float64(m.Effective)*bf)))
	return m, nil
}
