package arc

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/db"
	rules "github.com/tablehand/tablehand/rules/arc"
)

// orderEntry is one character of /arc order in the console's `result`.
type orderEntry struct {
	Name       string `json:"name"`
	SOM        int    `json:"som"`
	Empathy    int    `json:"empathy"`
	Perception int    `json:"perception"`
	TieRolls   []int  `json:"tie_rolls,omitempty"`
}

// orderResult is the console's `result` of /arc order.
type orderResult struct {
	kit.Outcome
	Order      []orderEntry `json:"order"`
	Waiting    []orderEntry `json:"waiting"`
	Unresolved bool         `json:"unresolved,omitempty"`
}

// statAliases are the stats an entry of /arc order may give, with the
// sheet stat each one is.
var statAliases = map[string]string{
	"som": "som", "empathy": "empathy", "emp": "empathy", "perception": "perception", "per": "perception",
}

// orderStats are the stats the declaration order compares, in turn.
var orderStats = []string{"som", "empathy", "perception"}

// maxParticipants bounds who: so one command stays one readable message
// and a handful of sheet look-ups.
const maxParticipants = 30

// whoExample is a correct who: for the mistakes in one.
const whoExample = `who:"Mira, Goblin som=3 empathy=2 perception=4"`

// order answers /arc order: who declares in what order this turn.
func (h *handlers) order(ctx context.Context, req *kit.Request) (kit.Response, error) {
	const example = `/arc order who:"Mira, Goblin som=3 empathy=2 perception=4" surprised:Mira`
	c, _, err := pipeline.Open(ctx, h.Env, req)
	if err != nil {
		return kit.Response{}, err
	}
	ps, err := h.participants(ctx, req, req.Options.String("who"))
	c.Fail(err)
	surprise(c, ps, example)
	o, err := kit.Rule(c, example, func() (rules.Order, error) { return rules.DeclarationOrder(ps, c.Tray.Dice()) })
	if err != nil {
		return kit.Response{}, err
	}
	result := newOrderResult(o)
	if err := c.Finish(ctx, "arc order", &result.Outcome, &result, "a d10 for each character tied on SOM, Empathy and Perception, in the order of who:"); err != nil {
		return kit.Response{}, err
	}
	return c.Reply(result.ID, result, orderLines(o)...), nil
}

// participants reads the who: list of /arc order: entries separated by
// commas or semicolons, each a name with optional stat=value words; stats
// not written come from the sheet of that name.
func (h *handlers) participants(ctx context.Context, req *kit.Request, text string) ([]rules.Participant, error) {
	var out []rules.Participant
	for entry := range strings.FieldsFuncSeq(text, func(r rune) bool { return r == ',' || r == ';' || r == '\n' }) {
		p, err := h.participant(ctx, req, entry)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
		if len(out) > maxParticipants {
			return nil, kit.Errorf("who: lists more than %d characters; order a turn's declarations in groups of at most %d", maxParticipants, maxParticipants)
		}
	}
	if len(out) == 0 {
		return nil, kit.Errorf("who: lists nobody (example: %s)", whoExample)
	}
	return out, nil
}

// participant reads one entry of who: its name and stats, the stats it
// does not write taken from the sheet of that name.
func (h *handlers) participant(ctx context.Context, req *kit.Request, entry string) (rules.Participant, error) {
	name, stats, err := parseEntry(entry)
	if err != nil {
		return rules.Participant{}, err
	}
	if len(stats) < len(orderStats) {
		if name, err = h.sheetStats(ctx, req, name, stats); err != nil {
			return rules.Participant{}, err
		}
	}
	for _, s := range orderStats {
		if _, ok := stats[s]; !ok {
			return rules.Participant{}, kit.Errorf("%s needs %s: write it in who: as %s %s=5, or add it to a sheet named %s (example: %s)", name, s, name, s, name, whoExample)
		}
	}
	return rules.Participant{Name: name, SOM: stats["som"], Empathy: stats["empathy"], Perception: stats["perception"]}, nil
}

