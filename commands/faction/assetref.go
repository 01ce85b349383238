package faction

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tablehand/tablehand/commands/kit"
	rules "github.com/tablehand/tablehand/rules/faction"
)

// assetOptions are the options that name an asset: by number ("4", "#4")
// or by name ("Militia").
var assetOptions = []string{"asset", "target", "defender_asset"}

// resolveAssets turns each option of req that names an asset into the
// asset's number, as the handlers read it (Options.Int). A name is looked
// up among the assets the asker may see, those of the acting faction
// (faction:, else the asker's) first for asset:; a name no asset has, or
// one two share, is the user's mistake, and says which numbers to choose
// from.
func resolveAssets(c *rules.Campaign, req *kit.Request) error {
	for _, opt := range assetOptions {
		text, ok := req.Options[opt].(string)
		if !ok {
			continue
		}
		id, err := assetID(c, req, opt, text)
		if err != nil {
			return err
		}
		req.Options[opt] = int64(id)
	}
	return nil
}

// assetHit is an asset a name matched, with its owner.
type assetHit struct {
	a *rules.Asset
	f *rules.Faction
}

func assetID(c *rules.Campaign, req *kit.Request, opt, text string) (int, error) {
	name := strings.TrimSpace(text)
	if n, err := strconv.Atoi(strings.TrimPrefix(name, "#")); err == nil {
		if n < 1 {
			return 0, kit.Errorf("%s: asset numbers start at 1, not %d: see /faction asset list", opt, n)
		}
		return n, nil
	}
	var acting *rules.Faction
	if opt == "asset" {
		acting, _ = userFaction(c, req, req.Options.String("faction"))
	}
	var all, mine []assetHit
	for _, f := range c.Factions {
		for _, a := range visibleAssets(c, req, f) {
			if strings.EqualFold(a.Name, name) {
				all = append(all, assetHit{a, f})
				if f == acting {
					mine = append(mine, assetHit{a, f})
				}
			}
		}
	}
	hits := all
	if len(mine) > 0 {
		hits = mine
	}
	switch len(hits) {
	case 0:
		eg := opt + ":<number>"
		if acting != nil && len(acting.Assets) > 0 {
			eg = fmt.Sprintf("%s:%d or %s:%s", opt, acting.Assets[0].ID, opt, kit.EscapeInline(acting.Assets[0].Name))
		}
		return 0, kit.Errorf("there is no asset named %s that you can see: see /faction asset list (example: %s)", kit.EscapeInline(name), eg)
	case 1:
		return hits[0].a.ID, nil
	}
	var which []string
	for _, h := range hits {
		which = append(which, fmt.Sprintf("#%d (%s, at %s)", h.a.ID, kit.EscapeInline(h.f.Name), kit.EscapeInline(h.a.Location)))
	}
	return 0, kit.Errorf("%d assets are named %s: %s. Which one? Name it by its number (example: %s:%d)",
		len(hits), kit.EscapeInline(hits[0].a.Name), strings.Join(which, ", "), opt, hits[0].a.ID)
}
