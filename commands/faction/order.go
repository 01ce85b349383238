package faction

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/db"
	rules "github.com/tablehand/tablehand/rules/faction"
)

// /faction order and /faction orders: the queue of the next round; and
// the order that /faction act and /faction order read.

// parseParams reads "to=Luna via=4" (or to:Luna) into a map.
func parseParams(text string) (map[string]string, error) {
	out := map[string]string{}
	words, err := kit.SplitWords(text)
	if err != nil {
		return nil, err
	}
	for _, w := range words {
		k, v, ok := strings.Cut(w, "=")
		if !ok {
			k, v, ok = strings.Cut(w, ":")
		}
		k = strings.ToLower(strings.TrimSpace(k))
		if !ok || k == "" || strings.TrimSpace(v) == "" {
			return nil, kit.Errorf("params are written name=value, e.g. params:\"to=<habitat> via=<asset number>\"; %q is not", w)
		}
		out[k] = strings.TrimSpace(v)
	}
	return out, nil
}

// buildOrder reads an order from the options of /faction act and
// /faction order. The action may be "key@asset", as its autocomplete
// suggests.
func buildOrder(req *kit.Request) (rules.Order, rules.Action, error) {
	key, assetText, _ := strings.Cut(strings.TrimSpace(req.Options.String("action")), "@")
	def, ok := rules.LookupAction(key)
	if !ok {
		return rules.Order{}, rules.Action{}, kit.Errorf("there is no action %q: type in action: to see what you may do now (example: action:invest stat:INF)", key)
	}
	o := rules.Order{Action: def.Key}
	params := map[string]string{}
	if text := req.Options.String("params"); text != "" {
		p, err := parseParams(text)
		if err != nil {
			return o, def, err
		}
		params = p
	}
	if err := orderAsset(req.Options, def, assetText, &o, params); err != nil {
		return o, def, err
	}
	if n, ok := req.Options.Int("target"); ok {
		params["target"] = strconv.FormatInt(n, 10)
	}
	for _, k := range []string{"habitat", "stat", "pay"} {
		if v := req.Options.String(k); v != "" {
			params[k] = v
		}
	}
	if err := checkParams(req, def, params); err != nil {
		return o, def, err
	}
	if len(params) > 0 {
		o.Params = params
	}
	return o, def, nil
}

// orderAsset sets the acting asset of o: asset:, else the number after
// the @ of action:. A Free Action takes it as its target.
func orderAsset(opts kit.Options, def rules.Action, assetText string, o *rules.Order, params map[string]string) error {
	assetID := int64(0)
	if assetText != "" {
		n, err := strconv.ParseInt(assetText, 10, 64)
		if err != nil {
			return kit.Errorf("action:%s: the part after @ is an asset's number", opts.String("action"))
		}
		assetID = n
	}
	if n, ok := opts.Int("asset"); ok {
		assetID = n
	}
	if assetID != 0 {
		if def.Kind.Asset() {
			o.Asset = int(assetID)
		} else if _, has := params["target"]; !has && def.Kind == rules.KindFree {
			params["target"] = strconv.FormatInt(assetID, 10)
		} else {
			return kit.Errorf("%s is not an Asset Action: it takes no asset: (its parameters: %s)", def.Name, paramNames(def))
		}
	}
	if def.Kind.Asset() && o.Asset == 0 {
		return kit.Errorf("%s is an Asset Action: name the acting asset with asset: (example: action:%s asset:<number or name>; /faction asset list shows yours)", def.Name, def.Key)
	}
	return nil
}

// checkParams holds params to the action's, and keeps the answers to
// Questions for the GM's buttons.
func checkParams(req *kit.Request, def rules.Action, params map[string]string) error {
	// In name order: the same order names the same mistake every time.
	for _, k := range slices.Sorted(maps.Keys(params)) {
		if !slices.ContainsFunc(def.Params, func(p rules.Param) bool { return p.Name == k }) {
			return kit.Errorf("%s takes no %s: (its parameters: %s)", def.Name, k, paramNames(def))
		}
		if slices.Contains(answerParams, k) && !req.GM {
			return kit.Errorf("%s: is an answer for the GM (or the faction asked) to give with the buttons, not yours to type", k)
		}
	}
	return nil
}

func paramNames(def rules.Action) string {
	if len(def.Params) == 0 {
		return "none"
	}
	var out []string
	for _, p := range def.Params {
		s := p.Name
		if p.Required {
			s += " (required)"
		}
		out = append(out, s)
	}
	return strings.Join(out, ", ")
}

