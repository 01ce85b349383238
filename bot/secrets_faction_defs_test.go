package bot

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/tablehand/tablehand/commands"
	"github.com/tablehand/tablehand/commands/kit"
)

// Faction sessions generated from the command definitions, as
// TestSecretsKeptFromDefinitions does for fights: bob plays Green, and
// his lines are any leaf of /faction; the secrets are Red's Covert Spy
// and what it does, far from Green's assets (an Investigation that finds
// it is the game, not a leak), and Red's queued orders.

// factionActions are the actions a generated line may name.
var factionActions = []string{"invest", "repair", "attack", "move", "purchase", "produce-asset", "plan", "investigate",
	"subterfuge", "research", "capture", "sabotage", "diplomacy", "rally", "annex", "pay", "nonsense"}

// factionValue draws a value for an option of /faction: asset numbers
// and names, factions, habitats and actions from the session's own, the
// rest as defValue does.
func factionValue(r *rand.Rand, o kit.Option) string {
	pick := func(vs ...string) string { return vs[r.IntN(len(vs))] }
	if len(o.Choices) > 0 || o.Type != kit.String {
		return defValue(r, o)
	}
	switch o.Name {
	case "asset", "target", "via", "defender_asset", "planner", "project", "effect":
		// 1000001 is the number of Red's Covert Spy (Red's block): a
		// player may type it, and must then read what any missing
		// number gets.
		return pick("1", "2", "3", "4", "5", "6", "1000001", "Frigate", "Militia", "Spy", "Fixer")
	case "faction", "defender", "against":
		return pick("Red", "Green", "Nobody")
	case "at", "habitat", "home", "to":
		return pick("Mars", "Venus", "Titan", "Nowhere")
	case "chart":
		return pick("Spy", "Frigate", "Militia", "Nothing")
	case "action":
		return pick(factionActions...)
	case "params":
		return strconv.Quote(pick("to=Venus", "to=Titan", "target=4", "target=1", "stat=INF", "via=4", "planned=attack"))
	case "attribute", "defender_attribute":
		return pick("RES", "INT", "3")
	}
	return pick("Red", "Green", "Titan", "Spy", "Nobody")
}

// factionSession is one generated faction session: the public campaign,
// the secrets at random places (each group's lines together), and n
// lines of bob's drawn from leaves.
func factionSession(r *rand.Rand, leaves []defLeaf, i, n int) secretSession {
	lines := []string{
		"/faction create name:Red owner:alice home:Mars region:inner",
		"/faction create name:Green owner:bob home:Venus region:inner",
		"/faction habitat add name:Titan region:outer",
		"/faction asset add faction:Red chart:Frigate",
		"/faction asset add faction:Green chart:Militia",
		"/faction asset add faction:Green chart:Frigate",
		"/faction asset add faction:Red chart:Fixer",
	}
	// Red's Spy is Covert from its start, at Titan, where Green has
	// nothing to find it with.
	secrets := [][]string{
		{"!/faction asset add faction:Red chart:Spy at:Titan covert:true",
			"!@alice /faction act action:subterfuge asset:1000001 target:1000001"},
		{"!@alice /faction order action:move asset:1 params:to=Venus"},
		{"!@alice /faction order action:invest stat:INF"},
	}
	body := make([][]string, 0, n+len(secrets))
	for range n {
		body = append(body, []string{drawLine(r, leaves[r.IntN(len(leaves))], factionValue)})
	}
	for _, s := range secrets {
		body = slices.Insert(body, r.IntN(len(body)+1), s)
	}
	for _, group := range body {
		lines = append(lines, group...)
	}
	return secretSession{name: fmt.Sprintf("faction-definitions-%d", i), player: "bob", lines: lines}
}

// TestSecretsFactionFromDefinitions plays faction sessions generated from
// the definitions of /faction (a fixed seed): see factionSession.
func TestSecretsFactionFromDefinitions(t *testing.T) {
	sessions, lines := 120, 25
	if testing.Short() {
		sessions = 3
	}
	leaves := defLeavesOf(commands.New(kit.NewDeps(nil, commands.DefaultRules())).Commands(), "faction")
	if len(leaves) < 15 {
		t.Fatalf("only %d leaves of /faction: the definitions moved?", len(leaves))
	}
	r := rand.New(rand.NewPCG(20, 26))
	for i := range sessions {
		s := factionSession(r, leaves, i, lines)
		t.Run(s.name, func(t *testing.T) { checkSessionKeepsSecrets(t, s) })
	}
}
