package ulm

import (
	"testing"
	"time"
)

func TestDefaultConfigIsValid(t *testing.T) {
	cfg := DefaultConfig()
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	// "terminal velocity is reached in around 5-10 Seconds of falling": the
	// default Full Round is within that.
	if r := cfg.FullRound(); r < 5*time.Second || r > 10*time.Second {
		t.Errorf("a Full Round of %v; the text puts it at 5-10 seconds", r)
	}
}

func TestConfigValidate(t *testing.T) {
	bad := []func(*Config){
		func(c *Config) { c.MinActionSlots = -1 },
		func(c *Config) { c.FallDamageMinTiles = 0 },
		func(c *Config) { c.FallFreeTiles = -1 },
		func(c *Config) { c.FallDamageType = "acid" },
		func(c *Config) { c.FallDamageType = Earlier },
		func(c *Config) { c.ModifierMode = "multiply" },
		func(c *Config) { c.FullRoundSeconds = 0 },
	}
	for i, f := range bad {
		c := DefaultConfig()
		f(&c)
		if err := c.Validate(); err == nil {
			t.Errorf("bad config %d (%+v): no error", i, c)
		}
	}
}
