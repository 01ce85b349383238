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
		initiativeStat,
		kit.IntStat("hp", "Hit points (generic, ulm)"),
	}
	genericResources = []string{"hp"}
	// initiativeStat is also an option of /init join.
	initiativeStat = kit.IntStat("initiative", "Initiative as rolled at the table, the system's score: no die is rolled")
)

// initNameOption is an option that names a combatant, autocompleted
// (see routeSuggestions).
func initNameOption(name, desc string, required bool) kit.Option {
	return kit.Option{Type: kit.String, Name: name, Description: desc, Required: required, Autocomplete: true, MaxLength: kit.MaxNameLen}
}

const (
	defaultInitLog = 10 // entries /init log shows without count:
	maxInitLog     = 25
)

var (
	initTarget = initNameOption("target", "The combatant", true)
	initName   = initNameOption("name", "The combatant", true)
	// A damage of 0 has a meaning (an ulm Epilogue with type:knockout); a
	// healing of 0 has none.
	initDamage = kit.Option{Type: kit.Integer, Name: "amount", Description: "How much", Required: true, MinValue: kit.Float(0), MaxValue: kit.Float(encounter.MaxAmount)}
	initHealed = kit.Option{Type: kit.Integer, Name: "amount", Description: "How much", Required: true, MinValue: kit.Float(1), MaxValue: kit.Float(encounter.MaxAmount)}
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

// subcommand is one subcommand of /init: its definition, its handler,
// and whether the router lets only the GM run it.
type subcommand struct {
	run kit.Handler
	gm  bool
	def kit.Option
}

// sub defines the subcommand name of /init.
func sub(name, desc string, options ...kit.Option) kit.Option {
	return kit.Option{Type: kit.SubCommand, Name: name, Description: desc, Options: options}
}

// subcommands are /init's, in the order Discord shows them, with the
// systems' choices and stat options.
func (h *Tracker) subcommands() []subcommand {
	var statOptions, trackOptions []kit.Option
	tracks := h.resources()
	for _, s := range h.stats() {
		statOptions = append(statOptions, s.Option)
		if slices.Contains(tracks, s.Name) {
			trackOptions = append(trackOptions, s.Option)
		}
	}
	var systems []kit.Choice
	for _, s := range h.fightSystems() {
		systems = append(systems, kit.Choice{Name: s, Value: s})
	}
	return []subcommand{
		{run: h.initStart, gm: true, def: sub("start", "Start an encounter in this channel (GM)",
			kit.Option{Type: kit.String, Name: "system", Description: "Rule system (default: this channel's, see /system)", Choices: systems},
		)},
		{run: h.initAdd, gm: true, def: sub("add", "Add a combatant (GM); more stats as stats:\"som=3 empathy=2\"", append([]kit.Option{
			{Type: kit.String, Name: "name", Description: "Its name (default: the character's)", MaxLength: kit.MaxNameLen},
			{Type: kit.String, Name: "character", Description: "Read its stats from this character's sheet", Autocomplete: true, MaxLength: kit.MaxNameLen},
			{Type: kit.UserOption, Name: "owner", Description: "The player who controls it (default: an NPC of the GM)"},
			{Type: kit.Boolean, Name: "hidden", Description: "Hidden from the players until revealed"},
			{Type: kit.Boolean, Name: "reveal_on_turn", Description: "Hidden until its first turn starts"},
			{Type: kit.String, Name: "stats", Description: "Other stats as name=value, e.g. \"som=3 empathy=2\"", MaxLength: 1000},
			{Type: kit.String, Name: "resources", Description: "Other tracks as name=value, e.g. \"vigor=3\" (max_vigor=5 for a maximum)", MaxLength: 1000},
			kit.DiceOption,
		}, statOptions...)...)},
		// join takes the damage tracks (hp; burst's durability and health)
		// as /init add does, with the same limits.
		{run: h.initJoin, def: sub("join", "Join the fight, with your character or under your name", append([]kit.Option{
			{Type: kit.String, Name: "character", Description: "Your character (default: your only one of this system)", Autocomplete: true, MaxLength: kit.MaxNameLen},
			{Type: kit.String, Name: "name", Description: "Your name in the fight (default: the character's, else yours)", MaxLength: kit.MaxNameLen},
			initiativeStat.Option,
			kit.DiceOption,
		}, trackOptions...)...)},
		{run: h.initBegin, gm: true, def: sub("begin", "Roll or order initiative and start round 1 (GM)", kit.DiceOption)},
		{run: h.initNext, def: sub("next", "End the current turn and start the next (GM or the turn's player)",
			initNameOption("turn", "Whose turn you are ending: nothing is done if the turn has moved on", false),
		)},
		{run: h.initPrev, gm: true, def: sub("prev", "Move the turn back one (GM); it undoes nothing")},
		{run: h.initSkip, gm: true, def: sub("skip", "Skip someone's next turn, or the rest of this one (GM)",
			initNameOption("name", "The combatant (default: whose turn it is)", false),
		)},
		{run: h.initMove, gm: true, def: sub("move", "Move a combatant to a place in the order (GM)",
			initName,
			kit.Option{Type: kit.Integer, Name: "position", Description: "1 for first", Required: true, MinValue: kit.Float(1), MaxValue: kit.Float(encounter.MaxCombatants)},
		)},
		{run: h.initDelay, def: sub("delay", "Put off your turn until after someone, or to the end of the round",
			initNameOption("after", "Act after this combatant (default: last this round)", false),
		)},
		{run: h.initRemove, gm: true, def: sub("remove", "Take a combatant out of the fight (GM)", initName)},
		{run: h.initList, def: sub("list", "Show the tracker",
			kit.Option{Type: kit.Boolean, Name: "post", Description: "Post it in the channel, with its buttons, instead of to you alone"},
		)},
		{run: h.initEnd, gm: true, def: sub("end", "End the fight, with a summary (GM)")},
		{run: h.initDamage, def: sub("damage", "Damage a combatant",
			initTarget, initDamage,
			kit.Option{Type: kit.String, Name: "type", Description: "Damage type, e.g. fire", MaxLength: encounter.MaxKeyLen},
		)},
		{run: h.initHeal, def: sub("heal", "Heal a combatant", initTarget, initHealed)},
		{run: h.initEffect, def: sub("effect", "Put a condition on a combatant for some rounds",
			initTarget,
			kit.Option{Type: kit.String, Name: "effect", Description: "The condition, e.g. stunned", Required: true, MaxLength: encounter.MaxNameLen},
			kit.Option{Type: kit.Integer, Name: "rounds", Description: "How many rounds (0: until removed)", Required: true, MinValue: kit.Float(0), MaxValue: kit.Float(encounter.MaxRounds)},
			kit.Option{Type: kit.String, Name: "ends", Description: "At the start or the end of the turn that times it", Choices: []kit.Choice{{Name: "start", Value: "start"}, {Name: "end", Value: "end"}}},
			kit.Option{Type: kit.String, Name: "relative", Description: "Timed on the bearer's turn (default) or the source's", Choices: []kit.Choice{{Name: "bearer", Value: "bearer"}, {Name: "source", Value: "source"}}},
			initNameOption("source", "Who caused it", false),
		)},
		{run: h.initClear, def: sub("clear", "End a condition before its time",
			initTarget,
			kit.Option{Type: kit.String, Name: "effect", Description: "The condition", Required: true, Autocomplete: true, MaxLength: encounter.MaxNameLen},
		)},
		{run: h.initCount, def: sub("count", "Count a use this round (reactions, vigor spent); resets by itself",
			initTarget,
			kit.Option{Type: kit.String, Name: "counter", Description: "What to count, e.g. reactions", Required: true, MaxLength: encounter.MaxKeyLen},
			kit.Option{Type: kit.Integer, Name: "by", Description: "How many (default 1; negative takes back)", MinValue: kit.Float(-encounter.MaxAmount), MaxValue: kit.Float(encounter.MaxAmount)},
		)},
		{run: h.initDefeat, gm: true, def: sub("defeat", "Mark a combatant defeated, or back in the fight (GM)",
			initName,
			kit.Option{Type: kit.Boolean, Name: "back", Description: "Back in the fight instead"},
		)},
		{run: h.initReveal, gm: true, def: sub("reveal", "Show a hidden combatant to the players (GM)", initName)},
		{run: h.initHealth, gm: true, def: sub("health", "What players see of the health of your combatants, or of one (GM)",
			kit.Option{Type: kit.String, Name: "show", Description: "Numbers (default), a word or nothing", Required: true, Choices: healthChoices},
			initNameOption("name", "One combatant, whoever controls it (default: all those no player controls)", false),
		)},
		{run: h.initUndo, gm: true, def: sub("undo", "Undo the last change to the fight (GM)")},
		{run: h.initRedo, gm: true, def: sub("redo", "Redo the change undone last (GM)")},
		{run: h.initPlay, gm: true, def: sub("play", "How freely players change others' combatants here (GM)",
			kit.Option{Type: kit.String, Name: "mode", Description: "standard (default), strict (only the GM) or open (anyone)", Required: true, Choices: []kit.Choice{{Name: PlayStandard, Value: PlayStandard}, {Name: PlayStrict, Value: PlayStrict}, {Name: PlayOpen, Value: PlayOpen}}},
		)},
		{run: h.initLog, def: sub("log", "Who changed what in this fight",
			kit.Option{Type: kit.Integer, Name: "count", Description: "How many entries (default 10)", MinValue: kit.Float(1), MaxValue: kit.Float(maxInitLog)},
		)},
		{run: h.initPage, gm: true, def: sub("page", "Links to this fight's read-only web page, for players and for you (GM)",
			kit.Option{Type: kit.Boolean, Name: "share", Description: "Also post the players' link in the channel"},
			kit.Option{Type: kit.Boolean, Name: "revoke", Description: "Kill the old links and make new ones"},
		)},
	}
}

// registerInit adds /init, its routes, its autocompletes and its buttons.
func (h *Tracker) registerInit(r *kit.Router) {
	if h.Policies == nil {
		h.Policies = encounter.NewPolicies()
	}
	subs := h.subcommands()
	cmd := kit.Command{Name: "init", Description: "Initiative tracker: a fight in this channel, turn by turn"}
	for _, s := range subs {
		cmd.Options = append(cmd.Options, s.def)
	}
	r.Define(cmd)
	for _, s := range subs {
		r.Route("init/"+s.def.Name, s.run, s.gm)
	}
	h.routeSuggestions(r)
	r.RouteComponent("init", h.initClick, false)
	r.HelpNote("init", h.playNote)
}
