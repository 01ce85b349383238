package faction

import (
	"context"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/db"
)

// /faction page: the links of the campaign's read-only web pages (see
// kit.Env.PageLinks); bot/web.go serves them.
func (h *handlers) page(ctx context.Context, req *kit.Request) (kit.Response, error) {
	return h.PageLinks(ctx, req, db.ScopeCampaign, "faction campaign", func() error {
		_, err := h.campaign(ctx, req)
		return err
	})
}
