package faction

import (
	"context"
	"fmt"
	"strings"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/db"
	rules "github.com/tablehand/tablehand/rules/faction"
)

// /faction round: whole rounds played now, and the messages played rounds
// post (the schedule's firings too).

// RoundResult is the console's `result` of /faction round and a firing.
type RoundResult struct {
	Rounds []rules.RoundReport  `json:"rounds"`
	Held   []FactionOrderResult `json:"held,omitempty"`
	// Summarised lists the reports that did not fit in the message.
	Summarised []string `json:"summarised,omitempty"`
	Round      int      `json:"round"` // the next round
}

func (h *handlers) round(ctx context.Context, req *kit.Request) (kit.Response, error) {
	c, err := h.begin(ctx, req)
	if err != nil {
		return kit.Response{}, err
	}
	p, err := h.factions.play(ctx, req.GuildID, Play{Rounds: c.Or("count", 1), Roller: c.Tray.Roller(), DiceGiven: kit.DiceGiven(req) != "", Store: db.PlayOptions{ActorID: req.User.ID,
		// The dice: values must match exactly before anything is saved.
		Hook: func(p db.RoundPhase) error {
			if p == db.PhaseResolved {
				return c.Tray.Done()
			}
			return nil
		}}})
	if err != nil {
		return kit.Response{}, factionError(noCampaign(err))
	}
	resp := p.Messages[0]
	if m, ok := secretQuestions(p.Result.Held); ok && req.GM {
		m.Ephemeral = true
		resp.Followups = append(resp.Followups, m)
	}
	return resp, nil
}

// chartRounds is how many rounds the chart goes back.
const chartRounds = 50

// summaryBudget is what the summary of the reports that do not fit may
// take of a message's embed characters.
const summaryBudget = 1500

// RoundMessages builds what played rounds post: one embed per faction and
// round, the stats chart, and the Questions of held orders with their
// buttons. header opens the first message. With paged, the reports run
// over as many messages as Discord's limits need (a schedule posts them
// all); without, they fit one message and those that do not are
// summarised in its last embed, which says so.
func RoundMessages(res PlayResult, hist []Round, header string, paged bool) ([]kit.Response, error) {
	p := newPlayed(res, header)
	png, err := statsChart(hist)
	if err != nil {
		return nil, fmt.Errorf("draw the faction chart: %w", err)
	}
	p.files = []kit.File{{Name: chartFile, ContentType: "image/png", Data: png}}
	if !paged {
		return []kit.Response{p.message()}, nil
	}
	return p.pages(), nil
}

// played is what played rounds post, before it is cut into messages.
type played struct {
	content   string
	embeds    []kit.Embed // a report a faction and round
	summaries []string    // the same reports, a line each
	chart     kit.Embed
	files     []kit.File
	rows      []kit.Row
	result    RoundResult
}

func newPlayed(res PlayResult, header string) *played {
	c := res.Campaign.Campaign
	p := &played{
		chart:  kit.Embed{Title: "Health Stats over the rounds", Image: "attachment://" + chartFile},
		rows:   questionRows(res.Held, false),
		result: RoundResult{Round: c.Round},
	}
	for _, r := range res.Rounds {
		p.result.Rounds = append(p.result.Rounds, r.Report)
		for i, fr := range r.Report.Factions {
			p.embeds = append(p.embeds, ReportEmbed(r.Report.Round, fr, i, false, true))
			p.summaries = append(p.summaries, reportSummary(r.Report.Round, fr))
		}
	}
	var b strings.Builder
	if header != "" {
		b.WriteString(header + "\n")
	}
	first, last := res.Rounds[0].Round, res.Rounds[len(res.Rounds)-1].Round
	if first == last {
		fmt.Fprintf(&b, "🗺️ **Round %d** is played. Next: round %d.", first, c.Round)
	} else {
		fmt.Fprintf(&b, "🗺️ **Rounds %d to %d** are played. Next: round %d.", first, last, c.Round)
	}
	for _, o := range res.Held {
		p.result.Held = append(p.result.Held, orderResult(o, false))
		b.WriteString("\n" + questionText(o, false))
	}
	p.content = b.String()
	return p
}

// message fits the reports in one message, and summarises in its last
// embed those that do not fit.
func (p *played) message() kit.Response {
	kept, rest := packEmbeds(p.embeds, kit.MaxEmbeds-2, kit.MaxEmbedTotal-summaryBudget-p.chart.Size())
	if len(rest) > 0 {
		var sb strings.Builder
		fmt.Fprintf(&sb, "%s did not fit in one message: /faction report round:<n> faction:<name> shows each.\n", kit.Plural(len(rest), "report"))
		for _, i := range rest {
			sb.WriteString(p.summaries[i] + "\n")
			p.result.Summarised = append(p.result.Summarised, p.summaries[i])
		}
		kept = append(kept, kit.Embed{Title: "In short", Description: kit.Truncate(sb.String(), summaryBudget-20, "…")})
	}
	return kit.Response{Content: p.content, Embeds: append(kept, p.chart), Files: p.files, Rows: p.rows, Result: p.result}
}

// pages runs the reports over as many messages as they need: the first
// says what was played, the last has the chart and the buttons.
func (p *played) pages() []kit.Response {
	var out []kit.Response
	for embeds := p.embeds; len(embeds) > 0; {
		kept, rest := packEmbeds(embeds, kit.MaxEmbeds-1, kit.MaxEmbedTotal-p.chart.Size())
		page := make([]kit.Embed, 0, len(kept))
		page = append(page, kept...)
		var next []kit.Embed
		for _, i := range rest {
			next = append(next, embeds[i])
		}
		out = append(out, kit.Response{Type: kit.Message, Embeds: page})
		embeds = next
	}
	if len(out) == 0 {
		out = append(out, kit.Response{Type: kit.Message})
	}
	out[0].Content, out[0].Result = p.content, p.result
	last := &out[len(out)-1]
	last.Embeds, last.Files, last.Rows = append(last.Embeds, p.chart), p.files, p.rows
	return out
}

// packEmbeds keeps embeds, in order, while at most n of them fit in total
// characters; it returns those kept and the indexes of the rest.
func packEmbeds(embeds []kit.Embed, n, total int) (kept []kit.Embed, rest []int) {
	size := 0
	for i, e := range embeds {
		if len(kept) < n && size+e.Size() <= total && len(rest) == 0 {
			kept = append(kept, e)
			size += e.Size()
			continue
		}
		rest = append(rest, i)
	}
	if len(kept) == 0 && len(embeds) > 0 {
		// Not even one fits whole: shrink it.
		e, _ := embeds[0].Shrink(total)
		kept, rest = []kit.Embed{e}, rest[1:]
	}
	return kept, rest
}

// fitEmbeds is packEmbeds for a message of embeds alone.
func fitEmbeds(embeds []kit.Embed) (kept []kit.Embed, rest []int) {
	return packEmbeds(embeds, kit.MaxEmbeds, kit.MaxEmbedTotal)
}
