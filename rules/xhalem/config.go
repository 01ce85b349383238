// Package xhalem implements the rules of seed 004 (../shared/seeds/004_6c85084f8ccdb34d.txt):
// mechs and creatures, engagement and evasion rolls, advantage, disadvantage
// and detriment, grapple, shove, movement and space speed.
package xhalem

// Config holds the values the text leaves to tables it does not include or
// to the GM. Each field says which words of the text it rests on; a
// campaign overrides them in the [xhalem] section of the config file.
type Config struct{}

// DefaultConfig returns the documented defaults.
func DefaultConfig() Config { return Config{} }
