// Package arc implements the rules of seed 001 (../shared/seeds/001_bcd071466c58340d.txt):
// time, size, movement, load, reaction checks, declaration order and Action
// Resolution Checks.
package arc

// Config holds the values the text leaves to tables it does not include or
// to the GM. Each field says which words of the text it rests on; a
// campaign overrides them in the [arc] section of the config file.
type Config struct{}

// DefaultConfig returns the documented defaults.
func DefaultConfig() Config { return Config{} }
