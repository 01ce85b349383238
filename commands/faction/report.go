package faction

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/db"
	rules "github.com/tablehand/tablehand/rules/faction"
)

// /faction report, and how one faction's part of a round reads.

// maxReportEmbed bounds one faction's report, so several fit a message.
const maxReportEmbed = 1800

var factionColors = []int{0x5865f2, 0xed4245, 0x3ba55d, 0xfaa61a, 0xeb459e, 0x9b59b6, 0x1abc9c, 0xe67e22}

// ReportEmbed is one faction's part of a round report; with chances, each
// roll shows its exact odds first (the preview). A public report (posted
// to the channel, or shown to another faction's player) leaves out what
// Covert assets did, saying only how many such actions there were: "The
// Asset may not be attacked", nor its doings known, by the others.
func ReportEmbed(round int, fr rules.FactionReport, i int, chances, public bool) kit.Embed {
	var b strings.Builder
	reportStart(&b, fr)
	reportOutcomes(&b, fr, chances, public)
	for _, s := range fr.Skipped {
		fmt.Fprintf(&b, "🚫 `%s` cannot be carried out: %s\n", kit.CodeSafe(s.Order.String()), s.Reason)
	}
	for _, q := range fr.Questions {
		fmt.Fprintf(&b, "❓ `%s` waits: %s\n", kit.CodeSafe(q.Order.String()), q.Question.Text)
	}
	shown := shownEffects(fr.Outcomes, map[effectKey]bool{})
	for _, e := range fr.Pending {
		if !shown[effectKey{e.Faction, e.ID}] {
			fmt.Fprintf(&b, "⏳ round %d: %s\n", e.Due, e.Note)
		}
	}
	if fr.DiceGiven {
		b.WriteString(DiceGivenByGM + "\n")
	}
	title := fmt.Sprintf("Round %d · %s", round, fr.Faction)
	if chances {
		title = "Preview of round " + strconv.Itoa(round) + " · " + fr.Faction
	}
	return kit.Embed{Title: title, Description: kit.Truncate(strings.TrimSpace(b.String()), maxReportEmbed-len(title), kit.TruncNote), Color: factionColors[i%len(factionColors)]}
}

// DiceGivenByGM marks a faction's round report whose rolls were of dice
// the GM typed in (/faction round dice:). It names no value: the dice of
// a round run across every faction, Covert actions' too.
const DiceGivenByGM = "-# ✋ dice given by the GM (typed in, not rolled by Tablehand)"

// reportStart writes the faction's AP and the start of its turn.
func reportStart(b *strings.Builder, fr rules.FactionReport) {
	fmt.Fprintf(b, "AP %d → %d left", fr.Start.AP, fr.APEnd)
	if fr.Policy != "" {
		fmt.Fprintf(b, " · no orders: policy **%s**", fr.Policy)
	}
	b.WriteString("\n")
	for _, e := range fr.Start.Applied {
		fmt.Fprintf(b, "⏱️ %s\n", e.Note)
	}
	for _, c := range fr.Start.Costs {
		fmt.Fprintf(b, "💸 %s\n", c)
	}
	for _, n := range fr.Start.Notes {
		fmt.Fprintf(b, "ℹ️ %s\n", n)
	}
}

// reportOutcomes writes what the faction did: arrivals, actions and
// reactions; a public report only counts the Covert ones.
func reportOutcomes(b *strings.Builder, fr rules.FactionReport, chances, public bool) {
	covert := 0
	show := func(o rules.Outcome, indent string) {
		if public && o.Covert {
			covert++
			return
		}
		outcomeLines(b, o, indent, chances)
	}
	for _, o := range fr.Arrivals {
		show(o, "")
	}
	for _, o := range fr.Outcomes {
		show(o, "")
	}
	for _, o := range fr.Reactions {
		show(o, "↩️ ")
	}
	if covert > 0 {
		fmt.Fprintf(b, "🕶️ %d covert action(s): its player and the GM see them with /faction report\n", covert)
	}
}

