package faction

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/tablehand/tablehand/rules/dice"
)

// world is a small campaign: Red (a player) holds Mars; Blue (an NPC)
// holds Luna and Titan. Mars and Luna are in the inner region, Titan in the
// outer. With the defaults every Attribute is 4 (AP 4) and every Stat 6,
// plus 1 for each habitat: Red's Stats are 7, Blue's 8.
func world(t *testing.T) *Campaign {
	t.Helper()
	c, err := NewCampaign(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	must(t, func() error { _, err := c.AddFaction("Red", "u1"); return err })
	must(t, func() error { _, err := c.AddFaction("Blue", ""); return err })
	must(t, func() error { _, err := c.AddHabitat("Mars", "Red", "inner"); return err })
	must(t, func() error { _, err := c.AddHabitat("Luna", "Blue", "inner"); return err })
	must(t, func() error { _, err := c.AddHabitat("Titan", "Blue", "outer"); return err })
	return c
}

func must(t *testing.T, f func() error) {
	t.Helper()
	if err := f(); err != nil {
		t.Fatal(err)
	}
}

func add(t *testing.T, c *Campaign, faction, chart, where string) *Asset {
	t.Helper()
	a, err := c.AddAsset(faction, chart, where)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// act resolves an order with exactly the dice given and fails the test on
// an error or when the dice given are not the dice rolled.
func do(t *testing.T, c *Campaign, faction string, o Order, faces ...int) Outcome {
	t.Helper()
	d := dice.NewPhysical(faces)
	out, err := Resolve(c, faction, o, d)
	if err != nil {
		t.Fatalf("%s %s: %v", faction, o, err)
	}
	if err := d.Done(); err != nil {
		t.Fatalf("%s %s: %v", faction, o, err)
	}
	return out
}

// refuse resolves an order that must fail with the error kind, leaving the
// campaign as it was.
func refuse(t *testing.T, c *Campaign, faction string, o Order, kind error, faces ...int) error {
	t.Helper()
	before := c.Clone()
	_, err := Resolve(c, faction, o, dice.NewPhysical(faces))
	if !errors.Is(err, kind) {
		t.Fatalf("%s %s: err = %v, want %v", faction, o, err, kind)
	}
	if !sameState(before, c) {
		t.Fatalf("%s %s: a refused order changed the campaign", faction, o)
	}
	return err
}

func order(action string, asset int, kv ...string) Order {
	o := Order{Action: action, Asset: asset}
	if len(kv) > 0 {
		o.Params = map[string]string{}
		for i := 0; i+1 < len(kv); i += 2 {
			o.Params[kv[i]] = kv[i+1]
		}
	}
	return o
}

// next ends the round for a test that resolves actions one by one.
func next(c *Campaign) { c.Round++ }

func begin(t *testing.T, c *Campaign, faction string) TurnStart {
	t.Helper()
	ts, err := BeginTurn(c, faction)
	if err != nil {
		t.Fatal(err)
	}
	return ts
}

func hasChange(o Outcome, subject, field string) bool {
	for _, c := range o.Changes {
		if c.Subject == subject && c.Field == field {
			return true
		}
	}
	for _, t := range o.Triggered {
		if hasChange(t, subject, field) {
			return true
		}
	}
	return false
}

// sameState compares two campaigns by their JSON.
func sameState(a, b *Campaign) bool {
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && string(x) == string(y)
}
