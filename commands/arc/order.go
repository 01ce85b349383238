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

type arcOrderEntry struct {
	Name       string `json:"name"`
	SOM        int    `json:"som"`
	Empathy    int    `json:"empathy"`
	Perception int    `json:"perception"`
	TieRolls   []int  `json:"tie_rolls,omitempty"`
}

type arcOrderResult struct {
	kit.Outcome
	Order      []arcOrderEntry `json:"order"`
	Waiting    []arcOrderEntry `json:"waiting"`
	Unresolved bool            `json:"unresolved,omitempty"`
}

// arcStatAliases are the stats an entry of /arc order may give, with the
// sheet stat each one is.
var arcStatAliases = map[string]string{
	"som": "som", "empathy": "empathy", "emp": "empathy", "perception": "perception", "per": "perception",
}

// arcMaxParticipants bounds who: so one command stays one readable message
// and a handful of sheet look-ups.
const arcMaxParticipants = 30

// arcParticipants reads the who: list of /arc order: entries separated by
// commas or semicolons, each a name with optional stat=value words; stats
// not written come from the sheet of that name.
func (h *handlers) arcParticipants(ctx context.Context, req *kit.Request, text string) ([]rules.Participant, error) {
	const example = `who:"Mira, Goblin som=3 empathy=2 perception=4"`
	var out []rules.Participant
	for entry := range strings.FieldsFuncSeq(text, func(r rune) bool { return r == ',' || r == ';' || r == '\n' }) {
		var nameParts []string
		stats := map[string]int{}
		for _, w := range strings.Fields(entry) {
			k, v, ok := strings.Cut(w, "=")
			if !ok {
				nameParts = append(nameParts, w)
				continue
			}
			stat, known := arcStatAliases[strings.ToLower(k)]
			if !known {
				return nil, kit.Errorf("%q in who: is not som, empathy or perception (example: %s)", w, example)
			}
			n, err := strconv.Atoi(strings.TrimPrefix(v, "+"))
			if err != nil {
				return nil, kit.Errorf("%s needs a whole number, not %q (example: %s)", k, v, example)
			}
			stats[stat] = n
		}
		name, err := kit.CleanName("name", strings.Join(nameParts, " "))
		if err != nil {
			return nil, kit.Errorf("every entry of who: starts with a name; %q has none (example: %s)", strings.TrimSpace(entry), example)
		}
		if len(stats) < 3 {
			c, err := h.Characters.Character(ctx, req.GuildID, name)
			switch {
			case errors.Is(err, db.ErrNotFound):
				// Not a sheet: the missing stat is named below.
			case err != nil:
				return nil, fmt.Errorf("arc order: load %s: %w", name, err)
			case c.System != "arc":
				return nil, kit.Errorf("%s is a %s character; /arc order needs arc ones, or write the stats: %s som=5 empathy=3 perception=4", c.Name, c.System, name)
			default:
				name = c.Name
				for _, s := range []string{"som", "empathy", "perception"} {
					if _, given := stats[s]; !given {
						if v, ok := c.Stats[s]; ok {
							stats[s] = v
						}
					}
				}
			}
		}
		for _, s := range []string{"som", "empathy", "perception"} {
			if _, ok := stats[s]; !ok {
				return nil, kit.Errorf("%s needs %s: write it in who: as %s %s=5, or add it to a sheet named %s (example: %s)", name, s, name, s, name, example)
			}
		}
		out = append(out, rules.Participant{Name: name, SOM: stats["som"], Empathy: stats["empathy"], Perception: stats["perception"]})
		if len(out) > arcMaxParticipants {
			return nil, kit.Errorf("who: lists more than %d characters; order a turn's declarations in groups of at most %d", arcMaxParticipants, arcMaxParticipants)
		}
	}
	if len(out) == 0 {
		return nil, kit.Errorf("who: lists nobody (example: %s)", example)
	}
	return out, nil
}

func (h *handlers) arcOrder(ctx context.Context, req *kit.Request) (kit.Response, error) {
	const example = `/arc order who:"Mira, Goblin som=3 empathy=2 perception=4" surprised:Mira`
	ps, err := h.arcParticipants(ctx, req, req.Options.String("who"))
	if err != nil {
		return kit.Response{}, err
	}
	for name := range strings.FieldsFuncSeq(req.Options.String("surprised"), func(r rune) bool { return r == ',' || r == ';' }) {
		name = strings.TrimSpace(name)
		i := slices.IndexFunc(ps, func(p rules.Participant) bool { return strings.EqualFold(p.Name, name) })
		if i < 0 {
			return kit.Response{}, kit.Errorf("surprised: %q is not in who: (example: %s)", name, example)
		}
		ps[i].Unaware = true
	}
	t, err := h.Tray(req)
	if err != nil {
		return kit.Response{}, err
	}
	d := &arcDice{t: t}
	o, err := rules.DeclarationOrder(ps, d)
	if err != nil {
		return kit.Response{}, arcRulesError(err, d, example)
	}
	entry := func(p rules.Participant) arcOrderEntry {
		return arcOrderEntry{Name: p.Name, SOM: p.SOM, Empathy: p.Empathy, Perception: p.Perception, TieRolls: p.TieRolls}
	}
	result := arcOrderResult{Outcome: kit.Outcome{Total: len(o.Declare)}, Order: []arcOrderEntry{}, Waiting: []arcOrderEntry{}, Unresolved: o.Unresolved}
	var names []string
	for _, p := range o.Declare {
		result.Order = append(result.Order, entry(p))
		n := kit.EscapeMarkdown(p.Name)
		if len(p.TieRolls) > 0 {
			n += fmt.Sprintf(" (d10 %s)", strings.Trim(strings.Join(strings.Fields(fmt.Sprint(p.TieRolls)), ", "), "[]"))
		}
		names = append(names, n)
	}
	var waiting []string
	for _, p := range o.Waiting {
		result.Waiting = append(result.Waiting, entry(p))
		waiting = append(waiting, kit.EscapeMarkdown(p.Name))
	}
	if err := h.arcFinish(ctx, req, t, "arc order", &result.Outcome, &result, "a d10 for each character tied on SOM, Empathy and Perception, in the order of who:"); err != nil {
		return kit.Response{}, err
	}
	var b strings.Builder
	if len(names) == 0 {
		b.WriteString("Nobody declares this turn: everyone is surprised or unconscious\n")
	} else {
		fmt.Fprintf(&b, "Declaration order: %s\n", strings.Join(names, " → "))
	}
	b.WriteString("Ascending SOM, then Empathy, then Perception, then 1d10")
	if len(waiting) > 0 {
		fmt.Fprintf(&b, "\nSurprised or unconscious, act from the next turn: %s", strings.Join(waiting, ", "))
	}
	if o.Unresolved {
		b.WriteString("\nSome d10s tied round after round: those characters keep the order of who:")
	}
	if bd := t.Breakdown(); bd != "" {
		b.WriteString("\n" + bd)
	}
	b.WriteString("\n-# roll " + result.ID)
	return kit.Response{Content: b.String(), Result: result}, nil
}
