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
			return nil, kit.Errorf("params are written name=value, e.g. params:\"to=Luna via=4\"; %q is not", w)
		}
		out[k] = strings.TrimSpace(v)
	}
	return out, nil
}

// answerParams carry answers to Questions: the GM's, or another faction's
// consent. Players cannot give them by typing; they come with the buttons.
var answerParams = []string{"gm_produce", "gm_repair", "consent"}

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
	assetID := int64(0)
	if assetText != "" {
		n, err := strconv.ParseInt(assetText, 10, 64)
		if err != nil {
			return o, def, kit.Errorf("action:%s: the part after @ is an asset's number", req.Options.String("action"))
		}
		assetID = n
	}
	if n, ok := req.Options.Int("asset"); ok {
		assetID = n
	}
	if assetID != 0 {
		if def.Kind.Asset() {
			o.Asset = int(assetID)
		} else if _, has := params["target"]; !has && def.Kind == rules.KindFree {
			params["target"] = strconv.FormatInt(assetID, 10)
		} else {
			return o, def, kit.Errorf("%s is not an Asset Action: it takes no asset: (its parameters: %s)", def.Name, paramNames(def))
		}
	}
	if def.Kind.Asset() && o.Asset == 0 {
		return o, def, kit.Errorf("%s is an Asset Action: name the acting asset with asset:<#> (example: action:%s asset:3)", def.Name, def.Key)
	}
	if n, ok := req.Options.Int("target"); ok {
		params["target"] = strconv.FormatInt(n, 10)
	}
	for _, k := range []string{"habitat", "stat", "pay"} {
		if v := req.Options.String(k); v != "" {
			params[k] = v
		}
	}
	for k := range params {
		if !slices.ContainsFunc(def.Params, func(p rules.Param) bool { return p.Name == k }) {
			return o, def, kit.Errorf("%s takes no %s: (its parameters: %s)", def.Name, k, paramNames(def))
		}
		if slices.Contains(answerParams, k) && !req.GM {
			return o, def, kit.Errorf("%s: is an answer for the GM (or the faction asked) to give with the buttons, not yours to type", k)
		}
	}
	if len(params) > 0 {
		o.Params = params
	}
	return o, def, nil
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

// questionRows are the answer buttons of held orders: one row each, at
// most the rows a message may carry.
func questionRows(held []db.FactionOrder) []kit.Row {
	var rows []kit.Row
	for _, o := range held {
		if o.Question == nil || len(rows) == kit.MaxActionRows {
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
			row = append(row, kit.Button{Label: fmt.Sprintf("#%d %s", o.ID, opt), Style: style, CustomID: fmt.Sprintf("fans:%d:%d", o.ID, i)})
		}
		rows = append(rows, row)
	}
	return rows
}

func questionText(o db.FactionOrder) string {
	who := "the GM"
	if o.Question.Ask != "gm" {
		who = o.Question.Ask
	}
	return fmt.Sprintf("❓ order #%d of %s (`%s`) waits for %s: %s", o.ID, kit.EscapeMarkdown(o.Faction), kit.CodeSafe(o.Order.String()), kit.EscapeMarkdown(who), o.Question.Text)
}

// FactionOrderResult is the console's `result` of /faction order and
// /faction orders.
type FactionOrderResult struct {
	ID       int64           `json:"id"`
	Faction  string          `json:"faction"`
	Seq      int             `json:"seq"`
	Mode     string          `json:"mode"`
	Order    string          `json:"order"`
	Question *rules.Question `json:"question,omitempty"`
}

func orderResult(o db.FactionOrder) FactionOrderResult {
	return FactionOrderResult{ID: o.ID, Faction: o.Faction, Seq: o.Seq, Mode: o.Mode, Order: o.Order.String(), Question: o.Question}
}

