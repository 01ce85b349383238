package tracker

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/db"
	"github.com/tablehand/tablehand/rules/dice"
	"github.com/tablehand/tablehand/rules/encounter"
)

// /init is the initiative tracker: one fight per channel, kept by
// rules/encounter and stored by EncounterStore, each command one
// transaction. The rule system's encounter.Policy decides the order, the
// turn budget, the end of a round and the damage track.
//
// Who may do what: the GM runs the fight (start, add, begin, prev, skip,
// move, remove, reveal, defeat, end, undo, redo; the router refuses the
// others). Players join with their characters, end their own turn (next,
// delay, the End turn button), and apply damage, healing, conditions and
// counts to the combatants they can see. A hidden combatant does not
// exist for a player: naming it is "no such combatant".
//
// Every /init answer's Result is an InitResult: the encounter.View as the
// asker may see it (the GM's view for a GM), with the system and the
// current combatant's budget. Messages in the channel always show the
// players' view; what only the GM may read (a hidden combatant's numbers)
// goes to the GM alone, in an ephemeral reply.

// genericStats are the stat options of /init add that every fight takes:
// the generic system's initiative bonus and hit points, and initiative as
// rolled at the table. Each system that fights adds its own (kit.System's
// Stats), named as its seed names them. Values given as options or read
// from a sheet land in the combatant's Stats, except the damage tracks
// (genericResources and each system's Resources), which are Resources
// with their maximum.
var (
	genericStats = []kit.Stat{
		kit.IntStat("init", "Generic: bonus to the 1d20 of initiative"),
		kit.IntStat("initiative", "Initiative as rolled at the table: no die is rolled"),
		kit.IntStat("hp", "Hit points (generic, ulm)"),
	}
	genericResources = []string{"hp"}
)

func initNameOption(name, desc string, required bool) kit.Option {
	return kit.Option{Type: kit.String, Name: name, Description: desc, Required: required, Autocomplete: true, MaxLength: kit.MaxNameLen}
}

var (
	initTarget = initNameOption("target", "The combatant", true)
	initName   = initNameOption("name", "The combatant", true)
	initAmount = kit.Option{Type: kit.Integer, Name: "amount", Description: "How much", Required: true, MinValue: kit.Float(0), MaxValue: kit.Float(encounter.MaxAmount)}
)

// fightSystems are the systems an encounter can run under: generic and
// every system with turns (faction is a strategic game, not a fight).
func (h *Tracker) fightSystems() []string {
	out := []string{encounter.GenericName}
	for _, s := range h.Systems {
		if s.Fights() {
			out = append(out, s.Name)
		}
	}
	return out
}

// stats are the stat options of /init add: the generic ones, then each
// fighting system's.
func (h *Tracker) stats() []kit.Stat {
	out := slices.Clone(genericStats)
	for _, s := range h.Systems {
		if s.Fights() {
			out = append(out, s.Stats...)
		}
	}
	return out
}

// resources are the names of every damage track.
func (h *Tracker) resources() []string {
	out := slices.Clone(genericResources)
	for _, s := range h.Systems {
		out = append(out, s.Resources...)
	}
	return out
}

// exampleSystem is the system an example names when the fight's is not
// known: the first that fights.
func (h *Tracker) exampleSystem() string {
	if s := h.fightSystems(); len(s) > 1 {
		return s[1]
	}
	return encounter.GenericName
}