// FactionOrderResult is the console's `result` of /faction order and
// /faction orders.
type FactionOrderResult struct {
	// ID is the order's number within its faction, the one a player
	// types (remove:), as its reply shows it.
	ID       int64           `json:"id"`
	Faction  string          `json:"faction"`
	Seq      int             `json:"seq"`
	Mode     string          `json:"mode"`
	Order    string          `json:"order"`
	Question *rules.Question `json:"question,omitempty"`
}

// orderResult is o as a GM (gm) or its player reads it: the player reads
// a secret Question as Seen.
func orderResult(o Order, gm bool) FactionOrderResult {
	q := o.Question
	if q != nil && !gm {
		seen := q.Seen()
		q = &seen
	}
	return FactionOrderResult{ID: o.Number, Faction: o.Faction, Seq: o.Seq, Mode: o.Mode, Order: o.Order.String(), Question: q}
}

func (h *handlers) order(ctx context.Context, req *kit.Request) (kit.Response, error) {
	if err := h.resolveAssets(ctx, req); err != nil {
		return kit.Response{}, err
	}
	o, def, err := buildOrder(req)
	if err != nil {
		return kit.Response{}, err
	}
	if def.Kind == rules.KindTriggered && def.Key != "convert-duplicate" || def.Key == "counter-attack" {
		return kit.Response{}, kit.Errorf("%s is triggered (%s), not ordered: it happens by itself", def.Name, def.Duration)
	}
	// The campaign and its queue, read once: whose order it is, and the
	// round it is checked in.
	fc, plan, _, err := h.factions.plan(ctx, req.GuildID)
	if err != nil {
		return kit.Response{}, noCampaign(err)
	}
	c := fc.Campaign
	f, err := userFaction(c, req, req.Options.String("faction"))
	if err != nil {
		return kit.Response{}, err
	}
	if err := h.checkOrder(c, plan, f.Name, o); err != nil {
		return kit.Response{}, err
	}
	stored, err := h.factions.queue(ctx, req.GuildID, Order{Faction: f.Name, Order: o, CreatedBy: req.User.ID})
	if err != nil {
		return kit.Response{}, factionError(err)
	}
	return kit.Response{
		Content: fmt.Sprintf("Queued order #%d of **%s** for round %d: `%s` (%s). /faction orders shows the queue.",
			stored.Number, kit.EscapeMarkdown(f.Name), c.Round, kit.CodeSafe(o.String()), def.Cost),
		Ephemeral: true,
		Result:    orderResult(stored, req.GM),
	}, nil
}

// resolveAssets reads the campaign to turn the asset names of req's
// options into numbers (see resolveAssets), when an option names one.
func (h *handlers) resolveAssets(ctx context.Context, req *kit.Request) error {
	if !slices.ContainsFunc(assetOptions, func(o string) bool { _, named := req.Options[o].(string); return named }) {
		return nil
	}
	fc, err := h.campaign(ctx, req)
	if err != nil {
		return err
	}
	return resolveAssets(fc.Campaign, req)
}

// checkOrder refuses an order that could not be carried out in the round
// it will run in, with the error /faction act gives: the round is played
// on a copy of the campaign with the faction's queued orders and this one
// after them, and no other faction's (rules.Preview), and an order the
// round skips (an asset that does not exist or is another's, an action it
// cannot take, a target it cannot see, AP it will not have) is the user's
// mistake. Another faction's queued orders are secret until the round
// (issue 20): an order is checked against what its faction may see. The
// round checks it again when it is played: what other orders do first,
// and the dice, may still stop it then, with a line in its faction's
// report.
func (h *handlers) checkOrder(c *rules.Campaign, plan map[string][]rules.Order, faction string, o rules.Order) error {
	orders := map[string][]rules.Order{faction: append(slices.Clone(plan[faction]), o)}
	last := len(orders[faction]) - 1
	rep, err := rules.Preview(c, orders, h.Roller())
	if err != nil {
		return factionError(err)
	}
	for _, fr := range rep.Factions {
		if !strings.EqualFold(fr.Faction, faction) {
			continue
		}
		for _, sk := range fr.Skipped {
			if sk.Index != last {
				continue
			}
			// The user's mistake in the error, else (no error, or not the
			// user's) the reason the round gives.
			if ue, ok := kit.AsUserError(factionError(sk.Err)); ok {
				return ue
			}
			return kit.Errorf("%s", sk.Reason)
		}
	}
	return nil
}

