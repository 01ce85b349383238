package tracker

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/db"
	"github.com/tablehand/tablehand/rules/encounter"
)

// reply answers a change. The message in the channel shows what the
// players may read; a change only the GM may know of (one on a hidden
// combatant) goes to the GM alone. With tracker, the message carries the
// tracker and its buttons, and pings the player whose turn began.
func (h *Tracker) reply(req *kit.Request, enc db.Encounter, ev encounter.Event, tracker, moved bool) kit.Response {
	e := enc.State
	public := ev.Text(false)
	resp := kit.Response{Result: h.InitResult(e, req.GM)}
	if public == "" {
		resp.Content = kit.EscapeInline(ev.Text(true))
		resp.Ephemeral = true
		if tracker {
			resp.Embeds = []kit.Embed{h.trackerEmbed(e, true)}
		}
		return resp
	}
	resp.Content = kit.EscapeInline(public)
	resp.Followups = append(resp.Followups, GMSecrets(req, ev)...)
	h.ShowTracker(req, enc, &resp, tracker)
	if !tracker {
		return resp
	}
	if c := e.Current(); moved && c != nil && !c.Hidden && c.Owner != "" {
		ping := "<@" + c.Owner + "> it is your turn: " + kit.EscapeInline(c.Name) + "."
		if req.Kind == kit.KindComponent {
			// An edited message notifies nobody: ping in a message of its own.
			resp.Followups = append(resp.Followups, kit.Response{Type: kit.Message, Content: ping, MentionUsers: []string{c.Owner}})
		} else {
			resp.Content = "<@" + c.Owner + "> " + resp.Content
			resp.MentionUsers = []string{c.Owner}
		}
	}
	return resp
}

// gmSecrets tells the GM alone what a public change of the GM's also did
// that only the GM may know (a hidden combatant's initiative roll, say):
// a private follow-up, or none.
func GMSecrets(req *kit.Request, ev encounter.Event) []kit.Response {
	secret := ev.SecretText()
	if !req.GM || secret == "" {
		return nil
	}
	return []kit.Response{{Type: kit.Message, Ephemeral: true, Content: "Only you see this: " + kit.EscapeInline(secret)}}
}

// showTracker brings the players' tracker up to date with resp: a click's
// answer edits the message clicked (the tracker); otherwise the
// encounter's one tracker message is edited and the answer carries the
// news alone. With post, a fight without a tracker message gets one: the
// answer carries it, and becomes it.
func (h *Tracker) ShowTracker(req *kit.Request, enc db.Encounter, resp *kit.Response, post bool) {
	embed, rows := h.trackerEmbed(enc.State, false), trackerButtons(enc)
	switch {
	case req.Kind == kit.KindComponent:
		resp.Embeds, resp.Rows = []kit.Embed{embed}, rows
	case enc.TrackerMessage != "":
		resp.Edit = &kit.MessageEdit{ChannelID: enc.ChannelID, MessageID: enc.TrackerMessage, Embeds: []kit.Embed{embed}, Rows: rows}
	case post:
		resp.Embeds, resp.Rows = []kit.Embed{embed}, rows
		id := enc.ID
		resp.Posted = func(ctx context.Context, messageID string) error {
			return h.Encounters.SetTrackerMessage(ctx, id, messageID)
		}
	}
}

// trackerButtons are Next turn (the GM) and End turn (the player whose
// turn it is), for the turn under way. Their custom IDs name the
// encounter and the turn, so a click on a tracker the fight has moved on
// from is refused instead of ending the wrong turn.
func trackerButtons(enc db.Encounter) []kit.Row {
	c := enc.State.Current()
	if c == nil {
		return nil
	}
	turn := fmt.Sprintf("%d:%d.%d", enc.ID, enc.State.Round, c.ID)
	return []kit.Row{{
		{Label: "Next turn", Style: kit.Primary, CustomID: "init:next:" + turn},
		{Label: "End turn", Style: kit.Secondary, CustomID: "init:endturn:" + turn},
	}}
}