// effectKey names a delayed effect: each faction numbers its own.
type effectKey struct {
	faction string
	id      int
}

// shownEffects marks in shown the delayed effects that the outcomes (and
// what they set off) list already.
func shownEffects(os []rules.Outcome, shown map[effectKey]bool) map[effectKey]bool {
	for _, o := range os {
		for _, e := range o.Effects {
			shown[effectKey{e.Faction, e.ID}] = true
		}
		shownEffects(o.Triggered, shown)
	}
	return shown
}

func reportSummary(round int, fr rules.FactionReport) string {
	ok := 0
	for _, o := range fr.Outcomes {
		if o.Success {
			ok++
		}
	}
	s := fmt.Sprintf("Round %d · **%s**: %s (%d succeeded), AP %d → %d", round, kit.EscapeMarkdown(fr.Faction), kit.Plural(len(fr.Outcomes), "action"), ok, fr.Start.AP, fr.APEnd)
	if len(fr.Skipped) > 0 {
		s += fmt.Sprintf(", %d skipped", len(fr.Skipped))
	}
	if fr.DiceGiven {
		s += ", ✋ dice given by the GM"
	}
	if len(fr.Questions) > 0 {
		s += fmt.Sprintf(", %d held", len(fr.Questions))
	}
	return s
}

// report shows a played round: each faction's part, public but
// for the asker's own factions (all of them for the GM).
func (h *handlers) report(ctx context.Context, req *kit.Request) (kit.Response, error) {
	r, err := h.playedRound(ctx, req)
	if err != nil {
		return kit.Response{}, err
	}
	var embeds []kit.Embed
	var reps []rules.FactionReport
	name := req.Options.String("faction")
	camp := h.readerCampaign(ctx, req)
	for i, fr := range r.Report.Factions {
		if name == "" || strings.EqualFold(name, fr.Faction) {
			public := viewer(req).PublicReport(camp, fr.Faction)
			embeds = append(embeds, ReportEmbed(r.Round, fr, i, false, public))
			reps = append(reps, fr)
		}
	}
	if len(embeds) == 0 {
		return kit.Response{}, kit.Errorf("%s played no turn in round %d", name, r.Round)
	}
	kept, rest := fitEmbeds(embeds)
	content := fmt.Sprintf("Report of round %d", r.Round)
	if !r.ScheduledAt.IsZero() {
		content += ", played by the schedule for " + FireTime(r.ScheduledAt)
	}
	if len(rest) > 0 {
		content += fmt.Sprintf("; %d more: ask with faction:<name>", len(rest))
	}
	return kit.Response{Content: content + ".", Embeds: kept, Ephemeral: true, Result: reps}, nil
}

// playedRound is the round round: asks for, else the last one played.
func (h *handlers) playedRound(ctx context.Context, req *kit.Request) (Round, error) {
	if n, ok := req.Options.Int("round"); ok {
		r, err := h.factions.playedRound(ctx, req.GuildID, int(n))
		if errors.Is(err, db.ErrNotFound) {
			return r, kit.Errorf("round %d has not been played here", n)
		}
		return r, err
	}
	hist, err := h.factions.history(ctx, req.GuildID, 1)
	if err != nil {
		return Round{}, err
	}
	if len(hist) == 0 {
		return Round{}, kit.Errorf("no round has been played yet: the GM plays one with /faction round")
	}
	return hist[0], nil
}

// readerCampaign is the campaign whose players the report's reader is
// told apart by: one that cannot be read (or is gone) shows the report as
// the public sees it, but to the GM.
func (h *handlers) readerCampaign(ctx context.Context, req *kit.Request) *rules.Campaign {
	if camp, err := h.factions.campaign(ctx, req.GuildID); err == nil {
		return camp.Campaign
	}
	return &rules.Campaign{}
}
