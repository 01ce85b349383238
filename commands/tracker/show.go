package tracker

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/db"
	"github.com/tablehand/tablehand/rules/encounter"
)

// reply answers a change. The message in the channel shows what the
// players may read; a change only the GM may know of (one on a hidden
// combatant) goes to the GM alone. With tracker, the message carries the
// tracker and its buttons, and pings the player whose turn began.
func (h *Tracker) reply(req *kit.Request, enc db.Encounter, ev encounter.Event, tracker, moved bool) kit.Response {
	// The rolls' dice keep /roll's markup: only the rest is escaped.
	public := ev.Format(false, kit.EscapeInline)
	resp := h.answerEscaped(req, enc, public, ev.Format(true, kit.EscapeInline), tracker, tracker)
	if public == "" {
		return resp
	}
	resp.Followups = GMSecrets(req, ev)
	// A turn the players saw begin already (a hidden one's turn began it
	// for them: encounter.PlayersTurn) pings nobody again.
	if tracker && moved && (!ev.Secret || ev.Public != "") {
		ping(req, enc.State, &resp)
	}
	return resp
}

// answer is the reply to a change, which the players read as public and
// the GM alone as private when public is "" (it names no one they may
// see): then the GM's view of the tracker comes with it when gmTracker.
// A public answer brings the players' tracker up to date (ShowTracker,
// posting it when post).
func (h *Tracker) answer(req *kit.Request, enc db.Encounter, public, private string, gmTracker, post bool) kit.Response {
	return h.answerEscaped(req, enc, kit.EscapeInline(public), kit.EscapeInline(private), gmTracker, post)
}

// answerEscaped is answer with public and private already escaped.
func (h *Tracker) answerEscaped(req *kit.Request, enc db.Encounter, public, private string, gmTracker, post bool) kit.Response {
	resp := kit.Response{Result: h.InitResult(enc.State, req.GM)}
	if public == "" {
		resp.Content = private
		resp.Ephemeral = true
		if gmTracker {
			resp.Embeds = []kit.Embed{h.trackerEmbed(enc.State, true)}
		}
		return resp
	}
	resp.Content = public
	h.ShowTracker(req, enc, &resp, post)
	return resp
}

// ping tells the player of the combatant whose turn began that it is
// theirs, unless the players cannot see it or it is an NPC.
func ping(req *kit.Request, e *encounter.Encounter, resp *kit.Response) {
	c, _ := e.PlayersTurn()
	if c == nil || c.Hidden || c.Owner == "" {
		return
	}
	ping := "<@" + c.Owner + "> it is your turn: " + kit.EscapeInline(c.Name) + "."
	if req.Kind == kit.KindComponent {
		// An edited message notifies nobody: ping in a message of its own.
		resp.Followups = append(resp.Followups, kit.Response{Type: kit.Message, Content: ping, MentionUsers: []string{c.Owner}})
	} else {
		resp.Content = "<@" + c.Owner + "> " + resp.Content
		resp.MentionUsers = []string{c.Owner}
	}
}

// GMSecrets tells the GM alone what a public change of the GM's also did
// that only the GM may know (a hidden combatant's initiative roll, say):
// a private follow-up, or none (for a player, or an event with no secret
// part). A system sets its reply's Followups to it after a change whose
// event the players may read (ev.Text(false) is not "").
func GMSecrets(req *kit.Request, ev encounter.Event) []kit.Response {
	secret := ev.SecretFormat(kit.EscapeInline)
	if !req.GM || secret == "" {
		return nil
	}
	return []kit.Response{{Type: kit.Message, Ephemeral: true, Content: "Only you see this: " + secret}}
}