func (h *handlers) factionOrder(ctx context.Context, req *kit.Request) (kit.Response, error) {
	o, def, err := buildOrder(req)
	if err != nil {
		return kit.Response{}, err
	}
	if def.Kind == rules.KindTriggered && def.Key != "convert-duplicate" || def.Key == "counter-attack" {
		return kit.Response{}, kit.Errorf("%s is triggered (%s), not ordered: it happens by itself", def.Name, def.Duration)
	}
	fc, err := h.campaign(ctx, req)
	if err != nil {
		return kit.Response{}, err
	}
	f, err := userFaction(fc.Campaign, req, req.Options.String("faction"))
	if err != nil {
		return kit.Response{}, err
	}
	stored, err := h.Factions.QueueOrder(ctx, req.GuildID, db.FactionOrder{Faction: f.Name, Order: o, CreatedBy: req.User.ID})
	if err != nil {
		return kit.Response{}, factionError(err)
	}
	return kit.Response{
		Content: fmt.Sprintf("Queued order #%d of **%s** for round %d: `%s` (%s). /faction orders shows the queue.",
			stored.ID, kit.EscapeMarkdown(f.Name), fc.Campaign.Round, kit.CodeSafe(o.String()), def.Cost),
		Ephemeral: true,
		Result:    orderResult(stored),
	}, nil
}

func (h *handlers) factionOrders(ctx context.Context, req *kit.Request) (kit.Response, error) {
	fc, err := h.campaign(ctx, req)
	if err != nil {
		return kit.Response{}, err
	}
	c := fc.Campaign
	name := req.Options.String("faction")
	var f *rules.Faction
	if name != "" || !req.GM {
		if f, err = userFaction(c, req, name); err != nil {
			return kit.Response{}, err
		}
	}
	mayChange := func(factionName string) bool {
		return req.GM || strings.EqualFold(ownerOf(c, factionName), req.User.ID) && ownerOf(c, factionName) != ""
	}
	var note string
	if id, ok := req.Options.Int("remove"); ok {
		o, err := h.Factions.FactionOrder(ctx, req.GuildID, id)
		if errors.Is(err, db.ErrNotFound) || err == nil && !mayChange(o.Faction) {
			return kit.Response{}, kit.Errorf("there is no order #%d of yours: /faction orders lists them", id)
		}
		if err != nil {
			return kit.Response{}, err
		}
		if _, err := h.Factions.DeleteOrders(ctx, req.GuildID, o.Faction, id); err != nil {
			return kit.Response{}, err
		}
		note = fmt.Sprintf("Removed order #%d.\n", id)
	}
	if req.Options.Bool("clear") {
		if f == nil {
			return kit.Response{}, kit.Errorf("clear: name the faction with faction:")
		}
		n, err := h.Factions.DeleteOrders(ctx, req.GuildID, f.Name)
		if err != nil {
			return kit.Response{}, err
		}
		note += fmt.Sprintf("Removed %d orders of %s.\n", n, kit.EscapeMarkdown(f.Name))
	}
	factionName := ""
	if f != nil {
		factionName = f.Name
	}
	orders, err := h.Factions.FactionOrders(ctx, req.GuildID, factionName, "")
	if err != nil {
		return kit.Response{}, err
	}
	var b strings.Builder
	b.WriteString(note)
	out := []FactionOrderResult{}
	var held []db.FactionOrder
	for _, o := range orders {
		if !req.GM && !mayChange(o.Faction) {
			continue
		}
		out = append(out, orderResult(o))
		fmt.Fprintf(&b, "`#%d` **%s** %d. `%s`", o.ID, kit.EscapeMarkdown(o.Faction), o.Seq, kit.CodeSafe(o.Order.String()))
		if o.Mode == db.OrderAct {
			b.WriteString(" (act now)")
		}
		b.WriteString("\n")
		if o.Question != nil {
			b.WriteString("   " + questionText(o) + "\n")
			held = append(held, o)
		}
	}
	if len(out) == 0 {
		fmt.Fprintf(&b, "No orders queued for round %d. Queue one with /faction order action:invest stat:INF\n", c.Round)
	}
	return kit.Response{Content: b.String(), Ephemeral: true, Rows: questionRows(held), Result: out}, nil
}
