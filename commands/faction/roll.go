package faction

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/rules/dice"
	rules "github.com/tablehand/tablehand/rules/faction"
)

// /faction roll: a bare test of the text's roll types (4.2.1), with the
// numbers typed or read from the campaign.

// FactionRollResult is the console's `result` of /faction roll.
type FactionRollResult struct {
	kit.Outcome
	Test rules.Test `json:"test"`
}

const rollExample = "/faction roll type:straight-faction attribute:4 dice:3"

// rollHint is added to a mistake in the dice: values.
const rollHint = "a straight roll takes 1 die, an opposed roll 2: the actor's, then the defender's"

func (h *handlers) roll(ctx context.Context, req *kit.Request) (kit.Response, error) {
	kind, err := rollType(req)
	if err != nil {
		return kit.Response{}, err
	}
	camp, err := h.rollCampaign(ctx, req)
	if err != nil {
		return kit.Response{}, err
	}
	c, err := h.begin(ctx, req)
	if err != nil {
		return kit.Response{}, err
	}
	in := readRoll(c, kind, camp)
	if err := c.Err(); err != nil {
		return kit.Response{}, err
	}
	test, err := in.roll(c.Tray.Roller())
	if err != nil {
		return kit.Response{}, factionError(err)
	}
	return rollReply(ctx, c, kind, test, in.own)
}

// rollType reads type:. The roll types are its choices, so a word the
// rules do not know, or "none", is a request that did not come through
// Discord's client.
func rollType(req *kit.Request) (rules.RollType, error) {
	kind, err := rules.ParseRollType(req.Options.String("type"))
	if err != nil || kind == rules.RollNone {
		return kind, kit.Errorf("type: use %s (example: %s)", rules.RollTypes.Use(), rollExample)
	}
	return kind, nil
}

// rollCampaign is the campaign a roll reads numbers from, when an option
// names a faction, an asset or an Attribute (attribute:INT, read from the
// asker's faction when faction: is not given); else nil, and the roll
// needs no campaign.
func (h *handlers) rollCampaign(ctx context.Context, req *kit.Request) (*rules.Campaign, error) {
	o := req.Options
	if o.String("faction") == "" && o.String("defender") == "" && !o.Has("asset") && !o.Has("defender_asset") && !namesAttribute(o.String("attribute")) {
		return nil, nil
	}
	fc, err := h.campaign(ctx, req)
	if err != nil {
		return nil, err
	}
	if err := resolveAssets(fc.Campaign, req); err != nil {
		return nil, err
	}
	return fc.Campaign, nil
}

// namesAttribute reports whether an attribute: option is an Attribute's
// name (INT), not a number.
func namesAttribute(text string) bool {
	text = strings.TrimSpace(text)
	if text == "" {
		return false
	}
	_, err := strconv.Atoi(strings.TrimPrefix(text, "+"))
	return err != nil
}

// rollInput is what a roll rolls with: the actor's Attribute (a straight
// faction roll) or asset Level and bonus, and the defender's Attribute
// or Level and bonus.
type rollInput struct {
	kind                    rules.RollType
	attr, level, bonus      int
	defender, defenderBonus int
	// own is the asker's faction when an Attribute was read from it
	// without faction: ("" otherwise): the reply says so.
	own string
}

// readRoll reads the numbers kind rolls with, in the order the rules
// take them, keeping the first mistake in c. A faction roll has no
// `character:` sheet: a number comes from its option, else from the
// campaign (the faction's Attribute, the asset's Level), so kit's Need,
// whose mistake offers a sheet, does not fit.
func readRoll(c *kit.Call, kind rules.RollType, camp *rules.Campaign) rollInput {
	in := rollInput{kind: kind}
	r := rollReader{c: c, kind: kind, camp: camp}
	switch kind {
	case rules.RollStraightFaction:
		in.attr, in.own = r.attribute("attribute", "faction")
	case rules.RollStraightAsset:
		in.level, in.bonus = r.asset("level", "asset", "hta")
	case rules.RollOpposedFaction:
		in.level, in.bonus = r.asset("level", "asset", "hta")
		in.defender, _ = r.attribute("defender_attribute", "defender")
	case rules.RollOpposedAsset:
		in.level, in.bonus = r.asset("level", "asset", "hta")
		in.defender, in.defenderBonus = r.asset("defender_level", "defender_asset", "defender_hta")
	}
	return in
}

// roll rolls the test with r.
func (in rollInput) roll(r dice.Roller) (rules.Test, error) {
	switch in.kind {
	case rules.RollStraightFaction:
		return rules.StraightFaction(in.attr, r)
	case rules.RollStraightAsset:
		return rules.StraightAsset(in.level, in.bonus, r)
	case rules.RollOpposedFaction:
		return rules.OpposedFaction(in.level, in.bonus, in.defender, r)
	case rules.RollOpposedAsset:
		return rules.OpposedAsset(in.level, in.bonus, in.defender, in.defenderBonus, r)
	}
	return rules.Test{}, nil
}

// rollReader reads one side's numbers of a roll.
type rollReader struct {
	c    *kit.Call
	kind rules.RollType
	camp *rules.Campaign
}

