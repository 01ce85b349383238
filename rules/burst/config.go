// Package burst implements the rules of seed 003 (../shared/seeds/003_88b8445f1f52ae9c.txt):
// the d20 action die with stepped bonus dice that burst, charges and
// challenges, attacks and Guard, reactions, damage, Durability/Health/Shock.
package burst

// Config holds the values the text leaves to tables it does not include or
// to the GM. Each field says which words of the text it rests on; a
// campaign overrides them in the [burst] section of the config file.
type Config struct{}

// DefaultConfig returns the documented defaults.
func DefaultConfig() Config { return Config{} }
