// Package arc implements the rules of seed 001 (../shared/seeds/001_bcd071466c58340d.txt):
// time, size, movement, load, reaction checks, declaration order and Action
// Resolution Checks.
package arc

import (
	"fmt"
	"maps"
	"slices"
)

// Config holds the values the text leaves to tables it does not include or
// to the GM. Each field says which words of the text it rests on; a
// campaign overrides them in the [arc] section of the config file.
//
// Tables indexed by a score hold the score 1 at index 0, so their length is
// the highest score they cover: a campaign whose scores go to 12 gives 12
// entries.
type Config struct {
	// ESDice is the die rolled for the ES Adjustment, by ES score (1 first).
	// The text: "the ES Adjustment is based on the roll of a die according
	// to the score of the ES of the performer in the table below" (the
	// table is not included) and "The player rolls 1d8 (die corresponding
	// to the score of 5 in Tamper)". The default climbs one die size every
	// two points, d4 to d12, which puts d8 at ES 5 as the text does and
	// keeps every die at least as large as its score, since "the highest
	// ES Adjustment is ... the same value of the ES".
	ESDice []int `toml:"es_dice"`

	// ActionsByES is the number of actions a character can perform in a
	// turn, by ES score (1 first). The text: "the score of an ES defines
	// the number of actions a character can perform in a turn:" (the table
	// is not included) and "his ES score is high enough for 2 actions in
	// the same turn". Default: 1 action at ES 1-4, 2 at ES 5-7, 3 at 8-10.
	ActionsByES []int `toml:"actions_by_es"`

	// Thresholds are the named levels of complexity of an ARCT. The text:
	// "The thresholds are fixed values, each of them corresponds to the
	// level of complexity of the action performed" (the table is not
	// included) and "threshold (average, i.e. 9 ...)". Default: steps of 3
	// around average 9. A config file adds names or changes values; it
	// cannot remove a default name.
	Thresholds map[string]int `toml:"thresholds"`

	// SizeNames name the seven sizes from the smallest (-3) to the largest
	// (+3); medium, index 3, is size 0. The text: "Humans are considered
	// medium size ... There are 3 sizes bigger and 3 sizes smaller as
	// follows:" (the list is not included) and "a small dog", one size
	// below "a medium size dog".
	SizeNames []string `toml:"size_names"`

	// MOVControlAdj is the adjustment to MOV in m/turn by Control score (1
	// first). The text: "The baseline for humans is a MOV of 8 m/turn; a
	// score in Control above it will grant a bonus while a score below it
	// generates a malus as follows:" (the table is not included). Default:
	// Control 5 is the neutral score, each point above adds 1 m/turn and
	// each point below takes 1 away.
	MOVControlAdj []int `toml:"mov_control_adj"`

	// MOVSizeFactor multiplies the base MOV of a being by its size, from
	// size -3 to +3. The text: "Unless otherwise stated, the MOV is
	// affected by the size as follows:" (the table is not included) and
	// "If the GM has the MOV of a medium size dog (e.g. 16m/turn), then he
	// can derive the MOV of a small dog starting from the medium-size one
	// (e.g. 8m/turn)". Default: each size halves (smaller) or doubles
	// (larger) the MOV, as the dog does one size down.
	MOVSizeFactor []float64 `toml:"mov_size_factor"`

	// LOADTSizeFactor multiplies the LOADT of a medium being by its size,
	// from size -3 to +3. The text: "Unless otherwise stated the standard
	// to define the LOADT according to the size is the following:" (the
	// table is not included). Default: halves or doubles per size, as MOV.
	LOADTSizeFactor []float64 `toml:"loadt_size_factor"`

	// BurdenLevelsByBuild is how many burden levels (light, medium, heavy)
	// a Build score allows (1 first): the maximum burden is that many
	// LOADTs. The text: "The maximum burden allowed is calculated according
	// to the character's Build as follows:" (the table is not included),
	// "Any character with a score of 1 in Build is unable to carry any load
	// except clothing" (0 levels) and "A character with Build 6 is able to
	// act as light/medium/heavy burdened" (3 levels). Default: Build 1
	// none, 2-3 light, 4-5 up to medium, 6 and more up to heavy.
	BurdenLevelsByBuild []int `toml:"burden_levels_by_build"`

	// OverloadedLOADT is how many LOADTs above the maximum burden the
	// Overloaded status reaches. The text: "The character is not able to
	// carry any load heavier than the maximum allowed in the Overloaded
	// status. When the character wears a weight heavier than this limit, he
	// cannot act, move or perform any action." (the limit is not given).
	// Default: 1 LOADT.
	OverloadedLOADT float64 `toml:"overloaded_loadt"`

	// BurdenMOVFactor multiplies the MOV by burden status: light, medium,
	// heavy, overloaded. The text: "Each burden status has the following
	// consequences on the character's movement:" (the table is not
	// included). Default: light has no effect, each further status takes a
	// quarter of the MOV away. Beyond the Overloaded limit the MOV is 0:
	// "he cannot act, move or perform any action".
	BurdenMOVFactor []float64 `toml:"burden_mov_factor"`

	// SizeAdjPerStep is the bonus to the ARCO of the larger side for each
	// size of difference. The text: "difference in size (see Melee
	// attacks)" is one of the drivers of 'Other adjustments' (the chapter
	// on melee attacks is not included). Default: +1 a size, as one
	// "advantage". A negative value favours the smaller side.
	SizeAdjPerStep int `toml:"size_adj_per_step"`
}

