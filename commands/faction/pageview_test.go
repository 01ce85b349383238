package faction

import (
	"testing"

	rules "github.com/tablehand/tablehand/rules/faction"
)

// The page's reader sees what the Viewer lets them: a faction's research
// and its Covert assets only on the GM's page; an NPC faction is played
// by nobody, so the players' page (a viewer with no user) does not see
// what an NPC keeps to itself.
func TestCampaignPageFollowsViewer(t *testing.T) {
	c := &rules.Campaign{Config: rules.DefaultConfig()}
	npc, err := c.AddFaction("Ghosts", "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.AddHabitat("Mars", "Ghosts", ""); err != nil {
		t.Fatal(err)
	}
	a, err := c.AddAsset("Ghosts", "Fixer", "Mars")
	if err != nil {
		t.Fatal(err)
	}
	a.Covert = true
	npc.Research = []rules.Project{{ID: 1, Kind: rules.ResearchStat, Stat: rules.INF, New: 8, Status: "researching", Ready: 3}}
	orders := []Order{{ID: 1, Faction: "Ghosts", Seq: 1, Order: rules.Order{Action: "invest"}}}

	gm := pageOf(c, GMView, orders, nil)
	players := pageOf(c, PlayersView, orders, nil)
	if got := gm.Factions[0].Research; len(got) != 1 || got[0].Target != "INF" || got[0].New != 8 || got[0].Ready != 3 {
		t.Errorf("the GM's page: research %+v", got)
	}
	if len(gm.Factions[0].Assets) != 1 || len(gm.Orders) != 1 {
		t.Errorf("the GM's page: %d assets, %d orders; want 1 and 1", len(gm.Factions[0].Assets), len(gm.Orders))
	}
	if f := players.Factions[0]; len(f.Research) != 0 || len(f.Assets) != 0 || len(f.Pending) != 0 || len(players.Orders) != 0 {
		t.Errorf("the players' page sees an NPC's secrets: research %v, assets %v, pending %v, orders %v", f.Research, f.Assets, f.Pending, players.Orders)
	}
}

// pageOf is the page of c for v, with orders, as PageState.Live
// makes it without a store.
func pageOf(c *rules.Campaign, v Viewer, orders []Order, hist []Round) CampaignPage {
	return pageState(c, v, hist).withOrders(orders)
}
