package faction

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/db"
	"github.com/tablehand/tablehand/rules/dice"
	rules "github.com/tablehand/tablehand/rules/faction"
)

// Questions: what the text leaves to the GM, or to another faction's
// consent, holds an order until it is answered with a button
// (fans:<order>:<option>:<faction>, the order's number within its
// faction: issue 20).

// answerParams carry answers to Questions: the GM's, or another faction's
// consent. Players cannot give them by typing; they come with the buttons.
var answerParams = []string{"gm_produce", "gm_repair", "gm_target", "consent"}

// questionRows are the answer buttons of held orders: one row each, at
// most the rows a message may carry. Only a GM's reply (gm) carries the
// buttons of a secret Question: its options name what players may not
// see.
func questionRows(held []Order, gm bool) []kit.Row {
	var rows []kit.Row
	for _, o := range held {
		if o.Question == nil || len(rows) == kit.MaxActionRows || (o.Question.Secret() && !gm) {
			continue
		}
		var row kit.Row
		for i, opt := range o.Question.Options {
			if i == kit.MaxButtonsPerRow {
				break
			}
			style := kit.Secondary
			if i == 0 {
				style = kit.Primary
			}
			row = append(row, kit.Button{Label: fmt.Sprintf("#%d %s", o.Number, opt), Style: style, CustomID: answerID(o, i)})
		}
		rows = append(rows, row)
	}
	return rows
}

// questionText is o's Question as a GM (gm) or the players read it: a
// secret one tells the players where a GM answers it.
func questionText(o Order, gm bool) string {
	q := *o.Question
	who := "the GM"
	if q.Ask != "gm" {
		who = q.Ask
	}
	text := q.Text
	if !gm && q.Secret() {
		text = q.Seen().Text + " (a GM answers in /faction orders)"
	}
	return fmt.Sprintf("❓ order #%d of %s (`%s`) waits for %s: %s", o.Number, kit.EscapeMarkdown(o.Faction), kit.CodeSafe(o.Order.String()), kit.EscapeMarkdown(who), text)
}

// secretQuestions is the message that gives the GMs the secret Questions
// of held (Investigate's choice among Covert Assets: Question.Public),
// whole and with their buttons, which the channel's messages leave out;
// ok is false when held has none.
func secretQuestions(held []Order) (msg kit.Response, ok bool) {
	var b strings.Builder
	var secret []Order
	for _, o := range held {
		if o.Question != nil && o.Question.Secret() {
			secret = append(secret, o)
			b.WriteString(questionText(o, true) + "\n")
		}
	}
	if len(secret) == 0 {
		return kit.Response{}, false
	}
	return kit.Response{Type: kit.Message, Content: kit.Truncate("🔒 for the GMs: "+b.String(), kit.MaxContent, "… (see /faction orders)"),
		Rows: questionRows(secret, true)}, true
}

// answerID is the custom_id of the button that gives option i to o's
// Question: fans:<number>:<option>:<faction>. A faction's name is at most
// kit.MaxNameLen long, so it fits Discord's 100 characters.
func answerID(o Order, i int) string {
	return fmt.Sprintf("fans:%d:%d:%s", o.Number, i, o.Faction)
}

// answeredOrder finds the stored ID of the order an answer button names:
// fans:<number>:<option>:<faction>, or fans:<id>:<option> on a message
// posted before orders were numbered within their factions.
func (h *handlers) answeredOrder(ctx context.Context, req *kit.Request) (id, number, idx int64, err error) {
	parts := strings.SplitN(req.CustomID, ":", 4)
	if len(parts) == 3 {
		id, idx, ok := buttonIDs(req.CustomID)
		if !ok {
			return 0, 0, 0, kit.Errorf("this button no longer works: see /faction orders")
		}
		return id, id, idx, nil
	}
	if len(parts) != 4 {
		return 0, 0, 0, kit.Errorf("this button no longer works: see /faction orders")
	}
	n, err1 := strconv.ParseInt(parts[1], 10, 64)
	i, err2 := strconv.ParseInt(parts[2], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, 0, 0, kit.Errorf("this button no longer works: see /faction orders")
	}
	orders, err := h.factions.orders(ctx, req.GuildID, parts[3], "")
	if err != nil {
		return 0, 0, 0, noCampaign(err)
	}
	for _, o := range orders {
		if o.Number == n {
			return o.ID, n, i, nil
		}
	}
	return 0, n, i, kit.Errorf("order #%d of %s is gone: it was carried out or removed", n, kit.EscapeMarkdown(parts[3]))
}

