package faction

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/tablehand/tablehand/rules/dice"
)

// Issue 20: the numbers a player reads count only what that player may
// see. Blue's doings (a Plan, Research, a Produce Asset under way, an
// Invest) leave Red's numbers as they are without them, and Red's Covert
// Plan leaves Red's project numbers, which Blue reads, as they are.
func TestNumbersCountWhatThePlayerSees(t *testing.T) {
	// setup makes both campaigns: what Red may see of Blue is the same in
	// both (Blue's University and Spy, assets #3 and #4).
	setup := func(t *testing.T) (*Campaign, *Asset, *Asset) {
		c := world(t)
		c.Config.GMApprovesProduction = false
		uni := add(t, c, "Red", "University", "Mars")
		fr := add(t, c, "Red", "Frigate", "Mars")
		add(t, c, "Blue", "University", "Luna")
		add(t, c, "Blue", "Spy", "Luna")
		return c, uni, fr
	}
	for _, tt := range []struct {
		name   string
		hidden func(t *testing.T, c *Campaign)
	}{
		{"nothing", func(*testing.T, *Campaign) {}},
		// "Temporarily add MoS points to AP for a specific Asset Action
		// next Round": Spy 4 + INT 4 at home + 9 vs Red INT 4 + 1.
		{"Blue's Plan", func(t *testing.T, c *Campaign) {
			do(t, c, "Blue", order("plan", 4, "action", "sabotage", "faction", "Red"), 9, 1)
		}},
		// "Straight Faction Roll (+HTA for the Researcher)": INT 4 + the
		// University's Level 2 x 2 at home = 8; roll 1.
		{"Blue's Research", func(t *testing.T, c *Campaign) {
			do(t, c, "Blue", order("research", 3, "kind", "level", "target", "4"), 1)
		}},
		{"Blue's Produce Asset", func(t *testing.T, c *Campaign) {
			do(t, c, "Blue", order("produce-asset", 0, "chart", "Militia", "at", "Luna"))
		}},
		// "Heal or Boost ... by [MoS/2] points": RES 4, roll 2.
		{"Blue's Invest", func(t *testing.T, c *Campaign) {
			do(t, c, "Blue", order("invest", 0, "stat", "INF"), 2)
		}},
		// Red's Frigate, Covert, plans: STR 4 + Level 2 x 2 + 9 vs 4 + 1.
		{"Red's Covert Plan", func(t *testing.T, c *Campaign) {
			fr, _ := c.Asset(2)
			fr.Covert = true
			if out := do(t, c, "Red", order("plan", 2, "action", "attack", "faction", "Blue"), 9, 1); !out.Covert {
				t.Fatalf("not Covert: %+v", out)
			}
			c.Faction("Red").AP = 4
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, uni, fr := setup(t)
			tt.hidden(t, c)
			// Red researches: "Research Cost: [new Level - old Level] TEC
			// and 3 AP", INT 4 + 4 = 8 vs a roll of 3. It is Red's first
			// project.
			out := do(t, c, "Red", order("research", uni.ID, "kind", "level", "target", id(fr)), 3)
			if p := c.Faction("Red").Research[0]; p.ID != 1 || !strings.Contains(out.Tests[0].Text+out.Tests[0].Label, "(project 1)") ||
				!strings.Contains(out.Effects[0].Note, "research project 1 ") {
				t.Errorf("project %d: %+v; %s", p.ID, out.Tests[0], out.Effects[0].Note)
			}
			// The next asset is the fifth anyone may see.
			if a, err := c.AddAsset("Red", "Spy", "Mars"); err != nil || a.ID != 5 {
				t.Errorf("Red's new asset: %v, %v; want #5", a.Label(), err)
			}
		})
	}
}

