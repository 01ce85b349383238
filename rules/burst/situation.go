package burst

import (
	"fmt"
	"strings"
)

// Size is a size category: "There are seven size categories; tiny, small,
// medium, large, huge, massive, and colossal."
type Size int

// The sizes, smallest first.
const (
	Tiny Size = iota
	Small
	Medium // "Humans are medium sized"
	Large
	Huge
	Massive
	Colossal
)

var sizeNames = []string{"tiny", "small", "medium", "large", "huge", "massive", "colossal"}

// Sizes lists the size names, smallest first.
func Sizes() []string { return append([]string(nil), sizeNames...) }

func (s Size) String() string { return nameOf(sizeNames, int(s)) }

// ParseSize reads a size name; "" is medium.
func ParseSize(name string) (Size, error) {
	if name == "" {
		return Medium, nil
	}
	i, err := parseName("size", sizeNames, name)
	return Size(i), err
}

// SizeGuardStep is the Guard a smaller target gains per size of
// difference: "When a Larger creature is attacking a smaller creature, the
// smaller creature's Guard increases by 5 for every size category of
// difference".
const SizeGuardStep = 5

// SizeGuard returns the Guard bonus of a target of size target attacked by
// one of size attacker: +5 a size when the attacker is larger, nothing
// otherwise ("medium ... attacking a Tiny creature ... +10 (2 sizes
// difference)"; "colossal ... attacking a Medium ... Guard +20 (4 sizes
// difference)").
func SizeGuard(attacker, target Size) int {
	if attacker <= target {
		return 0
	}
	return SizeGuardStep * int(attacker-target)
}

// Reach is how close small, medium and large creatures must be to attack
// in melee: "Small, medium, and large creatures have a reach of 6 feet."
// It is also the distance of being adjacent ("within 6 feet of another
// creature and have a clear path between them").
const Reach = 6

// Visibility is a visibility condition: "Visibility conditions are ranked
// Reduced, Low, and Zero Visibility."
type Visibility int

// The visibility conditions.
const (
	Normal Visibility = iota // "Under normal visibility there are no changes."
	Reduced
	Low
	Zero
)

var visibilityNames = []string{"normal", "reduced", "low", "zero"}

// Visibilities lists the visibility names, best first.
func Visibilities() []string { return append([]string(nil), visibilityNames...) }

func (v Visibility) String() string { return nameOf(visibilityNames, int(v)) }

// ParseVisibility reads a visibility name; "" is normal.
func ParseVisibility(name string) (Visibility, error) {
	if name == "" {
		return Normal, nil
	}
	i, err := parseName("visibility", visibilityNames, name)
	return Visibility(i), err
}

// visibilityRules holds, by condition, the text's numbers: the VS penalty
// to piloting and navigation, the VS penalty to ranged attacks and their
// range limit in feet.
//
//   - Reduced: "suffer +5 VS penalty. Distanced attacks are limited to a
//     300 feet range with a +5 VS penalty to hit the target."
//   - Low: "Piloting and navigation suffer a +10 VS, ranged attack accuracy
//     is limited to 150 feet with a +10 VS penalty to strike."
//   - Zero: "Piloting by sight is basically impossible, and suffers a +15
//     VS, ranged attack accuracy is limited to 30 feet with a +15 VS
//     penalty to strike at 10 meters but no penalties at point blank
//     (under 3 meters)."
var visibilityRules = [...]struct{ pilot, ranged, limit int }{
	Normal:  {0, 0, 0},
	Reduced: {5, 5, 300},
	Low:     {10, 10, 150},
	Zero:    {15, 15, 30},
}

func (v Visibility) pilotPenalty() int { return visibilityRules[v].pilot }

// RangedPenalty returns the VS penalty to a ranged attack at the given
// distance in feet (0: not given, taken as beyond point blank), and an
// error when the distance is past the range limit.
func (v Visibility) RangedPenalty(feet int, cfg Config) (int, error) {
	r := visibilityRules[v]
	if r.limit > 0 && feet > r.limit {
		return 0, fmt.Errorf("in %s visibility ranged attacks reach %d feet; the target is at %d", v, r.limit, feet)
	}
	if v == Zero && feet > 0 && feet < cfg.PointBlankFeet {
		return 0, nil
	}
	return r.ranged, nil
}

// Cover is a category of cover: "There are three categories of cover:
// light, partial, and full."
type Cover int

// The categories of cover.
const (
	NoCover Cover = iota
	LightCover
	PartialCover
	FullCover
)

var coverNames = []string{"none", "light", "partial", "full"}

// Covers lists the cover names.
func Covers() []string { return append([]string(nil), coverNames...) }

func (c Cover) String() string { return nameOf(coverNames, int(c)) }

// ParseCover reads a cover name; "" is none.
func ParseCover(name string) (Cover, error) {
	if name == "" {
		return NoCover, nil
	}
	i, err := parseName("cover", coverNames, name)
	return Cover(i), err
}

// Guard returns the Guard bonus of c against a ranged attack, area or not:
//
//   - Light: "a +10 bonus to Guard from direct ranged attacks. Area
//     attacks are unaffected."
//   - Partial: "you have +3 bonus to Guard"
//   - Full: "provides you with a +5 bonus to your Guard"
func (c Cover) Guard(area bool) int {
	switch c {
	case LightCover:
		if area {
			return 0
		}
		return 10
	case PartialCover:
		return 3
	case FullCover:
		return 5
	}
	return 0
}

// Armor returns the Armor Rank bonus of c against a ranged attack:
//
//   - Light: "the cover provides no stopping power"
//   - Partial: "you gain a +5 Armor Rank bonus against attacks"
//   - Full: "Assuming your cover is sturdy, you gain a +10 bonus to your
//     Armor Rank from ranged attacks."
func (c Cover) Armor() int {
	switch c {
	case PartialCover:
		return 5
	case FullCover:
		return 10
	}
	return 0
}

func nameOf(names []string, i int) string {
	if i < 0 || i >= len(names) {
		return fmt.Sprintf("?%d", i)
	}
	return names[i]
}

func parseName(what string, names []string, name string) (int, error) {
	n := strings.ToLower(strings.TrimSpace(name))
	for i, s := range names {
		if s == n {
			return i, nil
		}
	}
	return 0, fmt.Errorf("%s must be one of %s, not %q", what, strings.Join(names, ", "), name)
}