// command is /init, with the systems' choices and stat options.
func (h *Tracker) command() kit.Command {
	var statOptions []kit.Option
	for _, s := range h.stats() {
		statOptions = append(statOptions, s.Option)
	}
	var systems []kit.Choice
	for _, s := range h.fightSystems() {
		systems = append(systems, kit.Choice{Name: s, Value: s})
	}
	return kit.Command{
		Name:        "init",
		Description: "Initiative tracker: a fight in this channel, turn by turn",
		Options: []kit.Option{
			{Type: kit.SubCommand, Name: "start", Description: "Start an encounter in this channel (GM)", Options: []kit.Option{
				{Type: kit.String, Name: "system", Description: "Rule system (default: this channel's, see /system)", Choices: systems},
			}},
			{Type: kit.SubCommand, Name: "add", Description: "Add a combatant (GM); more stats as stats:\"som=3 empathy=2\"", Options: append([]kit.Option{
				{Type: kit.String, Name: "name", Description: "Its name (default: the character's)", MaxLength: kit.MaxNameLen},
				{Type: kit.String, Name: "character", Description: "Read its stats from this character's sheet", Autocomplete: true, MaxLength: kit.MaxNameLen},
				{Type: kit.UserOption, Name: "owner", Description: "The player who controls it (default: an NPC of the GM)"},
				{Type: kit.Boolean, Name: "hidden", Description: "Hidden from the players until revealed"},
				{Type: kit.Boolean, Name: "reveal_on_turn", Description: "Hidden until its first turn starts"},
				{Type: kit.String, Name: "stats", Description: "Other stats as name=value, e.g. \"som=3 empathy=2\"", MaxLength: 1000},
				{Type: kit.String, Name: "resources", Description: "Other tracks as name=value, e.g. \"vigor=3\" (max_vigor=5 for a maximum)", MaxLength: 1000},
				kit.DiceOption,
			}, statOptions...)},
			{Type: kit.SubCommand, Name: "join", Description: "Join the fight with your character", Options: []kit.Option{
				{Type: kit.String, Name: "character", Description: "Your character (default: your only one of this system)", Autocomplete: true, MaxLength: kit.MaxNameLen},
				kit.IntStat("initiative", "Initiative as rolled at the table: no die is rolled").Option,
				kit.DiceOption,
			}},
			{Type: kit.SubCommand, Name: "begin", Description: "Roll or order initiative and start round 1 (GM)", Options: []kit.Option{kit.DiceOption}},
			{Type: kit.SubCommand, Name: "next", Description: "End the current turn and start the next (GM or the turn's player)"},
			{Type: kit.SubCommand, Name: "prev", Description: "Move the turn back one (GM); it undoes nothing"},
			{Type: kit.SubCommand, Name: "skip", Description: "Skip someone's next turn, or the rest of this one (GM)", Options: []kit.Option{
				initNameOption("name", "The combatant (default: whose turn it is)", false),
			}},
			{Type: kit.SubCommand, Name: "move", Description: "Move a combatant to a place in the order (GM)", Options: []kit.Option{
				initName,
				{Type: kit.Integer, Name: "position", Description: "1 for first", Required: true, MinValue: kit.Float(1), MaxValue: kit.Float(encounter.MaxCombatants)},
			}},
			{Type: kit.SubCommand, Name: "delay", Description: "Put off your turn until after someone, or to the end of the round", Options: []kit.Option{
				initNameOption("after", "Act after this combatant (default: last this round)", false),
			}},
			{Type: kit.SubCommand, Name: "remove", Description: "Take a combatant out of the fight (GM)", Options: []kit.Option{initName}},
			{Type: kit.SubCommand, Name: "list", Description: "Show the tracker", Options: []kit.Option{
				{Type: kit.Boolean, Name: "post", Description: "Post it in the channel, with its buttons, instead of to you alone"},
			}},
			{Type: kit.SubCommand, Name: "end", Description: "End the fight, with a summary (GM)"},
			{Type: kit.SubCommand, Name: "damage", Description: "Damage a combatant", Options: []kit.Option{
				initTarget, initAmount,
				{Type: kit.String, Name: "type", Description: "Damage type, e.g. fire", MaxLength: encounter.MaxKeyLen},
			}},
			{Type: kit.SubCommand, Name: "heal", Description: "Heal a combatant", Options: []kit.Option{initTarget, initAmount}},
			{Type: kit.SubCommand, Name: "effect", Description: "Put a condition on a combatant for some rounds", Options: []kit.Option{
				initTarget,
				{Type: kit.String, Name: "effect", Description: "The condition, e.g. stunned", Required: true, MaxLength: encounter.MaxNameLen},
				{Type: kit.Integer, Name: "rounds", Description: "How many rounds (0: until removed)", Required: true, MinValue: kit.Float(0), MaxValue: kit.Float(encounter.MaxRounds)},
				{Type: kit.String, Name: "ends", Description: "At the start or the end of the turn that times it", Choices: []kit.Choice{{Name: "start", Value: "start"}, {Name: "end", Value: "end"}}},
				{Type: kit.String, Name: "relative", Description: "Timed on the bearer's turn (default) or the source's", Choices: []kit.Choice{{Name: "bearer", Value: "bearer"}, {Name: "source", Value: "source"}}},
				initNameOption("source", "Who caused it", false),
			}},
			{Type: kit.SubCommand, Name: "clear", Description: "End a condition before its time", Options: []kit.Option{
				initTarget,
				{Type: kit.String, Name: "effect", Description: "The condition", Required: true, Autocomplete: true, MaxLength: encounter.MaxNameLen},
			}},
			{Type: kit.SubCommand, Name: "count", Description: "Count a use this round (reactions, vigor spent); resets by itself", Options: []kit.Option{
				initTarget,
				{Type: kit.String, Name: "counter", Description: "What to count, e.g. reactions", Required: true, MaxLength: encounter.MaxKeyLen},
				{Type: kit.Integer, Name: "by", Description: "How many (default 1; negative takes back)", MinValue: kit.Float(-encounter.MaxAmount), MaxValue: kit.Float(encounter.MaxAmount)},
			}},
			{Type: kit.SubCommand, Name: "defeat", Description: "Mark a combatant defeated, or back in the fight (GM)", Options: []kit.Option{
				initName,
				{Type: kit.Boolean, Name: "back", Description: "Back in the fight instead"},
			}},
			{Type: kit.SubCommand, Name: "reveal", Description: "Show a hidden combatant to the players (GM)", Options: []kit.Option{initName}},
			{Type: kit.SubCommand, Name: "undo", Description: "Undo the last change to the fight (GM)"},
			{Type: kit.SubCommand, Name: "redo", Description: "Redo the change undone last (GM)"},
			{Type: kit.SubCommand, Name: "log", Description: "Who changed what in this fight", Options: []kit.Option{
				{Type: kit.Integer, Name: "count", Description: "How many entries (default 10)", MinValue: kit.Float(1), MaxValue: kit.Float(maxInitLog)},
			}},
		},
	}
}

const (
	defaultInitLog = 10
	maxInitLog     = 25
)

