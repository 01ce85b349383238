package commands

import (
	"github.com/tablehand/tablehand/commands/arc"
	"github.com/tablehand/tablehand/commands/burst"
	"github.com/tablehand/tablehand/commands/core"
	"github.com/tablehand/tablehand/commands/faction"
	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/commands/tracker"
	"github.com/tablehand/tablehand/commands/ulm"
	"github.com/tablehand/tablehand/commands/xhalem"
)

// New returns the router with every Tablehand command registered.
func New(deps kit.Deps) *kit.Router {
	if deps.Codes == nil {
		deps.Codes = kit.NewCodes(0, false)
	}
	deps.Rules = deps.Rules.WithDefaults()
	r := kit.NewRouter(deps.Log, deps.GMRoles)
	env := &kit.Env{Deps: deps, Router: r}

	core.MountDice(env, r)
	arc.Mount(env, r)
	ulm.Mount(env, r)
	burst.Mount(env, r)
	xhalem.Mount(env, r)
	core.MountOdds(env, r)
	tracker.Mount(env, r)
	core.MountSystem(env, r)
	faction.Mount(env, r)
	core.MountRecords(env, r)
	return r
}
