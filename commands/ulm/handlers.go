package ulm

import (
	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/commands/tracker"
)

// handlers answers /ulm; fight acts on the channel's running encounter.
type handlers struct {
	*kit.Env
	fight *tracker.Tracker
}

// Mount adds /ulm to r.
func Mount(env *kit.Env, r *kit.Router) {
	(&handlers{Env: env, fight: &tracker.Tracker{Env: env}}).register(r)
}
