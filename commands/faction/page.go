package faction

import (
	"context"
	"fmt"
	"strings"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/db"
)

// /faction page: the links of the campaign's read-only web pages, which
// bot/web.go serves at PublicURL + PagePath + token.

// PagePath is the path of a page under the public address; the token
// follows it.
const PagePath = "/p/"

// NoPublicURL is the mistake of asking for pages the operator has not
// given an address to.
var NoPublicURL = &kit.UserError{Msg: "the web pages need the address people reach Tablehand at, and it has none: " +
	"the bot's operator sets public_url in tablehand.toml, e.g. public_url = \"https://tablehand.example.org\", " +
	"and serves the pages with `tablehand http` or `tablehand serve --web 127.0.0.1:8081`"}

// PageResult is the console's `result` of /faction page.
type PageResult struct {
	Players string `json:"players_url"`
	GM      string `json:"gm_url"`
	Shared  bool   `json:"shared,omitempty"`
	Renewed bool   `json:"renewed,omitempty"`
}

// PageURL is the address of the page a token opens.
func PageURL(publicURL, token string) string {
	return strings.TrimRight(publicURL, "/") + PagePath + token
}

func (h *handlers) page(ctx context.Context, req *kit.Request) (kit.Response, error) {
	if h.PublicURL == "" || h.Pages == nil {
		return kit.Response{}, NoPublicURL
	}
	if _, err := h.campaign(ctx, req); err != nil {
		return kit.Response{}, err
	}
	renew := req.Options.Bool("revoke")
	links, err := h.Pages.PageLinks(ctx, req.GuildID, db.ScopeCampaign, renew)
	if err != nil {
		return kit.Response{}, fmt.Errorf("faction page: %w", err)
	}
	res := PageResult{Players: PageURL(h.PublicURL, links.Players), GM: PageURL(h.PublicURL, links.GM),
		Shared: req.Options.Bool("share"), Renewed: renew}
	var b strings.Builder
	if renew {
		b.WriteString("New links: the old ones now answer \"not found\".\n")
	}
	b.WriteString("The campaign's read-only pages (anyone with a link can read its page):\n")
	fmt.Fprintf(&b, "👥 Players: <%s>\n", res.Players)
	fmt.Fprintf(&b, "🔒 GM, for you alone (covert assets, every order): <%s>\n", res.GM)
	if !renew {
		b.WriteString("Share the players' link with /faction page share:true; kill both links with /faction page revoke:true.")
	}
	r := kit.Response{Content: strings.TrimSpace(b.String()), Ephemeral: true, Result: res}
	if res.Shared {
		r.Followups = []kit.Response{{Content: fmt.Sprintf("📜 The faction campaign's page: <%s>", res.Players)}}
	}
	return r, nil
}