// registerInit adds /init and its buttons.
func (h *Tracker) registerInit(r *kit.Router) {
	if h.Policies == nil {
		h.Policies = encounter.NewPolicies()
	}
	r.Define(h.command())
	for _, rt := range []struct {
		sub string
		h   kit.Handler
		gm  bool
	}{
		{"start", h.initStart, true},
		{"add", h.initAdd, true},
		{"join", h.initJoin, false},
		{"begin", h.initBegin, true},
		{"next", h.initNext, false},
		{"prev", h.initPrev, true},
		{"skip", h.initSkip, true},
		{"move", h.initMove, true},
		{"delay", h.initDelay, false},
		{"remove", h.initRemove, true},
		{"list", h.initList, false},
		{"end", h.initEnd, true},
		{"damage", h.initDamage, false},
		{"heal", h.initHeal, false},
		{"effect", h.initEffect, false},
		{"clear", h.initClear, false},
		{"count", h.initCount, false},
		{"defeat", h.initDefeat, true},
		{"reveal", h.initReveal, true},
		{"undo", h.initUndo, true},
		{"redo", h.initRedo, true},
		{"log", h.initLog, false},
	} {
		r.Route("init/"+rt.sub, rt.h, rt.gm)
	}
	for _, sub := range []string{"damage", "heal", "effect", "clear", "count"} {
		r.RouteAutocomplete("init/"+sub, "target", h.SuggestCombatants)
	}
	for _, sub := range []string{"skip", "move", "remove", "defeat", "reveal"} {
		r.RouteAutocomplete("init/"+sub, "name", h.SuggestCombatants)
	}
	r.RouteAutocomplete("init/delay", "after", h.SuggestCombatants)
	r.RouteAutocomplete("init/effect", "source", h.SuggestCombatants)
	r.RouteAutocomplete("init/clear", "effect", h.suggestConditions)
	r.RouteAutocomplete("init/add", "character", h.SuggestCharacters)
	r.RouteAutocomplete("init/join", "character", h.suggestJoinCharacters)
	r.RouteComponent("init", h.initClick, false)
}

// InitResult is the console's `result` of every /init command: the
// encounter as the asker may see it (encounter.View: round, turn, order,
// combatants), its system, and what the combatant whose turn it is may
// still do, where the system counts it.
type InitResult struct {
	encounter.View
	System string `json:"system"`
	Budget string `json:"budget,omitempty"`
	// Log is /init log's entries, oldest first.
	Log []InitLogEntry `json:"log,omitempty"`
}

// InitLogEntry is one entry of /init log.
type InitLogEntry struct {
	Seq     int64  `json:"seq"`
	Kind    string `json:"kind"`
	Actor   string `json:"actor"`
	Status  string `json:"status"`
	Ref     int64  `json:"ref,omitempty"`
	Summary string `json:"summary"`
}

// initResult is the result of a command that left the encounter e.
func (h *Tracker) InitResult(e *encounter.Encounter, forGM bool) InitResult {
	res := InitResult{View: e.View(forGM), System: e.System}
	if c := e.Current(); c != nil && (forGM || !c.Hidden) {
		if p, err := h.Policies.For(e.System); err == nil {
			res.Budget = p.Budget(e.Clone(), c)
		}
	}
	return res
}

// change runs op on the channel's encounter with its system's policy, in
// one transaction (see EncounterStore.UpdateEncounter), and returns the
// encounter after it, the event, and whether the turn moved (for the
// tracker and its ping).
func (h *Tracker) Change(ctx context.Context, req *kit.Request, op func(e *db.Encounter, p encounter.Policy) (encounter.Event, error)) (db.Encounter, encounter.Event, bool, error) {
	var before turnMark
	enc, ev, err := h.Encounters.UpdateEncounter(ctx, req.ChannelID, func(e *db.Encounter) (encounter.Event, error) {
		p, err := h.Policies.For(e.State.System)
		if err != nil {
			// Started under a policy this process was not given: wiring.
			return encounter.Event{}, fmt.Errorf("encounter %d of system %q: no policy: %s", e.ID, e.State.System, err)
		}
		before = markOf(e.State)
		return op(e, p)
	})
	if err != nil {
		return db.Encounter{}, encounter.Event{}, false, initError(err)
	}
	return enc, ev, markOf(enc.State) != before, nil
}

// turnMark is whose turn it is, in which round.
type turnMark struct {
	round, id int
	ended     bool
}

func markOf(e *encounter.Encounter) turnMark {
	m := turnMark{round: e.Round, ended: e.Ended}
	if c := e.Current(); c != nil {
		m.id = c.ID
	}
	return m
}

// initError turns the errors of the store and the model into what the user
// reads: an *encounter.Error or a missing encounter is the user's mistake.
func initError(err error) error {
	if err == nil {
		return nil
	}
	if ue, ok := kit.AsUserError(err); ok {
		return ue // a mistake found inside the store's transaction, without its wrapping
	}
	var ee *encounter.Error
	if errors.As(err, &ee) {
		return &kit.UserError{Msg: ee.Msg, Err: err}
	}
	var se *dice.SyntaxError
	var de *dice.Error
	if errors.As(err, &se) || errors.As(err, &de) {
		return kit.DiceError(err)
	}
	switch {
	case errors.Is(err, db.ErrNotFound):
		return &kit.UserError{Msg: "there is no encounter in this channel: start one with /init start", Err: err}
	case errors.Is(err, db.ErrNothingToUndo):
		return &kit.UserError{Msg: "there is nothing to undo in this fight", Err: err}
	case errors.Is(err, db.ErrUndoLimit):
		return &kit.UserError{Msg: fmt.Sprintf("only the last %d changes can be undone: older states are not kept", db.MaxUndo), Err: err}
	case errors.Is(err, db.ErrNothingToRedo):
		return &kit.UserError{Msg: "there is nothing to redo: only the changes undone last, with nothing changed since, can be redone", Err: err}
	case errors.Is(err, db.ErrActiveEncounter):
		return &kit.UserError{Msg: "another encounter is running in this channel: end it with /init end first", Err: err}
	}
	return err
}

