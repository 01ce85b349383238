// Package core answers the commands that belong to no rule system: /roll,
// /macro, /odds, /history, /character, /system and /help. They learn of the
// systems only through the registry's kit.System values (env.Systems).
//
// This file holds the commands' definitions and mounts them; each command's
// handlers are in a file of its name.
package core

import (
	"runtime"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/rules/dice"
)

// handlers answers the commands of this package.
type handlers struct {
	*kit.Env
	// bigOdds holds a slot for each wide distribution being worked out
	// (/odds), so that the process works out at most as many at once as
	// it has processors: each is CPU-bound and takes up to tens of MB
	// (1000d1000: about 40 MB, 40 ms); the others wait their turn.
	bigOdds chan struct{}
}

// MountDice adds /roll, /macro and /character to r.
func MountDice(env *kit.Env, r *kit.Router) {
	h := &handlers{Env: env}
	r.Mount(rollCommand, kit.Routes{
		Handlers: map[string]kit.Handler{"": h.roll},
		Suggest:  map[string]kit.Handler{"expression": h.suggestRolls, "character": h.SuggestCharacters},
	})
	r.RouteComponent("reroll", h.rollAgain, false)
	r.Mount(macroCommand, kit.Routes{
		Handlers: map[string]kit.Handler{"set": h.macroSet, "list": h.macroList, "delete": h.macroDelete},
		Suggest:  map[string]kit.Handler{"name": h.suggestMacros},
	})
	r.Mount(characterCommand(env.Systems), kit.Routes{
		Handlers: map[string]kit.Handler{
			"create": h.characterCreate, "set": h.characterSet, "show": h.characterShow,
			"list": h.characterList, "delete": h.characterDelete,
		},
		Suggest: map[string]kit.Handler{"name": h.SuggestCharacters},
	})
}

// MountOdds adds /odds to r.
func MountOdds(env *kit.Env, r *kit.Router) {
	h := &handlers{Env: env, bigOdds: make(chan struct{}, runtime.GOMAXPROCS(0))}
	r.Mount(oddsCommand, kit.Routes{
		Handlers: map[string]kit.Handler{"": h.odds},
		Suggest:  map[string]kit.Handler{"expression": h.suggestRolls},
		NoStore:  true,
	})
}

// MountSystem adds /system to r.
func MountSystem(env *kit.Env, r *kit.Router) {
	h := &handlers{Env: env}
	r.Mount(systemCommand(env.Systems), kit.Routes{
		Handlers: map[string]kit.Handler{"set": h.systemSet, "show": h.systemShow, "gm-channel": h.systemGMChannel, "dice": h.systemDice},
		GMOnly:   []string{"set", "gm-channel", "dice"},
	})
	r.HelpNote("roll", h.diceNote)
}

// MountRecords adds /history and /help to r.
func MountRecords(env *kit.Env, r *kit.Router) {
	h := &handlers{Env: env}
	r.Mount(historyCommand, kit.Routes{Handlers: map[string]kit.Handler{"": h.history}})
	r.Mount(helpCommand, kit.Routes{
		Handlers: map[string]kit.Handler{"": h.help},
		Suggest:  map[string]kit.Handler{"command": h.suggestCommands},
		NoStore:  true,
	})
}

var rollCommand = kit.Command{
	Name:        "roll",
	Description: "Roll dice: 1d20+5, 4d6kh3, 2d6+3",
	Options: []kit.Option{
		{Type: kit.String, Name: "expression", Description: "What to roll, e.g. 1d20+5 or 4d6kh3", Required: true, MaxLength: dice.MaxExprLen, Autocomplete: true},
		kit.DiceOption,
		kit.PrivateOption, kit.VisibilityOption,
		rollCharacterOption,
	},
}

// rollCharacterOption is `character:` as the rules commands take it, for
// the stats a roll's names read (1d20+som).
var rollCharacterOption = func() kit.Option {
	o := kit.CharacterOption
	o.Description = "Whose sheet the stats in the expression come from, e.g. som in 1d20+som"
	return o
}()

