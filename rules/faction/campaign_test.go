package faction

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/tablehand/tablehand/rules/dice"
)

// solar is four factions, two played (Red Hand, Green Sun), two NPC (Blue
// Moon invests, Gold Star produces), each with a habitat and four assets.
func solar(t testing.TB) (*Campaign, map[string]int) {
	cfg := DefaultConfig()
	c, err := NewCampaign(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]int{}
	for _, f := range []struct{ name, owner, habitat, region string }{
		{"Red Hand", "u1", "Mars", "inner"}, {"Green Sun", "u2", "Ceres", "belt"},
		{"Blue Moon", "", "Luna", "inner"}, {"Gold Star", "", "Io", "outer"},
	} {
		if _, err := c.AddFaction(f.name, f.owner); err != nil {
			t.Fatal(err)
		}
		if _, err := c.AddHabitat(f.habitat, f.name, f.region); err != nil {
			t.Fatal(err)
		}
	}
	c.Faction("Blue Moon").Policy = PolicyInvest
	c.Faction("Gold Star").Policy = PolicyProduce
	for _, a := range []struct{ key, faction, chart, where string }{
		{"fab", "Red Hand", "Fabricator", "Mars"}, {"frigate", "Red Hand", "Frigate", "Mars"},
		{"spy", "Red Hand", "Spy", "Mars"}, {"uni", "Red Hand", "University", "Mars"},
		{"ship", "Green Sun", "Shipping Conglomerate", "Ceres"}, {"marines", "Green Sun", "Marines", "Ceres"},
		{"media", "Green Sun", "Media Network", "Ceres"}, {"hacker", "Green Sun", "Hacker Cell", "Ceres"},
		{"militia", "Blue Moon", "Militia", "Luna"}, {"corps", "Blue Moon", "Propaganda Corps", "Luna"},
		{"crew", "Blue Moon", "Work Crew", "Luna"}, {"directorate", "Blue Moon", "Intelligence Directorate", "Luna"},
		{"gfab", "Gold Star", "Fabricator", "Io"}, {"grid", "Gold Star", "Defense Grid", "Io"},
		{"team", "Gold Star", "Research Team", "Io"}, {"fixer", "Gold Star", "Fixer", "Io"},
	} {
		as, err := c.AddAsset(a.faction, a.chart, a.where)
		if err != nil {
			t.Fatal(err)
		}
		ids[a.key] = as.ID
	}
	c.Faction("Blue Moon").Stats.INF = 4
	c.Faction("Gold Star").Stats.SOL = 5
	return c, ids
}

func solarOrders(ids map[string]int) []map[string][]Order {
	s := func(k string) string { return fmt.Sprint(ids[k]) }
	return []map[string][]Order{
		{ // round 1
			"Red Hand": {order("invest", 0, "stat", "TEC"),
				order("move", ids["frigate"], "to", "Luna"),
				order("plan", ids["spy"], "action", "attack", "for", s("frigate"), "faction", "Blue Moon")},
			"Green Sun": {order("diplomacy", 0, "faction", "Red Hand"),
				order("remote", ids["hacker"]),
				order("asset-invest", ids["media"], "stat", "SOL")},
		},
		{ // round 2
			"Red Hand": {order("diplomacy", 0, "faction", "Green Sun"),
				order("attack", ids["frigate"], "target", s("militia")),
				order("produce", ids["fab"])},
			"Green Sun": {order("invest", 0, "stat", "INF"),
				order("sabotage", ids["hacker"], "mode", "stat", "faction", "Blue Moon", "stat", "INF"),
				order("produce", ids["marines"])},
		},
		{ // round 3
			"Red Hand": {order("repair", 0, "target", s("frigate")),
				order("subterfuge", ids["spy"]),
				order("research", ids["uni"], "kind", "level", "target", s("fab"))},
			"Green Sun": {order("produce-asset", 0, "chart", "Militia", "gm_produce", "approve"),
				order("move", ids["marines"], "to", "Mars", "via", s("ship")),
				order("produce", ids["media"])},
		},
	}
}