// Each faction numbers its own effects: Investigate and Sabotage name the
// enemy whose Plan or Produce they cancel (faction:), unless the acting
// faction has one enemy only.
func TestCancelNamesTheEffectsFaction(t *testing.T) {
	c := world(t)
	must(t, func() error { _, err := c.AddFaction("Green", ""); return err })
	must(t, func() error { _, err := c.AddHabitat("Io", "Green", "outer"); return err })
	rs := add(t, c, "Red", "Spy", "Mars")
	bs := add(t, c, "Blue", "Spy", "Mars")
	gs := add(t, c, "Green", "Spy", "Mars")
	// Two Plans against Red, each its faction's first effect: 4 + 9 = 13
	// vs 4 + 1 = 5.
	eb := do(t, c, "Blue", order("plan", bs.ID, "action", "sabotage", "faction", "Red"), 9, 1).Effects[0]
	eg := do(t, c, "Green", order("plan", gs.ID, "action", "sabotage", "faction", "Red"), 9, 1).Effects[0]
	if eb.ID != 1 || eg.ID != 1 {
		t.Fatalf("effects %d and %d, want each faction's 1", eb.ID, eg.ID)
	}
	refuse(t, c, "Red", order("investigate", rs.ID, "effect", "1"), ErrBadParam)
	refuse(t, c, "Red", order("investigate", rs.ID, "effect", "2", "faction", "Green"), ErrNotAvailable)
	// "1) Cancel an enemy's Local or Remote Plan": 5 vs 3.
	do(t, c, "Red", order("investigate", rs.ID, "effect", "1", "faction", "Green"), 5, 3)
	if len(c.Pending("Green")) != 0 || len(c.Pending("Blue")) != 1 {
		t.Errorf("pending: Green %+v, Blue %+v", c.Pending("Green"), c.Pending("Blue"))
	}
}

// A researched upgrade given to an ally takes the ally's next numbers, its
// Design cost with it.
func TestGiftTakesTheAllysNumbers(t *testing.T) {
	c := world(t)
	uni := add(t, c, "Red", "University", "Mars")
	fr := add(t, c, "Red", "Frigate", "Mars")
	bf := add(t, c, "Blue", "Frigate", "Luna")
	// Blue has a project of its own already: INT 4 + 4 vs 1.
	do(t, c, "Blue", order("research", add(t, c, "Blue", "University", "Luna").ID, "kind", "level", "target", id(bf)), 1)
	do(t, c, "Red", order("research", uni.ID, "kind", "level", "target", id(fr)), 3)
	c.Round = 10
	begin(t, c, "Red")
	c.Relations = []Relation{{A: "Blue", B: "Red", Kind: Alliance}}
	out := do(t, c, "Red", order("give-upgrade", 0, "project", "1", "faction", "Blue"))
	blue := c.Faction("Blue")
	if len(blue.Research) != 2 || blue.Research[1].ID != 2 || len(blue.Debts) != 1 || blue.Debts[0].ID != 3 || blue.Debts[0].Project != 2 {
		t.Fatalf("Blue's research %+v, debts %+v", blue.Research, blue.Debts)
	}
	if !hasChange(out, "Blue", "receives upgrade") || !strings.Contains(out.Changes[0].To, "project 1 ") {
		t.Errorf("the gift reads %+v: Red names it by its own number", out.Changes)
	}
	begin(t, c, "Blue")
	do(t, c, "Blue", order("pay", 0, "debt", "3", "target", id(bf)))
	if a, _ := c.Asset(bf.ID); a.Level != 3 {
		t.Errorf("Blue's Frigate: %+v", a)
	}
}

