package tracker

import (
	"slices"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/rules/encounter"
)

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