// attribute reads the Attribute option opt: a number, or an Attribute of
// the faction that the option factionOpt names, else of the asker's
// faction, which it then returns as own ("" otherwise).
func (r rollReader) attribute(opt, factionOpt string) (attr int, own string) {
	o := r.c.Req.Options
	text := strings.TrimSpace(o.String(opt))
	if text == "" {
		r.c.Failf("%s roll needs %s: a number, or %s with %s:<name> (example: %s)", r.kind, opt, rules.AttrWords.Use(), factionOpt, rollExample)
		return 0, ""
	}
	if n, err := strconv.Atoi(strings.TrimPrefix(text, "+")); err == nil {
		return n, ""
	}
	a, err := rules.ParseAttr(text)
	if err != nil {
		r.c.Failf("%s:%s is not a number or an Attribute (RES, INT, COH, STR)", opt, text)
		return 0, ""
	}
	name := o.String(factionOpt)
	if name == "" && factionOpt == "faction" && r.camp != nil {
		// The actor is the asker's faction by default, as for /faction
		// order: their one faction, if they play one.
		if f, err := userFaction(r.camp, r.c.Req, ""); err == nil {
			name = f.Name
			own = f.Name
		}
	}
	if name == "" || r.camp == nil {
		example := "Red Cell"
		if r.camp != nil {
			example = firstName(r.camp)
		}
		r.c.Failf("%s:%s names an Attribute: say whose with %s:<faction> (example: /faction roll type:%s %s:%s %s:%q)", opt, text, factionOpt, r.kind, opt, text, factionOpt, example)
		return 0, ""
	}
	f := r.camp.Faction(name)
	if f == nil {
		r.c.Failf("there is no faction %q", name)
		return 0, ""
	}
	return r.camp.Attribute(f, a), own
}

// asset reads the Level option opt, else the Level of the asset the
// option assetOpt names, and the bonus of bonusOpt.
func (r rollReader) asset(opt, assetOpt, bonusOpt string) (level, bonus int) {
	level, a, own := r.level(opt, assetOpt)
	return level, r.bonus(bonusOpt, a, own)
}

// level is the option opt, else the Level of the asset the option
// assetOpt names, which is then returned with its owner.
func (r rollReader) level(opt, assetOpt string) (int, *rules.Asset, *rules.Faction) {
	// The sheet is empty (see readRoll): Stat is the option alone.
	if n, ok := r.c.Stat(opt); ok {
		return n, nil, nil
	}
	id, ok := r.c.Req.Options.Int(assetOpt)
	if !ok {
		r.c.Failf("%s roll needs %s: a Level, or %s:<asset> (example: /faction roll type:%s %s:2 dice:7)", r.kind, opt, assetOpt, r.kind, opt)
		return 0, nil, nil
	}
	a, own, err := findAsset(r.camp, id)
	if err != nil {
		r.c.Fail(err)
		return 0, nil, nil
	}
	if !viewer(r.c.Req).Sees(r.camp, own, a) {
		// A Covert asset is not there for the other players: its Level
		// and place are its owner's secret.
		// The same words as for a number no asset has.
		r.c.Fail(noAsset(id))
		return 0, nil, nil
	}
	return a.Health, a, own
}

// bonus is the option, else an asset's Home Turf Advantage on opposed
// rolls ("Includes Home Turf Advantage unless otherwise noted").
func (r rollReader) bonus(opt string, a *rules.Asset, own *rules.Faction) int {
	if n, ok := r.c.Stat(opt); ok {
		return n
	}
	if a != nil && (r.kind == rules.RollOpposedAsset || r.kind == rules.RollOpposedFaction) && r.camp.Home(own, a.Location) {
		return r.camp.Attribute(own, a.Type)
	}
	return 0
}

// rollReply logs the roll and answers with the test and its exact chance.
// own, when not "", is the asker's faction, whose Attribute was read
// without faction:: the reply says so, as /arc says which character.
func rollReply(ctx context.Context, c *kit.Call, kind rules.RollType, test rules.Test, own string) (kit.Response, error) {
	res := FactionRollResult{Outcome: kit.Outcome{Total: test.Roll}, Test: test}
	if test.Total != 0 {
		res.Total = test.Total
	}
	res.Succeeded(test.Success, test.Margin)
	if err := c.Finish(ctx, rules.SystemName+" "+string(kind), &res.Outcome, &res, rollHint); err != nil {
		return kit.Response{}, err
	}
	// The rules roll die by die through the tray's Roller, so the tray
	// keeps no breakdown; the roll's ID ends the line of the chance.
	given := ""
	if own != "" {
		given += "\n-# " + kit.EscapeMarkdown(own) + " is your faction: faction: names another"
	}
	if note := c.DiceGivenNote(); note != "" {
		given += "\n" + note
	}
	return c.Conceal(res.ID, kit.Response{Result: res, Content: fmt.Sprintf("🎲 **%s**: %s%s\n-# exact chance %s · roll %s",
		c.Who(), test.Text, given, kit.Percent(test.Chance), res.ID)}), nil
}