// oldCampaign is a campaign as saved before factions had counters: one
// next_id numbered everything. Red holds asset #1, project 3, debt 4 and
// a pending effect 5; Blue holds asset #2 and effect 6; the next was 7.
const oldCampaign = `{
 "round": 4,
 "turn_order": ["Red", "Blue"],
 "factions": [
  {"name": "Red", "owner": "u1", "attributes": {"res": 4, "int": 4, "coh": 4, "str": 4},
   "max_attributes": {"res": 4, "int": 4, "coh": 4, "str": 4},
   "stats": {"inf": 7, "tec": 7, "sol": 7, "pop": 7}, "base_stats": {"inf": 6, "tec": 6, "sol": 6, "pop": 6}, "ap": 4,
   "assets": [{"id": 1, "name": "University", "chart": "University", "category": "Facility", "type": "INT", "level": 2, "health": 2,
     "specials": ["research"], "bonus": {"res": 0, "int": 0, "coh": 0, "str": 0}, "location": "Mars"}],
   "research": [{"id": 3, "kind": "level", "asset": 1, "chart": "University", "new": 3, "tec": 0, "ap": 2, "attempts": 1, "time": 9, "status": "retry", "ready": 4}],
   "debts": [{"id": 4, "kind": "annex", "habitat": "Mars", "stat": "POP", "amount": 1, "note": "the Annexation of Mars: 1 POP"}],
   "turn": {"round": 3, "phase": 0, "asset_actions": 0, "ap_start": 4}},
  {"name": "Blue", "policy": "hold", "attributes": {"res": 4, "int": 4, "coh": 4, "str": 4},
   "max_attributes": {"res": 4, "int": 4, "coh": 4, "str": 4},
   "stats": {"inf": 7, "tec": 7, "sol": 7, "pop": 7}, "base_stats": {"inf": 6, "tec": 6, "sol": 6, "pop": 6}, "ap": 4,
   "assets": [{"id": 2, "name": "Militia", "chart": "Militia", "category": "Unit", "type": "STR", "level": 1, "health": 1,
     "bonus": {"res": 0, "int": 0, "coh": 0, "str": 0}, "location": "Luna"}],
   "turn": {"round": 3, "phase": 0, "asset_actions": 0, "ap_start": 4}}
 ],
 "habitats": [
  {"name": "Mars", "owner": "Red", "region": "inner", "health": 5, "max_health": 5, "bonus": {"inf": 1, "tec": 1, "sol": 1, "pop": 1}, "bonus_active": true},
  {"name": "Luna", "owner": "Blue", "region": "inner", "health": 5, "max_health": 5, "bonus": {"inf": 1, "tec": 1, "sol": 1, "pop": 1}, "bonus_active": true}
 ],
 "effects": [
  {"id": 5, "kind": "heal-stat", "faction": "Red", "due": 9, "created": 3, "source": "invest", "stat": "TEC", "amount": 1, "note": "TEC +1"},
  {"id": 6, "kind": "heal-stat", "faction": "Blue", "due": 9, "created": 3, "source": "invest", "stat": "INF", "amount": 1, "note": "INF +1"}
 ],
 "next_id": 7
}`

// An old campaign loads and plays on: what it holds keeps its numbers, and
// new things take numbers past any its players may have read: its
// factions' counters start at its next_id, as its assets go on from it.
func TestOldCampaignKeepsItsNumbers(t *testing.T) {
	c := &Campaign{Config: DefaultConfig()}
	if err := json.Unmarshal([]byte(oldCampaign), c); err != nil {
		t.Fatal(err)
	}
	// Red's failed project 3 "may be re-attempted after the Research Time
	// has elapsed": INT 4 + 4 = 8 vs 3, at the TEC and AP it now costs.
	out := do(t, c, "Red", order("research", 1, "project", "3"), 3)
	if p := c.Faction("Red").Research[0]; p.ID != 3 || out.Effects[0].ID != 7 {
		t.Errorf("project %d, its effect %d; want 3 and 7", p.ID, out.Effects[0].ID)
	}
	// Debt 4 is paid by its number.
	do(t, c, "Red", order("pay", 0, "debt", "4"))
	if d := c.Faction("Red").Debts; len(d) != 0 {
		t.Errorf("debts %+v", d)
	}
	// Blue's next effect is 7 too: each faction counts its own now.
	if e := do(t, c, "Blue", order("invest", 0, "stat", "TEC"), 2).Effects[0]; e.ID != 7 {
		t.Errorf("Blue's effect %d, want 7", e.ID)
	}
	if a, err := c.AddAsset("Blue", "Spy", "Luna"); err != nil || a.ID != 7 {
		t.Errorf("the new asset: %s, %v; want #7", a.Label(), err)
	}
	// Saved again, the counters are kept.
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	again := &Campaign{}
	if err := json.Unmarshal(b, again); err != nil {
		t.Fatal(err)
	}
	red, blue := again.Faction("Red"), again.Faction("Blue")
	if !again.PerFactionNumbers || again.NextID != 8 || red.NextID != 8 || blue.NextID != 8 || red.NextProject != 7 || blue.NextProject != 7 {
		t.Errorf("counters after a save: campaign %d, Red %d and %d, Blue %d and %d", again.NextID, red.NextID, red.NextProject, blue.NextID, blue.NextProject)
	}
}

