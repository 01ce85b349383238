package tracker

import "github.com/tablehand/tablehand/commands/kit"

// Tracker answers /init, and lets a rule system act on a running fight.
type Tracker struct{ *kit.Env }

// Mount adds /init to r.
func Mount(env *kit.Env, r *kit.Router) { (&Tracker{env}).registerInit(r) }
