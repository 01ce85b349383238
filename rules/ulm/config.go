// Package ulm implements the rules of seed 002 (../shared/seeds/002_023fc247285cba5c.txt),
// "Midnight in Vaia": Action Slots, Celerity, movement actions, climbing,
// jumping, falling, Hit Points, Injury Cards, Vulnerable and Epilogues.
package ulm

// Config holds the values the text leaves to tables it does not include or
// to the GM. Each field says which words of the text it rests on; a
// campaign overrides them in the [ulm] section of the config file.
type Config struct{}

// DefaultConfig returns the documented defaults.
func DefaultConfig() Config { return Config{} }