// orders lists the queue: a player's own orders, or every one for
// the GM; it removes one order (remove:) or all of a faction's (clear:)
// first.
func (h *handlers) orders(ctx context.Context, req *kit.Request) (kit.Response, error) {
	fc, err := h.campaign(ctx, req)
	if err != nil {
		return kit.Response{}, err
	}
	c := fc.Campaign
	var f *rules.Faction // nil: the GM's view of every faction
	if name := req.Options.String("faction"); name != "" || !req.GM {
		if f, err = userFaction(c, req, name); err != nil {
			return kit.Response{}, err
		}
	}
	note, err := h.changeOrders(ctx, req, c, f)
	if err != nil {
		return kit.Response{}, err
	}
	factionName := ""
	if f != nil {
		factionName = f.Name
	}
	orders, err := h.factions.orders(ctx, req.GuildID, factionName, "")
	if err != nil {
		return kit.Response{}, err
	}
	return ordersReply(c, req, note, orders), nil
}

// mayChange reports whether the request may see and change the orders of
// the faction called name: the GM, and its player.
func mayChange(c *rules.Campaign, req *kit.Request, name string) bool {
	return viewer(req).SeesOrders(c, name)
}

// changeOrders removes what remove: and clear: ask, and says what it did.
func (h *handlers) changeOrders(ctx context.Context, req *kit.Request, c *rules.Campaign, f *rules.Faction) (string, error) {
	var note string
	if n, ok := req.Options.Int("remove"); ok {
		o, err := h.numberedOrder(ctx, req, c, f, n)
		if err != nil {
			return "", err
		}
		if _, err := h.factions.s.DeleteOrders(ctx, req.GuildID, o.Faction, o.ID); err != nil {
			return "", err
		}
		note = fmt.Sprintf("Removed order #%d.\n", n)
	}
	if req.Options.Bool("clear") {
		if f == nil {
			return "", kit.Errorf("clear: name the faction with faction:")
		}
		n, err := h.factions.s.DeleteOrders(ctx, req.GuildID, f.Name)
		if err != nil {
			return "", err
		}
		note += fmt.Sprintf("Removed %s of %s.\n", kit.Plural(n, "order"), kit.EscapeMarkdown(f.Name))
	}
	return note, nil
}

// numberedOrder finds the order numbered n that the request may change:
// of faction f, or, for the GM with no faction named (f nil), of the one
// faction that has an order #n. Numbers are each faction's own (issue 20),
// so two factions may each have an order #n: the GM then names one.
func (h *handlers) numberedOrder(ctx context.Context, req *kit.Request, c *rules.Campaign, f *rules.Faction, n int64) (Order, error) {
	factionName := ""
	if f != nil {
		factionName = f.Name
	}
	orders, err := h.factions.orders(ctx, req.GuildID, factionName, "")
	if err != nil {
		return Order{}, err
	}
	var found []Order
	var names []string
	for _, o := range orders {
		if o.Number == n && mayChange(c, req, o.Faction) {
			found = append(found, o)
			names = append(names, kit.EscapeMarkdown(o.Faction))
		}
	}
	switch len(found) {
	case 0:
		return Order{}, kit.Errorf("there is no order #%d of yours: /faction orders lists them", n)
	case 1:
		return found[0], nil
	}
	return Order{}, kit.Errorf("%s each have an order #%d: name the faction, e.g. faction:%q remove:%d", strings.Join(names, " and "), n, found[0].Faction, n)
}

// ordersReply lists the orders the request may see, after note, with the
// buttons of those held by a Question.
func ordersReply(c *rules.Campaign, req *kit.Request, note string, orders []Order) kit.Response {
	var b strings.Builder
	b.WriteString(note)
	out := []FactionOrderResult{}
	var held []Order
	for _, o := range orders {
		if !mayChange(c, req, o.Faction) {
			continue
		}
		out = append(out, orderResult(o, req.GM))
		fmt.Fprintf(&b, "`#%d` **%s** %d. `%s`", o.Number, kit.EscapeMarkdown(o.Faction), o.Seq, kit.CodeSafe(o.Order.String()))
		if o.Mode == db.OrderAct {
			b.WriteString(" (act now)")
		}
		b.WriteString("\n")
		if o.Question != nil {
			b.WriteString("   " + questionText(o, req.GM) + "\n")
			held = append(held, o)
		}
	}
	if len(out) == 0 {
		fmt.Fprintf(&b, "No orders queued for round %d. Queue one with /faction order action:invest stat:INF\n", c.Round)
	}
	return kit.Response{Content: b.String(), Ephemeral: true, Rows: questionRows(held, req.GM), Result: out}
}
