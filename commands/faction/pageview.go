package faction

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/db"
	rules "github.com/tablehand/tablehand/rules/faction"
)

// The campaign as a web page reads it (webcache.go renders it): the same
// store and the same Viewer as the Discord replies, so the players' page
// shows what a player may read in Discord and no more.

// pageRounds is how many played rounds a page lists, the last first.
const pageRounds = 20

// CampaignPage is the campaign as a viewer may read it.
type CampaignPage struct {
	GM       bool
	Round    int
	Sequence string
	Factions []PageFaction
	Habitats []HabitatResult
	// Orders are the queued orders the viewer may see: every one for the
	// GM, none of a faction for a player who does not play it.
	Orders []FactionOrderResult
	// Rounds are the last rounds played, the newest first; Chart their
	// Health Stats, nil before the first.
	Rounds []PageRound
	Chart  *StatsChart
	// Schedule is the campaign's schedule, as /schedule show gives it to
	// anyone; nil when it has none.
	Schedule *PageSchedule
}

// PageSchedule is the schedule and its next firings.
type PageSchedule struct {
	ScheduleResult
	Firings []PageTime
}

// PageTime is a moment: ISO is what a <time datetime> holds (RFC 3339,
// UTC), Text how the page shows it without a script (in the schedule's
// own zone, named).
type PageTime struct {
	ISO, Text string
}

// PageSources are where a page reads the campaign: the commands' stores,
// the cron parser of /schedule and the clock.
type PageSources struct {
	Factions  Store
	Schedules ScheduleStore // nil: no schedule shown
	Cron      kit.Calendar
	Now       time.Time
}

// PageFaction is one faction: its sheet as /faction show's result gives
// it, its four pairs of an Attribute and its Health Stat, and its assets
// grouped by where they are.
type PageFaction struct {
	FactionResult
	// PlayerName is the name its player shows on the server (Owner is
	// their ID, "" for an NPC), "" when none is known: the page never
	// shows an ID.
	PlayerName string
	Pairs      []StatPair
	Groups     []AssetGroup
	// Research is its research in progress, for whom sees what it keeps
	// to itself (Viewer.SeesAll): Discord shows it to nobody else.
	Research []PageProject
}

// PageProject is a research project in progress.
type PageProject struct {
	Kind   string // level, effectiveness, stat, attribute
	Target string // the asset, chart, Stat or Attribute researched
	New    int
	Status string // researching, retry, design
	Ready  int    // the round it is ready
}

// StatPair is an Attribute and the Health Stat it pairs with (RES-INF,
// INT-TEC, COH-SOL, STR-POP), with their maxima, for the bars.
type StatPair struct {
	Attr, Stat               string
	AttrValue, AttrMax       int
	StatValue, StatMax       int
	AttrPercent, StatPercent int
}

// AssetGroup is the assets of a faction at one habitat ("" for none).
type AssetGroup struct {
	Habitat string
	Assets  []AssetResult
}

// PageRound is a played round: each faction's part of its report, as
// /faction report shows it to the viewer.
type PageRound struct {
	Round   int
	Reports []PageReport
}

// PageReport is one faction's part of a round's report.
type PageReport struct {
	Faction string
	Text    string
}

// PageState is what a campaign's page shows of the campaign's stored
// state and of its rounds played: everything but its queued orders and
// its schedule, which change without it. It is the page of the stored
// state whose stamp it holds (rounds are played with a save of the
// campaign, in one transaction), for one viewer; Live adds the rest.
type PageState struct {
	Stamp db.CampaignStamp
	// CampaignPage is the page without Orders and Schedule.
	CampaignPage
	// orders are the lower-cased names of the factions whose queued
	// orders the viewer sees (Viewer.SeesOrders).
	orders map[string]bool
	// Players are the IDs of the factions' players, and Names the names
	// the page shows them by: which change without a save, so the page
	// reads them again each time (campaignPage.view).
	Players []string
	Names   map[string]string
}

