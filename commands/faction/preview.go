package faction

import (
	"context"
	"fmt"
	"strings"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/rules/dice"
	rules "github.com/tablehand/tablehand/rules/faction"
)

// /faction preview: the dry run of the next round, with the exact odds of
// every roll; a schedule that waits for the GM's approval posts one too.

// PreviewRounds plays n rounds on a copy of c: the dry run of what would
// happen, each Test with its exact Chance. Only the first round has the
// queued orders; later ones play the standing policies.
func PreviewRounds(c *rules.Campaign, orders map[string][]rules.Order, n int, r dice.Roller) ([]rules.RoundReport, error) {
	work := c.Clone()
	var out []rules.RoundReport
	for i := range n {
		if i > 0 {
			orders = nil
		}
		rep, err := rules.ResolveRound(work, orders, r)
		if err != nil {
			return nil, err
		}
		out = append(out, rep)
	}
	return out, nil
}

// PreviewEmbeds shows a dry run: per faction the AP it renews and what it
// pays, what completes, which orders cannot be carried out (not paid for,
// say), and the exact odds of every roll. The dice shown are one possible
// outcome.
func PreviewEmbeds(reps []rules.RoundReport) []kit.Embed {
	var out []kit.Embed
	for _, rep := range reps {
		for i, fr := range rep.Factions {
			e := ReportEmbed(rep.Round, fr, i, true, false)
			var paid []string
			for _, c := range fr.Costs() {
				paid = append(paid, c.String())
			}
			if len(paid) > 0 {
				e.Fields = append(e.Fields, kit.Field{Name: "Pays", Value: kit.Truncate(strings.Join(paid, "\n"), kit.MaxFieldValue, "…")})
			}
			out = append(out, e)
		}
	}
	return out
}

func (h *handlers) preview(ctx context.Context, req *kit.Request) (kit.Response, error) {
	fc, orders, _, err := h.factions.plan(ctx, req.GuildID)
	if err != nil {
		return kit.Response{}, noCampaign(err)
	}
	reps, err := PreviewRounds(fc.Campaign, orders, 1, h.Roller())
	if err != nil {
		return kit.Response{}, factionError(err)
	}
	kept, rest := fitEmbeds(PreviewEmbeds(reps))
	content := fmt.Sprintf("🔍 Dry run of round %d: nothing is changed. The odds are exact; the dice are one possible outcome.", fc.Campaign.Round)
	if len(rest) > 0 {
		content += fmt.Sprintf("\n%s did not fit: /faction orders faction:<name> lists their orders.", kit.Plural(len(rest), "faction"))
	}
	return kit.Response{Content: content, Embeds: kept, Ephemeral: true, Result: RoundResult{Rounds: reps, Round: fc.Campaign.Round}}, nil
}
