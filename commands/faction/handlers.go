package faction

import (
	"context"
	"fmt"
	"time"

	"github.com/tablehand/tablehand/commands/kit"
	rules "github.com/tablehand/tablehand/rules/faction"
)

// handlers answers the commands of this package.
type handlers struct {
	*kit.Env
	// factions is the store of the game's campaigns (env.Store).
	factions campaigns
}

// Mount adds /faction and /schedule to r, the rounds' scheduled work and
// the campaign's web page. The store of env must keep campaigns (Store);
// without a store (the definitions alone, `tablehand commands`) the
// commands are defined but cannot run, and there is no page.
func Mount(env *kit.Env, r *kit.Router) {
	h := &handlers{Env: env}
	if env.Store != nil {
		s, ok := env.Store.(Store)
		if !ok {
			panic(fmt.Sprintf("faction: the store, a %T, keeps no faction campaigns (faction.Store)", env.Store))
		}
		h.factions = campaigns{s}
		now := env.Now
		if now == nil {
			now = time.Now
		}
		r.AddPage(&campaignPage{store: s, calendar: env.Calendar, now: now, cache: newPageCache(DefaultPageCacheBytes)})
	}
	h.registerFaction(r)
	h.registerSchedule(r)
	r.AddJob(roundsJob{h})
}

// begin opens the kit.Call of a command that rolls: the tray of its
// `dice:` option. No /faction command takes a `character:` sheet: the
// numbers a faction rolls with come from the campaign.
func (h *handlers) begin(ctx context.Context, req *kit.Request) (*kit.Call, error) {
	return h.Begin(ctx, req, rules.SystemName)
}