// parseEntry splits an entry of who: into the name and the stats it
// writes as stat=value.
func parseEntry(entry string) (name string, stats map[string]int, err error) {
	var nameParts []string
	stats = map[string]int{}
	for _, w := range strings.Fields(entry) {
		k, v, ok := strings.Cut(w, "=")
		if !ok {
			nameParts = append(nameParts, w)
			continue
		}
		stat, known := statAliases[strings.ToLower(k)]
		if !known {
			return "", nil, kit.Errorf("%q in who: is not som, empathy or perception (example: %s)", w, whoExample)
		}
		n, err := strconv.Atoi(strings.TrimPrefix(v, "+"))
		if err != nil {
			return "", nil, kit.Errorf("%s needs a whole number, not %q (example: %s)", k, v, whoExample)
		}
		stats[stat] = n
	}
	if name, err = kit.CleanName("name", strings.Join(nameParts, " ")); err != nil {
		return "", nil, kit.Errorf("every entry of who: starts with a name; %q has none (example: %s)", strings.TrimSpace(entry), whoExample)
	}
	return name, stats, nil
}

// sheetStats fills in the stats an entry of who: did not write from the
// arc sheet called name, if there is one, and returns the name as the
// sheet spells it.
func (h *handlers) sheetStats(ctx context.Context, req *kit.Request, name string, stats map[string]int) (string, error) {
	c, err := h.ReadCharacter(ctx, req, name)
	switch {
	case errors.Is(err, db.ErrNotFound):
		return name, nil // Not a sheet: participant names the missing stat.
	case err != nil:
		return "", fmt.Errorf("arc order: load %s: %w", name, err)
	case c.System != rules.SystemName:
		return "", kit.Errorf("%s is a %s character; /arc order needs arc ones, or write the stats: %s som=5 empathy=3 perception=4", c.Name, c.System, name)
	}
	for _, s := range orderStats {
		if _, given := stats[s]; !given {
			if v, ok := c.Stats[s]; ok {
				stats[s] = v
			}
		}
	}
	return c.Name, nil
}

// surprise marks the participants surprised: names: they skip this turn.
func surprise(c *kit.Call, ps []rules.Participant, example string) {
	for name := range strings.FieldsFuncSeq(c.Req.Options.String("surprised"), func(r rune) bool { return r == ',' || r == ';' }) {
		name = strings.TrimSpace(name)
		i := slices.IndexFunc(ps, func(p rules.Participant) bool { return strings.EqualFold(p.Name, name) })
		if i < 0 {
			c.Failf("surprised: %q is not in who: (example: %s)", name, example)
			return
		}
		ps[i].Unaware = true
	}
}

// newOrderResult is the `result` of the order o.
func newOrderResult(o rules.Order) orderResult {
	entry := func(p rules.Participant) orderEntry {
		return orderEntry{Name: p.Name, SOM: p.SOM, Empathy: p.Empathy, Perception: p.Perception, TieRolls: p.TieRolls}
	}
	result := orderResult{Outcome: kit.Outcome{Total: len(o.Declare)}, Order: []orderEntry{}, Waiting: []orderEntry{}, Unresolved: o.Unresolved}
	for _, p := range o.Declare {
		result.Order = append(result.Order, entry(p))
	}
	for _, p := range o.Waiting {
		result.Waiting = append(result.Waiting, entry(p))
	}
	return result
}

// orderLines say the order o: who declares in turn, with their tie-break
// dice, the rule, who waits, and whether ties stayed unresolved.
func orderLines(o rules.Order) []string {
	var names, waiting []string
	for _, p := range o.Declare {
		n := kit.EscapeMarkdown(p.Name)
		if len(p.TieRolls) > 0 {
			n += fmt.Sprintf(" (d10 %s)", strings.Trim(strings.Join(strings.Fields(fmt.Sprint(p.TieRolls)), ", "), "[]"))
		}
		names = append(names, n)
	}
	for _, p := range o.Waiting {
		waiting = append(waiting, kit.EscapeMarkdown(p.Name))
	}
	head := "Nobody declares this turn: everyone is surprised or unconscious"
	if len(names) > 0 {
		head = "Declaration order: " + strings.Join(names, " → ")
	}
	var wait, unresolved string
	if len(waiting) > 0 {
		wait = "Surprised or unconscious, act from the next turn: " + strings.Join(waiting, ", ")
	}
	if o.Unresolved {
		unresolved = "Some d10s tied round after round: those characters keep the order of who:"
	}
	return []string{head, "Ascending SOM, then Empathy, then Perception, then 1d10", wait, unresolved}
}
