package faction

import (
	"context"

	"github.com/tablehand/tablehand/commands/kit"
	rules "github.com/tablehand/tablehand/rules/faction"
)

// handlers answers the commands of this package.
type handlers struct{ *kit.Env }

// Mount adds /faction and /schedule to r.
func Mount(env *kit.Env, r *kit.Router) {
	h := &handlers{env}
	h.registerFaction(r)
	h.registerSchedule(r)
}

// begin opens the kit.Call of a command that rolls: the tray of its
// `dice:` option. No /faction command takes a `character:` sheet: the
// numbers a faction rolls with come from the campaign.
func (h *handlers) begin(ctx context.Context, req *kit.Request) (*kit.Call, error) {
	return h.Begin(ctx, req, rules.SystemName)
}
