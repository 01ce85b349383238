// Package core answers the commands that belong to no rule system: /roll,
// /odds, /history, /character, /system and /help. They learn of the
// systems only through the registry's kit.System values (env.Systems).
package core

import "github.com/tablehand/tablehand/commands/kit"

// handlers answers the commands of this package.
type handlers struct{ *kit.Env }

// MountDice adds /roll and /character to r.
func MountDice(env *kit.Env, r *kit.Router) {
	h := &handlers{env}
	r.Define(rollCommand)
	r.Route("roll", h.roll, false)
	r.RouteAutocomplete("roll", "expression", h.suggestRolls)
	r.RouteComponent("reroll", h.rollAgain, false)

	r.Define(characterCommand(env.Systems))
	r.Route("character/create", h.characterCreate, false)
	r.Route("character/set", h.characterSet, false)
	r.Route("character/show", h.characterShow, false)
	r.Route("character/list", h.characterList, false)
	r.Route("character/delete", h.characterDelete, false)
	for _, sub := range []string{"set", "show", "delete"} {
		r.RouteAutocomplete("character/"+sub, "name", h.SuggestCharacters)
	}
}

// MountOdds adds /odds to r.
func MountOdds(env *kit.Env, r *kit.Router) { (&handlers{env}).registerOdds(r) }

// MountSystem adds /system to r.
func MountSystem(env *kit.Env, r *kit.Router) { (&handlers{env}).registerSystem(r) }

// MountRecords adds /history and /help to r.
func MountRecords(env *kit.Env, r *kit.Router) {
	h := &handlers{env}
	r.Define(historyCommand)
	r.Route("history", h.history, false)

	r.Define(helpCommand)
	r.Route("help", h.help, false)
	r.RouteAutocomplete("help", "command", h.suggestCommands)
}