// TestBornCovertNumbers: an asset the GM gives a Clandestine faction ("all
// the faction's assets are Covert") takes a number of its faction's own
// block, so the next asset another faction reads does not skip it; when
// another faction first sees it (the meme gone, or revealed), it takes
// the campaign counter's next number, and its old number still finds it.
func TestBornCovertNumbers(t *testing.T) {
	c := world(t)
	blue := c.Faction("Blue")
	blue.Memes = []Meme{{Name: "Clandestine", Active: true}}
	spy := add(t, c, "Blue", "Spy", "Luna")
	envoy := add(t, c, "Blue", "Envoy", "Luna")
	// Blue is second among the factions: its block is the second.
	if spy.ID != 2*hiddenBlock+1 || envoy.ID != 2*hiddenBlock+2 {
		t.Fatalf("born Covert: #%d and #%d, want #%d and #%d", spy.ID, envoy.ID, 2*hiddenBlock+1, 2*hiddenBlock+2)
	}
	if fr := add(t, c, "Red", "Frigate", "Mars"); fr.ID != 1 {
		t.Fatalf("Red's Frigate is #%d: the Covert assets took the campaign's numbers", fr.ID)
	}
	// Red's order against the Spy cannot name it; Blue's own Plan keeps
	// its number in its effects.
	c.Effects = append(c.Effects, Effect{ID: 1, Kind: EffectPlan, Faction: "Blue", Due: 2, Asset: spy.ID, Target: envoy.ID})
	blue.Research = append(blue.Research, Project{ID: 1, Kind: ResearchEffectiveness, Asset: envoy.ID})
	old := spy.ID
	c.NumberSeen()
	if spy.ID != old {
		t.Fatalf("renumbered while Covert: #%d", spy.ID)
	}
	// The meme goes: both are seen, and number on from the counter in
	// Blue's order of assets.
	blue.Memes = nil
	c.NumberSeen()
	if spy.ID != 2 || envoy.ID != 3 {
		t.Fatalf("once seen: #%d and #%d, want #2 and #3", spy.ID, envoy.ID)
	}
	if e := c.Effects[0]; e.Asset != 2 || e.Target != 3 {
		t.Errorf("the Plan still names #%d and #%d", e.Asset, e.Target)
	}
	if p := blue.Research[0]; p.Asset != 3 {
		t.Errorf("the project still names #%d, want #3", p.Asset)
	}
	if a, f := c.Asset(old); a != spy || f != blue {
		t.Errorf("the old number finds %v of %v", a, f)
	}
	if next := add(t, c, "Red", "Frigate", "Mars"); next.ID != 4 {
		t.Errorf("the next asset is #%d, want #4", next.ID)
	}
	// Saved and loaded, it keeps the old number's way to it.
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	var back Campaign
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if a, _ := back.Asset(old); a == nil || a.ID != 2 {
		t.Errorf("loaded, the old number finds %+v", a)
	}
}

