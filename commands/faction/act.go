package faction

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/db"
	rules "github.com/tablehand/tablehand/rules/faction"
)

// outcomeLines writes what one action did, with what it set off.
func outcomeLines(b *strings.Builder, o rules.Outcome, indent string, chances bool) {
	mark := "✅"
	if !o.Success {
		mark = "❌"
	}
	// The outcome's text begins "Red: Attack with Frigate #2; ...": the
	// head names the acting asset, the rest is listed below.
	head, _, _ := strings.Cut(strings.TrimPrefix(o.Text, o.Faction+": "), ";")
	if !strings.HasPrefix(head, o.Name) {
		head = o.Name
	}
	fmt.Fprintf(b, "%s%s **%s**%s\n", indent, mark, o.Name, kit.EscapeInline(strings.TrimPrefix(head, o.Name)))
	for _, t := range o.Tests {
		line := t.Text
		if t.Label != "" {
			line = t.Label + ": " + line
		}
		if chances {
			line = fmt.Sprintf("**%s** to succeed · %s", kit.Percent(t.Chance), line)
		}
		fmt.Fprintf(b, "%s  🎲 %s\n", indent, line)
	}
	for _, c := range o.Costs {
		fmt.Fprintf(b, "%s  💸 %s\n", indent, c)
	}
	for _, c := range o.Changes {
		fmt.Fprintf(b, "%s  • %s\n", indent, c)
	}
	for _, e := range o.Effects {
		fmt.Fprintf(b, "%s  ⏳ round %d: %s\n", indent, e.Due, e.Note)
	}
	for _, n := range o.Notes {
		fmt.Fprintf(b, "%s  ℹ️ %s\n", indent, n)
	}
	for _, t := range o.Triggered {
		outcomeLines(b, t, indent+"  ↳ ", chances)
	}
}

// FactionActResult is the console's `result` of /faction act.
type FactionActResult struct {
	kit.Outcome
	Action string        `json:"action"`
	Result rules.Outcome `json:"outcome"`
	// Held is the order's number when it waits on a Question.
	Held int64 `json:"held,omitempty"`
}

// errHeld rolls back an act that raised a Question: nothing is applied.
var errHeld = errors.New("held by a question")