func playSolar(t testing.TB, seed uint64) (*Campaign, []RoundReport, map[string]int) {
	c, ids := solar(t)
	r := dice.NewRandom(rand.New(rand.NewPCG(seed, seed+1)))
	var reps []RoundReport
	for _, orders := range solarOrders(ids) {
		rep, err := ResolveRound(c, orders, r)
		if err != nil {
			t.Fatal(err)
		}
		reps = append(reps, rep)
	}
	return c, reps, ids
}

func describe(c *Campaign) string {
	var b strings.Builder
	fmt.Fprintf(&b, "round %d\n", c.Round)
	for _, f := range c.Factions {
		fmt.Fprintf(&b, "%s AP %d attrs %+v stats %+v memes %d research %d debts %d\n", f.Name, f.AP, f.Attributes, f.Stats, len(f.Memes), len(f.Research), len(f.Debts))
		for _, a := range f.Assets {
			fmt.Fprintf(&b, "  %s L%d/%d at %s%s\n", a.Label(), a.Health, a.Level, a.Location, map[bool]string{true: " covert"}[a.Covert])
		}
	}
	for _, h := range c.Habitats {
		fmt.Fprintf(&b, "%s %s %d/%d suppressed=%v\n", h.Name, h.Owner, h.Health, h.MaxHealth, h.Suppressed)
	}
	for _, r := range c.Relations {
		fmt.Fprintf(&b, "%s & %s: %s\n", r.A, r.B, r.Kind)
	}
	for _, e := range c.Effects {
		fmt.Fprintf(&b, "effect %d %s %s due %d: %s\n", e.ID, e.Faction, e.Kind, e.Due, e.Note)
	}
	return b.String()
}

// A three-round campaign of four factions, two of them NPCs, with seeded
// dice: the end state is pinned.
func TestSolarCampaign(t *testing.T) {
	c, reps, ids := playSolar(t, 1)
	if testing.Verbose() {
		t.Log("\n" + describe(c))
	}
	if c.Round != 4 || len(reps) != 3 {
		t.Fatalf("round %d after %d reports", c.Round, len(reps))
	}
	for _, tt := range []struct {
		faction string
		stats   Stats
		ap      int
		assets  int
	}{
		{"Red Hand", Stats{9, 6, 7, 7}, 0, 3}, // the Frigate was lost; INF boosted by its Fabricator
		{"Green Sun", Stats{7, 7, 7, 7}, 0, 4},
		{"Blue Moon", Stats{8, 7, 7, 7}, 1, 4},
		{"Gold Star", Stats{7, 7, 6, 11}, 0, 4}, // the Defense Grid's POP boost
	} {
		f := c.Faction(tt.faction)
		if f.Stats != tt.stats || f.AP != tt.ap || len(f.Assets) != tt.assets {
			t.Errorf("%s: stats %+v AP %d assets %d; want %+v %d %d", tt.faction, f.Stats, f.AP, len(f.Assets), tt.stats, tt.ap, tt.assets)
		}
	}
	// Round 2: the Planned attack ties ("Ties go to the defender") and the
	// Militia's Counter-Attack destroys the Frigate.
	if a, _ := c.Asset(ids["frigate"]); a != nil {
		t.Error("the Frigate survived")
	}
	red2, _ := reps[1].Faction("Red Hand")
	if len(red2.Outcomes[1].Triggered) != 1 || red2.Outcomes[1].Triggered[0].Action != "counter-attack" {
		t.Errorf("round 2 attack: %+v", red2.Outcomes[1])
	}
	// The Hacker Cell's Remote failed in round 1, so its remote Sabotage in
	// round 2 is skipped; Red's Repair of the lost Frigate in round 3 too.
	green2, _ := reps[1].Faction("Green Sun")
	red3, _ := reps[2].Faction("Red Hand")
	if len(green2.Skipped) != 1 || !errors.Is(green2.Skipped[0].Err, ErrNotAvailable) ||
		len(red3.Skipped) != 1 || !errors.Is(red3.Skipped[0].Err, ErrUnknownAsset) {
		t.Errorf("skipped: %+v / %+v", green2.Skipped, red3.Skipped)
	}
	// Diplomacy: proposed in round 1, accepted in round 2, in effect from
	// Red Hand's turn in round 3.
	if !c.Allied("Red Hand", "Green Sun") {
		t.Error("no alliance")
	}
	// The NPCs played their policies each round.
	for _, rep := range reps {
		b, _ := rep.Faction("Blue Moon")
		g, _ := rep.Faction("Gold Star")
		if b.Policy != PolicyInvest || g.Policy != PolicyProduce || b.Outcomes[0].Action != "invest" || len(g.Outcomes) != 3 {
			t.Errorf("round %d policies: %+v %+v", rep.Round, b.Policy, g.Outcomes)
		}
	}
	// Pending: the Marines reach Mars in round 4; Green's Militia in round
	// 5; Red's research completes in round 12.
	if a, _ := c.Asset(ids["marines"]); a.Transit == nil || a.Transit.To != "Mars" || a.Transit.Arrive != 4 {
		t.Errorf("marines: %+v", a)
	}
	if p := c.Faction("Red Hand").Research; len(p) != 1 || p[0].Status != "researching" || p[0].Ready != 12 {
		t.Errorf("research: %+v", p)
	}
	pend := c.Pending("Green Sun")
	if len(pend) != 3 || pend[2].Kind != EffectProduce || pend[2].Due != 5 {
		t.Errorf("Green Sun pending: %+v", pend)
	}
	if a, _ := c.Asset(ids["spy"]); !a.Covert {
		t.Error("the Spy is not Covert")
	}
}

