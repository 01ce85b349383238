// Package commands puts Tablehand's slash commands together: the core
// commands (commands/core), the tracker (commands/tracker) and each rule
// system of the registry (Systems), on one router of commands/kit.
//
// A handler takes the project's own kit.Request and returns its own
// kit.Response: it never talks to Discord, so the gateway, the HTTP
// endpoint and the console all serve the same handlers, and a test just
// calls one and compares.
package commands

import (
	"github.com/tablehand/tablehand/commands/core"
	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/commands/tracker"
	"github.com/tablehand/tablehand/rules/encounter"
)

// New returns the router with every Tablehand command registered: those
// of deps.Systems (nil: Systems), configured by deps.Rules (a system it
// leaves out has its defaults). A configuration the rules cannot work
// with is a wiring mistake (bot.LoadConfig refuses one with an error),
// and panics, naming its system.
func New(deps kit.Deps) *kit.Router {
	if deps.Codes == nil {
		deps.Codes = kit.NewCodes(0, false)
	}
	if deps.Systems == nil {
		deps.Systems = Systems
	}
	deps.Rules = validRules(deps.Rules, deps.Systems)
	r := kit.NewRouter(deps.Log, deps.GMRoles)
	r.SetDatabase(deps.Database)
	if deps.Names == nil {
		deps.Names, _ = deps.Store.(kit.NameStore)
	}
	if deps.Names != nil {
		r.SetNames(deps.Names)
	}
	if deps.Channels != nil {
		r.SetDiceRules(deps.Channels)
	}
	env := &kit.Env{Deps: deps, Router: r}

	// /help lists the commands in this order: the dice, the systems that
	// fight, the tools of the table, the games without fights, the record.
	core.MountDice(env, r)
	for _, s := range deps.Systems {
		if s.Fights() {
			s.Mount(env, r)
		}
	}
	core.MountOdds(env, r)
	tracker.Mount(env, r)
	core.MountSystem(env, r)
	for _, s := range deps.Systems {
		if !s.Fights() {
			s.Mount(env, r)
		}
	}
	core.MountRecords(env, r)
	return r
}

// DefaultRules returns the documented defaults of every system of Systems.
func DefaultRules() kit.Rules { return kit.Rules{}.WithDefaults(Systems) }

// Policies returns the tracker's rules of every system of systems (nil:
// Systems) that fights, each configured by rules, and the generic rules.
// A configuration the rules cannot work with panics, as in New.
func Policies(systems []kit.System, rules kit.Rules) encounter.Policies {
	if systems == nil {
		systems = Systems
	}
	rules = validRules(rules, systems)
	ps := []encounter.Policy{encounter.Generic{}}
	for _, s := range systems {
		if s.Fights() {
			ps = append(ps, s.Policy(rules[s.Name]))
		}
	}
	return encounter.NewPolicies(ps...)
}

// validRules is rules with the defaults of every system of systems it
// leaves out; a configuration the rules cannot work with panics.
func validRules(rules kit.Rules, systems []kit.System) kit.Rules {
	rules = rules.WithDefaults(systems)
	if err := rules.Validate(systems); err != nil {
		panic("commands: config " + err.Error())
	}
	return rules
}
