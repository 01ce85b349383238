package faction

import "github.com/tablehand/tablehand/commands/kit"

// handlers answers the commands of this package.
type handlers struct{ *kit.Env }

// Mount adds /faction and /schedule to r.
func Mount(env *kit.Env, r *kit.Router) {
	h := &handlers{env}
	h.registerFaction(r)
	h.registerSchedule(r)
}
