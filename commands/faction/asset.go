package faction

import (
	"context"
	"slices"
	"strings"

	"github.com/tablehand/tablehand/commands/kit"
	rules "github.com/tablehand/tablehand/rules/faction"
)

func (h *handlers) factionAssetAdd(ctx context.Context, req *kit.Request) (kit.Response, error) {
	var res AssetResult
	var line string
	_, err := h.update(ctx, req, func(c *rules.Campaign) error {
		f := c.Faction(req.Options.String("faction"))
		if f == nil {
			return kit.Errorf("there is no faction %q: see /faction list", req.Options.String("faction"))
		}
		at := req.Options.String("at")
		if at == "" {
			if at = f.Home; at == "" {
				for _, hb := range c.Habitats {
					if hb.Owner == f.Name {
						at = hb.Name
						break
					}
				}
			}
		}
		if at == "" {
			return kit.Errorf("%s holds no habitat: say where with at:, e.g. at:Luna", f.Name)
		}
		a, err := c.AddAsset(f.Name, req.Options.String("chart"), at)
		if err != nil {
			return err
		}
		if n := req.Options.String("name"); n != "" {
			if a.Name, err = kit.CleanName("asset name", n); err != nil {
				return err
			}
		}
		res, line = assetResult(c, f, a), assetLine(c, f, a)
		return nil
	})
	if err != nil {
		return kit.Response{}, err
	}
	return kit.Response{Content: "Added " + line, Ephemeral: true, Result: res}, nil
}

// findAsset returns an asset by ID and its owner.
func findAsset(c *rules.Campaign, id int64) (*rules.Asset, *rules.Faction, error) {
	a, f := c.Asset(int(id))
	if a == nil {
		return nil, nil, kit.Errorf("there is no asset #%d: see /faction asset list", id)
	}
	return a, f, nil
}

func (h *handlers) factionAssetSet(ctx context.Context, req *kit.Request) (kit.Response, error) {
	id, _ := req.Options.Int("asset")
	var res AssetResult
	var line string
	_, err := h.update(ctx, req, func(c *rules.Campaign) error {
		a, own, err := findAsset(c, id)
		if err != nil {
			return err
		}
		if n, ok := req.Options.Int("level"); ok {
			a.Level = int(n)
		}
		if n, ok := req.Options.Int("health"); ok {
			a.Health = int(n)
		}
		a.Health = min(a.Health, a.Level)
		if at := req.Options.String("at"); at != "" {
			hb := c.Habitat(at)
			if hb == nil {
				return kit.Errorf("there is no habitat %q: see /faction habitat list", at)
			}
			a.Location, a.Transit, a.Aboard = hb.Name, nil, 0
		}
		if req.Options.Has("covert") {
			a.Covert, a.Revealed = req.Options.Bool("covert"), !req.Options.Bool("covert")
		}
		if n := req.Options.String("name"); n != "" {
			if a.Name, err = kit.CleanName("asset name", n); err != nil {
				return err
			}
		}
		if to := req.Options.String("faction"); to != "" {
			g := c.Faction(to)
			if g == nil {
				return kit.Errorf("there is no faction %q: see /faction list", to)
			}
			if g != own {
				own.Assets = slices.DeleteFunc(own.Assets, func(x *rules.Asset) bool { return x == a })
				g.Assets = append(g.Assets, a)
				own = g
			}
		}
		res, line = assetResult(c, own, a), assetLine(c, own, a)
		return nil
	})
	if err != nil {
		return kit.Response{}, err
	}
	return kit.Response{Content: "Updated " + line, Ephemeral: true, Result: res}, nil
}

func (h *handlers) factionAssetRemove(ctx context.Context, req *kit.Request) (kit.Response, error) {
	id, _ := req.Options.Int("asset")
	var label string
	_, err := h.update(ctx, req, func(c *rules.Campaign) error {
		a, own, err := findAsset(c, id)
		if err != nil {
			return err
		}
		label = a.Label() + " of " + own.Name
		own.Assets = slices.DeleteFunc(own.Assets, func(x *rules.Asset) bool { return x == a })
		return nil
	})
	if err != nil {
		return kit.Response{}, err
	}
	return kit.Response{Content: "Removed " + kit.EscapeMarkdown(label) + ".", Ephemeral: true, Result: map[string]int64{"removed": id}}, nil
}

func (h *handlers) factionAssetList(ctx context.Context, req *kit.Request) (kit.Response, error) {
	fc, err := h.campaign(ctx, req)
	if err != nil {
		return kit.Response{}, err
	}
	c := fc.Campaign
	f, err := viewFaction(c, req, req.Options.String("faction"))
	if err != nil {
		return kit.Response{}, err
	}
	out := []AssetResult{}
	var lines []string
	for _, a := range f.Assets {
		if sees(c, req, f, a) {
			out = append(out, assetResult(c, f, a))
			lines = append(lines, assetLine(c, f, a))
		}
	}
	if len(lines) == 0 {
		lines = append(lines, "no assets")
	}
	return kit.Response{Embeds: []kit.Embed{{Title: f.Name + "'s assets", Description: strings.Join(lines, "\n")}}, Ephemeral: true, Result: out}, nil
}
