package faction

import (
	"math/rand/v2"
	"testing"

	"github.com/tablehand/tablehand/rules/dice"
)

func TestMemesHomeTurf(t *testing.T) {
	c := world(t)
	red := c.Faction("Red")
	ma := add(t, c, "Red", "Marines", "Mars")
	red.Stats.SOL, red.Stats.POP = 6, 2
	if got := c.hta(red, ma, STR); got != 4 {
		t.Fatalf("plain Home Turf = %d, want STR 4", got)
	}
	// Independence: "SOL may serve for Home Turf Advantage".
	red.Memes = []Meme{{Name: "Independence", Active: true}}
	if got := c.hta(red, ma, STR); got != 6 {
		t.Errorf("Independence: %d, want SOL 6", got)
	}
	// Armed Society: "POP instead of STR for Home Turf Advantage".
	red.Memes = []Meme{{Name: "Armed Society", Active: true}}
	if got := c.hta(red, ma, STR); got != 2 {
		t.Errorf("Armed Society: %d, want POP 2", got)
	}
	// A meme not yet working does nothing: "A new Meme provides no benefits
	// for [10-(MoS)] Rounds."
	red.Memes = []Meme{{Name: "Armed Society", ActiveFrom: 5}}
	if got := c.hta(red, ma, STR); got != 4 {
		t.Errorf("inactive meme: %d", got)
	}
	// Home Turf "only applies to actions of the Asset's Related
	// Attribute", and only in its own territory.
	if c.hta(red, ma, INT) != 0 {
		t.Error("Home Turf for an INT action of a STR asset")
	}
	ma.Location = "Luna"
	if c.hta(red, ma, STR) != 0 {
		t.Error("Home Turf away from home")
	}
}

func TestMemesAttacksMustBePlanned(t *testing.T) {
	// Security Clearance: "INT attacks against the faction must be
	// Planned."
	c := world(t)
	c.Faction("Blue").Memes = []Meme{{Name: "Security Clearance", Active: true}}
	spy := add(t, c, "Red", "Spy", "Luna")
	mil := add(t, c, "Blue", "Militia", "Luna")
	refuse(t, c, "Red", order("attack", spy.ID, "target", id(mil)), ErrNotAvailable)
	refuse(t, c, "Red", order("sabotage", spy.ID, "mode", "habitat"), ErrNotAvailable)
	fr := add(t, c, "Red", "Frigate", "Luna")
	do(t, c, "Red", order("attack", fr.ID, "target", id(mil)), 1, 9, 1, 1) // a STR attack is not
	c.Faction("Red").Turn.Plans = []PlanBonus{{Effect: 99, Asset: spy.ID, Action: "sabotage", AP: 1}}
	do(t, c, "Red", order("sabotage", spy.ID, "mode", "habitat"), 9, 1)

	// Isolationism: "remote attacks against the faction must be Planned,
	// and that Plan gives no bonus".
	c = world(t)
	c.Faction("Blue").Memes = []Meme{{Name: "Isolationism", Active: true}}
	hc := add(t, c, "Red", "Hacker Cell", "Mars")
	begin(t, c, "Red")
	red := c.Faction("Red")
	red.Turn.Remotes = []RemoteGrant{{Effect: 98, Asset: hc.ID, Ignore: 2}}
	sab := order("sabotage", hc.ID, "mode", "stat", "faction", "Blue", "stat", "INF")
	refuse(t, c, "Red", sab, ErrNotAvailable)
	red.Turn.Plans = []PlanBonus{{Effect: 99, Asset: hc.ID, Action: "sabotage", AP: 5}}
	do(t, c, "Red", sab, 9, 1)
	if red = c.Faction("Red"); red.AP != 2 || len(red.Turn.Plans) != 0 {
		t.Errorf("the Plan gave AP (%d left) or was kept", red.AP)
	}
}

func TestMemesCovertAndFree(t *testing.T) {
	// Clandestine: "all the faction's assets are Covert".
	c := world(t)
	c.Faction("Blue").Memes = []Meme{{Name: "Clandestine", Active: true}}
	fr := add(t, c, "Red", "Frigate", "Luna")
	mil := add(t, c, "Blue", "Militia", "Luna")
	refuse(t, c, "Red", order("attack", fr.ID, "target", id(mil)), ErrUnknownAsset)
	// The Militia are Covert, so they keep nothing off the habitat either.
	do(t, c, "Red", order("attack", fr.ID, "habitat", "Luna"), 9, 1)

	// Cult of Personality: "Mogul actions are free."
	c = world(t)
	c.Faction("Red").Memes = []Meme{{Name: "Cult of Personality", Active: true}}
	mog := add(t, c, "Red", "Mogul", "Mars")
	do(t, c, "Red", order("asset-invest", mog.ID, "stat", "SOL"), 9)
	// The Mogul's bonus: AP 5 ("adds 1 to COH while it stands").
	if red := c.Faction("Red"); red.AP != 5 {
		t.Errorf("AP = %d, want 5 and nothing spent", red.AP)
	}
}

// Preview resolves on a copy; each roll carries its odds.
func TestPreview(t *testing.T) {
	c := world(t)
	fab := add(t, c, "Red", "Fabricator", "Mars")
	before := c.Clone()
	rep, err := Preview(c, map[string][]Order{"Red": {order("produce", fab.ID)}}, dice.NewRandom(rand.New(rand.NewPCG(3, 4))))
	if err != nil {
		t.Fatal(err)
	}
	red, _ := rep.Faction("Red")
	if !sameState(before, c) || len(red.Tests()) != 1 || red.Tests()[0].Chance != 0.8 {
		t.Errorf("preview: %+v", red.Tests())
	}
}
