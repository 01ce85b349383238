package faction

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/db"
	rules "github.com/tablehand/tablehand/rules/faction"
)

// /faction act: an action resolved now, and how an action's outcome reads.

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

// act is one /faction act: the order, and once resolved who acted and
// what came of it.
type act struct {
	order rules.Order
	def   rules.Action
	who   string
	round int // the round the act was carried out in
	out   rules.Outcome
}

func (h *handlers) actNow(ctx context.Context, req *kit.Request) (kit.Response, error) {
	if err := h.resolveAssets(ctx, req); err != nil {
		return kit.Response{}, err
	}
	o, def, err := buildOrder(req)
	if err != nil {
		return kit.Response{}, err
	}
	c, err := h.begin(ctx, req)
	if err != nil {
		return kit.Response{}, err
	}
	a := &act{order: o, def: def}
	_, err = h.update(ctx, req, func(camp *rules.Campaign) error { return a.resolve(camp, c) })
	if errors.Is(err, errHeld) {
		return h.holdAct(ctx, req, a)
	}
	if err != nil {
		return kit.Response{}, err
	}
	return a.reply(ctx, c)
}

// resolve carries the order out for the acting faction, with the call's
// dice; a Question rolls it back (errHeld), and so do dice: values that
// are not used exactly.
func (a *act) resolve(camp *rules.Campaign, c *kit.Call) error {
	f, err := userFaction(camp, c.Req, c.Req.Options.String("faction"))
	if err != nil {
		return err
	}
	a.who, a.round = f.Name, camp.Round
	if a.out, err = rules.Resolve(camp, f.Name, a.order, c.Tray.Roller()); err != nil {
		return err
	}
	if len(a.out.Questions) > 0 {
		return errHeld
	}
	return c.Tray.Done()
}

// holdAct queues the act with its Question, to be resolved when it is
// answered with a button.
func (h *handlers) holdAct(ctx context.Context, req *kit.Request, a *act) (kit.Response, error) {
	q := a.out.Questions[0]
	held, err := h.factions.queue(ctx, req.GuildID, Order{Faction: a.who, Mode: db.OrderAct, Order: a.order, Question: &q, CreatedBy: req.User.ID})
	if err != nil {
		return kit.Response{}, err
	}
	resp := kit.Response{
		Content: fmt.Sprintf("**%s**: %s is held.\n%s", kit.EscapeMarkdown(a.who), a.def.Name, questionText(held, false)),
		Rows:    questionRows([]Order{held}, false),
		Result:  FactionActResult{Action: a.def.Key, Result: a.out.Seen(), Held: held.Number, Outcome: kit.Outcome{Rolls: []kit.RollGroup{}}},
	}
	// The channel reads the question without its secrets; the GMs get it
	// whole, with its buttons.
	if m, ok := secretQuestions([]Order{held}); ok {
		if err := h.TellGMs(ctx, req, &resp, m, "Tablehand could not post a question for the GMs in <#%s>: a GM answers it in /faction orders."); err != nil {
			return kit.Response{}, err
		}
	}
	return resp, nil
}

// reply logs the act's rolls and tells what it did. It is not kit's
// Reply: the answer is private when the action is Covert, not by a
// private: option, and the rules' lines carry no breakdown of the tray.
func (a *act) reply(ctx context.Context, c *kit.Call) (kit.Response, error) {
	res := FactionActResult{Action: a.def.Key, Result: a.out, Outcome: kit.Outcome{Rolls: []kit.RollGroup{}}}
	if tests := allTests(a.out); len(tests) > 0 {
		// Logged like every roll, so "what did you roll?" has an answer.
		res.Total = tests[0].Roll
		res.Succeeded(tests[0].Success, tests[0].Margin)
		if err := c.Finish(ctx, rules.SystemName+" "+a.def.Key, &res.Outcome, &res, ""); err != nil {
			return kit.Response{}, err
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**%s**, round %d:\n", kit.EscapeMarkdown(a.who), a.round)
	outcomeLines(&b, a.out, "", false)
	if ts := a.out.TurnStart; ts != nil && (len(ts.Applied) > 0 || len(ts.Changes) > 0) {
		fmt.Fprintf(&b, "-# the turn began: AP %d, %d delayed effects applied\n", ts.AP, len(ts.Applied))
	}
	if note := c.DiceGivenNote(); note != "" && res.ID != "" {
		b.WriteString(note + "\n")
	}
	if res.ID != "" {
		b.WriteString("-# roll " + res.ID)
	}
	// A Covert action is its faction's secret: only its player sees what
	// it did ("The Asset may not be attacked", nor watched).
	return kit.Response{Content: strings.TrimSpace(b.String()), Result: res, Ephemeral: a.out.Covert}, nil
}

// allTests lists an outcome's rolls with those of what it set off.
func allTests(o rules.Outcome) []rules.Test {
	out := slices.Clone(o.Tests)
	for _, t := range o.Triggered {
		out = append(out, allTests(t)...)
	}
	return out
}

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
		fmt.Fprintf(b, "%s  🎲 %s\n", indent, testLine(t, chances))
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

// testLine is one roll of an outcome; with chances (a preview), its exact
// odds first.
func testLine(t rules.Test, chances bool) string {
	line := t.Text
	if t.Label != "" {
		line = t.Label + ": " + line
	}
	if chances {
		line = fmt.Sprintf("**%s** to succeed · %s", kit.Percent(t.Chance), line)
	}
	return line
}
