package faction

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/tablehand/tablehand/rules/dice"
)

// busy is a campaign with something in every slice Clone must copy.
func busy(t *testing.T) *Campaign {
	c := world(t)
	fr := add(t, c, "Red", "Freighter", "Mars")
	ma := add(t, c, "Red", "Marines", "Mars")
	fr.Transit = &Transit{From: "Mars", To: "Titan", Arrive: 3, Passengers: []int{ma.ID}}
	ma.Transit = &Transit{From: "Mars", To: "Titan", Arrive: 3, Carrier: fr.ID}
	red := c.Faction("Red")
	red.Memes = []Meme{{Name: "Legalism", Active: true}}
	red.Mandate = &Mandate{Meme: "Singularity", Successes: 1, LastRound: 1, MoS: []int{3}}
	red.Research = []Project{{ID: 90, Kind: ResearchLevel, Status: "retry"}}
	red.Debts = []Debt{{ID: 91, Kind: "annex", Amount: 5}}
	red.Decline = []string{"escape"}
	red.Turn = TurnState{Round: 1, Acted: []int{1}, Extra: []int{2}, Plans: []PlanBonus{{Effect: 1, AP: 3}}, Remotes: []RemoteGrant{{Effect: 2}}}
	h := c.Habitat("Luna")
	h.Delays = []AnnexDelay{{Faction: "Red", Round: 4}}
	h.Ruins = []Ruin{{Chart: "Shipyard", Owner: "Blue"}}
	c.Effects = []Effect{{ID: 92, Kind: EffectMeme, Faction: "Red", Due: 3}}
	c.Relations = []Relation{{A: "Blue", B: "Red", Kind: Agreement}}
	c.Proposals = []Proposal{{From: "Red", To: "Blue", Kind: Alliance}}
	return c
}

func TestCloneIsDeep(t *testing.T) {
	c := busy(t)
	before, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	n := c.Clone()
	if !sameState(c, n) {
		t.Fatal("the clone differs")
	}
	// Change everything in the clone.
	r := n.Faction("Red")
	r.Memes[0].Active = false
	r.Mandate.MoS[0] = 9
	r.Research[0].Status = "x"
	r.Debts[0].Amount = 0
	r.Decline[0] = "x"
	r.Turn.Acted[0], r.Turn.Extra[0], r.Turn.Plans[0].AP, r.Turn.Remotes[0].Ignore = 9, 9, 9, 9
	r.Assets[0].Transit.Passengers[0] = 99
	r.Assets[0].Specials[0] = "x"
	r.Assets[1].Health = 0
	n.Habitat("Luna").Delays[0].Round = 9
	n.Habitat("Luna").Ruins[0].Chart = "x"
	n.Effects[0].Due = 9
	n.Relations[0].Kind = "x"
	n.Proposals[0].Kind = "x"
	n.TurnOrder[0] = "x"
	n.Config.Assets[0].Specials[0] = "x"
	n.Config.Memes[4].DiscountAttrs[0] = "x"
	after, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	if string(before) != string(after) {
		t.Error("changing the clone changed the original")
	}
}

func TestJSONRoundTrip(t *testing.T) {
	c := busy(t)
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	var back Campaign
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !sameState(c, &back) {
		t.Error("JSON round trip lost something")
	}
	for _, key := range []string{`"turn_order"`, `"factions"`, `"habitats"`, `"effects"`, `"relations"`, `"next_id"`, `"max_attributes"`, `"base_stats"`, `"specials"`} {
		if !strings.Contains(string(b), key) {
			t.Errorf("no %s in the JSON", key)
		}
	}
}

func TestConfig(t *testing.T) {
	cfg := DefaultConfig()
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	// The starter chart: every category and type, every Special listed.
	for _, cat := range []Category{Facility, Vehicle, Unit, Agent} {
		for _, ty := range AllAttrs {
			if !slices.ContainsFunc(cfg.Assets, func(d AssetDef) bool { return d.Category == cat && d.Type == ty }) {
				t.Errorf("no %s %s in the starter chart", ty, cat)
			}
		}
	}
	for _, s := range knownSpecials {
		if !slices.ContainsFunc(cfg.Assets, func(d AssetDef) bool { return slices.Contains(d.Specials, s) }) {
			t.Errorf("no asset lists %s", s)
		}
	}
	for _, d := range cfg.Assets {
		if d.Level < 1 || d.Level > 4 {
			t.Errorf("%s: Level %d outside 1-4", d.Name, d.Level)
		}
		if d.Category == Vehicle && d.Requires != "Shipyard" {
			t.Errorf("%s: \"Vehicle production must take place at a Shipyard\"", d.Name)
		}
		if d.Category != Facility && d.Level > 1 && d.Requires == "" {
			t.Errorf("%s: Level %d and no Facility to produce it", d.Name, d.Level)
		}
	}
	for _, bad := range []func(*Config){
		func(c *Config) { c.Sequence = "sideways" },
		func(c *Config) { c.RegroupCost = "free" },
		func(c *Config) { c.APAttribute = "LUCK" },
		func(c *Config) { c.HabitatHealth = -1 },
		func(c *Config) { c.Assets = append(c.Assets, c.Assets[0]) },
		func(c *Config) { c.Assets[0].Specials = []string{"fly"} },
		func(c *Config) { c.Assets[0].Requires = "Nowhere" },
		func(c *Config) { c.Memes[0].HTAMode = "sometimes" },
	} {
		c := DefaultConfig()
		bad(&c)
		if err := c.Validate(); err == nil {
			t.Errorf("Validate accepted %+v", c)
		}
	}
	if _, err := NewCampaign(Config{}); err == nil {
		t.Error("NewCampaign accepted an empty config")
	}
}

