package faction

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tablehand/tablehand/commands/kit"
	rules "github.com/tablehand/tablehand/rules/faction"
)

// chartHistory is 3 rounds of n factions, each faction's Health Stats
// its number plus the round.
func chartHistory(n int) []Round {
	var hist []Round
	for r := 1; r <= 3; r++ {
		round := Round{Round: r}
		for i := range n {
			round.Sheets = append(round.Sheets, Sheet{Faction: fmt.Sprintf("F%02d", i), Stats: rules.Stats{INF: i + r, TEC: 1, SOL: 1, POP: 1}})
		}
		hist = append(hist, round)
	}
	return hist
}

// Every faction is drawn and in the table, whatever their number; the
// lines of one chart differ all in colour or style (dash and marker), and
// so do the first 32 factions' wherever they are; past a dozen, the
// chart is small multiples of at most a dozen lines each.
func TestChartDrawsEveryFaction(t *testing.T) {
	for _, tc := range []struct{ factions, panels int }{{5, 1}, {12, 1}, {13, 2}, {30, 3}, {100, 9}} {
		t.Run(fmt.Sprint(tc.factions), func(t *testing.T) {
			ch := statsChartSVG(chartHistory(tc.factions))
			if len(ch.Panels) != tc.panels {
				t.Errorf("%d panels, want %d", len(ch.Panels), tc.panels)
			}
			type style struct {
				color, dash string
				marker      Marker
			}
			drawn := map[string]int{}
			everywhere := map[style]string{}
			for _, p := range ch.Panels {
				if len(p.Lines) > chartPanelMax || len(p.Lines) < chartPanelMax/2 && tc.factions > chartPanelMax {
					t.Errorf("panel %s: %d lines", p.ID, len(p.Lines))
				}
				here := map[style]string{}
				for _, l := range p.Lines {
					drawn[l.Name]++
					s := style{l.Color, l.Dash, l.Marker}
					if other, ok := here[s]; ok {
						t.Errorf("panel %s: %s and %s are drawn alike: %+v", p.ID, other, l.Name, s)
					}
					here[s] = l.Name
					if other, ok := everywhere[s]; ok && tc.factions <= 32 {
						t.Errorf("%s and %s are drawn alike: %+v", other, l.Name, s)
					}
					everywhere[s] = l.Name
					if len(l.Dots) != 3 || strings.Count(l.Points, ",") != 3 {
						t.Errorf("%s: %d points (%q), want 3", l.Name, len(l.Dots), l.Points)
					}
				}
			}
			if len(ch.Rows) != tc.factions {
				t.Errorf("the table has %d rows, want %d", len(ch.Rows), tc.factions)
			}
			for i := range tc.factions {
				name := fmt.Sprintf("F%02d", i)
				if drawn[name] != 1 {
					t.Errorf("%s is drawn %d times", name, drawn[name])
				}
			}

			// The page draws them all: a line, a key and a table row each.
			html, err := kit.ExecutePart(campaignTemplates, "campaign-state", CampaignPage{Chart: ch})
			if err != nil {
				t.Fatal(err)
			}
			page := string(html)
			if n := strings.Count(page, "<svg class=\"chart\""); n != tc.panels {
				t.Errorf("%d charts on the page, want %d", n, tc.panels)
			}
			if n := strings.Count(page, "<polyline"); n != tc.factions {
				t.Errorf("%d lines on the page, want %d", n, tc.factions)
			}
			for i := range tc.factions {
				name := fmt.Sprintf("F%02d", i)
				for _, want := range []string{
					`</svg>&nbsp;` + name + `</span>`,                  // the key
					`<tr><th scope="row">` + name + `</th>`,            // the table
					`<title>` + name + `, round 3: ` + fmt.Sprint(i+6), // the last point
				} {
					if strings.Count(page, want) != 1 {
						t.Errorf("%s: %d times %q on the page, want once", name, strings.Count(page, want), want)
					}
				}
			}
		})
	}
}
