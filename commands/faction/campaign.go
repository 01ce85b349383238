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

// NoCampaign is the mistake of using /faction before a campaign exists.
var NoCampaign = &kit.UserError{Msg: "this server has no faction campaign yet: the GM starts one with /faction create name:\"Red Cell\""}

// noCampaign turns the store's "not found" of the guild's campaign into
// the user's mistake; any other error stays as it is.
func noCampaign(err error) error {
	if errors.Is(err, db.ErrNotFound) {
		return NoCampaign
	}
	return err
}

// campaign loads the guild's campaign; none is the user's mistake.
func (h *handlers) campaign(ctx context.Context, req *kit.Request) (Campaign, error) {
	fc, err := h.factions.campaign(ctx, req.GuildID)
	if err != nil {
		return Campaign{}, noCampaign(err)
	}
	return fc, nil
}

// change is a change of the rules' campaign made inside one of the
// store's transactions (UpdateCampaign, EnsureCampaign). It keeps fn's own
// error: what the user may see, without the store's wrapping.
type change struct {
	fn  func(c *rules.Campaign) error
	err error
}

// run is what the store calls in its transaction.
func (ch *change) run(fc *Campaign) error {
	ch.err = ch.fn(fc.Campaign)
	return ch.err
}

// result sorts what the transaction returned: no campaign and an
// impossible change of the rules are the user's mistakes.
func (ch *change) result(err error) error {
	switch {
	case errors.Is(err, db.ErrNotFound):
		return NoCampaign
	case ch.err != nil:
		return factionError(ch.err)
	}
	return err
}

// update changes the guild's campaign in one transaction; no campaign is
// the user's mistake, and so is an impossible change of the rules.
func (h *handlers) update(ctx context.Context, req *kit.Request, fn func(c *rules.Campaign) error) (Campaign, error) {
	ch := &change{fn: fn}
	fc, err := h.factions.update(ctx, req.GuildID, ch.run)
	if err := ch.result(err); err != nil {
		return Campaign{}, err
	}
	return fc, nil
}

// campaignFaction loads the guild's campaign and the faction that find
// (viewFaction, userFaction) makes of the `faction:` option.
func (h *handlers) campaignFaction(ctx context.Context, req *kit.Request, find func(c *rules.Campaign, req *kit.Request, name string) (*rules.Faction, error)) (*rules.Campaign, *rules.Faction, error) {
	fc, err := h.campaign(ctx, req)
	if err != nil {
		return nil, nil, err
	}
	f, err := find(fc.Campaign, req, req.Options.String("faction"))
	if err != nil {
		return nil, nil, err
	}
	return fc.Campaign, f, nil
}

// updateOne is update for a change of one thing of the campaign, which
// find looks up (one that is not there is the user's mistake).
func updateOne[T any](ctx context.Context, h *handlers, req *kit.Request, find func(c *rules.Campaign) (T, error), fn func(c *rules.Campaign, t T) error) error {
	_, err := h.update(ctx, req, func(c *rules.Campaign) error {
		t, err := find(c)
		if err != nil {
			return err
		}
		return fn(c, t)
	})
	return err
}

// updateFaction is update for a change of the faction the `faction:`
// option names.
func (h *handlers) updateFaction(ctx context.Context, req *kit.Request, fn func(c *rules.Campaign, f *rules.Faction) error) error {
	return updateOne(ctx, h, req, func(c *rules.Campaign) (*rules.Faction, error) {
		return findFaction(c, req.Options.String("faction"))
	}, fn)
}

// updateHabitat is update for a change of the habitat the `habitat:`
// option names.
func (h *handlers) updateHabitat(ctx context.Context, req *kit.Request, fn func(c *rules.Campaign, hb *rules.Habitat) error) error {
	return updateOne(ctx, h, req, func(c *rules.Campaign) (*rules.Habitat, error) {
		return findHabitat(c, req.Options.String("habitat"))
	}, fn)
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
//
// It is not kit.Call.RulesError, whose semantics differ: that one makes
// every error it does not know the user's, with an example, where here
// only the rules' own mistakes are, shown as the rules word them (a
// campaign the store cannot save stays ours); and the rules roll through
// the tray's Roller, so a bad dice: value is a *dice.Error the tray never
// saw, shown with its caret as kit.DiceError shows it.
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

// findFaction returns the faction called name; none is the user's mistake.
func findFaction(c *rules.Campaign, name string) (*rules.Faction, error) {
	if f := c.Faction(name); f != nil {
		return f, nil
	}
	return nil, kit.Errorf("there is no faction %q: see /faction list", name)
}

// findHabitat returns the habitat called name; none is the user's mistake.
func findHabitat(c *rules.Campaign, name string) (*rules.Habitat, error) {
	if hb := c.Habitat(name); hb != nil {
		return hb, nil
	}
	return nil, kit.Errorf("there is no habitat %q: see /faction habitat list", name)
}

// findAsset returns an asset by ID and its owner.
func findAsset(c *rules.Campaign, id int64) (*rules.Asset, *rules.Faction, error) {
	a, f := c.Asset(int(id))
	if a == nil {
		return nil, nil, noAsset(id)
	}
	return a, f, nil
}

// noAsset is the user's mistake of naming an asset number no asset has
// (or none the user may see).
func noAsset(id int64) error {
	return kit.Errorf("there is no asset #%d: see /faction asset list", id)
}

// userFaction is the faction a request acts for: the one named (a player's
// own only, a GM's any), else the user's only faction.
func userFaction(c *rules.Campaign, req *kit.Request, name string) (*rules.Faction, error) {
	if name = strings.TrimSpace(name); name != "" {
		f, err := findFaction(c, name)
		if err != nil {
			return nil, err
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
		return findFaction(c, name)
	}
	return userFaction(c, req, "")
}

func firstName(c *rules.Campaign) string {
	if len(c.Factions) == 0 {
		return "Red Cell"
	}
	return c.Factions[0].Name
}

func ownerOf(c *rules.Campaign, name string) string {
	if f := c.Faction(name); f != nil {
		return f.Owner
	}
	return ""
}
