package faction

import (
	"context"
	"errors"
	"strings"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/db"
	"github.com/tablehand/tablehand/rules/dice"
	rules "github.com/tablehand/tablehand/rules/faction"
)

// factionConfig is the configuration new campaigns start with: the one
// the handlers were given, or the documented defaults.
func (h *handlers) factionConfig() rules.Config {
	return h.config().Clone()
}

// noCampaign is the mistake of using /faction before a campaign exists.
var NoCampaign = &kit.UserError{Msg: "this server has no faction campaign yet: the GM starts one with /faction create name:\"Red Cell\""}

// campaign loads the guild's campaign; none is the user's mistake.
func (h *handlers) campaign(ctx context.Context, req *kit.Request) (db.FactionCampaign, error) {
	fc, err := h.Factions.Campaign(ctx, req.GuildID)
	if errors.Is(err, db.ErrNotFound) {
		return db.FactionCampaign{}, NoCampaign
	}
	return fc, err
}

// update changes the guild's campaign in one transaction; no campaign is
// the user's mistake, and so is an impossible change of the rules.
func (h *handlers) update(ctx context.Context, req *kit.Request, fn func(c *rules.Campaign) error) (db.FactionCampaign, error) {
	// fn's own error is what the user may see, without the store's
	// wrapping.
	var fnErr error
	fc, err := h.Factions.UpdateCampaign(ctx, req.GuildID, func(fc *db.FactionCampaign) error {
		fnErr = fn(fc.Campaign)
		return fnErr
	})
	if errors.Is(err, db.ErrNotFound) {
		return db.FactionCampaign{}, NoCampaign
	}
	if fnErr != nil {
		return db.FactionCampaign{}, factionError(fnErr)
	}
	return fc, err
}

// factionMistakes are the rules' errors that are the user's to fix.
var factionMistakes = []error{
	rules.ErrUnknownFaction, rules.ErrUnknownAction, rules.ErrUnknownAsset, rules.ErrUnknownHabitat,
	rules.ErrBadParam, rules.ErrNotEnoughAP, rules.ErrNotEnoughStat, rules.ErrWrongPhase,
	rules.ErrAlreadyActed, rules.ErrCannotAct, rules.ErrNotAvailable, rules.ErrTriggered, rules.ErrDenied,
}

// factionError turns an error of the rules into what the user sees: an
// impossible order or a value the dice: option gave is the user's mistake,
// anything else stays ours.
func factionError(err error) error {
	if err == nil {
		return nil
	}
	if _, ok := kit.AsUserError(err); ok {
		return err
	}
	for _, k := range factionMistakes {
		if errors.Is(err, k) {
			return &kit.UserError{Msg: err.Error(), Err: err}
		}
	}
	var de *dice.Error
	if errors.As(err, &de) {
		return kit.DiceError(err)
	}
	return err
}

// userFaction is the faction a request acts for: the one named (a player's
// own only, a GM's any), else the user's only faction.
func userFaction(c *rules.Campaign, req *kit.Request, name string) (*rules.Faction, error) {
	if name = strings.TrimSpace(name); name != "" {
		f := c.Faction(name)
		if f == nil {
			return nil, kit.Errorf("there is no faction %q: see /faction list", name)
		}
		if !req.GM && f.Owner != req.User.ID {
			return nil, kit.Errorf("%s is not your faction: players act only for their own", f.Name)
		}
		return f, nil
	}
	var mine []*rules.Faction
	for _, f := range c.Factions {
		if f.Owner == req.User.ID {
			mine = append(mine, f)
		}
	}
	switch {
	case len(mine) == 1:
		return mine[0], nil
	case len(mine) > 1:
		return nil, kit.Errorf("you play several factions: name one with faction:, e.g. faction:%q", mine[0].Name)
	case req.GM:
		return nil, kit.Errorf("name the faction with faction:, e.g. faction:%q", firstName(c))
	}
	return nil, kit.Errorf("you have no faction in this campaign: the GM gives you one with /faction create owner:")
}

// viewFaction is the faction a request looks at: any named one, else the
// user's own.
func viewFaction(c *rules.Campaign, req *kit.Request, name string) (*rules.Faction, error) {
	if name = strings.TrimSpace(name); name != "" {
		if f := c.Faction(name); f != nil {
			return f, nil
		}
		return nil, kit.Errorf("there is no faction %q: see /faction list", name)
	}
	return userFaction(c, req, "")
}

func firstName(c *rules.Campaign) string {
	if len(c.Factions) == 0 {
		return "Red Cell"
	}
	return c.Factions[0].Name
}

// sees reports whether the request may see the asset: the GM and its
// faction see every asset, others only assets that are not Covert.
func sees(c *rules.Campaign, req *kit.Request, own *rules.Faction, a *rules.Asset) bool {
	return req.GM || own.Owner == req.User.ID || a.HiredBy != "" && ownerOf(c, a.HiredBy) == req.User.ID || !c.Covert(own, a)
}

func ownerOf(c *rules.Campaign, name string) string {
	if f := c.Faction(name); f != nil {
		return f.Owner
	}
	return ""
}