// "same campaign + same dice => same result"
func TestDeterminism(t *testing.T) {
	for _, seq := range []string{TurnWise, PhaseWise} {
		var states, reports []string
		for range 2 {
			c, ids := solar(t)
			c.Config.Sequence = seq
			r := dice.NewRandom(rand.New(rand.NewPCG(7, 8)))
			var reps []RoundReport
			for _, orders := range solarOrders(ids) {
				rep, err := ResolveRound(c, orders, r)
				if err != nil {
					t.Fatal(err)
				}
				reps = append(reps, rep)
			}
			s, _ := json.Marshal(c)
			p, _ := json.Marshal(reps)
			states, reports = append(states, string(s)), append(reports, string(p))
		}
		if states[0] != states[1] || reports[0] != reports[1] {
			t.Errorf("%s: two plays of the same campaign with the same dice differ", seq)
		}
	}
}

// BenchmarkResolveRound resolves rounds of 100 factions with 20 assets
// each, all playing the produce policy.
func BenchmarkResolveRound(b *testing.B) {
	c, err := NewCampaign(DefaultConfig())
	if err != nil {
		b.Fatal(err)
	}
	charts := []string{"Fabricator", "Shipyard", "University", "Media Network", "Defense Grid", "Barracks",
		"Freighter", "Frigate", "Work Crew", "Research Team", "Propaganda Corps", "Militia", "Marines",
		"Fixer", "Envoy", "Spy", "Commando", "Hacker Cell", "Egocasting Hub", "Diplomatic Mission"}
	for i := range 100 {
		name := fmt.Sprintf("F%03d", i)
		home := fmt.Sprintf("H%03d", i)
		if _, err := c.AddFaction(name, ""); err != nil {
			b.Fatal(err)
		}
		if _, err := c.AddHabitat(home, name, fmt.Sprint(i%5)); err != nil {
			b.Fatal(err)
		}
		f := c.Faction(name)
		f.Policy = PolicyProduce
		f.Attributes.COH, f.MaxAttributes.COH = 10, 10
		for _, ch := range charts {
			if _, err := c.AddAsset(name, ch, home); err != nil {
				b.Fatal(err)
			}
		}
	}
	r := dice.NewRandom(rand.New(rand.NewPCG(1, 2)))
	b.ResetTimer()
	for b.Loop() {
		if _, err := ResolveRound(c, nil, r); err != nil {
			b.Fatal(err)
		}
	}
}