// ShowTracker brings the players' tracker up to date with resp, the
// answer to a change of enc (as Change returned it) that the players may
// read. A click's answer edits the message clicked (the tracker);
// otherwise the encounter's one tracker message is edited and the answer
// carries the news alone. With post, a fight without a tracker message
// gets one: the answer carries it, and becomes it. A system that changes
// the fight calls it with post false: it edits the tracker if there is
// one, and posts none.
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
// from is refused instead of ending the wrong turn (see parseButton).
func trackerButtons(enc db.Encounter) []kit.Row {
	turn := buttonTurn(enc)
	if turn == "" {
		return nil
	}
	return []kit.Row{{
		{Label: "Next turn", Style: kit.Primary, CustomID: "init:next:" + turn},
		{Label: "End turn", Style: kit.Secondary, CustomID: "init:endturn:" + turn},
	}}
}

// buttonTurn is the turn under way as a button names it, "12:3.4":
// encounter 12, round 3, the players' fourth combatant (shownTurn); ""
// when there is none.
func buttonTurn(enc db.Encounter) string {
	round, n := shownTurn(enc.State)
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("%d:%d.%d", enc.ID, round, n)
}

// shownTurn is the turn the players see (encounter.PlayersTurn) as the
// buttons name it: its round, and its combatant's number among those the
// players see, by ID, so that a hidden combatant is counted by no button;
// 0 when there is none.
func shownTurn(e *encounter.Encounter) (round, n int) {
	c, round := e.PlayersTurn()
	if c == nil {
		return 0, 0
	}
	for i := range e.Combatants {
		if x := &e.Combatants[i]; !x.Hidden && x.ID <= c.ID {
			n++
		}
	}
	for _, x := range e.Removed {
		if !x.Hidden && x.ID <= c.ID {
			n++
		}
	}
	return round, n
}

// trackerEmbed shows the encounter: round and turn in the title, the
// order with the current combatant marked, tracks and conditions, and the
// current combatant's budget in the footer.
func (h *Tracker) trackerEmbed(e *encounter.Encounter, forGM bool) kit.Embed {
	v := h.view(e, forGM)
	// A system's policy may say how its tracks read; else each is "hp 7/10".
	var describe encounter.Describer
	if p, err := h.Policies.For(e.System); err == nil {
		describe, _ = p.(encounter.Describer)
	}
	em := kit.Embed{Color: 0x5865F2, Title: trackerTitle(v), Footer: "System: " + e.System}
	em.Description = fitLines(v, describe)
	if len(v.Combatants) == 0 {
		em.Description = "No one yet: /init add (GM) or /init join."
	}
	if c, budget := h.budget(e, forGM); budget != "" {
		em.Footer = c.Name + ": " + budget
	}
	return em
}

// trackerTitle is the tracker's title: the round and whose turn it is.
func trackerTitle(v encounter.View) string {
	switch {
	case v.Ended:
		return fmt.Sprintf("The fight is over (round %d)", v.Round)
	case v.Turn == nil:
		return "Encounter: not begun"
	case *v.Turn == encounter.HiddenTurn:
		return fmt.Sprintf("Round %d: a hidden combatant's turn", v.Round)
	}
	return fmt.Sprintf("Round %d: %s's turn", v.Round, *v.Turn)
}

// Detail is how much of a combatant a tracker line shows: a large fight
// is shown with less of each, so that every combatant is on it.
type detail int

const (
	full       detail = iota // conditions with when they end
	brief                    // conditions by name
	namesAlone               // name, tracks and state
)

// fitLines is the tracker's list of combatants within an embed's
// description: every line in full if they fit, else with less detail;
// when even the shortest lines do not fit, as many as do, the current
// combatant's among them, and how many more there are.
func fitLines(v encounter.View, describe encounter.Describer) string {
	var lines []string
	for _, d := range []detail{full, brief, namesAlone} {
		lines = lines[:0]
		for _, c := range v.Combatants {
			lines = append(lines, combatantLine(v, c, describe, d))
		}
		if text := strings.Join(lines, "\n"); utf8.RuneCountInString(text) <= kit.MaxEmbedDesc {
			return text
		}
	}
	// Keep the current turn's line, and as many others as fit in order.
	cur := -1
	for i, c := range v.Combatants {
		if v.Turn != nil && *v.Turn == c.Name {
			cur = i
		}
	}
	budget := kit.MaxEmbedDesc - 80 // the closing line
	if cur >= 0 {
		budget -= utf8.RuneCountInString(lines[cur]) + 1
	}
	var out []string
	left := 0
	for i, l := range lines {
		n := utf8.RuneCountInString(l) + 1
		switch {
		case i == cur:
			out = append(out, l)
		case n <= budget:
			out = append(out, l)
			budget -= n
		default:
			left++
		}
	}
	out = append(out, fmt.Sprintf("… and %d more combatants: the result of /init list names them all", left))
	return strings.Join(out, "\n")
}

