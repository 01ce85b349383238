package faction

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/tablehand/tablehand/commands/kit"
	rules "github.com/tablehand/tablehand/rules/faction"
)

// FactionRollResult is the console's `result` of /faction roll.
type FactionRollResult struct {
	kit.Outcome
	Test rules.Test `json:"test"`
}

func (h *handlers) factionRoll(ctx context.Context, req *kit.Request) (kit.Response, error) {
	const example = "/faction roll type:straight-faction attribute:4 dice:3"
	kind, err := rules.ParseRollType(req.Options.String("type"))
	if err != nil || kind == rules.RollNone {
		return kit.Response{}, kit.Errorf("type: use straight-faction, straight-asset, opposed-faction or opposed-asset (example: %s)", example)
	}
	var c *rules.Campaign
	needCampaign := req.Options.String("faction") != "" || req.Options.String("defender") != "" || req.Options.Has("asset") || req.Options.Has("defender_asset")
	if needCampaign {
		fc, err := h.campaign(ctx, req)
		if err != nil {
			return kit.Response{}, err
		}
		c = fc.Campaign
	}
	attribute := func(opt, factionOpt string) (int, error) {
		text := strings.TrimSpace(req.Options.String(opt))
		if text == "" {
			return 0, kit.Errorf("%s roll needs %s: a number, or RES, INT, COH or STR with %s:<name> (example: %s)", kind, opt, factionOpt, example)
		}
		if n, err := strconv.Atoi(strings.TrimPrefix(text, "+")); err == nil {
			return n, nil
		}
		a, err := rules.ParseAttr(text)
		if err != nil {
			return 0, kit.Errorf("%s:%s is not a number or an Attribute (RES, INT, COH, STR)", opt, text)
		}
		name := req.Options.String(factionOpt)
		if name == "" || c == nil {
			return 0, kit.Errorf("%s:%s names an Attribute: say whose with %s:<faction>", opt, text, factionOpt)
		}
		f := c.Faction(name)
		if f == nil {
			return 0, kit.Errorf("there is no faction %q", name)
		}
		return c.Attribute(f, a), nil
	}
	level := func(opt, assetOpt string) (int, *rules.Asset, *rules.Faction, error) {
		if n, ok := req.Options.Int(opt); ok {
			return int(n), nil, nil, nil
		}
		id, ok := req.Options.Int(assetOpt)
		if !ok {
			return 0, nil, nil, kit.Errorf("%s roll needs %s: a Level, or %s:<asset> (example: /faction roll type:%s %s:2 dice:7)", kind, opt, assetOpt, kind, opt)
		}
		a, own, err := findAsset(c, id)
		if err != nil {
			return 0, nil, nil, err
		}
		if !sees(c, req, own, a) {
			// A Covert asset is not there for the other players: its Level
			// and place are its owner's secret.
			return 0, nil, nil, kit.Errorf("there is no asset #%d (see /faction asset list)", id)
		}
		return a.Health, a, own, nil
	}
	// bonus is the option, else an asset's Home Turf Advantage on opposed
	// rolls ("Includes Home Turf Advantage unless otherwise noted").
	bonus := func(opt string, a *rules.Asset, own *rules.Faction) int {
		if n, ok := req.Options.Int(opt); ok {
			return int(n)
		}
		if a != nil && (kind == rules.RollOpposedAsset || kind == rules.RollOpposedFaction) && c.Home(own, a.Location) {
			return c.Attribute(own, a.Type)
		}
		return 0
	}
	t, err := h.Tray(req)
	if err != nil {
		return kit.Response{}, err
	}
	var test rules.Test
	switch kind {
	case rules.RollStraightFaction:
		attr, err := attribute("attribute", "faction")
		if err != nil {
			return kit.Response{}, err
		}
		test, err = rules.StraightFaction(attr, t.Roller())
		if err != nil {
			return kit.Response{}, factionError(err)
		}
	case rules.RollStraightAsset:
		lv, a, own, err := level("level", "asset")
		if err != nil {
			return kit.Response{}, err
		}
		test, err = rules.StraightAsset(lv, bonus("hta", a, own), t.Roller())
		if err != nil {
			return kit.Response{}, factionError(err)
		}
	case rules.RollOpposedFaction:
		lv, a, own, err := level("level", "asset")
		if err != nil {
			return kit.Response{}, err
		}
		def, err := attribute("defender_attribute", "defender")
		if err != nil {
			return kit.Response{}, err
		}
		test, err = rules.OpposedFaction(lv, bonus("hta", a, own), def, t.Roller())
		if err != nil {
			return kit.Response{}, factionError(err)
		}
	case rules.RollOpposedAsset:
		lv, a, own, err := level("level", "asset")
		if err != nil {
			return kit.Response{}, err
		}
		dl, da, down, err := level("defender_level", "defender_asset")
		if err != nil {
			return kit.Response{}, err
		}
		test, err = rules.OpposedAsset(lv, bonus("hta", a, own), dl, bonus("defender_hta", da, down), t.Roller())
		if err != nil {
			return kit.Response{}, factionError(err)
		}
	}
	res := FactionRollResult{Outcome: kit.Outcome{Total: test.Roll}, Test: test}
	if test.Total != 0 {
		res.Total = test.Total
	}
	res.Succeeded(test.Success, test.Margin)
	if err := h.Finish(ctx, req, t, "faction "+string(kind), &res.Outcome, &res); err != nil {
		if ue, ok := kit.AsUserError(err); ok {
			ue.Msg += " (a straight roll takes 1 die, an opposed roll 2: the actor's, then the defender's)"
		}
		return kit.Response{}, err
	}
	content := fmt.Sprintf("🎲 **%s**: %s\n-# exact chance %s · roll %s", kit.DisplayName(req.User), test.Text, kit.Percent(test.Chance), res.ID)
	return kit.Response{Content: content, Ephemeral: req.Options.Bool("private"), Result: res}, nil
}