// buttonIDs reads the two numbers of a button's custom_id,
// "<prefix>:<a>:<b>"; ok is false when it is not one.
func buttonIDs(customID string) (a, b int64, ok bool) {
	parts := strings.Split(customID, ":")
	if len(parts) != 3 {
		return 0, 0, false
	}
	a, err1 := strconv.ParseInt(parts[1], 10, 64)
	b, err2 := strconv.ParseInt(parts[2], 10, 64)
	return a, b, err1 == nil && err2 == nil
}

// answer is one click on a Question's button.
type answer struct {
	req  *kit.Request
	idx  int
	roll func() dice.Roller // the dice of a held act, drawn when it is resolved

	question, option string
	secret           bool // the Question's options were for the GMs' eyes
	resolved         bool
	out              rules.Outcome
}

// answerQuestion answers a held order's Question from its button
// (fans:<order>:<option>): the GM answers the GM's questions, a faction's
// player (or the GM) its consent. A held /faction act is then resolved;
// a queued order waits for its round.
func (h *handlers) answerQuestion(ctx context.Context, req *kit.Request) (kit.Response, error) {
	id, number, idx, err := h.answeredOrder(ctx, req)
	if err != nil {
		return kit.Response{}, err
	}
	a := &answer{req: req, idx: int(idx), roll: h.Roller}
	o, fc, err := h.factions.updateOrder(ctx, req.GuildID, id, a.apply)
	if errors.Is(err, db.ErrNotFound) {
		return kit.Response{}, kit.Errorf("order #%d is gone: it was carried out or removed", number)
	}
	if err != nil {
		return kit.Response{}, factionError(err)
	}
	return a.reply(o.Number, o, fc.Campaign), nil
}

// apply answers o's Question in the store's transaction, if the clicker
// may, and resolves a held act.
func (a *answer) apply(o *Order, fc *Campaign) (db.OrderChange, error) {
	q := o.Question
	if q == nil || a.idx < 0 || a.idx >= len(q.Options) {
		return db.OrderChange{}, kit.Errorf("order #%d waits for no answer any more", o.Number)
	}
	if q.Ask == "gm" && !a.req.GM {
		return db.OrderChange{}, kit.ErrNotGM
	}
	if q.Ask != "gm" && !a.req.GM && !viewer(a.req).Plays(fc.Campaign.Faction(q.Ask)) {
		return db.OrderChange{}, kit.Errorf("this question is for %s's player (or the GM)", q.Ask)
	}
	a.question, a.option, a.secret = q.Seen().Text, q.Options[a.idx], q.Secret()
	o.Order, o.Question = o.Order.Answer(*q, a.option), nil
	if o.Mode != db.OrderAct {
		return db.OrderChange{}, nil
	}
	var err error
	a.out, err = rules.Resolve(fc.Campaign, o.Faction, o.Order, a.roll())
	if err != nil {
		return db.OrderChange{}, factionError(err)
	}
	if len(a.out.Questions) > 0 {
		next := a.out.Questions[0]
		o.Question = &next
		return db.OrderChange{}, nil
	}
	a.resolved = true
	return db.OrderChange{Remove: true, SaveCampaign: true}, nil
}

// reply tells who answered what, and what came of it: the act's outcome,
// its next Question, or the round it waits for. The answer to a secret
// Question is told only to the GM who gave it.
func (a *answer) reply(id int64, o Order, c *rules.Campaign) kit.Response {
	var b strings.Builder
	if a.secret {
		fmt.Fprintf(&b, "**%s** answered for order #%d (%s): %s\n", kit.DisplayName(a.req.User), id, kit.EscapeMarkdown(o.Faction), a.question)
	} else {
		fmt.Fprintf(&b, "**%s** answered %q for order #%d (%s): %s\n", kit.DisplayName(a.req.User), a.option, id, kit.EscapeMarkdown(o.Faction), a.question)
	}
	var rows []kit.Row
	switch {
	case a.resolved:
		outcomeLines(&b, a.out, "", false)
	case o.Question != nil:
		b.WriteString(questionText(o, false))
		rows = questionRows([]Order{o}, false)
	default:
		fmt.Fprintf(&b, "It will be carried out in round %d.", c.Round)
	}
	resp := kit.Response{Content: b.String(), Rows: rows, Ephemeral: a.resolved && a.out.Covert,
		Result: map[string]any{"order": orderResult(o, false), "resolved": a.resolved, "outcome": a.out.Seen()}}
	if a.secret {
		resp.Followups = append(resp.Followups, kit.Response{Content: fmt.Sprintf("You answered %q for order #%d: only the GMs see which.", a.option, id), Ephemeral: true})
	}
	return resp
}