// characterCommand is /character, whose system: options choose among
// systems.
func characterCommand(systems []kit.System) kit.Command {
	return kit.Command{
		Name:        "character",
		Description: "Character sheets: the stats rules commands read",
		Options: []kit.Option{
			{Type: kit.SubCommand, Name: "create", Description: "Create a character", Options: []kit.Option{
				{Type: kit.String, Name: "name", Description: "The character's name", Required: true, MaxLength: kit.MaxNameLen},
				{Type: kit.String, Name: "system", Description: "Its rule system", Required: true, Choices: kit.SystemChoices(systems)},
				{Type: kit.String, Name: "stats", Description: "Stats as name=value, e.g. \"ks=4 us=3 es=5\"", MaxLength: 1000},
				{Type: kit.UserOption, Name: "owner", Description: "Who plays it (GM only; default: you)"},
				hiddenOption,
			}},
			{Type: kit.SubCommand, Name: "set", Description: "Create a character or change its stats", Options: []kit.Option{
				{Type: kit.String, Name: "name", Description: "The character's name", Required: true, Autocomplete: true, MaxLength: kit.MaxNameLen},
				{Type: kit.String, Name: "system", Description: "Its rule system (needed when creating)", Choices: kit.SystemChoices(systems)},
				{Type: kit.String, Name: "stats", Description: "Stats as name=value, e.g. \"ks=4 us=3 es=5\"; name=- removes one", MaxLength: 1000},
				{Type: kit.UserOption, Name: "owner", Description: "Who plays it (GM only; default: you)"},
				hiddenOption,
				{Type: kit.String, Name: "rename", Description: "A new name for it", MaxLength: kit.MaxNameLen},
			}},
			{Type: kit.SubCommand, Name: "show", Description: "Show a character's sheet", Options: []kit.Option{
				{Type: kit.String, Name: "name", Description: "The character's name", Required: true, Autocomplete: true, MaxLength: kit.MaxNameLen},
				whichOption,
			}},
			{Type: kit.SubCommand, Name: "list", Description: "List the characters of this server", Options: []kit.Option{
				{Type: kit.String, Name: "system", Description: "Only this rule system", Choices: kit.SystemChoices(systems)},
				{Type: kit.UserOption, Name: "owner", Description: "Only this person's characters"},
			}},
			{Type: kit.SubCommand, Name: "delete", Description: "Delete a character", Options: []kit.Option{
				{Type: kit.String, Name: "name", Description: "The character's name", Required: true, Autocomplete: true, MaxLength: kit.MaxNameLen},
				whichOption,
			}},
		},
	}
}

// hiddenOption hides a sheet: an NPC the GM keeps secret, which only the
// GMs and its owner may read (kit.CanRead).
var hiddenOption = kit.Option{Type: kit.Boolean, Name: "hidden", Description: "Only the GMs and its owner may read the sheet (a secret NPC)"}

// whichOption says which of two sheets of one name a GM means: a visible
// and a hidden one may share it (a player's, and the GM's secret NPC).
var whichOption = kit.Option{Type: kit.Boolean, Name: "hidden", Description: "Of a visible and a hidden sheet of this name: true for the hidden one"}

var oddsCommand = kit.Command{
	Name:        "odds",
	Description: "The exact odds of a roll: mean, chances and a histogram",
	Options: []kit.Option{
		{Type: kit.String, Name: "expression", Description: "What to roll, e.g. 3d6 or 4d6kh3", Required: true, MaxLength: dice.MaxExprLen, Autocomplete: true},
		{Type: kit.Integer, Name: "target", Description: "Also give the chance of rolling at least this, e.g. 15"},
		{Type: kit.String, Name: "versus", Description: "An opposing roll, e.g. 1d20+3: the chances to beat it, tie and lose", MaxLength: dice.MaxExprLen},
		{Type: kit.Boolean, Name: "private", Description: "Only you see the result"},
	},
}

// systemCommand is /system, whose name: chooses among systems.
func systemCommand(systems []kit.System) kit.Command {
	return kit.Command{
		Name:        "system",
		Description: "The rule system of this channel or server: what /init start runs",
		Options: []kit.Option{
			{Type: kit.SubCommand, Name: "set", Description: "Choose the rule system of this channel, or of the whole server (GM)", Options: []kit.Option{
				{Type: kit.String, Name: "name", Description: "The rule system", Required: true, Choices: kit.SystemChoices(systems)},
				{Type: kit.String, Name: "scope", Description: "This channel (default) or the whole server",
					Choices: []kit.Choice{{Name: "channel", Value: "channel"}, {Name: "server", Value: "guild"}}},
			}},
			{Type: kit.SubCommand, Name: "show", Description: "Show the rule system in force in this channel"},
			{Type: kit.SubCommand, Name: "gm-channel", Description: "Where Tablehand posts gm and blind rolls for the GMs (GM)", Options: []kit.Option{
				{Type: kit.ChannelOption, Name: "channel", Description: "A channel only the GMs can read", Required: true},
			}},
			{Type: kit.SubCommand, Name: "dice", Description: "Whether players may type in dice they rolled (dice:) here or in the server (GM)", Options: []kit.Option{
				{Type: kit.String, Name: "players", Description: "rolled: Tablehand rolls every player's dice; any: players may type theirs in", Required: true,
					Choices: []kit.Choice{{Name: "rolled by Tablehand", Value: kit.DiceRolled}, {Name: "any (dice: allowed)", Value: kit.DiceAny}}},
				{Type: kit.String, Name: "scope", Description: "This channel (default) or the whole server",
					Choices: []kit.Choice{{Name: "channel", Value: "channel"}, {Name: "server", Value: "guild"}}},
			}},
		},
	}
}

var historyCommand = kit.Command{
	Name:        "history",
	Description: "Recent rolls in this channel, with their IDs",
	Options: []kit.Option{
		{Type: kit.UserOption, Name: "user", Description: "Only this person's rolls"},
		{Type: kit.Integer, Name: "count", Description: "How many rolls (default 10)", MinValue: kit.Float(1), MaxValue: kit.Float(maxHistory)},
	},
}

var helpCommand = kit.Command{
	Name:        "help",
	Description: "List Tablehand's commands, or one command's options",
	Options: []kit.Option{
		{Type: kit.String, Name: "command", Description: "A command to explain in full, e.g. roll", Autocomplete: true, MaxLength: 32},
	},
}