func (h *handlers) factionAct(ctx context.Context, req *kit.Request) (kit.Response, error) {
	o, def, err := buildOrder(req)
	if err != nil {
		return kit.Response{}, err
	}
	t, err := h.Tray(req)
	if err != nil {
		return kit.Response{}, err
	}
	var out rules.Outcome
	var who string
	_, err = h.update(ctx, req, func(c *rules.Campaign) error {
		f, err := userFaction(c, req, req.Options.String("faction"))
		if err != nil {
			return err
		}
		who = f.Name
		if out, err = rules.Resolve(c, f.Name, o, t.Roller()); err != nil {
			return err
		}
		if len(out.Questions) > 0 {
			return errHeld
		}
		return t.Done()
	})
	if errors.Is(err, errHeld) {
		q := out.Questions[0]
		held, err := h.Factions.QueueOrder(ctx, req.GuildID, db.FactionOrder{Faction: who, Mode: db.OrderAct, Order: o, Question: &q, CreatedBy: req.User.ID})
		if err != nil {
			return kit.Response{}, err
		}
		return kit.Response{
			Content: fmt.Sprintf("**%s**: %s is held.\n%s", kit.EscapeMarkdown(who), def.Name, questionText(held)),
			Rows:    questionRows([]db.FactionOrder{held}),
			Result:  FactionActResult{Action: def.Key, Result: out, Held: held.ID, Outcome: kit.Outcome{Rolls: []kit.RollGroup{}}},
		}, nil
	}
	if err != nil {
		return kit.Response{}, err
	}
	res := FactionActResult{Action: def.Key, Result: out, Outcome: kit.Outcome{Rolls: []kit.RollGroup{}}}
	if tests := allTests(out); len(tests) > 0 {
		// Logged like every roll, so "what did you roll?" has an answer.
		res.Total = tests[0].Roll
		res.Succeeded(tests[0].Success, tests[0].Margin)
		if err := h.Finish(ctx, req, t, "faction "+def.Key, &res.Outcome, &res); err != nil {
			return kit.Response{}, err
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**%s**, round %d:\n", kit.EscapeMarkdown(who), turnRound(out))
	outcomeLines(&b, out, "", false)
	if out.TurnStart != nil && (len(out.TurnStart.Applied) > 0 || len(out.TurnStart.Changes) > 0) {
		fmt.Fprintf(&b, "-# the turn began: AP %d, %d delayed effects applied\n", out.TurnStart.AP, len(out.TurnStart.Applied))
	}
	if res.ID != "" {
		b.WriteString("-# roll " + res.ID)
	}
	// A Covert action is its faction's secret: only its player sees what
	// it did ("The Asset may not be attacked", nor watched).
	return kit.Response{Content: strings.TrimSpace(b.String()), Result: res, Ephemeral: out.Covert}, nil
}

// allTests lists an outcome's rolls with those of what it set off.
func allTests(o rules.Outcome) []rules.Test {
	out := slices.Clone(o.Tests)
	for _, t := range o.Triggered {
		out = append(out, allTests(t)...)
	}
	return out
}

func turnRound(o rules.Outcome) int {
	if o.TurnStart != nil {
		return o.TurnStart.Round
	}
	for _, e := range o.Effects {
		return e.Created
	}
	return 0
}

// factionAnswer answers a held order's Question from its button
// (fans:<order>:<option>): the GM answers the GM's questions, a faction's
// player (or the GM) its consent. A held /faction act is then resolved;
// a queued order waits for its round.
func (h *handlers) factionAnswer(ctx context.Context, req *kit.Request) (kit.Response, error) {
	parts := strings.Split(req.CustomID, ":")
	if len(parts) != 3 {
		return kit.Response{}, kit.Errorf("this button no longer works: see /faction orders")
	}
	id, err1 := strconv.ParseInt(parts[1], 10, 64)
	idx, err2 := strconv.Atoi(parts[2])
	if err1 != nil || err2 != nil {
		return kit.Response{}, kit.Errorf("this button no longer works: see /faction orders")
	}
	var out rules.Outcome
	var answered, option string
	resolved := false
	o, fc, err := h.Factions.UpdateOrder(ctx, req.GuildID, id, func(o *db.FactionOrder, fc *db.FactionCampaign) (db.OrderChange, error) {
		q := o.Question
		if q == nil || idx < 0 || idx >= len(q.Options) {
			return db.OrderChange{}, kit.Errorf("order #%d waits for no answer any more", o.ID)
		}
		if q.Ask == "gm" && !req.GM {
			return db.OrderChange{}, kit.ErrNotGM
		}
		if q.Ask != "gm" && !req.GM && (ownerOf(fc.Campaign, q.Ask) != req.User.ID || ownerOf(fc.Campaign, q.Ask) == "") {
			return db.OrderChange{}, kit.Errorf("this question is for %s's player (or the GM)", q.Ask)
		}
		answered, option = q.Text, q.Options[idx]
		o.Order, o.Question = o.Order.With(q.Param, option), nil
		if o.Mode != db.OrderAct {
			return db.OrderChange{}, nil
		}
		var err error
		out, err = rules.Resolve(fc.Campaign, o.Faction, o.Order, h.Roller())
		if err != nil {
			return db.OrderChange{}, factionError(err)
		}
		if len(out.Questions) > 0 {
			next := out.Questions[0]
			o.Question = &next
			return db.OrderChange{}, nil
		}
		resolved = true
		return db.OrderChange{Remove: true, SaveCampaign: true}, nil
	})
	if errors.Is(err, db.ErrNotFound) {
		return kit.Response{}, kit.Errorf("order #%d is gone: it was carried out or removed", id)
	}
	if err != nil {
		return kit.Response{}, factionError(err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**%s** answered %q for order #%d (%s): %s\n", kit.DisplayName(req.User), option, id, kit.EscapeMarkdown(o.Faction), answered)
	var rows []kit.Row
	switch {
	case resolved:
		outcomeLines(&b, out, "", false)
	case o.Question != nil:
		b.WriteString(questionText(o))
		rows = questionRows([]db.FactionOrder{o})
	default:
		fmt.Fprintf(&b, "It will be carried out in round %d.", fc.Campaign.Round)
	}
	return kit.Response{Content: b.String(), Rows: rows, Ephemeral: resolved && out.Covert,
		Result: map[string]any{"order": orderResult(o), "resolved": resolved, "outcome": out}}, nil
}