// noSuchCombatant is the model's answer for a combatant no one can see.
func noSuchCombatant(name string) error {
	return &kit.UserError{Msg: fmt.Sprintf("there is no combatant named %s: see /init list", strings.TrimSpace(name))}
}

// checkVisible checks that the asker may name the combatant: a player cannot
// see a hidden one. An unknown name is left for the model to report.
func CheckVisible(req *kit.Request, e *encounter.Encounter, names ...string) error {
	if req.GM {
		return nil
	}
	for _, name := range names {
		if strings.TrimSpace(name) == "" {
			continue
		}
		if c, err := e.Find(name); err == nil && c.Hidden {
			return noSuchCombatant(name)
		}
	}
	return nil
}

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

func (h *Tracker) initStart(ctx context.Context, req *kit.Request) (kit.Response, error) {
	system := req.Options.String("system")
	note := ""
	if system == "" {
		system = encounter.GenericName
		s, err := h.Channels.ChannelSystem(ctx, req.GuildID, req.ChannelID)
		switch {
		case err == nil:
			system = s.System
		case !errors.Is(err, db.ErrNotFound):
			return kit.Response{}, err
		}
		if _, err := h.Policies.For(system); err != nil {
			note = fmt.Sprintf("\n%s has no encounter rules yet: this fight runs on the generic ones.", system)
			system = encounter.GenericName
		}
	}
	p, err := h.Policies.For(system)
	if err != nil {
		return kit.Response{}, initError(err)
	}
	enc, err := h.Encounters.StartEncounter(ctx, req.GuildID, req.ChannelID, p.Name(), req.User.ID)
	if errors.Is(err, db.ErrActiveEncounter) {
		if cur, err := h.Encounters.Encounter(ctx, req.ChannelID); err == nil && cur.State.Begun {
			return kit.Response{}, kit.Errorf("an encounter is already running here (round %d): end it with /init end first", cur.State.Round)
		}
		return kit.Response{}, kit.Errorf("an encounter is already running here: end it with /init end first")
	}
	if err != nil {
		return kit.Response{}, err
	}
	return kit.Response{
		Content: fmt.Sprintf("⚔️ An encounter starts here (%s rules). The GM adds combatants with /init add, players join with /init join, then the GM runs /init begin.%s", p.Name(), note),
		Result:  h.InitResult(enc.State, req.GM),
	}, nil
}

// combatantFrom builds the combatant of /init add or /init join from the
// request's options, over the stats of a character sheet when given.
func (h *Tracker) combatantFrom(req *kit.Request, sheet *db.Character) (encounter.Combatant, error) {
	c := encounter.Combatant{Stats: map[string]int{}, Resources: map[string]int{}, Max: map[string]int{}}
	stats := map[string]int{}
	if sheet != nil {
		c.Name, c.Owner = sheet.Name, sheet.OwnerID
		maps.Copy(stats, sheet.Stats)
	}
	if name := req.Options.String("name"); name != "" || sheet == nil {
		clean, err := kit.CleanName("combatant name", name)
		if err != nil {
			return c, err
		}
		c.Name = clean
	}
	resources := h.resources()
	statOptions := h.stats()
	for i, text := range []string{req.Options.String("stats"), req.Options.String("resources")} {
		changes, err := kit.ParseStats(text)
		if err != nil {
			return c, err
		}
		for k, v := range changes {
			if v == nil {
				delete(stats, k)
			} else {
				stats[k] = *v
			}
			// A name in resources: is a track, with its max_ maximum.
			if k := strings.TrimPrefix(k, "max_"); i == 1 && !slices.Contains(resources, k) {
				resources = append(resources, k)
			}
		}
	}
	for _, s := range statOptions {
		switch v := req.Options[s.Name].(type) {
		case int64:
			stats[s.Name] = int(v)
		case string:
			if n, ok := s.Values[v]; ok {
				stats[s.Into] = n
			}
		}
	}
	for _, r := range resources {
		top, hasMax := stats["max_"+r]
		v, ok := stats[r]
		switch {
		case ok:
			c.Resources[r] = v
			c.Max[r] = v
			if hasMax {
				c.Max[r] = top
			}
		case hasMax:
			c.Resources[r] = top
			c.Max[r] = top
		default:
			continue
		}
		delete(stats, r)
		delete(stats, "max_"+r)
	}
	c.Stats = stats
	if owner := req.Options.String("owner"); owner != "" {
		c.Owner = owner
	}
	c.NPC = c.Owner == ""
	c.Hidden = req.Options.Bool("hidden") || req.Options.Bool("reveal_on_turn")
	c.RevealOnTurn = req.Options.Bool("reveal_on_turn")
	return c, nil
}

// checkSheetSystem refuses a character of another system than the
// encounter's; the generic fight takes any.
func checkSheetSystem(e *encounter.Encounter, c *db.Character) error {
	if c == nil || e.System == encounter.GenericName || e.System == "" || strings.EqualFold(c.System, e.System) {
		return nil
	}
	return kit.Errorf("%s is %s %s character and this fight runs on the %s rules", c.Name, kit.Article(c.System), c.System, e.System)
}

func (h *Tracker) initAdd(ctx context.Context, req *kit.Request) (kit.Response, error) {
	var sheet *db.Character
	if name := req.Options.String("character"); name != "" {
		c, err := h.LoadCharacter(ctx, req, name)
		if err != nil {
			return kit.Response{}, err
		}
		sheet = &c
	}
	c, err := h.combatantFrom(req, sheet)
	if err != nil {
		return kit.Response{}, err
	}
	return h.addCombatant(ctx, req, c, sheet)
}

