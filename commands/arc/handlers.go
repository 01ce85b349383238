package arc

import "github.com/tablehand/tablehand/commands/kit"

// handlers answers the commands of this package.
type handlers struct{ *kit.Env }

// Mount adds /arc to r.
func Mount(env *kit.Env, r *kit.Router) { (&handlers{env}).register(r) }