// Every action in the registry has a rule behind it.
func TestRegistry(t *testing.T) {
	seen := map[string]bool{}
	for _, a := range Actions() {
		if seen[a.Key] {
			t.Errorf("%s listed twice", a.Key)
		}
		seen[a.Key] = true
		if a.Rule == "" || a.Cost == "" || a.Duration == "" {
			t.Errorf("%s: missing rule text", a.Key)
		}
		if got, ok := LookupAction(a.Name); !ok || got.Key != a.Key {
			t.Errorf("LookupAction(%q) = %v", a.Name, got.Key)
		}
		c := world(t)
		mil := add(t, c, "Red", "Militia", "Mars")
		mil.Specials = knownSpecials
		mil.Duplicate = a.Key == "convert-duplicate"
		_, err := Resolve(c, "Red", Order{Action: a.Key, Asset: mil.ID}, dice.NewPhysical(nil))
		if err != nil && strings.Contains(err.Error(), "has no rule") {
			t.Errorf("%s: %v", a.Key, err)
		}
	}
	for _, key := range []string{"escape", "free-investigate", "counter-attack"} {
		c := world(t)
		if _, err := Resolve(c, "Red", Order{Action: key}, dice.NewPhysical(nil)); !errors.Is(err, ErrTriggered) {
			t.Errorf("%s ordered: %v", key, err)
		}
	}
}

func TestAvailable(t *testing.T) {
	c := world(t)
	fab := add(t, c, "Red", "Fabricator", "Mars")
	dn := add(t, c, "Red", "Dreadnought", "Mars")
	dup := add(t, c, "Red", "Fabricator", "Mars")
	dup.Duplicate = true
	opts, err := Available(c, "Red")
	if err != nil {
		t.Fatal(err)
	}
	find := func(action string, asset int) (ActionOption, bool) {
		i := slices.IndexFunc(opts, func(o ActionOption) bool { return o.Action == action && o.Asset == asset })
		if i < 0 {
			return ActionOption{}, false
		}
		return opts[i], true
	}
	if _, ok := find("invest", 0); !ok {
		t.Error("no Invest")
	}
	if _, ok := find("regroup", 0); ok {
		t.Error("Regroup with nothing to heal")
	}
	if o, ok := find("produce", fab.ID); !ok || o.AP != 2 || o.Cost != "2 AP" || !o.Affordable {
		t.Errorf("Fabricator Produce: %+v", o)
	}
	if o, ok := find("asset-repair", fab.ID); !ok || o.Cost != "the Level of the asset repaired" {
		t.Errorf("Fabricator Repair (Special): %+v", o)
	}
	if _, ok := find("research", fab.ID); ok {
		t.Error("the chart lists no Research for a Fabricator")
	}
	if _, ok := find("convert-duplicate", dup.ID); !ok {
		t.Error("no Convert Duplicate for the duplicate")
	}
	if _, ok := find("produce", dup.ID); ok {
		t.Error("a duplicate may Produce")
	}
	// After the Faction Action and a 4 AP action: no Faction Actions; the
	// rest unaffordable.
	do(t, c, "Red", order("invest", 0, "stat", "INF"), 9)
	do(t, c, "Red", order("produce", dn.ID), 9)
	opts, _ = Available(c, "Red")
	if _, ok := find("invest", 0); ok {
		t.Error("a second Faction Action")
	}
	if o, ok := find("produce", fab.ID); !ok || o.Affordable {
		t.Errorf("Fabricator after 4 AP spent: %+v", o)
	}
	if _, ok := find("produce", dn.ID); ok {
		t.Error("the Dreadnought acts twice")
	}
	if _, err := Available(c, "Nobody"); !errors.Is(err, ErrUnknownFaction) {
		t.Error(err)
	}
}

func TestParse(t *testing.T) {
	for in, want := range map[string]Attr{"res": RES, "Intrigue": INT, " COH ": COH, "strength": STR} {
		if got, err := ParseAttr(in); err != nil || got != want {
			t.Errorf("ParseAttr(%q) = %v, %v", in, got, err)
		}
	}
	for in, want := range map[string]Stat{"inf": INF, "Technology": TEC, "SOL": SOL, "populace": POP} {
		if got, err := ParseStat(in); err != nil || got != want {
			t.Errorf("ParseStat(%q) = %v, %v", in, got, err)
		}
	}
	// "RES pairs with INF, INT with TEC, COH with SOL, STR with POP"
	for i, a := range AllAttrs {
		if a.Stat() != AllStats[i] || AllStats[i].Attr() != a {
			t.Errorf("%s pairs with %s", a, a.Stat())
		}
	}
	if _, err := ParseAttr("LUCK"); !errors.Is(err, ErrBadParam) {
		t.Error(err)
	}
	if _, err := ParseCategory("ship"); err == nil {
		t.Error("ParseCategory(ship)")
	}
	o := order("attack", 3, "target", "9", "pay", "stat")
	if o.String() != "attack asset=3 pay=stat target=9" {
		t.Errorf("Order.String() = %q", o.String())
	}
}