// addCombatant adds c to the fight, rolling with the request's dice when
// the fight has begun.
func (h *Tracker) addCombatant(ctx context.Context, req *kit.Request, c encounter.Combatant, sheet *db.Character) (kit.Response, error) {
	t, err := h.Tray(req)
	if err != nil {
		return kit.Response{}, err
	}
	enc, ev, moved, err := h.Change(ctx, req, func(e *db.Encounter, p encounter.Policy) (encounter.Event, error) {
		if err := checkSheetSystem(e.State, sheet); err != nil {
			return encounter.Event{}, err
		}
		if _, err := e.State.Find(c.Name); err == nil && !req.GM {
			// One refusal for every name taken: "already a combatant named"
			// for a hidden one would tell a player it is there.
			return encounter.Event{}, kit.Errorf("the name %s cannot be used in this fight: join under another (example: /init join character:<name>)", c.Name)
		}
		ev, err := e.State.Add(p, t.Roller(), req.User.ID, c)
		if err != nil {
			return ev, err
		}
		return ev, t.Done()
	})
	if err != nil {
		return kit.Response{}, err
	}
	if err := h.logEventRolls(ctx, req, ev); err != nil {
		return kit.Response{}, err
	}
	return h.reply(req, enc, ev, enc.State.Begun, moved), nil
}

func (h *Tracker) initJoin(ctx context.Context, req *kit.Request) (kit.Response, error) {
	cur, err := h.Encounters.Encounter(ctx, req.ChannelID)
	if err != nil {
		return kit.Response{}, initError(err)
	}
	system := cur.State.System
	if system == encounter.GenericName {
		system = ""
	}
	var sheet db.Character
	if name := req.Options.String("character"); name != "" {
		if sheet, err = h.LoadCharacter(ctx, req, name); err != nil {
			return kit.Response{}, err
		}
		if sheet.OwnerID != req.User.ID && !req.GM {
			return kit.Response{}, kit.Errorf("%s belongs to %s: join with your own character", sheet.Name, sheet.OwnerName)
		}
	} else {
		mine, err := h.Characters.Characters(ctx, req.GuildID, req.User.ID, system, "", 2)
		if err != nil {
			return kit.Response{}, err
		}
		what := "character"
		if system != "" {
			what = system + " character"
		}
		switch len(mine) {
		case 0:
			return kit.Response{}, kit.Errorf("you have no %s here: create one with /character set name:<name> system:%s stats:\"...\"", what, cmp.Or(system, h.exampleSystem()))
		case 1:
			sheet = mine[0]
		default:
			return kit.Response{}, kit.Errorf("you have several %ss: choose one with character:<name>", what)
		}
	}
	c, err := h.combatantFrom(req, &sheet)
	if err != nil {
		return kit.Response{}, err
	}
	return h.addCombatant(ctx, req, c, &sheet)
}

func (h *Tracker) initBegin(ctx context.Context, req *kit.Request) (kit.Response, error) {
	t, err := h.Tray(req)
	if err != nil {
		return kit.Response{}, err
	}
	enc, ev, moved, err := h.Change(ctx, req, func(e *db.Encounter, p encounter.Policy) (encounter.Event, error) {
		ev, err := e.State.Begin(p, t.Roller(), req.User.ID)
		if err != nil {
			return ev, err
		}
		return ev, t.Done()
	})
	if err != nil {
		return kit.Response{}, err
	}
	if err := h.logEventRolls(ctx, req, ev); err != nil {
		return kit.Response{}, err
	}
	return h.reply(req, enc, ev, true, moved), nil
}

// logEventRolls puts the rolls an encounter change made (initiative,
// tie-breaks) in the roll log, like every roll in Tablehand; a hidden
// combatant's roll is logged privately, for the GM who made it.
func (h *Tracker) logEventRolls(ctx context.Context, req *kit.Request, ev encounter.Event) error {
	for _, r := range ev.Rolls {
		what := strings.TrimSpace(r.Name + " " + r.For)
		if _, err := h.LogRoll(ctx, req, r.Expr+" ["+what+"]", r.Total, r.Secret, r); err != nil {
			return err
		}
	}
	return nil
}

// mayEndTurn reports, as the user's mistake, a player ending a turn that
// is not theirs: only the GM and the player of the combatant whose turn it
// is may.
func mayEndTurn(req *kit.Request, e *encounter.Encounter) error {
	c := e.Current()
	if req.GM || c == nil || (c.Owner != "" && c.Owner == req.User.ID) {
		return nil
	}
	if c.Hidden {
		return kit.Errorf("it is not your turn: only the GM or the player whose turn it is can end it")
	}
	return kit.Errorf("it is %s's turn, not yours: only its player or the GM can end it", c.Name)
}

func (h *Tracker) initNext(ctx context.Context, req *kit.Request) (kit.Response, error) {
	enc, ev, moved, err := h.Change(ctx, req, func(e *db.Encounter, p encounter.Policy) (encounter.Event, error) {
		if err := mayEndTurn(req, e.State); err != nil {
			return encounter.Event{}, err
		}
		return e.State.Next(p, req.User.ID)
	})
	if err != nil {
		return kit.Response{}, err
	}
	return h.reply(req, enc, ev, true, moved), nil
}

