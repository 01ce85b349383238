package faction

import (
	"context"
	"slices"
	"strings"

	"github.com/tablehand/tablehand/commands/kit"
	rules "github.com/tablehand/tablehand/rules/faction"
)

// /faction asset add, set, remove and list: the factions' assets.

// assetView is an asset as its faction sees it: its line, and the
// console's result.
type assetView struct {
	line   string
	result AssetResult
}

func assetViewOf(c *rules.Campaign, own *rules.Faction, a *rules.Asset) assetView {
	return assetView{line: assetLine(c, own, a), result: assetResult(c, own, a)}
}

// reply says what was done to the asset ("Added", "Updated").
func (v assetView) reply(done string) kit.Response {
	return kit.Response{Content: done + " " + v.line, Ephemeral: true, Result: v.result}
}

func (h *handlers) assetAdd(ctx context.Context, req *kit.Request) (kit.Response, error) {
	var view assetView
	err := h.updateFaction(ctx, req, func(c *rules.Campaign, f *rules.Faction) error {
		at := req.Options.String("at")
		if at == "" {
			at = homeOf(c, f)
		}
		if at == "" {
			if len(c.Habitats) == 0 {
				return kit.Errorf("%s holds no habitat, and the campaign has none yet: add one first (example: /faction habitat add name:<name> region:inner), then say where with at:", f.Name)
			}
			return kit.Errorf("%s holds no habitat: say where with at: (example: at:%s)", f.Name, kit.EscapeInline(c.Habitats[0].Name))
		}
		add := c.AddAsset
		if req.Options.Bool("covert") {
			add = c.AddCovertAsset
		}
		a, err := add(f.Name, req.Options.String("chart"), at)
		if err != nil {
			return err
		}
		if n := req.Options.String("name"); n != "" {
			if a.Name, err = kit.CleanName("asset name", n); err != nil {
				return err
			}
		}
		view = assetViewOf(c, f, a)
		return nil
	})
	if err != nil {
		return kit.Response{}, err
	}
	return view.reply("Added"), nil
}

// homeOf is where a new asset of f goes by default: its home, else the
// first habitat it holds, else "".
func homeOf(c *rules.Campaign, f *rules.Faction) string {
	if f.Home != "" {
		return f.Home
	}
	if habs := habitatsOf(c, f); len(habs) > 0 {
		return habs[0].Name
	}
	return ""
}

// updateAsset is update for a change of the asset the `asset:` option
// names, which own holds.
func (h *handlers) updateAsset(ctx context.Context, req *kit.Request, fn func(c *rules.Campaign, a *rules.Asset, own *rules.Faction) error) error {
	_, err := h.update(ctx, req, func(c *rules.Campaign) error {
		if err := resolveAssets(c, req); err != nil {
			return err
		}
		id, _ := req.Options.Int("asset")
		a, own, err := findAsset(c, id)
		if err != nil {
			return err
		}
		return fn(c, a, own)
	})
	return err
}

func (h *handlers) assetSet(ctx context.Context, req *kit.Request) (kit.Response, error) {
	var view assetView
	err := h.updateAsset(ctx, req, func(c *rules.Campaign, a *rules.Asset, own *rules.Faction) error {
		own, err := setAsset(c, a, own, req.Options)
		if err == nil {
			c.NumberSeen() // no longer Covert: it takes its public number
			view = assetViewOf(c, own, a)
		}
		return err
	})
	if err != nil {
		return kit.Response{}, err
	}
	return view.reply("Updated"), nil
}

// setAsset makes the changes of /faction asset set, in the order of its
// options, and returns the asset's owner after them.
func setAsset(c *rules.Campaign, a *rules.Asset, own *rules.Faction, o kit.Options) (*rules.Faction, error) {
	if n, ok := o.Int("level"); ok {
		a.Level = int(n)
	}
	if n, ok := o.Int("health"); ok {
		a.Health = int(n)
	}
	a.Health = min(a.Health, a.Level)
	if at := o.String("at"); at != "" {
		hb, err := findHabitat(c, at)
		if err != nil {
			return own, err
		}
		a.Location, a.Transit, a.Aboard = hb.Name, nil, 0
	}
	if o.Has("covert") {
		a.Covert, a.Revealed = o.Bool("covert"), !o.Bool("covert")
	}
	if n := o.String("name"); n != "" {
		var err error
		if a.Name, err = kit.CleanName("asset name", n); err != nil {
			return own, err
		}
	}
	if to := o.String("faction"); to != "" {
		g, err := findFaction(c, to)
		if err != nil {
			return own, err
		}
		if g != own {
			removeAsset(own, a)
			g.Assets = append(g.Assets, a)
			own = g
		}
	}
	return own, nil
}

// removeAsset takes a out of f's assets.
func removeAsset(f *rules.Faction, a *rules.Asset) {
	f.Assets = slices.DeleteFunc(f.Assets, func(x *rules.Asset) bool { return x == a })
}

func (h *handlers) assetRemove(ctx context.Context, req *kit.Request) (kit.Response, error) {
	var label string
	err := h.updateAsset(ctx, req, func(c *rules.Campaign, a *rules.Asset, own *rules.Faction) error {
		label = a.Label() + " of " + own.Name
		removeAsset(own, a)
		return nil
	})
	if err != nil {
		return kit.Response{}, err
	}
	id, _ := req.Options.Int("asset") // its number, once resolved
	return kit.Response{Content: "Removed " + kit.EscapeMarkdown(label) + ".", Ephemeral: true, Result: map[string]int64{"removed": id}}, nil
}

func (h *handlers) assetList(ctx context.Context, req *kit.Request) (kit.Response, error) {
	c, f, err := h.campaignFaction(ctx, req, viewFaction)
	if err != nil {
		return kit.Response{}, err
	}
	out := []AssetResult{}
	var lines []string
	for _, a := range visibleAssets(c, req, f) {
		out = append(out, assetResult(c, f, a))
		lines = append(lines, assetLine(c, f, a))
	}
	if len(lines) == 0 {
		lines = append(lines, "no assets")
	}
	return kit.Response{Embeds: []kit.Embed{{Title: f.Name + "'s assets", Description: strings.Join(lines, "\n")}}, Ephemeral: true, Result: out}, nil
}