// combatantLine is c's line in the tracker: marked when its turn, then
// its tracks (as describe says, when the policy describes them), its
// state and its conditions, with the detail d.
func combatantLine(v encounter.View, c encounter.CombatantView, describe encounter.Describer, d detail) string {
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
	switch {
	case c.HealthShown != "" && c.Hidden == nil:
		// The players' view: the word, or nothing, for the numbers.
		if c.HealthWord != "" {
			parts = append(parts, c.HealthWord)
		}
	case describe != nil:
		for _, s := range describe.Describe(c) {
			parts = append(parts, kit.EscapeMarkdown(s))
		}
	default:
		parts = append(parts, tracks(c)...)
	}
	if c.HealthShown != "" && c.Hidden != nil {
		// The GM's: what the players see of it.
		parts = append(parts, "players see: "+playersSee(c))
	}
	switch {
	case c.Defeated:
		parts = append(parts, "defeated")
	case c.Delayed:
		parts = append(parts, "delaying")
	case c.Skipping:
		parts = append(parts, "skips its next turn")
	}
	switch {
	case d == full:
		for _, cd := range c.Conditions {
			parts = append(parts, conditionText(cd))
		}
	case d == brief && len(c.Conditions) > 0:
		var names []string
		for _, cd := range c.Conditions {
			names = append(names, kit.EscapeMarkdown(cd.Name))
		}
		parts = append(parts, strings.Join(names, ", "))
	}
	return strings.Join(parts, " · ")
}

// playersSee is what the players see of c's health, when not its
// numbers: its word, or "nothing".
func playersSee(c encounter.CombatantView) string {
	if c.HealthWord != "" {
		return c.HealthWord
	}
	return "nothing"
}

// tracks are c's damage tracks by name: "hp 7/10", or "hp 7" with no
// maximum.
func tracks(c encounter.CombatantView) []string {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(c.Resources)) {
		s := fmt.Sprintf("%s %d", k, c.Resources[k])
		if m, ok := c.Max[k]; ok {
			s += fmt.Sprintf("/%d", m)
		}
		out = append(out, s)
	}
	return out
}

// conditionText is a condition in the tracker: "stunned (2 rounds: ends
// at the start of Goblin 2's turn, round 4)".
func conditionText(cd encounter.ConditionView) string {
	s := kit.EscapeMarkdown(cd.Name)
	if cd.RoundsLeft == nil {
		return s + " (until removed)"
	}
	return s + fmt.Sprintf(" (%s: %s)", kit.Plural(*cd.RoundsLeft, "round"), cd.Ends)
}

// initList shows the tracker: to the asker alone, as the asker may see
// it, or with post posted in the channel with its buttons, as the players
// see it.
func (h *Tracker) initList(ctx context.Context, req *kit.Request) (kit.Response, error) {
	enc, err := h.Encounters.Encounter(ctx, req.ChannelID)
	if err != nil {
		return kit.Response{}, initError(err)
	}
	resp := kit.Response{Result: h.InitResult(enc.State, req.GM)}
	if req.Options.Bool("post") {
		resp.Embeds, resp.Rows = []kit.Embed{h.trackerEmbed(enc.State, false)}, trackerButtons(enc)
		return resp, nil
	}
	resp.Embeds, resp.Ephemeral = []kit.Embed{h.trackerEmbed(enc.State, req.GM)}, true
	return resp, nil
}