// initClick answers the tracker's buttons: init:next (the GM) and
// init:endturn (the GM or the player whose turn it is), each naming the
// encounter and the turn it was shown for. The answer edits the tracker
// in place.
func (h *Tracker) initClick(ctx context.Context, req *kit.Request) (kit.Response, error) {
	parts := strings.Split(req.CustomID, ":")
	if len(parts) != 4 || (parts[1] != "next" && parts[1] != "endturn") {
		return kit.Response{}, kit.Errorf("this button no longer works: use /init list")
	}
	id, err1 := strconv.ParseInt(parts[2], 10, 64)
	r, c, _ := strings.Cut(parts[3], ".")
	round, err2 := strconv.Atoi(r)
	cid, err3 := strconv.Atoi(c)
	if err := errors.Join(err1, err2, err3); err != nil {
		return kit.Response{}, kit.Errorf("this button no longer works: use /init list")
	}
	enc, ev, moved, err := h.Change(ctx, req, func(e *db.Encounter, p encounter.Policy) (encounter.Event, error) {
		cur := e.State.Current()
		switch {
		case e.ID != id:
			return encounter.Event{}, kit.Errorf("this tracker is of a fight that is over: see /init list")
		case cur == nil || e.State.Round != round || cur.ID != cid:
			return encounter.Event{}, kit.Errorf("this tracker is out of date: the turn has moved on since, so nothing was done. See /init list")
		case parts[1] == "next" && !req.GM:
			return encounter.Event{}, kit.Errorf("only the GM moves the fight on with Next turn: use End turn on your own turn")
		}
		if err := mayEndTurn(req, e.State); err != nil {
			return encounter.Event{}, err
		}
		return e.State.Next(p, req.User.ID)
	})
	if errors.Is(err, db.ErrNotFound) {
		return kit.Response{}, kit.Errorf("this tracker is of a fight that is over: see /init list")
	}
	if err != nil {
		return kit.Response{}, err
	}
	resp := h.reply(req, enc, ev, true, moved)
	if !resp.Ephemeral {
		resp.Type = kit.UpdateMessage
	}
	return resp, nil
}

func (h *Tracker) initPrev(ctx context.Context, req *kit.Request) (kit.Response, error) {
	enc, ev, moved, err := h.Change(ctx, req, func(e *db.Encounter, p encounter.Policy) (encounter.Event, error) {
		return e.State.Prev(req.User.ID)
	})
	if err != nil {
		return kit.Response{}, err
	}
	return h.reply(req, enc, ev, true, moved), nil
}

func (h *Tracker) initSkip(ctx context.Context, req *kit.Request) (kit.Response, error) {
	enc, ev, moved, err := h.Change(ctx, req, func(e *db.Encounter, p encounter.Policy) (encounter.Event, error) {
		name := req.Options.String("name")
		if name == "" {
			c := e.State.Current()
			if c == nil {
				return encounter.Event{}, kit.Errorf("no one has the turn yet: name whose first turn to skip with name:<combatant>")
			}
			name = c.Name
		}
		return e.State.Skip(p, req.User.ID, name)
	})
	if err != nil {
		return kit.Response{}, err
	}
	return h.reply(req, enc, ev, true, moved), nil
}

func (h *Tracker) initMove(ctx context.Context, req *kit.Request) (kit.Response, error) {
	pos, _ := req.Options.Int("position")
	enc, ev, moved, err := h.Change(ctx, req, func(e *db.Encounter, p encounter.Policy) (encounter.Event, error) {
		return e.State.Move(req.User.ID, req.Options.String("name"), int(pos))
	})
	if err != nil {
		return kit.Response{}, err
	}
	return h.reply(req, enc, ev, true, moved), nil
}

func (h *Tracker) initDelay(ctx context.Context, req *kit.Request) (kit.Response, error) {
	after := req.Options.String("after")
	enc, ev, moved, err := h.Change(ctx, req, func(e *db.Encounter, p encounter.Policy) (encounter.Event, error) {
		c := e.State.Current()
		if c == nil {
			return encounter.Event{}, kit.Errorf("no one has the turn: the fight has not begun or is over")
		}
		if err := mayEndTurn(req, e.State); err != nil {
			return encounter.Event{}, err
		}
		if err := CheckVisible(req, e.State, after); err != nil {
			return encounter.Event{}, err
		}
		return e.State.Delay(p, req.User.ID, c.Name, after)
	})
	if err != nil {
		return kit.Response{}, err
	}
	return h.reply(req, enc, ev, true, moved), nil
}