// DefaultConfig returns the documented defaults.
func DefaultConfig() Config {
	return Config{
		ESDice:      []int{4, 4, 6, 6, 8, 8, 10, 10, 12, 12},
		ActionsByES: []int{1, 1, 1, 1, 2, 2, 2, 3, 3, 3},
		Thresholds: map[string]int{
			"trivial": 3, "easy": 6, "average": 9, "hard": 12, "very_hard": 15, "extreme": 18,
		},
		SizeNames:           []string{"minute", "tiny", "small", "medium", "large", "huge", "gigantic"},
		MOVControlAdj:       []int{-4, -3, -2, -1, 0, 1, 2, 3, 4, 5},
		MOVSizeFactor:       []float64{0.125, 0.25, 0.5, 1, 2, 4, 8},
		LOADTSizeFactor:     []float64{0.125, 0.25, 0.5, 1, 2, 4, 8},
		BurdenLevelsByBuild: []int{0, 1, 1, 2, 2, 3, 3, 3, 3, 3},
		OverloadedLOADT:     1,
		BurdenMOVFactor:     []float64{1, 0.75, 0.5, 0.25},
		SizeAdjPerStep:      1,
	}
}

// byScore looks score up in a table that starts at score 1.
func byScore[T any](table []T, score int, what, key string) (T, error) {
	var zero T
	if len(table) == 0 {
		return zero, fmt.Errorf("the arc config has no %s table (key %s)", what, key)
	}
	if score < 1 || score > len(table) {
		return zero, fmt.Errorf("%s must be 1-%d, not %d", what, len(table), score)
	}
	return table[score-1], nil
}

// bySize looks size (-3..+3) up in a table of the seven sizes.
func bySize[T any](table []T, size int, key string) (T, error) {
	var zero T
	if len(table) != Sizes {
		return zero, fmt.Errorf("the arc config's %s needs %d entries, one a size, not %d", key, Sizes, len(table))
	}
	if size < MinSize || size > MaxSize {
		return zero, fmt.Errorf("size must be %d to %d, not %d", MinSize, MaxSize, size)
	}
	return table[size-MinSize], nil
}

// ThresholdNames returns the named thresholds from the lowest value up
// (names in alphabetical order among equal values).
func (c Config) ThresholdNames() []string {
	names := slices.Sorted(maps.Keys(c.Thresholds))
	slices.SortStableFunc(names, func(a, b string) int { return c.Thresholds[a] - c.Thresholds[b] })
	return names
}

// IsZero reports whether c is the zero Config, with no table at all: what a
// caller holds that was never given a configuration (a config file always
// starts from DefaultConfig).
func (c Config) IsZero() bool {
	return c.ESDice == nil && c.ActionsByES == nil && c.Thresholds == nil && c.SizeNames == nil &&
		c.MOVControlAdj == nil && c.MOVSizeFactor == nil && c.LOADTSizeFactor == nil &&
		c.BurdenLevelsByBuild == nil && c.OverloadedLOADT == 0 && c.BurdenMOVFactor == nil && c.SizeAdjPerStep == 0
}
