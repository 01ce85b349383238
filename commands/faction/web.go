package faction

import (
	"bytes"
	"context"
	"embed"
	"fmt"
	"html/template"
	"maps"
	"time"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/db"
)

// The campaign's web page, a kit.Page that bot/web.go serves: what the
// campaign's stored state decides is kept, rendered (webcache.go), the
// rest read on every request.

//go:embed web
var webFiles embed.FS

// campaignTemplates are the campaign page's: "campaign", and the parts
// of it that are kept, "campaign-state" and "campaign-rounds". What they
// repeat for each faction, habitat, round and report is written by
// webrows.go.
var campaignTemplates = kit.PageTemplates(template.FuncMap{
	"factionCards": factionCards,
	"habitatRows":  habitatRows,
	"chartAxes":    chartAxes,
	"chartLines":   chartLines,
	"chartKey":     chartKey,
	"chartRows":    chartRows,
	"roundReports": roundReports,
}, webFiles, "web/*.html")

// campaignView is what the campaign template renders: the page's live
// part, and its kept HTML.
type campaignView struct {
	CampaignPage
	HasChart              bool
	StateHTML, RoundsHTML template.HTML
}

// campaignPage is the web page of a guild's campaign (db.ScopeCampaign).
type campaignPage struct {
	store Store
	// calendar reads the schedule's next firings (nil: no schedule
	// shown); now is their clock.
	calendar kit.Calendar
	now      func() time.Time
	cache    *pageCache
}

func (*campaignPage) Serves(scope string) bool { return scope == db.ScopeCampaign }

func (c *campaignPage) Render(ctx context.Context, b *bytes.Buffer, p db.Page) error {
	view, err := c.view(ctx, p.GuildID, p.Audience)
	if err != nil {
		return err
	}
	if err := campaignTemplates.ExecuteTemplate(b, "campaign", view); err != nil {
		return fmt.Errorf("render campaign: %w", err)
	}
	return nil
}

// CacheCounts returns how many requests found a kept page of the stamp
// they read (hits), and how many did not: what the page benchmarks
// report.
func (c *campaignPage) CacheCounts() (hits, misses int) { return c.cache.counts() }

// view is the page of the guild's campaign for the audience: its kept
// part if its stamp is the stored one, else rendered and kept, and its
// live part.
func (c *campaignPage) view(ctx context.Context, guildID, audience string) (campaignView, error) {
	v := PlayersView
	if audience == db.AudienceGM {
		v = GMView
	}
	key := pageKey{guild: guildID, audience: audience}
	stamp, err := c.store.CampaignStamp(ctx, guildID)
	if err != nil {
		return campaignView{}, fmt.Errorf("campaign page of guild %s: %w", guildID, err)
	}
	build := func() (*pageEntry, error) {
		state, err := LoadPageState(ctx, c.store, guildID, v)
		if err != nil {
			return nil, err
		}
		return renderState(key, state)
	}
	e, err := c.cache.load(ctx, key, stamp, build)
	if err != nil {
		return campaignView{}, err
	}
	// The players' names change without a save: the kept page is good
	// while they are the ones it shows.
	if len(e.state.Players) > 0 {
		names, err := c.store.DisplayNames(ctx, guildID, e.state.Players)
		if err != nil {
			return campaignView{}, fmt.Errorf("campaign page of guild %s: %w", guildID, err)
		}
		if !maps.Equal(names, e.state.Names) {
			if e, err = c.cache.build(nil, key, build); err != nil {
				return campaignView{}, err
			}
		}
	}
	src := PageSources{Factions: c.store, Cron: c.calendar, Now: c.now()}
	if c.calendar != nil {
		src.Schedules = c.store
	}
	page, err := e.state.Live(ctx, src, guildID)
	if err != nil {
		return campaignView{}, err
	}
	return campaignView{CampaignPage: page, HasChart: e.hasChart, StateHTML: e.stateHTML, RoundsHTML: e.rounds}, nil
}

// renderState renders the parts of the page that state decides, and
// keeps of state only what the rest of the page needs.
func renderState(key pageKey, state PageState) (*pageEntry, error) {
	stateHTML, err := kit.ExecutePart(campaignTemplates, "campaign-state", state.CampaignPage)
	if err != nil {
		return nil, err
	}
	rounds, err := kit.ExecutePart(campaignTemplates, "campaign-rounds", state.CampaignPage)
	if err != nil {
		return nil, err
	}
	e := &pageEntry{key: key, hasChart: state.Chart != nil, stateHTML: stateHTML, rounds: rounds, factions: len(state.Factions)}
	state.Factions, state.Habitats, state.Rounds, state.Chart = nil, nil, nil, nil
	e.state = state
	return e, nil
}
