package kit

import (
	"context"
	"fmt"
	"strings"
)

// The links of the read-only web pages (a faction campaign's, a fight's),
// which bot/web.go serves at PublicURL + PagePath + token. /faction page
// and /init page answer with them alike.

// PagePath is the path of a page under the public address; the token
// follows it.
const PagePath = "/p/"

// NoPublicURL is the mistake of asking for pages the operator has not
// given an address to.
var NoPublicURL = &UserError{Msg: "the web pages need the address people reach Tablehand at, and it has none: " +
	"the bot's operator sets public_url in tablehand.toml, e.g. public_url = \"https://tablehand.example.org\", " +
	"and serves the pages with `tablehand http` or `tablehand serve --web 127.0.0.1:8081`"}

// PageResult is the console's `result` of /faction page and /init page.
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

// PageLinks answers a GM's request for the links of the page of scope
// (what names it for people: "faction campaign", "fight"): privately,
// both links; with share:true the players' link in the channel as well;
// with revoke:true new links, the old ones dead. exists is the mistake
// of there being nothing of scope to show (no campaign, no fight), or
// nil; without a public address, that comes first.
func (e *Env) PageLinks(ctx context.Context, req *Request, scope, what string, exists func() error) (Response, error) {
	if e.PublicURL == "" || e.Pages == nil {
		return Response{}, NoPublicURL
	}
	if err := exists(); err != nil {
		return Response{}, err
	}
	renew := req.Options.Bool("revoke")
	links, err := e.Pages.PageLinks(ctx, req.GuildID, scope, renew)
	if err != nil {
		return Response{}, fmt.Errorf("page links: %w", err)
	}
	// Links the store could not show again (made before it kept only
	// their hashes, or under another page secret) were renewed as well.
	renew = renew || links.Renewed
	res := PageResult{Players: PageURL(e.PublicURL, links.Players), GM: PageURL(e.PublicURL, links.GM),
		Shared: req.Options.Bool("share"), Renewed: renew}
	var b strings.Builder
	if renew {
		b.WriteString("New links: the old ones now answer \"not found\".\n")
	}
	fmt.Fprintf(&b, "The %s's read-only pages (anyone with a link can read its page):\n", what)
	fmt.Fprintf(&b, "👥 Players: <%s>\n", res.Players)
	fmt.Fprintf(&b, "🔒 GM, for you alone (what only the GM sees): <%s>\n", res.GM)
	if !renew {
		fmt.Fprintf(&b, "Share the players' link with share:true; kill both links with revoke:true.")
	}
	r := Response{Content: strings.TrimSpace(b.String()), Ephemeral: true, Result: res}
	if res.Shared {
		r.Followups = []Response{{Content: fmt.Sprintf("📜 The %s's page: <%s>", what, res.Players)}}
	}
	return r, nil
}