// TestRevealedBornCovertIsNumbered: Investigation reveals an asset born
// Covert under its public number, the one its change line names.
func TestRevealedBornCovertIsNumbered(t *testing.T) {
	c := world(t)
	c.Faction("Blue").Memes = []Meme{{Name: "Clandestine", Active: true}}
	rs := add(t, c, "Red", "Spy", "Mars")
	bs := add(t, c, "Blue", "Spy", "Mars")
	// As TestInvestigate: 5 + INT 4 + 4 = 13 vs 3 + 4 = 7; the Escape
	// fails.
	out := do(t, c, "Red", order("investigate", rs.ID), 5, 3, 9, 1)
	a, _ := c.Asset(bs.ID)
	if !out.Success || a == nil || a.ID != 2 {
		t.Fatalf("revealed: %+v %+v", a, out)
	}
	for _, ch := range out.Changes {
		if strings.Contains(ch.Subject, "#2000001") {
			t.Errorf("a change names the block's number: %+v", ch)
		}
	}
	if !strings.Contains(out.Text, "Spy #2") {
		t.Errorf("the outcome does not name Spy #2: %s", out.Text)
	}
}

// TestCovertCostsUnseen: what a Covert action costs its faction the others
// read as unpaid until the round is played, whose report tells of it; a
// public action's cost they read at once (issue 20).
func TestCovertCostsUnseen(t *testing.T) {
	c := world(t)
	red := c.Faction("Red")
	spy := add(t, c, "Red", "Spy", "Mars")
	spy.Covert = true
	env := add(t, c, "Red", "Envoy", "Mars")
	fixer := add(t, c, "Red", "Fixer", "Mars")
	fixer.Covert = true
	// "Make any Agent Asset (except Mogul) Covert": 1 AP, by a Covert Spy.
	out := do(t, c, "Red", order("subterfuge", spy.ID, "target", id(env)))
	red = c.Faction("Red") // Resolve plays on a copy
	if !out.Covert || red.AP != 3 {
		t.Fatalf("subterfuge: covert %v, AP %d, want true and 3", out.Covert, red.AP)
	}
	if got := red.SeenAP(); got != 4 {
		t.Errorf("the others read AP %d, want 4: the Covert action unpaid", got)
	}
	// The Envoy, Covert now, acts Covertly too: the others still read 4.
	do(t, c, "Red", order("subterfuge", env.ID))
	red = c.Faction("Red")
	if got := red.SeenAP(); red.AP != 2 || got != 4 {
		t.Errorf("after two: AP %d, the others read %d; want 2 and 4", red.AP, got)
	}
	if red.SeenStats() != red.Stats {
		t.Errorf("Subterfuge costs no Health Stat: the others read %+v, Red has %+v", red.SeenStats(), red.Stats)
	}
	// Paid as Stat damage ("at a cost of damage to the Faction's related
	// Stat instead of AP") by the Covert Fixer: RES pairs with INF,
	// 7 -> 6; the others still read 7, and AP 4.
	do(t, c, "Red", order("subterfuge", fixer.ID, "target", id(fixer), "pay", "stat"))
	red = c.Faction("Red")
	if red.Stats.INF != 6 || red.SeenStats().INF != 7 || red.SeenAP() != 4 {
		t.Errorf("paid as INF: Red has INF %d, the others read INF %d and AP %d; want 6, 7 and 4", red.Stats.INF, red.SeenStats().INF, red.SeenAP())
	}
	// The round is played: its report tells of them, the others read
	// the sheet as it is.
	if _, err := ResolveRound(c, nil, dice.NewPhysical(nil)); err != nil {
		t.Fatal(err)
	}
	red = c.Faction("Red")
	if red.Turn.CovertAP != 0 || red.SeenAP() != red.AP || red.SeenStats() != red.Stats {
		t.Errorf("after the round the others read AP %d of %d, %+v of %+v", red.SeenAP(), red.AP, red.SeenStats(), red.Stats)
	}
}