func (h *Tracker) initRemove(ctx context.Context, req *kit.Request) (kit.Response, error) {
	enc, ev, moved, err := h.Change(ctx, req, func(e *db.Encounter, p encounter.Policy) (encounter.Event, error) {
		return e.State.Remove(p, req.User.ID, req.Options.String("name"))
	})
	if err != nil {
		return kit.Response{}, err
	}
	return h.reply(req, enc, ev, moved, moved), nil
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

func (h *Tracker) initEnd(ctx context.Context, req *kit.Request) (kit.Response, error) {
	enc, ev, _, err := h.Change(ctx, req, func(e *db.Encounter, p encounter.Policy) (encounter.Event, error) {
		return e.State.End(req.User.ID)
	})
	if err != nil {
		return kit.Response{}, err
	}
	return h.reply(req, enc, ev, false, false), nil
}

func (h *Tracker) initDamage(ctx context.Context, req *kit.Request) (kit.Response, error) {
	amount, _ := req.Options.Int("amount")
	return h.onTarget(ctx, req, func(e *encounter.Encounter, p encounter.Policy, target string) (encounter.Event, error) {
		return e.Damage(p, req.User.ID, target, int(amount), req.Options.String("type"))
	})
}

func (h *Tracker) initHeal(ctx context.Context, req *kit.Request) (kit.Response, error) {
	amount, _ := req.Options.Int("amount")
	return h.onTarget(ctx, req, func(e *encounter.Encounter, p encounter.Policy, target string) (encounter.Event, error) {
		return e.Heal(p, req.User.ID, target, int(amount))
	})
}

func (h *Tracker) initEffect(ctx context.Context, req *kit.Request) (kit.Response, error) {
	name, err := kit.CleanName("condition name", req.Options.String("effect"))
	if err != nil {
		return kit.Response{}, err
	}
	rounds, _ := req.Options.Int("rounds")
	if rounds < 0 || rounds > encounter.MaxRounds {
		return kit.Response{}, kit.Errorf("rounds must be 0 (until removed) to %d, not %d", encounter.MaxRounds, rounds)
	}
	cd := encounter.Condition{Name: name, Rounds: int(rounds),
		Relative: encounter.Anchor(req.Options.String("relative")), Ends: encounter.Edge(req.Options.String("ends"))}
	source := req.Options.String("source")
	return h.onTarget(ctx, req, func(e *encounter.Encounter, p encounter.Policy, target string) (encounter.Event, error) {
		if err := CheckVisible(req, e, source); err != nil {
			return encounter.Event{}, err
		}
		return e.AddCondition(req.User.ID, target, cd, source)
	})
}

func (h *Tracker) initClear(ctx context.Context, req *kit.Request) (kit.Response, error) {
	return h.onTarget(ctx, req, func(e *encounter.Encounter, p encounter.Policy, target string) (encounter.Event, error) {
		return e.RemoveCondition(req.User.ID, target, req.Options.String("effect"))
	})
}

func (h *Tracker) initCount(ctx context.Context, req *kit.Request) (kit.Response, error) {
	by, ok := req.Options.Int("by")
	if !ok {
		by = 1
	}
	return h.onTarget(ctx, req, func(e *encounter.Encounter, p encounter.Policy, target string) (encounter.Event, error) {
		return e.Count(req.User.ID, target, req.Options.String("counter"), int(by))
	})
}

func (h *Tracker) initDefeat(ctx context.Context, req *kit.Request) (kit.Response, error) {
	enc, ev, moved, err := h.Change(ctx, req, func(e *db.Encounter, p encounter.Policy) (encounter.Event, error) {
		return e.State.SetDefeated(req.User.ID, req.Options.String("name"), !req.Options.Bool("back"))
	})
	if err != nil {
		return kit.Response{}, err
	}
	return h.reply(req, enc, ev, false, moved), nil
}

func (h *Tracker) initReveal(ctx context.Context, req *kit.Request) (kit.Response, error) {
	enc, ev, moved, err := h.Change(ctx, req, func(e *db.Encounter, p encounter.Policy) (encounter.Event, error) {
		return e.State.Reveal(req.User.ID, req.Options.String("name"))
	})
	if err != nil {
		return kit.Response{}, err
	}
	return h.reply(req, enc, ev, false, moved), nil
}

// onTarget runs op on the combatant of the `target` option, which the
// asker must be able to see.
func (h *Tracker) onTarget(ctx context.Context, req *kit.Request, op func(e *encounter.Encounter, p encounter.Policy, target string) (encounter.Event, error)) (kit.Response, error) {
	target := req.Options.String("target")
	enc, ev, moved, err := h.Change(ctx, req, func(e *db.Encounter, p encounter.Policy) (encounter.Event, error) {
		if err := CheckVisible(req, e.State, target); err != nil {
			return encounter.Event{}, err
		}
		return op(e.State, p, target)
	})
	if err != nil {
		return kit.Response{}, err
	}
	return h.reply(req, enc, ev, false, moved), nil
}

func (h *Tracker) initUndo(ctx context.Context, req *kit.Request) (kit.Response, error) {
	enc, undone, err := h.Encounters.UndoEncounter(ctx, req.ChannelID, req.User.ID)
	if err != nil {
		return kit.Response{}, initError(err)
	}
	return h.journalReply(req, enc, "↩️ Undone", undone), nil
}

func (h *Tracker) initRedo(ctx context.Context, req *kit.Request) (kit.Response, error) {
	enc, redone, err := h.Encounters.RedoEncounter(ctx, req.ChannelID, req.User.ID)
	if err != nil {
		return kit.Response{}, initError(err)
	}
	return h.journalReply(req, enc, "↪️ Redone", redone), nil
}

// journalReply answers an undo or a redo of ev with the tracker as it
// now stands.
func (h *Tracker) journalReply(req *kit.Request, enc db.Encounter, verb string, ev db.EncounterEvent) kit.Response {
	resp := kit.Response{Result: h.InitResult(enc.State, req.GM)}
	public := ev.Event.Summary
	if ev.Event.Secret {
		public = ev.Event.Public
	}
	if public == "" {
		resp.Content = kit.EscapeInline(fmt.Sprintf("%s (#%d, %s): %s", verb, ev.Seq, ev.Kind, ev.Event.Summary))
		resp.Embeds = []kit.Embed{h.trackerEmbed(enc.State, true)}
		resp.Ephemeral = true
		return resp
	}
	resp.Content = kit.EscapeInline(fmt.Sprintf("%s (#%d, %s): %s", verb, ev.Seq, ev.Kind, public))
	h.ShowTracker(req, enc, &resp, enc.State.Begun)
	return resp
}

func (h *Tracker) initLog(ctx context.Context, req *kit.Request) (kit.Response, error) {
	n := int64(defaultInitLog)
	if v, ok := req.Options.Int("count"); ok {
		if v < 1 || v > maxInitLog {
			return kit.Response{}, kit.Errorf("count must be 1 to %d, not %d (example: /init log count:5)", maxInitLog, v)
		}
		n = v
	}
	entries, err := h.Encounters.EncounterLog(ctx, req.ChannelID, int(n))
	if err != nil {
		return kit.Response{}, initError(err)
	}
	var state *encounter.Encounter
	if enc, err := h.Encounters.Encounter(ctx, req.ChannelID); err == nil {
		state = enc.State
	} else if !errors.Is(err, db.ErrNotFound) {
		return kit.Response{}, err
	}
	var b strings.Builder
	b.WriteString("**Encounter log** (oldest first)\n")
	out := make([]InitLogEntry, 0, len(entries))
	for _, e := range entries {
		summary := logSummary(e, req.GM)
		if summary == "" {
			continue // a change to a combatant the players cannot see
		}
		mark := ""
		switch e.Status {
		case db.StatusUndone:
			mark = " *(undone)*"
		case db.StatusDropped:
			mark = " *(undone, replaced)*"
		}
		what := e.Kind
		if e.Ref != 0 {
			what = fmt.Sprintf("%s #%d", e.Kind, e.Ref)
		}
		fmt.Fprintf(&b, "`#%d` <@%s> %s: %s%s\n", e.Seq, e.ActorID, what, kit.EscapeInline(summary), mark)
		out = append(out, InitLogEntry{Seq: e.Seq, Kind: e.Kind, Actor: e.ActorID, Status: e.Status, Ref: e.Ref, Summary: summary})
	}
	res := InitResult{View: encounter.View{Order: []string{}, Combatants: []encounter.CombatantView{}}, Log: out}
	if state != nil {
		res = h.InitResult(state, req.GM)
		res.Log = out
	}
	return kit.Response{Content: b.String(), Ephemeral: true, Result: res}, nil
}

// logSummary is an entry's headline as the asker may read it: "" for
// a player when all of it is secret.
func logSummary(e db.EncounterEvent, forGM bool) string {
	if e.Status == db.StatusStart {
		return "the encounter starts"
	}
	s := e.Event.Summary
	if e.Event.Secret && !forGM {
		s = e.Event.Public
	}
	return s
}

// suggestCombatants autocompletes a combatant's name: those the asker can
// see, in turn order, whose names contain what is typed.
func (h *Tracker) SuggestCombatants(ctx context.Context, req *kit.Request) (kit.Response, error) {
	enc, err := h.Encounters.Encounter(ctx, req.ChannelID)
	if errors.Is(err, db.ErrNotFound) {
		return kit.Response{}, nil
	}
	if err != nil {
		return kit.Response{}, err
	}
	typed := strings.ToLower(strings.TrimSpace(req.Options.String(req.Focused)))
	cur := enc.State.Current()
	var choices []kit.Choice
	for _, c := range enc.State.Combatants {
		if (c.Hidden && !req.GM) || !strings.Contains(strings.ToLower(c.Name), typed) {
			continue
		}
		label := c.Name
		var notes []string
		if cur != nil && cur.ID == c.ID {
			notes = append(notes, "current turn")
		}
		if c.Hidden {
			notes = append(notes, "hidden")
		}
		if c.Defeated {
			notes = append(notes, "defeated")
		}
		if len(notes) > 0 {
			label += " (" + strings.Join(notes, ", ") + ")"
		}
		choices = append(choices, kit.Choice{Name: label, Value: c.Name})
	}
	return kit.Response{Choices: choices}, nil
}

// suggestConditions autocompletes a condition of the combatant named in
// `target`.
func (h *Tracker) suggestConditions(ctx context.Context, req *kit.Request) (kit.Response, error) {
	enc, err := h.Encounters.Encounter(ctx, req.ChannelID)
	if errors.Is(err, db.ErrNotFound) {
		return kit.Response{}, nil
	}
	if err != nil {
		return kit.Response{}, err
	}
	typed := strings.ToLower(strings.TrimSpace(req.Options.String(req.Focused)))
	var choices []kit.Choice
	for _, c := range enc.State.Combatants {
		if (c.Hidden && !req.GM) || !strings.EqualFold(c.Name, strings.TrimSpace(req.Options.String("target"))) {
			continue
		}
		for _, cd := range c.Conditions {
			if strings.Contains(strings.ToLower(cd.Name), typed) {
				choices = append(choices, kit.Choice{Name: cd.Name + ": " + cd.Describe(enc.State), Value: cd.Name})
			}
		}
	}
	return kit.Response{Choices: choices}, nil
}

// suggestJoinCharacters autocompletes /init join's character: the
// asker's own (any, for the GM) of the fight's system.
func (h *Tracker) suggestJoinCharacters(ctx context.Context, req *kit.Request) (kit.Response, error) {
	system := ""
	if enc, err := h.Encounters.Encounter(ctx, req.ChannelID); err == nil && enc.State.System != encounter.GenericName {
		system = enc.State.System
	}
	owner := req.User.ID
	if req.GM {
		owner = ""
	}
	return h.CharacterChoices(ctx, req, owner, system)
}