// LoadPageState reads what the page of the guild's campaign shows of its
// state, as v may see it; no campaign is db.ErrNotFound.
func LoadPageState(ctx context.Context, store Store, guildID string, v Viewer) (PageState, error) {
	cs := campaigns{store}
	fc, err := cs.campaign(ctx, guildID)
	if err != nil {
		return PageState{}, fmt.Errorf("campaign page of guild %s: %w", guildID, err)
	}
	// Read after the campaign: the rounds are those of its stamp or
	// newer, and a newer stamp is never served what this one keeps.
	hist, err := cs.history(ctx, guildID, pageRounds)
	if err != nil {
		return PageState{}, fmt.Errorf("campaign page of guild %s: rounds: %w", guildID, err)
	}
	s := pageState(fc.Campaign, v, hist)
	s.Stamp = db.CampaignStamp{ID: fc.ID, Version: fc.Version}
	names, err := store.DisplayNames(ctx, guildID, s.Players)
	if err != nil {
		return PageState{}, fmt.Errorf("campaign page of guild %s: %w", guildID, err)
	}
	s.nameWith(names)
	return s, nil
}

// nameWith shows each faction's player by their name in names.
func (s *PageState) nameWith(names map[string]string) {
	s.Names = names
	for i := range s.Factions {
		s.Factions[i].PlayerName = names[s.Factions[i].Owner]
	}
}

// Live is the page of s as it is now: with the queued orders s's viewer
// may see and the schedule with its next firings, read from src.
func (s PageState) Live(ctx context.Context, src PageSources, guildID string) (CampaignPage, error) {
	orders, err := campaigns{src.Factions}.orders(ctx, guildID, "", "")
	if err != nil {
		return CampaignPage{}, fmt.Errorf("campaign page of guild %s: orders: %w", guildID, err)
	}
	p := s.withOrders(orders)
	if src.Schedules != nil {
		sch, err := src.Schedules.Schedule(ctx, guildID)
		switch {
		case err == nil:
			res, err := scheduleResultAt(sch, src.Cron, src.Now)
			if err != nil {
				return CampaignPage{}, fmt.Errorf("campaign page of guild %s: %w", guildID, err)
			}
			p.Schedule = pageSchedule(res)
		case !errors.Is(err, db.ErrNotFound):
			return CampaignPage{}, fmt.Errorf("campaign page of guild %s: schedule: %w", guildID, err)
		}
	}
	return p, nil
}

// withOrders is s's page with the orders of those queued its viewer may
// see.
func (s PageState) withOrders(orders []Order) CampaignPage {
	p := s.CampaignPage
	p.Orders = nil
	for _, o := range orders {
		if s.orders[strings.ToLower(o.Faction)] {
			p.Orders = append(p.Orders, orderResult(o, s.GM))
		}
	}
	return p
}

// pageSchedule is the schedule's next firings as the page shows them.
func pageSchedule(res ScheduleResult) *PageSchedule {
	ps := &PageSchedule{ScheduleResult: res}
	zone, err := time.LoadLocation(res.Timezone)
	if err != nil {
		zone = time.UTC
	}
	for _, sec := range res.Next {
		t := time.Unix(sec, 0)
		ps.Firings = append(ps.Firings, PageTime{ISO: t.UTC().Format(time.RFC3339),
			Text: t.In(zone).Format("Mon 2 Jan 2006 15:04") + " (" + zone.String() + ")"})
	}
	return ps
}