// trackerEmbed shows the encounter: round and turn in the title, the
// order with the current combatant marked, tracks and conditions, and the
// current combatant's budget in the footer.
func (h *Tracker) trackerEmbed(e *encounter.Encounter, forGM bool) kit.Embed {
	v := e.View(forGM)
	em := kit.Embed{Color: 0x5865F2}
	switch {
	case v.Ended:
		em.Title = fmt.Sprintf("The fight is over (round %d)", v.Round)
	case v.Turn == nil:
		em.Title = "Encounter: not begun"
	case *v.Turn == encounter.HiddenTurn:
		em.Title = fmt.Sprintf("Round %d: a hidden combatant's turn", v.Round)
	default:
		em.Title = fmt.Sprintf("Round %d: %s's turn", v.Round, *v.Turn)
	}
	var describer encounter.Policy
	if p, err := h.Policies.For(e.System); err == nil {
		describer = p
	}
	var b strings.Builder
	for _, c := range v.Combatants {
		mark := "◦"
		if v.Turn != nil && *v.Turn == c.Name {
			mark = "▶"
		}
		name := "**" + kit.EscapeMarkdown(c.Name) + "**"
		if c.Defeated {
			name = "~~" + kit.EscapeMarkdown(c.Name) + "~~"
		}
		parts := []string{mark + " " + name}
		if c.Hidden != nil && *c.Hidden {
			parts = append(parts, "(hidden)")
		}
		if d, ok := describer.(encounter.Describer); ok {
			for _, s := range d.Describe(c) {
				parts = append(parts, kit.EscapeMarkdown(s))
			}
		} else {
			for _, k := range slices.Sorted(maps.Keys(c.Resources)) {
				s := fmt.Sprintf("%s %d", k, c.Resources[k])
				if m, ok := c.Max[k]; ok {
					s += fmt.Sprintf("/%d", m)
				}
				parts = append(parts, s)
			}
		}
		switch {
		case c.Defeated:
			parts = append(parts, "defeated")
		case c.Delayed:
			parts = append(parts, "delaying")
		case c.Skipping:
			parts = append(parts, "skips its next turn")
		}
		for _, cd := range c.Conditions {
			s := kit.EscapeMarkdown(cd.Name)
			if cd.RoundsLeft != nil {
				s += fmt.Sprintf(" (%s: %s)", countOf(*cd.RoundsLeft, "round"), cd.Ends)
			} else {
				s += " (until removed)"
			}
			parts = append(parts, s)
		}
		b.WriteString(strings.Join(parts, " · ") + "\n")
	}
	if b.Len() == 0 {
		b.WriteString("No one yet: /init add (GM) or /init join.")
	}
	em.Description = strings.TrimSuffix(b.String(), "\n")
	if c := e.Current(); c != nil && (forGM || !c.Hidden) {
		if p, err := h.Policies.For(e.System); err == nil {
			if budget := p.Budget(e.Clone(), c); budget != "" {
				em.Footer = c.Name + ": " + budget
			}
		}
	}
	if em.Footer == "" {
		em.Footer = "System: " + e.System
	}
	return em
}

func countOf(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

func (h *Tracker) initList(ctx context.Context, req *kit.Request) (kit.Response, error) {
	enc, err := h.Encounters.Encounter(ctx, req.ChannelID)
	if err != nil {
		return kit.Response{}, initError(err)
	}
	if req.Options.Bool("post") {
		return kit.Response{
			Embeds: []kit.Embed{h.trackerEmbed(enc.State, false)},
			Rows:   trackerButtons(enc),
			Result: h.InitResult(enc.State, req.GM),
		}, nil
	}
	return kit.Response{
		Embeds:    []kit.Embed{h.trackerEmbed(enc.State, req.GM)},
		Ephemeral: true,
		Result:    h.InitResult(enc.State, req.GM),
	}, nil
}
