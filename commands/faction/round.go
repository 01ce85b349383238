package faction

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/db"
	rules "github.com/tablehand/tablehand/rules/faction"
)

// RoundResult is the console's `result` of /faction round and a firing.
type RoundResult struct {
	Rounds []rules.RoundReport  `json:"rounds"`
	Held   []FactionOrderResult `json:"held,omitempty"`
	// Summarised lists the reports that did not fit in the message.
	Summarised []string `json:"summarised,omitempty"`
	Round      int      `json:"round"` // the next round
}

func (h *handlers) factionRound(ctx context.Context, req *kit.Request) (kit.Response, error) {
	count := 1
	if n, ok := req.Options.Int("count"); ok {
		count = int(n)
	}
	t, err := h.Tray(req)
	if err != nil {
		return kit.Response{}, err
	}
	res, err := h.Factions.PlayRounds(ctx, req.GuildID, db.PlayOptions{Rounds: count, Roller: t.Roller(), ActorID: req.User.ID,
		// The dice: values must match exactly before anything is saved.
		Hook: func(p db.RoundPhase) error {
			if p == db.PhaseResolved {
				return t.Done()
			}
			return nil
		}})
	if errors.Is(err, db.ErrNotFound) {
		return kit.Response{}, NoCampaign
	}
	if err != nil {
		return kit.Response{}, factionError(err)
	}
	hist, err := h.Factions.RoundHistory(ctx, req.GuildID, chartRounds)
	if err != nil {
		return kit.Response{}, err
	}
	msgs, err := RoundMessages(res, hist, "", false)
	if err != nil {
		return kit.Response{}, err
	}
	return msgs[0], nil
}

// chartRounds is how many rounds the chart goes back.
const chartRounds = 50

// RoundMessages builds what played rounds post: one embed per faction and
// round, the stats chart, and the Questions of held orders with their
// buttons. header opens the first message. With paged, the reports run
// over as many messages as Discord's limits need (a schedule posts them
// all); without, they fit one message and those that do not are
// summarised in its last embed, which says so.
func RoundMessages(res db.PlayResult, hist []db.FactionRound, header string, paged bool) ([]kit.Response, error) {
	c := res.Campaign.Campaign
	var embeds []kit.Embed
	var summaries []string
	result := RoundResult{Round: c.Round}
	for _, r := range res.Rounds {
		result.Rounds = append(result.Rounds, r.Report)
		for i, fr := range r.Report.Factions {
			embeds = append(embeds, ReportEmbed(r.Report.Round, fr, i, false, true))
			summaries = append(summaries, reportSummary(r.Report.Round, fr))
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
		result.Held = append(result.Held, orderResult(o))
		b.WriteString("\n" + questionText(o))
	}
	png, err := statsChart(hist)
	if err != nil {
		return nil, fmt.Errorf("draw the faction chart: %w", err)
	}
	chart := kit.Embed{Title: "Health Stats over the rounds", Image: "attachment://" + chartFile}
	files := []kit.File{{Name: chartFile, ContentType: "image/png", Data: png}}
	rows := questionRows(res.Held)
	if !paged {
		kept, rest := packEmbeds(embeds, kit.MaxEmbeds-2, kit.MaxEmbedTotal-summaryBudget-chart.Size())
		if len(rest) > 0 {
			var sb strings.Builder
			fmt.Fprintf(&sb, "%d reports did not fit in one message: /faction report round:<n> faction:<name> shows each.\n", len(rest))
			for _, i := range rest {
				sb.WriteString(summaries[i] + "\n")
				result.Summarised = append(result.Summarised, summaries[i])
			}
			kept = append(kept, kit.Embed{Title: "In short", Description: kit.Truncate(sb.String(), summaryBudget-20, "…")})
		}
		return []kit.Response{{Content: b.String(), Embeds: append(kept, chart), Files: files, Rows: rows, Result: result}}, nil
	}
	var out []kit.Response
	for len(embeds) > 0 {
		kept, rest := packEmbeds(embeds, kit.MaxEmbeds-1, kit.MaxEmbedTotal-chart.Size())
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
	out[0].Content, out[0].Result = b.String(), result
	lastMsg := &out[len(out)-1]
	lastMsg.Embeds, lastMsg.Files, lastMsg.Rows = append(lastMsg.Embeds, chart), files, rows
	return out, nil
}

// summaryBudget is what the summary of the reports that do not fit may
// take of a message's embed characters.
const summaryBudget = 1500

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

func (h *handlers) factionReport(ctx context.Context, req *kit.Request) (kit.Response, error) {
	var r db.FactionRound
	if n, ok := req.Options.Int("round"); ok {
		var err error
		if r, err = h.Factions.PlayedRound(ctx, req.GuildID, int(n)); errors.Is(err, db.ErrNotFound) {
			return kit.Response{}, kit.Errorf("round %d has not been played here", n)
		} else if err != nil {
			return kit.Response{}, err
		}
	} else {
		hist, err := h.Factions.RoundHistory(ctx, req.GuildID, 1)
		if err != nil {
			return kit.Response{}, err
		}
		if len(hist) == 0 {
			return kit.Response{}, kit.Errorf("no round has been played yet: the GM plays one with /faction round")
		}
		r = hist[0]
	}
	var embeds []kit.Embed
	var reps []rules.FactionReport
	name := req.Options.String("faction")
	mine := map[string]bool{} // the factions whose covert doings req.User may see
	if !req.GM {
		if camp, err := h.Factions.Campaign(ctx, req.GuildID); err == nil {
			for _, f := range camp.Campaign.Factions {
				if f.Owner == req.User.ID {
					mine[strings.ToLower(f.Name)] = true
				}
			}
		}
	}
	for i, fr := range r.Report.Factions {
		if name == "" || strings.EqualFold(name, fr.Faction) {
			public := !req.GM && !mine[strings.ToLower(fr.Faction)]
			embeds = append(embeds, ReportEmbed(r.Round, fr, i, false, public))
			reps = append(reps, fr)
		}
	}
	if len(embeds) == 0 {
		return kit.Response{}, kit.Errorf("%s played no turn in round %d", name, r.Round)
	}
	kept, rest := packEmbeds(embeds, kit.MaxEmbeds, kit.MaxEmbedTotal)
	content := fmt.Sprintf("Report of round %d", r.Round)
	if !r.ScheduledAt.IsZero() {
		content += fmt.Sprintf(", played by the schedule for <t:%d:F>", r.ScheduledAt.Unix())
	}
	if len(rest) > 0 {
		content += fmt.Sprintf("; %d more: ask with faction:<name>", len(rest))
	}
	return kit.Response{Content: content + ".", Embeds: kept, Ephemeral: true, Result: reps}, nil
}
