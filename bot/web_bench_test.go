package bot

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/tablehand/tablehand/commands"
	factioncmd "github.com/tablehand/tablehand/commands/faction"
	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/db"
	"github.com/tablehand/tablehand/rules/dice"
	"github.com/tablehand/tablehand/rules/faction"
)

// bigCampaign is a store holding a campaign of n factions with assets
// assets each (at their homes, every fourth Covert), and the GM's page
// token.
func bigCampaign(b *testing.B, n, assets int) (*db.DB, string) {
	b.Helper()
	ctx := context.Background()
	store, err := db.Open(ctx, filepath.Join(b.TempDir(), "t.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { store.Close() })
	cfg := faction.DefaultConfig()
	charts := cfg.Assets
	err = func() error {
		c, err := faction.NewCampaign(cfg)
		if err != nil {
			return err
		}
		for i := range n {
			name := fmt.Sprintf("Faction %03d", i)
			if _, err := c.AddFaction(name, fmt.Sprintf("player%d", i)); err != nil {
				return err
			}
			home := fmt.Sprintf("Habitat %03d", i)
			if _, err := c.AddHabitat(home, name, "Inner System"); err != nil {
				return err
			}
			for j := range assets {
				a, err := c.AddAsset(name, charts[j%len(charts)].Name, home)
				if err != nil {
					return err
				}
				a.Covert = j%4 == 0
			}
		}
		state, err := json.Marshal(c)
		if err != nil {
			return err
		}
		_, err = store.CreateCampaign(ctx, "g", "table", "gm", state)
		return err
	}()
	if err != nil {
		b.Fatal(err)
	}
	links, err := store.PageLinks(ctx, "g", db.ScopeCampaign, false)
	if err != nil {
		b.Fatal(err)
	}
	return store, links.GM
}

// benchWeb is the pages over store, as the router of every system serves
// them, and what the campaign page counts of its cache.
func benchWeb(store *db.DB) (*Web, func() (hits, misses int)) {
	deps := kit.NewDeps(store, commands.DefaultRules())
	deps.Calendar = Cron{}
	pages := commands.New(deps).Pages()
	counts := func() (int, int) { return 0, 0 }
	for _, p := range pages {
		if c, ok := p.(interface{ CacheCounts() (int, int) }); ok {
			counts = c.CacheCounts
		}
	}
	return NewWeb(store, pages, slogDiscard(), WebOptions{}), counts
}

// The server-side render of the GM's page of a campaign of 100 factions
// with 20 assets each, from the store read to the last byte (target:
// under 20 ms), as its readers meet it: cold, the first view after a
// change to the campaign (a save, not timed), which reads, decodes and
// renders the whole campaign; warm, a view of a campaign unchanged since
// the last, which reads its stamp, its orders and its schedule and serves
// what the pages kept of the rest (webcache.go). Each reports the views
// that found what the pages keep (hits/op): 0 cold, 1 warm.
func BenchmarkCampaignPage100Factions(b *testing.B) {
	store, token := bigCampaign(b, 100, 20)
	benchCampaignPage(b, store, token)
}

// The same page after 21 rounds played: its chart of 100 lines of 20
// rounds (the page's last 20) and 2,000 faction reports.
func BenchmarkCampaignPage100Factions21Rounds(b *testing.B) {
	store, token := bigCampaign(b, 100, 20)
	roller := dice.NewRandom(rand.New(rand.NewPCG(1, 2)))
	for range 7 {
		if _, err := factioncmd.PlayRounds(context.Background(), store, "g", 3, roller, "bench"); err != nil {
			b.Fatal(err)
		}
	}
	benchCampaignPage(b, store, token)
}

// benchCampaignPage measures the page of token, cold and warm.
func benchCampaignPage(b *testing.B, store *db.DB, token string) {
	web, counts := benchWeb(store)
	req := httptest.NewRequest(http.MethodGet, "/p/"+token, nil)
	ctx := context.Background()
	for _, cold := range []bool{true, false} {
		name := "warm"
		if cold {
			name = "cold"
		}
		b.Run(name, func(b *testing.B) {
			size := 0
			hits0, _ := counts()
			for b.Loop() {
				if cold {
					b.StopTimer()
					if _, err := store.UpdateCampaign(ctx, "g", func(*db.FactionCampaign) error { return nil }); err != nil {
						b.Fatal(err)
					}
					b.StartTimer()
				}
				rec := httptest.NewRecorder()
				web.ServeHTTP(rec, req)
				if rec.Code != 200 {
					b.Fatalf("%d", rec.Code)
				}
				size = rec.Body.Len()
			}
			hits, _ := counts()
			b.ReportMetric(float64(hits-hits0)/float64(b.N), "hits/op")
			b.ReportMetric(float64(size)/1024, "KB-html")
		})
	}
}

// The weight of the GM's page of 10 factions with 20 assets each: its
// HTML and its stylesheet (target: under 60 KB).
func BenchmarkCampaignPageWeight10Factions(b *testing.B) {
	store, token := bigCampaign(b, 10, 20)
	web, _ := benchWeb(store)
	weight := 0
	for b.Loop() {
		weight = 0
		for _, path := range []string{"/p/" + token, "/static/page.css"} {
			rec := httptest.NewRecorder()
			web.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
			if rec.Code != 200 {
				b.Fatalf("%s: %d", path, rec.Code)
			}
			weight += rec.Body.Len()
		}
	}
	b.ReportMetric(float64(weight)/1024, "KB-html+css")
}

// The 404 of an unknown link and of a revoked one, side by side: the
// same work (a lookup by the token's hash that finds no row), so the same
// time, which tells an attacker nothing.
func BenchmarkPageNotFound(b *testing.B) {
	store, gm := bigCampaign(b, 1, 1)
	if _, err := store.PageLinks(context.Background(), "g", db.ScopeCampaign, true); err != nil {
		b.Fatal(err)
	}
	web, _ := benchWeb(store)
	unknown := "A" + gm[1:] // as long, never made
	if unknown == gm {
		unknown = "B" + gm[1:]
	}
	for name, token := range map[string]string{"revoked": gm, "unknown": unknown} {
		b.Run(name, func(b *testing.B) {
			req := httptest.NewRequest(http.MethodGet, "/p/"+token, nil)
			for b.Loop() {
				rec := httptest.NewRecorder()
				web.ServeHTTP(rec, req)
				if rec.Code != http.StatusNotFound {
					b.Fatalf("%d", rec.Code)
				}
			}
		})
	}
}