// pageState is what the page of c shows v of c and its rounds hist.
func pageState(c *rules.Campaign, v Viewer, hist []Round) PageState {
	s := PageState{CampaignPage: CampaignPage{GM: v.GM, Round: c.Round, Sequence: string(c.Config.Sequence), Habitats: habitatResults(c)},
		orders: map[string]bool{}}
	p := &s.CampaignPage
	p.Factions = make([]PageFaction, 0, len(c.Factions))
	for _, f := range c.Factions {
		p.Factions = append(p.Factions, pageFaction(c, v, f))
		if f.Owner != "" && !slices.Contains(s.Players, f.Owner) {
			s.Players = append(s.Players, f.Owner)
		}
		if v.SeesOrders(c, f.Name) {
			s.orders[strings.ToLower(f.Name)] = true
		}
	}
	p.Chart = statsChartSVG(hist)
	public := map[string]bool{} // v.PublicReport, by faction: the same for every round
	for _, r := range slices.Backward(hist) {
		pr := PageRound{Round: r.Round}
		for i, fr := range r.Report.Factions {
			pub, ok := public[fr.Faction]
			if !ok {
				pub = v.PublicReport(c, fr.Faction)
				public[fr.Faction] = pub
			}
			e := ReportEmbed(r.Round, fr, i, false, pub)
			pr.Reports = append(pr.Reports, PageReport{Faction: fr.Faction, Text: plainText(e.Description)})
		}
		p.Rounds = append(p.Rounds, pr)
	}
	return s
}

func pageFaction(c *rules.Campaign, v Viewer, f *rules.Faction) PageFaction {
	pf := PageFaction{FactionResult: factionResultFor(c, v, f)}
	stats := seenStats(v, f)
	for _, a := range rules.AllAttrs {
		s := a.Stat() // "RES pairs with INF, INT with TEC, COH with SOL, STR with POP"
		sp := StatPair{Attr: string(a), AttrValue: c.Attribute(f, a), AttrMax: attrFull(c, f, a),
			Stat: string(s), StatValue: stats.Get(s), StatMax: c.StatMax(f, s)}
		sp.AttrPercent, sp.StatPercent = percent(sp.AttrValue, sp.AttrMax), percent(sp.StatValue, sp.StatMax)
		pf.Pairs = append(pf.Pairs, sp)
	}
	if v.SeesAll(f) {
		for _, pr := range f.Research {
			pf.Research = append(pf.Research, pageProject(c, pr))
		}
	}
	at := map[string]int{}
	for _, a := range pf.Assets {
		i, ok := at[a.Location]
		if !ok {
			i = len(pf.Groups)
			at[a.Location] = i
			pf.Groups = append(pf.Groups, AssetGroup{Habitat: a.Location})
		}
		pf.Groups[i].Assets = append(pf.Groups[i].Assets, a)
	}
	return pf
}

func pageProject(c *rules.Campaign, pr rules.Project) PageProject {
	pp := PageProject{Kind: string(pr.Kind), New: pr.New, Status: pr.Status, Ready: pr.Ready}
	switch {
	case pr.Asset != 0:
		if a, _ := c.Asset(pr.Asset); a != nil {
			pp.Target = fmt.Sprintf("%s #%d", a.Name, a.ID)
		} else {
			pp.Target = fmt.Sprintf("asset #%d", pr.Asset)
		}
	case pr.Chart != "":
		pp.Target = pr.Chart
	case pr.Stat != "":
		pp.Target = string(pr.Stat)
	case pr.Attr != "":
		pp.Target = string(pr.Attr)
	}
	return pp
}

// percent is v of max as a bar's width, 0 to 100.
func percent(v, max int) int {
	if max <= 0 || v <= 0 {
		return 0
	}
	return min(100, v*100/max)
}

// plainText is a report's Discord Markdown as plain text: the page shows
// it as text, never as HTML.
func plainText(s string) string {
	return markdownToText.Replace(s)
}

// markdownToText undoes kit.EscapeMarkdown and drops the bold and code
// marks ReportEmbed writes (escapes first, so that an escaped mark stays).
var markdownToText = strings.NewReplacer(`\\`, `\`, "\\`", "`", `\*`, "*", `\_`, "_", `\~`, "~", `\|`, "|", `\>`, ">", `\#`, "#", `\-`, "-",
	"**", "", "`", "")
