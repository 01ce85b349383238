package faction

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tablehand/tablehand/commands/kit"
	rules "github.com/tablehand/tablehand/rules/faction"
)

// maxReportEmbed bounds one faction's report, so several fit a message.
const maxReportEmbed = 1800

var factionColors = []int{0x5865f2, 0xed4245, 0x3ba55d, 0xfaa61a, 0xeb459e, 0x9b59b6, 0x1abc9c, 0xe67e22}

// reportEmbed is one faction's part of a round report; with chances, each
// roll shows its exact odds first (the preview).
// reportEmbed is one faction's part of a round report. A public report
// (posted to the channel, or shown to another faction's player) leaves out
// what Covert assets did, saying only how many such actions there were:
// "The Asset may not be attacked", nor its doings known, by the others.
func ReportEmbed(round int, fr rules.FactionReport, i int, chances, public bool) kit.Embed {
	var b strings.Builder
	fmt.Fprintf(&b, "AP %d → %d left", fr.Start.AP, fr.APEnd)
	if fr.Policy != "" {
		fmt.Fprintf(&b, " · no orders: policy **%s**", fr.Policy)
	}
	b.WriteString("\n")
	for _, e := range fr.Start.Applied {
		fmt.Fprintf(&b, "⏱️ %s\n", e.Note)
	}
	for _, c := range fr.Start.Costs {
		fmt.Fprintf(&b, "💸 %s\n", c)
	}
	for _, n := range fr.Start.Notes {
		fmt.Fprintf(&b, "ℹ️ %s\n", n)
	}
	covert := 0
	show := func(o rules.Outcome, indent string) {
		if public && o.Covert {
			covert++
			return
		}
		outcomeLines(&b, o, indent, chances)
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
		fmt.Fprintf(&b, "🕶️ %d covert action(s): its player and the GM see them with /faction report\n", covert)
	}
	for _, s := range fr.Skipped {
		fmt.Fprintf(&b, "🚫 `%s` cannot be carried out: %s\n", kit.CodeSafe(s.Order.String()), s.Reason)
	}
	for _, q := range fr.Questions {
		fmt.Fprintf(&b, "❓ `%s` waits: %s\n", kit.CodeSafe(q.Order.String()), q.Question.Text)
	}
	shown := map[int]bool{}
	var mark func([]rules.Outcome)
	mark = func(os []rules.Outcome) {
		for _, o := range os {
			for _, e := range o.Effects {
				shown[e.ID] = true
			}
			mark(o.Triggered)
		}
	}
	mark(fr.Outcomes)
	for _, e := range fr.Pending {
		if !shown[e.ID] {
			fmt.Fprintf(&b, "⏳ round %d: %s\n", e.Due, e.Note)
		}
	}
	title := fmt.Sprintf("Round %d · %s", round, fr.Faction)
	if chances {
		title = "Preview of round " + strconv.Itoa(round) + " · " + fr.Faction
	}
	return kit.Embed{Title: title, Description: kit.Truncate(strings.TrimSpace(b.String()), maxReportEmbed-len(title), kit.TruncNote), Color: factionColors[i%len(factionColors)]}
}

func reportSummary(round int, fr rules.FactionReport) string {
	ok := 0
	for _, o := range fr.Outcomes {
		if o.Success {
			ok++
		}
	}
	s := fmt.Sprintf("Round %d · **%s**: %d actions (%d succeeded), AP %d → %d", round, kit.EscapeMarkdown(fr.Faction), len(fr.Outcomes), ok, fr.Start.AP, fr.APEnd)
	if len(fr.Skipped) > 0 {
		s += fmt.Sprintf(", %d skipped", len(fr.Skipped))
	}
	if len(fr.Questions) > 0 {
		s += fmt.Sprintf(", %d held", len(fr.Questions))
	}
	return s
}
