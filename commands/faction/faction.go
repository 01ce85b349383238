package faction

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image/color"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tablehand/tablehand/commands/core"
	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/db"
	"github.com/tablehand/tablehand/rules/dice"
	rules "github.com/tablehand/tablehand/rules/faction"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// /faction plays the faction game of seed 000 (rules/faction): the
// strategic layer around the player characters, a round between sessions.
//
// A guild has one campaign (db.FactionCampaign), created by the GM's first
// /faction create. The GM creates factions and gives each to a player or
// keeps it as an NPC with a standing policy; adds habitats and assets;
// plays rounds (/faction round) or lets a schedule play them (/schedule).
// Players act for their own faction only: /faction act resolves an action
// now, /faction order queues one for the next round, and they see and
// change only their own queue. The GM may act and order for any faction.
//
// What the text leaves to the GM ("per GM's discretion") comes back as a
// Question: the order is held and answered with a button (custom_id
// fans:<order>:<option>), by the GM or by the faction asked for consent.
// The parameters that carry those answers (gm_produce, gm_repair, consent)
// cannot be typed by players.

func factionOpt(required bool, desc string) kit.Option {
	return kit.Option{Type: kit.String, Name: "faction", Description: desc, Required: required, Autocomplete: true, MaxLength: kit.MaxNameLen}
}

func assetOpt(name string, required bool, desc string) kit.Option {
	return kit.Option{Type: kit.Integer, Name: name, Description: desc, Required: required, Autocomplete: true, MinValue: kit.Float(1)}
}

func habitatOpt(name string, required bool, desc string) kit.Option {
	return kit.Option{Type: kit.String, Name: name, Description: desc, Required: required, Autocomplete: true, MaxLength: kit.MaxNameLen}
}

func choicesOf[T ~string](vals ...T) []kit.Choice {
	out := make([]kit.Choice, len(vals))
	for i, v := range vals {
		out[i] = kit.Choice{Name: string(v), Value: string(v)}
	}
	return out
}

var (
	policyOpt = kit.Option{Type: kit.String, Name: "policy", Description: "What it does in a round without orders", Choices: choicesOf(rules.Policies...)}
	statOpt   = kit.Option{Type: kit.String, Name: "stat", Description: "A Health Stat", Choices: choicesOf(rules.AllStats...)}
	payOpt    = kit.Option{Type: kit.String, Name: "pay", Description: "AP (default), the Related Stat instead, or auto", Choices: choicesOf("ap", "stat", "auto")}
	paramsOpt = kit.Option{Type: kit.String, Name: "params", Description: "Other parameters as name=value, e.g. \"to=Luna via=4\"", Autocomplete: true, MaxLength: 500}
	actionOpt = kit.Option{Type: kit.String, Name: "action", Description: "The action (suggests what you may do now, with its cost)", Required: true, Autocomplete: true, MaxLength: 100}
)

// orderOptions are the options of /faction act and /faction order.
func orderOptions(extra ...kit.Option) []kit.Option {
	return append([]kit.Option{
		actionOpt,
		factionOpt(false, "Acting faction (default: yours)"),
		assetOpt("asset", false, "The acting asset"),
		assetOpt("target", false, "The target asset"),
		habitatOpt("habitat", false, "The habitat"),
		statOpt, payOpt, paramsOpt,
	}, extra...)
}

var factionCommand = kit.Command{
	Name:        "faction",
	Description: "Faction game (seed 000): factions, actions, orders, rounds",
	Options: []kit.Option{
		{Type: kit.SubCommand, Name: "create", Description: "Create a faction for a player, or an NPC (GM)", Options: []kit.Option{
			{Type: kit.String, Name: "name", Description: "Its name", Required: true, MaxLength: kit.MaxNameLen},
			{Type: kit.UserOption, Name: "owner", Description: "The player (default: an NPC)"},
			policyOpt,
			habitatOpt("home", false, "A new habitat it holds"),
			{Type: kit.String, Name: "region", Description: "The home's region", MaxLength: kit.MaxNameLen},
		}},
		{Type: kit.SubCommand, Name: "show", Description: "A faction's sheet", Options: []kit.Option{factionOpt(false, "The faction (default: yours)")}},
		{Type: kit.SubCommand, Name: "list", Description: "The campaign's factions and habitats"},
		{Type: kit.SubCommand, Name: "set", Description: "Change a faction (GM)", Options: []kit.Option{
			factionOpt(true, "The faction"),
			{Type: kit.UserOption, Name: "owner", Description: "Give it to this player"},
			{Type: kit.Boolean, Name: "npc", Description: "Make it an NPC"},
			policyOpt,
			{Type: kit.String, Name: "sheet", Description: "Values as name=value: RES=5 INF=7 (max_res, base_inf, ap)", MaxLength: 300},
			{Type: kit.String, Name: "memes", Description: "Its memes, comma separated (active now)", MaxLength: 300},
			{Type: kit.String, Name: "decline", Description: "Reactions it does not take, e.g. counter-attack", MaxLength: 200},
			{Type: kit.Integer, Name: "turn", Description: "Its place in the turn order", MinValue: kit.Float(1), MaxValue: kit.Float(1000)},
			habitatOpt("home", false, "Where its escaping agents go"),
		}},
		{Type: kit.SubCommand, Name: "delete", Description: "Delete a faction (GM)", Options: []kit.Option{factionOpt(true, "The faction")}},
		{Type: kit.SubCommandGroup, Name: "asset", Description: "Assets", Options: []kit.Option{
			{Type: kit.SubCommand, Name: "add", Description: "Give a faction an asset from the chart (GM)", Options: []kit.Option{
				factionOpt(true, "The faction"),
				{Type: kit.String, Name: "chart", Description: "The chart entry", Required: true, Autocomplete: true, MaxLength: kit.MaxNameLen},
				habitatOpt("at", false, "Where (default: its home)"),
				{Type: kit.String, Name: "name", Description: "Its own name", MaxLength: kit.MaxNameLen},
			}},
			{Type: kit.SubCommand, Name: "set", Description: "Change an asset (GM)", Options: []kit.Option{
				assetOpt("asset", true, "The asset"),
				{Type: kit.Integer, Name: "health", Description: "Its current Level", MinValue: kit.Float(0), MaxValue: kit.Float(rules.MaxLevel)},
				{Type: kit.Integer, Name: "level", Description: "Its full Level", MinValue: kit.Float(0), MaxValue: kit.Float(rules.MaxLevel)},
				habitatOpt("at", false, "Move it here"),
				{Type: kit.Boolean, Name: "covert", Description: "Covert or not"},
				{Type: kit.String, Name: "name", Description: "Its own name", MaxLength: kit.MaxNameLen},
				factionOpt(false, "Give it to this faction"),
			}},
			{Type: kit.SubCommand, Name: "remove", Description: "Remove an asset (GM)", Options: []kit.Option{assetOpt("asset", true, "The asset")}},
			{Type: kit.SubCommand, Name: "list", Description: "A faction's assets", Options: []kit.Option{factionOpt(false, "The faction (default: yours)")}},
		}},
		{Type: kit.SubCommandGroup, Name: "habitat", Description: "Habitats: territory", Options: []kit.Option{
			{Type: kit.SubCommand, Name: "add", Description: "Add a habitat (GM)", Options: []kit.Option{
				{Type: kit.String, Name: "name", Description: "Its name", Required: true, MaxLength: kit.MaxNameLen},
				factionOpt(false, "Its owner (default: none)"),
				{Type: kit.String, Name: "region", Description: "Its region (travel time)", MaxLength: kit.MaxNameLen},
			}},
			{Type: kit.SubCommand, Name: "set", Description: "Change a habitat (GM)", Options: []kit.Option{
				habitatOpt("habitat", true, "The habitat"),
				factionOpt(false, "Its owner (none: unowned)"),
				{Type: kit.Integer, Name: "health", Description: "Its health", MinValue: kit.Float(0), MaxValue: kit.Float(100)},
				{Type: kit.Integer, Name: "max_health", Description: "Its full health", MinValue: kit.Float(1), MaxValue: kit.Float(100)},
				{Type: kit.String, Name: "region", Description: "Its region", MaxLength: kit.MaxNameLen},
				{Type: kit.Boolean, Name: "suppressed", Description: "Suppressed or not"},
			}},
			{Type: kit.SubCommand, Name: "remove", Description: "Remove a habitat (GM)", Options: []kit.Option{habitatOpt("habitat", true, "The habitat")}},
			{Type: kit.SubCommand, Name: "list", Description: "The habitats"},
		}},
		{Type: kit.SubCommand, Name: "roll", Description: "A bare test: 1d10 straight or opposed", Options: []kit.Option{
			{Type: kit.String, Name: "type", Description: "The roll type", Required: true, Choices: choicesOf(rules.RollTypes...)},
			{Type: kit.String, Name: "attribute", Description: "Attribute: a number, or RES/INT/COH/STR of faction:", MaxLength: 10},
			{Type: kit.Integer, Name: "level", Description: "Asset Level (default: asset:'s)", MinValue: kit.Float(0), MaxValue: kit.Float(20)},
			{Type: kit.Integer, Name: "hta", Description: "Home Turf Advantage and other bonus", MinValue: kit.Float(-50), MaxValue: kit.Float(50)},
			{Type: kit.String, Name: "defender_attribute", Description: "Defender's Attribute: a number, or of defender:", MaxLength: 10},
			{Type: kit.Integer, Name: "defender_level", Description: "Defender's Level (default: defender_asset:'s)", MinValue: kit.Float(0), MaxValue: kit.Float(20)},
			{Type: kit.Integer, Name: "defender_hta", Description: "Defender's bonus", MinValue: kit.Float(-50), MaxValue: kit.Float(50)},
			factionOpt(false, "Read the Attribute from this faction"),
			assetOpt("asset", false, "Read the Level from this asset"),
			{Type: kit.String, Name: "defender", Description: "Read the defender's Attribute here", Autocomplete: true, MaxLength: kit.MaxNameLen},
			assetOpt("defender_asset", false, "Read the defender's Level here"),
			kit.DiceOption,
			{Type: kit.Boolean, Name: "private", Description: "Only you see the result"},
		}},
		{Type: kit.SubCommand, Name: "act", Description: "Resolve an action now", Options: orderOptions(kit.DiceOption)},
		{Type: kit.SubCommand, Name: "order", Description: "Queue an order for the next round", Options: orderOptions()},
		{Type: kit.SubCommand, Name: "orders", Description: "The queued orders: yours, or every one for the GM", Options: []kit.Option{
			factionOpt(false, "Only this faction's"),
			{Type: kit.Integer, Name: "remove", Description: "Remove this order (its #)", MinValue: kit.Float(1)},
			{Type: kit.Boolean, Name: "clear", Description: "Remove all of the faction's orders"},
		}},
		{Type: kit.SubCommand, Name: "round", Description: "Play whole rounds now (GM)", Options: []kit.Option{
			{Type: kit.Integer, Name: "count", Description: "Rounds to play (1-3)", MinValue: kit.Float(1), MaxValue: kit.Float(rules.MaxRounds)},
			kit.DiceOption,
		}},
		{Type: kit.SubCommand, Name: "preview", Description: "Dry run of the next round, with the odds of every roll (GM)"},
		{Type: kit.SubCommand, Name: "report", Description: "A played round's report", Options: []kit.Option{
			{Type: kit.Integer, Name: "round", Description: "The round (default: the last)", MinValue: kit.Float(1)},
			factionOpt(false, "Only this faction"),
		}},
	},
}

// registerFaction adds /faction.
func (h *handlers) registerFaction(r *kit.Router) {
	r.Define(factionCommand)
	r.Route("faction/create", h.factionCreate, true)
	r.Route("faction/show", h.factionShow, false)
	r.Route("faction/list", h.factionList, false)
	r.Route("faction/set", h.factionSet, true)
	r.Route("faction/delete", h.factionDelete, true)
	r.Route("faction/asset/add", h.factionAssetAdd, true)
	r.Route("faction/asset/set", h.factionAssetSet, true)
	r.Route("faction/asset/remove", h.factionAssetRemove, true)
	r.Route("faction/asset/list", h.factionAssetList, false)
	r.Route("faction/habitat/add", h.factionHabitatAdd, true)
	r.Route("faction/habitat/set", h.factionHabitatSet, true)
	r.Route("faction/habitat/remove", h.factionHabitatRemove, true)
	r.Route("faction/habitat/list", h.factionHabitatList, false)
	r.Route("faction/roll", h.factionRoll, false)
	r.Route("faction/act", h.factionAct, false)
	r.Route("faction/order", h.factionOrder, false)
	r.Route("faction/orders", h.factionOrders, false)
	r.Route("faction/round", h.factionRound, true)
	r.Route("faction/preview", h.factionPreview, true)
	r.Route("faction/report", h.factionReport, false)
	r.RouteComponent("fans", h.factionAnswer, false)

	for _, p := range []string{"show", "set", "delete", "asset/add", "asset/set", "asset/list", "habitat/add", "habitat/set",
		"roll", "act", "order", "orders", "report"} {
		r.RouteAutocomplete("faction/"+p, "faction", h.suggestFactions)
	}
	r.RouteAutocomplete("faction/roll", "defender", h.suggestFactions)
	for _, p := range []string{"asset/set", "asset/remove", "roll", "act", "order"} {
		r.RouteAutocomplete("faction/"+p, "asset", h.suggestAssets)
	}
	for _, p := range []string{"act", "order"} {
		r.RouteAutocomplete("faction/"+p, "action", h.suggestActions)
		r.RouteAutocomplete("faction/"+p, "target", h.suggestAssets)
		r.RouteAutocomplete("faction/"+p, "habitat", h.suggestHabitats)
		r.RouteAutocomplete("faction/"+p, "params", h.suggestParams)
	}
	r.RouteAutocomplete("faction/roll", "defender_asset", h.suggestAssets)
	r.RouteAutocomplete("faction/create", "home", h.suggestHabitats)
	r.RouteAutocomplete("faction/set", "home", h.suggestHabitats)
	r.RouteAutocomplete("faction/asset/add", "chart", h.suggestCharts)
	r.RouteAutocomplete("faction/asset/add", "at", h.suggestHabitats)
	r.RouteAutocomplete("faction/asset/set", "at", h.suggestHabitats)
	r.RouteAutocomplete("faction/habitat/set", "habitat", h.suggestHabitats)
	r.RouteAutocomplete("faction/habitat/remove", "habitat", h.suggestHabitats)
}

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

// FactionResult is the console's `result` of most /faction commands: the
// faction's sheet as the asker may see it.
type FactionResult struct {
	Name       string           `json:"name"`
	Owner      string           `json:"owner,omitempty"`
	Policy     string           `json:"policy,omitempty"`
	Attributes rules.Attributes `json:"attributes"`
	Stats      rules.Stats      `json:"stats"`
	AP         int              `json:"ap"`
	Memes      []rules.Meme     `json:"memes,omitempty"`
	Habitats   []string         `json:"habitats,omitempty"`
	Assets     []AssetResult    `json:"assets,omitempty"`
	Pending    []rules.Effect   `json:"pending,omitempty"`
	Round      int              `json:"round"`
}

// AssetResult is one asset in a result.
type AssetResult struct {
	ID       int    `json:"id"`
	Name     string `json:"name"`
	Chart    string `json:"chart"`
	Category string `json:"category"`
	Type     string `json:"type"`
	Level    int    `json:"level"`
	Health   int    `json:"health"`
	Location string `json:"location,omitempty"`
	Covert   bool   `json:"covert,omitempty"`
}

func assetResult(c *rules.Campaign, own *rules.Faction, a *rules.Asset) AssetResult {
	return AssetResult{ID: a.ID, Name: a.Name, Chart: a.Chart, Category: string(a.Category), Type: string(a.Type),
		Level: a.Level, Health: a.Health, Location: a.Location, Covert: c.Covert(own, a)}
}

func factionResult(c *rules.Campaign, req *kit.Request, f *rules.Faction) FactionResult {
	r := FactionResult{Name: f.Name, Owner: f.Owner, Policy: string(f.Policy), Stats: f.Stats, AP: f.AP, Memes: f.Memes, Round: c.Round}
	if f.Turn.Round != c.Round {
		r.AP = c.APMax(f)
	}
	for _, a := range rules.AllAttrs {
		r.Attributes.Set(a, c.Attribute(f, a))
	}
	for _, hb := range c.Habitats {
		if hb.Owner == f.Name {
			r.Habitats = append(r.Habitats, hb.Name)
		}
	}
	for _, a := range f.Assets {
		if sees(c, req, f, a) {
			r.Assets = append(r.Assets, assetResult(c, f, a))
		}
	}
	if req.GM || f.Owner == req.User.ID {
		r.Pending = c.Pending(f.Name)
	}
	return r
}

// ownerText names a faction's player for a message.
func ownerText(f *rules.Faction) string {
	if f.Owner == "" {
		p := f.Policy
		if p == "" {
			p = rules.PolicyHold
		}
		return "NPC, policy " + string(p)
	}
	return "played by <@" + f.Owner + ">"
}

func attrLine(c *rules.Campaign, f *rules.Faction) string {
	parts := make([]string, 0, 4)
	for _, a := range rules.AllAttrs {
		v, full := c.Attribute(f, a), f.MaxAttributes.Get(a)-f.Attributes.Get(a)+c.Attribute(f, a)
		if v != full {
			parts = append(parts, fmt.Sprintf("%s %d/%d", a, v, full))
		} else {
			parts = append(parts, fmt.Sprintf("%s %d", a, v))
		}
	}
	return strings.Join(parts, " · ")
}

func statLine(c *rules.Campaign, f *rules.Faction) string {
	parts := make([]string, 0, 4)
	for _, s := range rules.AllStats {
		parts = append(parts, fmt.Sprintf("%s %d/%d", s, f.Stats.Get(s), c.StatMax(f, s)))
	}
	return strings.Join(parts, " · ")
}

func assetLine(c *rules.Campaign, own *rules.Faction, a *rules.Asset) string {
	s := fmt.Sprintf("`#%d` **%s** (%s %s, Level %d/%d)", a.ID, kit.EscapeMarkdown(a.Name), a.Category, a.Type, a.Health, a.Level)
	switch {
	case a.Transit != nil:
		s += fmt.Sprintf(" to %s, arrives round %d", kit.EscapeMarkdown(a.Transit.To), a.Transit.Arrive)
	case a.Location != "":
		s += " at " + kit.EscapeMarkdown(a.Location)
	}
	var tags []string
	if c.Covert(own, a) {
		tags = append(tags, "covert")
	}
	if a.CapturedBy != "" {
		tags = append(tags, "captive of "+a.CapturedBy)
	}
	if a.HiredBy != "" {
		tags = append(tags, "hired by "+a.HiredBy)
	}
	if a.DoubleFor != "" {
		tags = append(tags, "double agent for "+a.DoubleFor)
	}
	if a.Duplicate {
		tags = append(tags, "duplicate")
	}
	if len(tags) > 0 {
		s += " [" + strings.Join(tags, ", ") + "]"
	}
	return s
}

func factionEmbed(c *rules.Campaign, req *kit.Request, f *rules.Faction) kit.Embed {
	ap := f.AP
	if f.Turn.Round != c.Round {
		ap = c.APMax(f)
	}
	fields := []kit.Field{
		{Name: "Attributes", Value: attrLine(c, f)},
		{Name: "Health Stats", Value: statLine(c, f)},
		{Name: "AP", Value: fmt.Sprintf("%d (renews to %d)", ap, c.APMax(f)), Inline: true},
	}
	if len(f.Memes) > 0 {
		var ms []string
		for _, m := range f.Memes {
			s := m.Name
			if !m.Active {
				s += fmt.Sprintf(" (from round %d)", m.ActiveFrom)
			}
			ms = append(ms, s)
		}
		fields = append(fields, kit.Field{Name: "Memes", Value: strings.Join(ms, ", "), Inline: true})
	}
	var habs []string
	for _, hb := range c.Habitats {
		if hb.Owner == f.Name {
			s := fmt.Sprintf("%s (health %d/%d", kit.EscapeMarkdown(hb.Name), hb.Health, hb.MaxHealth)
			if hb.Suppressed {
				s += ", suppressed"
			}
			habs = append(habs, s+")")
		}
	}
	if len(habs) > 0 {
		fields = append(fields, kit.Field{Name: "Habitats", Value: strings.Join(habs, "\n")})
	}
	var assets []string
	for _, a := range f.Assets {
		if sees(c, req, f, a) {
			assets = append(assets, assetLine(c, f, a))
		}
	}
	if len(assets) > 0 {
		fields = append(fields, kit.Field{Name: "Assets", Value: strings.Join(assets, "\n")})
	}
	if req.GM || f.Owner == req.User.ID {
		var pend []string
		for _, e := range c.Pending(f.Name) {
			pend = append(pend, fmt.Sprintf("round %d: %s", e.Due, e.Note))
		}
		for _, d := range f.Debts {
			pend = append(pend, fmt.Sprintf("debt %d: %s", d.ID, d.Note))
		}
		if len(pend) > 0 {
			fields = append(fields, kit.Field{Name: "Pending", Value: strings.Join(pend, "\n")})
		}
	}
	return kit.Embed{Title: f.Name, Description: ownerText(f) + fmt.Sprintf(" · round %d", c.Round), Fields: fields}
}

func (h *handlers) factionCreate(ctx context.Context, req *kit.Request) (kit.Response, error) {
	name, err := kit.CleanName("faction name", req.Options.String("name"))
	if err != nil {
		return kit.Response{}, err
	}
	policy, err := rules.ParsePolicy(req.Options.String("policy"))
	if err != nil {
		return kit.Response{}, kit.Errorf("%v", err)
	}
	var home string
	if s := req.Options.String("home"); s != "" {
		if home, err = kit.CleanName("habitat name", s); err != nil {
			return kit.Response{}, err
		}
	}
	region := strings.TrimSpace(req.Options.String("region"))
	owner := req.Options.String("owner")
	var result FactionResult
	var embed kit.Embed
	addFaction := func(c *rules.Campaign) error {
		f, err := c.AddFaction(name, owner)
		if err != nil {
			return err
		}
		if req.Options.Has("policy") || owner == "" {
			f.Policy = policy
		}
		if home != "" {
			if hb := c.Habitat(home); hb != nil {
				if hb.Owner != "" {
					return kit.Errorf("%s belongs to %s: give it away first with /faction habitat set", hb.Name, hb.Owner)
				}
				hb.Owner, hb.BonusActive = f.Name, true
				giveHabitatBonus(f, hb)
				f.Home = hb.Name
			} else if _, err := c.AddHabitat(home, f.Name, region); err != nil {
				return err
			}
		}
		result, embed = factionResult(c, req, f), factionEmbed(c, req, f)
		return nil
	}
	// The first faction starts the campaign, in the same transaction: a
	// faction that cannot be made leaves no empty campaign behind.
	var fnErr error
	nc := db.NewCampaign{ChannelID: req.ChannelID, ActorID: req.User.ID, Config: h.factionConfig()}
	_, created, err := h.Factions.EnsureCampaign(ctx, req.GuildID, nc, func(fc *db.FactionCampaign) error {
		fnErr = addFaction(fc.Campaign)
		return fnErr
	})
	if fnErr != nil {
		return kit.Response{}, factionError(fnErr)
	}
	if err != nil {
		return kit.Response{}, err
	}
	content := fmt.Sprintf("Created the faction **%s**.", kit.EscapeMarkdown(name))
	if created {
		content = "Started this server's faction campaign. " + content
	}
	return kit.Response{Content: content, Embeds: []kit.Embed{embed}, Result: result}, nil
}

func (h *handlers) factionShow(ctx context.Context, req *kit.Request) (kit.Response, error) {
	fc, err := h.campaign(ctx, req)
	if err != nil {
		return kit.Response{}, err
	}
	f, err := viewFaction(fc.Campaign, req, req.Options.String("faction"))
	if err != nil {
		return kit.Response{}, err
	}
	return kit.Response{Embeds: []kit.Embed{factionEmbed(fc.Campaign, req, f)}, Ephemeral: true, Result: factionResult(fc.Campaign, req, f)}, nil
}

// CampaignResult is the console's `result` of /faction list.
type CampaignResult struct {
	Round     int             `json:"round"`
	TurnOrder []string        `json:"turn_order"`
	Factions  []FactionResult `json:"factions"`
	Habitats  []HabitatResult `json:"habitats"`
}

// HabitatResult is one habitat in a result.
type HabitatResult struct {
	Name       string `json:"name"`
	Owner      string `json:"owner,omitempty"`
	Region     string `json:"region,omitempty"`
	Health     int    `json:"health"`
	MaxHealth  int    `json:"max_health"`
	Suppressed bool   `json:"suppressed,omitempty"`
}

func habitatResults(c *rules.Campaign) []HabitatResult {
	out := make([]HabitatResult, 0, len(c.Habitats))
	for _, hb := range c.Habitats {
		out = append(out, HabitatResult{Name: hb.Name, Owner: hb.Owner, Region: hb.Region, Health: hb.Health, MaxHealth: hb.MaxHealth, Suppressed: hb.Suppressed})
	}
	return out
}

func habitatLines(c *rules.Campaign) string {
	if len(c.Habitats) == 0 {
		return "none yet: /faction habitat add"
	}
	var b strings.Builder
	for _, hb := range c.Habitats {
		owner := hb.Owner
		if owner == "" {
			owner = "unowned"
		}
		fmt.Fprintf(&b, "**%s** (%s", kit.EscapeMarkdown(hb.Name), kit.EscapeMarkdown(owner))
		if hb.Region != "" {
			fmt.Fprintf(&b, ", %s", kit.EscapeMarkdown(hb.Region))
		}
		fmt.Fprintf(&b, "): health %d/%d", hb.Health, hb.MaxHealth)
		if hb.Suppressed {
			b.WriteString(", suppressed")
		}
		b.WriteString("\n")
	}
	return strings.TrimSpace(b.String())
}

func (h *handlers) factionList(ctx context.Context, req *kit.Request) (kit.Response, error) {
	fc, err := h.campaign(ctx, req)
	if err != nil {
		return kit.Response{}, err
	}
	c := fc.Campaign
	res := CampaignResult{Round: c.Round, TurnOrder: c.TurnOrder, Factions: []FactionResult{}, Habitats: habitatResults(c)}
	var b strings.Builder
	fmt.Fprintf(&b, "**Faction campaign**: round %d, %s\n", c.Round, c.Config.Sequence)
	for i, f := range c.Factions {
		res.Factions = append(res.Factions, factionResult(c, req, f))
		fmt.Fprintf(&b, "%d. **%s** (%s): %s · AP %d\n", i+1, kit.EscapeMarkdown(f.Name), ownerText(f), statLine(c, f), c.APMax(f))
	}
	if len(c.Factions) == 0 {
		b.WriteString("No factions yet: /faction create name:\"Red Cell\"\n")
	}
	return kit.Response{Content: b.String(), Embeds: []kit.Embed{{Title: "Habitats", Description: habitatLines(c)}}, Ephemeral: true, Result: res}, nil
}

// applySheet sets what "RES=5 INF=7 max_res=6 base_inf=8 ap=3" says.
func applySheet(c *rules.Campaign, f *rules.Faction, text string) error {
	changes, err := kit.ParseStats(text)
	if err != nil {
		return err
	}
	for k, v := range changes {
		if v == nil {
			return kit.Errorf("sheet: %s needs a value, e.g. %s=5", k, k)
		}
		n := *v
		if n < 0 || n > 100 {
			return kit.Errorf("sheet: %s=%d: use 0 to 100", k, n)
		}
		prefix, name, cut := strings.Cut(k, "_")
		if !cut {
			name, prefix = prefix, ""
		}
		if name == "ap" && prefix == "" {
			f.AP = n
			continue
		}
		if a, err := rules.ParseAttr(name); err == nil {
			switch prefix {
			case "":
				f.Attributes.Set(a, n)
				f.MaxAttributes.Set(a, max(f.MaxAttributes.Get(a), n))
			case "max":
				f.MaxAttributes.Set(a, n)
				f.Attributes.Set(a, min(f.Attributes.Get(a), n))
			default:
				return kit.Errorf("sheet: %s: an Attribute takes RES=5 or max_RES=6", k)
			}
			continue
		}
		if s, err := rules.ParseStat(name); err == nil {
			switch prefix {
			case "":
				f.Stats.Set(s, n)
			case "base":
				f.BaseStats.Set(s, n)
			default:
				return kit.Errorf("sheet: %s: a Stat takes INF=7 or base_INF=6", k)
			}
			continue
		}
		return kit.Errorf("sheet: %q is not RES, INT, COH, STR, INF, TEC, SOL, POP or AP (with max_ or base_)", k)
	}
	return nil
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func (h *handlers) factionSet(ctx context.Context, req *kit.Request) (kit.Response, error) {
	var result FactionResult
	var embed kit.Embed
	_, err := h.update(ctx, req, func(c *rules.Campaign) error {
		f := c.Faction(req.Options.String("faction"))
		if f == nil {
			return kit.Errorf("there is no faction %q: see /faction list", req.Options.String("faction"))
		}
		if o := req.Options.String("owner"); o != "" {
			f.Owner = o
		}
		if req.Options.Bool("npc") {
			f.Owner = ""
			if f.Policy == "" {
				f.Policy = rules.PolicyHold
			}
		}
		if req.Options.Has("policy") {
			p, err := rules.ParsePolicy(req.Options.String("policy"))
			if err != nil {
				return kit.Errorf("%v", err)
			}
			f.Policy = p
		}
		if s := req.Options.String("sheet"); s != "" {
			if err := applySheet(c, f, s); err != nil {
				return err
			}
		}
		if req.Options.Has("memes") {
			names := splitList(req.Options.String("memes"))
			if len(names) > rules.MaxMemes {
				return kit.Errorf("\"At no point may a Faction have more than 3 Memes\": %d given", len(names))
			}
			f.Memes = nil
			for _, n := range names {
				d, ok := c.Config.MemeDef(n)
				if !ok {
					var known []string
					for _, m := range c.Config.Memes {
						known = append(known, m.Name)
					}
					return kit.Errorf("there is no meme %q: use one of %s", n, strings.Join(known, ", "))
				}
				f.Memes = append(f.Memes, rules.Meme{Name: d.Name, ActiveFrom: c.Round, Active: true})
			}
		}
		if req.Options.Has("decline") {
			f.Decline = splitList(strings.ToLower(req.Options.String("decline")))
		}
		if n, ok := req.Options.Int("turn"); ok {
			order := slices.DeleteFunc(slices.Clone(c.TurnOrder), func(s string) bool { return strings.EqualFold(s, f.Name) })
			i := min(int(n)-1, len(order))
			c.TurnOrder = slices.Insert(order, i, f.Name)
		}
		if hn := req.Options.String("home"); hn != "" {
			hb := c.Habitat(hn)
			if hb == nil || hb.Owner != f.Name {
				return kit.Errorf("%s's home must be one of its habitats", f.Name)
			}
			f.Home = hb.Name
		}
		result, embed = factionResult(c, req, f), factionEmbed(c, req, f)
		return nil
	})
	if err != nil {
		return kit.Response{}, err
	}
	return kit.Response{Content: "Updated **" + kit.EscapeMarkdown(result.Name) + "**.", Embeds: []kit.Embed{embed}, Ephemeral: true, Result: result}, nil
}

func (h *handlers) factionDelete(ctx context.Context, req *kit.Request) (kit.Response, error) {
	var name string
	_, err := h.update(ctx, req, func(c *rules.Campaign) error {
		f := c.Faction(req.Options.String("faction"))
		if f == nil {
			return kit.Errorf("there is no faction %q: see /faction list", req.Options.String("faction"))
		}
		name = f.Name
		removeFaction(c, f)
		return nil
	})
	if err != nil {
		return kit.Response{}, err
	}
	return kit.Response{Content: fmt.Sprintf("Deleted the faction **%s**: its habitats are unowned, its orders gone.", kit.EscapeMarkdown(name)),
		Result: map[string]string{"deleted": name}}, nil
}

// removeFaction takes a faction out of the campaign: its habitats become
// unowned, its mercenaries and captives go home, its effects, relations
// and proposals end.
func removeFaction(c *rules.Campaign, f *rules.Faction) {
	c.Factions = slices.DeleteFunc(c.Factions, func(g *rules.Faction) bool { return g == f })
	c.TurnOrder = slices.DeleteFunc(c.TurnOrder, func(s string) bool { return strings.EqualFold(s, f.Name) })
	for _, hb := range c.Habitats {
		if hb.Owner == f.Name {
			hb.Owner, hb.BonusActive = "", false
		}
	}
	for _, g := range c.Factions {
		for _, a := range g.Assets {
			if a.HiredBy == f.Name {
				a.HiredBy = ""
			}
			if a.CapturedBy == f.Name {
				a.CapturedBy = ""
			}
			if a.DoubleFor == f.Name {
				a.DoubleFor = ""
			}
		}
	}
	c.Effects = slices.DeleteFunc(c.Effects, func(e rules.Effect) bool { return e.Faction == f.Name })
	c.Relations = slices.DeleteFunc(c.Relations, func(r rules.Relation) bool { return r.A == f.Name || r.B == f.Name })
	c.Proposals = slices.DeleteFunc(c.Proposals, func(p rules.Proposal) bool { return p.From == f.Name || p.To == f.Name })
}

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

func (h *handlers) factionHabitatAdd(ctx context.Context, req *kit.Request) (kit.Response, error) {
	name, err := kit.CleanName("habitat name", req.Options.String("name"))
	if err != nil {
		return kit.Response{}, err
	}
	var out HabitatResult
	_, err = h.update(ctx, req, func(c *rules.Campaign) error {
		owner := ""
		if o := req.Options.String("faction"); o != "" {
			f := c.Faction(o)
			if f == nil {
				return kit.Errorf("there is no faction %q: see /faction list", o)
			}
			owner = f.Name
		}
		hb, err := c.AddHabitat(name, owner, strings.TrimSpace(req.Options.String("region")))
		if err != nil {
			return err
		}
		out = habitatResults(&rules.Campaign{Habitats: []*rules.Habitat{hb}})[0]
		return nil
	})
	if err != nil {
		return kit.Response{}, err
	}
	return kit.Response{Content: fmt.Sprintf("Added the habitat **%s**.", kit.EscapeMarkdown(name)), Result: out}, nil
}

func (h *handlers) factionHabitatSet(ctx context.Context, req *kit.Request) (kit.Response, error) {
	var out HabitatResult
	_, err := h.update(ctx, req, func(c *rules.Campaign) error {
		hb := c.Habitat(req.Options.String("habitat"))
		if hb == nil {
			return kit.Errorf("there is no habitat %q: see /faction habitat list", req.Options.String("habitat"))
		}
		if o := req.Options.String("faction"); o != "" {
			newOwner := ""
			if !strings.EqualFold(o, "none") {
				f := c.Faction(o)
				if f == nil {
					return kit.Errorf("there is no faction %q (or none): see /faction list", o)
				}
				newOwner = f.Name
			}
			if newOwner != hb.Owner {
				withdrawHabitatBonus(c, hb)
				hb.Owner, hb.BonusActive, hb.Suppressed, hb.Delays = newOwner, false, false, nil
				if f := c.Faction(newOwner); f != nil {
					hb.BonusActive = true
					giveHabitatBonus(f, hb)
				}
			}
		}
		if n, ok := req.Options.Int("max_health"); ok {
			hb.MaxHealth = int(n)
		}
		if n, ok := req.Options.Int("health"); ok {
			hb.Health = int(n)
		}
		hb.Health = min(hb.Health, hb.MaxHealth)
		if r := req.Options.String("region"); r != "" {
			hb.Region = strings.TrimSpace(r)
		}
		if req.Options.Has("suppressed") {
			hb.Suppressed = req.Options.Bool("suppressed")
		}
		out = habitatResults(&rules.Campaign{Habitats: []*rules.Habitat{hb}})[0]
		return nil
	})
	if err != nil {
		return kit.Response{}, err
	}
	return kit.Response{Content: fmt.Sprintf("Updated the habitat **%s**.", kit.EscapeMarkdown(out.Name)), Ephemeral: true, Result: out}, nil
}

func (h *handlers) factionHabitatRemove(ctx context.Context, req *kit.Request) (kit.Response, error) {
	var name string
	_, err := h.update(ctx, req, func(c *rules.Campaign) error {
		hb := c.Habitat(req.Options.String("habitat"))
		if hb == nil {
			return kit.Errorf("there is no habitat %q: see /faction habitat list", req.Options.String("habitat"))
		}
		for _, f := range c.Factions {
			for _, a := range f.Assets {
				if a.Location == hb.Name || a.Transit != nil && a.Transit.To == hb.Name {
					return kit.Errorf("%s still has assets (%s of %s): move or remove them first", hb.Name, a.Label(), f.Name)
				}
			}
		}
		withdrawHabitatBonus(c, hb)
		name = hb.Name
		c.Habitats = slices.DeleteFunc(c.Habitats, func(x *rules.Habitat) bool { return x == hb })
		return nil
	})
	if err != nil {
		return kit.Response{}, err
	}
	return kit.Response{Content: fmt.Sprintf("Removed the habitat **%s**.", kit.EscapeMarkdown(name)), Ephemeral: true, Result: map[string]string{"removed": name}}, nil
}

func (h *handlers) factionHabitatList(ctx context.Context, req *kit.Request) (kit.Response, error) {
	fc, err := h.campaign(ctx, req)
	if err != nil {
		return kit.Response{}, err
	}
	return kit.Response{Embeds: []kit.Embed{{Title: "Habitats", Description: habitatLines(fc.Campaign)}}, Ephemeral: true, Result: habitatResults(fc.Campaign)}, nil
}

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

// parseParams reads "to=Luna via=4" (or to:Luna) into a map.
func parseParams(text string) (map[string]string, error) {
	out := map[string]string{}
	words, err := kit.SplitWords(text)
	if err != nil {
		return nil, err
	}
	for _, w := range words {
		k, v, ok := strings.Cut(w, "=")
		if !ok {
			k, v, ok = strings.Cut(w, ":")
		}
		k = strings.ToLower(strings.TrimSpace(k))
		if !ok || k == "" || strings.TrimSpace(v) == "" {
			return nil, kit.Errorf("params are written name=value, e.g. params:\"to=Luna via=4\"; %q is not", w)
		}
		out[k] = strings.TrimSpace(v)
	}
	return out, nil
}

// answerParams carry answers to Questions: the GM's, or another faction's
// consent. Players cannot give them by typing; they come with the buttons.
var answerParams = []string{"gm_produce", "gm_repair", "consent"}

// buildOrder reads an order from the options of /faction act and
// /faction order. The action may be "key@asset", as its autocomplete
// suggests.
func buildOrder(req *kit.Request) (rules.Order, rules.Action, error) {
	key, assetText, _ := strings.Cut(strings.TrimSpace(req.Options.String("action")), "@")
	def, ok := rules.LookupAction(key)
	if !ok {
		return rules.Order{}, rules.Action{}, kit.Errorf("there is no action %q: type in action: to see what you may do now (example: action:invest stat:INF)", key)
	}
	o := rules.Order{Action: def.Key}
	params := map[string]string{}
	if text := req.Options.String("params"); text != "" {
		p, err := parseParams(text)
		if err != nil {
			return o, def, err
		}
		params = p
	}
	assetID := int64(0)
	if assetText != "" {
		n, err := strconv.ParseInt(assetText, 10, 64)
		if err != nil {
			return o, def, kit.Errorf("action:%s: the part after @ is an asset's number", req.Options.String("action"))
		}
		assetID = n
	}
	if n, ok := req.Options.Int("asset"); ok {
		assetID = n
	}
	if assetID != 0 {
		if def.Kind.Asset() {
			o.Asset = int(assetID)
		} else if _, has := params["target"]; !has && def.Kind == rules.KindFree {
			params["target"] = strconv.FormatInt(assetID, 10)
		} else {
			return o, def, kit.Errorf("%s is not an Asset Action: it takes no asset: (its parameters: %s)", def.Name, paramNames(def))
		}
	}
	if def.Kind.Asset() && o.Asset == 0 {
		return o, def, kit.Errorf("%s is an Asset Action: name the acting asset with asset:<#> (example: action:%s asset:3)", def.Name, def.Key)
	}
	if n, ok := req.Options.Int("target"); ok {
		params["target"] = strconv.FormatInt(n, 10)
	}
	for _, k := range []string{"habitat", "stat", "pay"} {
		if v := req.Options.String(k); v != "" {
			params[k] = v
		}
	}
	for k := range params {
		if !slices.ContainsFunc(def.Params, func(p rules.Param) bool { return p.Name == k }) {
			return o, def, kit.Errorf("%s takes no %s: (its parameters: %s)", def.Name, k, paramNames(def))
		}
		if slices.Contains(answerParams, k) && !req.GM {
			return o, def, kit.Errorf("%s: is an answer for the GM (or the faction asked) to give with the buttons, not yours to type", k)
		}
	}
	if len(params) > 0 {
		o.Params = params
	}
	return o, def, nil
}

func paramNames(def rules.Action) string {
	if len(def.Params) == 0 {
		return "none"
	}
	var out []string
	for _, p := range def.Params {
		s := p.Name
		if p.Required {
			s += " (required)"
		}
		out = append(out, s)
	}
	return strings.Join(out, ", ")
}

// outcomeLines writes what one action did, with what it set off.
func outcomeLines(b *strings.Builder, o rules.Outcome, indent string, chances bool) {
	mark := "✅"
	if !o.Success {
		mark = "❌"
	}
	// The outcome's text begins "Red: Attack with Frigate #2; ...": the
	// head names the acting asset, the rest is listed below.
	head, _, _ := strings.Cut(strings.TrimPrefix(o.Text, o.Faction+": "), ";")
	if !strings.HasPrefix(head, o.Name) {
		head = o.Name
	}
	fmt.Fprintf(b, "%s%s **%s**%s\n", indent, mark, o.Name, kit.EscapeInline(strings.TrimPrefix(head, o.Name)))
	for _, t := range o.Tests {
		line := t.Text
		if t.Label != "" {
			line = t.Label + ": " + line
		}
		if chances {
			line = fmt.Sprintf("**%s** to succeed · %s", kit.Percent(t.Chance), line)
		}
		fmt.Fprintf(b, "%s  🎲 %s\n", indent, line)
	}
	for _, c := range o.Costs {
		fmt.Fprintf(b, "%s  💸 %s\n", indent, c)
	}
	for _, c := range o.Changes {
		fmt.Fprintf(b, "%s  • %s\n", indent, c)
	}
	for _, e := range o.Effects {
		fmt.Fprintf(b, "%s  ⏳ round %d: %s\n", indent, e.Due, e.Note)
	}
	for _, n := range o.Notes {
		fmt.Fprintf(b, "%s  ℹ️ %s\n", indent, n)
	}
	for _, t := range o.Triggered {
		outcomeLines(b, t, indent+"  ↳ ", chances)
	}
}

// questionRows are the answer buttons of held orders: one row each, at
// most the rows a message may carry.
func questionRows(held []db.FactionOrder) []kit.Row {
	var rows []kit.Row
	for _, o := range held {
		if o.Question == nil || len(rows) == kit.MaxActionRows {
			continue
		}
		var row kit.Row
		for i, opt := range o.Question.Options {
			if i == kit.MaxButtonsPerRow {
				break
			}
			style := kit.Secondary
			if i == 0 {
				style = kit.Primary
			}
			row = append(row, kit.Button{Label: fmt.Sprintf("#%d %s", o.ID, opt), Style: style, CustomID: fmt.Sprintf("fans:%d:%d", o.ID, i)})
		}
		rows = append(rows, row)
	}
	return rows
}

func questionText(o db.FactionOrder) string {
	who := "the GM"
	if o.Question.Ask != "gm" {
		who = o.Question.Ask
	}
	return fmt.Sprintf("❓ order #%d of %s (`%s`) waits for %s: %s", o.ID, kit.EscapeMarkdown(o.Faction), kit.CodeSafe(o.Order.String()), kit.EscapeMarkdown(who), o.Question.Text)
}

// FactionActResult is the console's `result` of /faction act.
type FactionActResult struct {
	kit.Outcome
	Action string        `json:"action"`
	Result rules.Outcome `json:"outcome"`
	// Held is the order's number when it waits on a Question.
	Held int64 `json:"held,omitempty"`
}

// errHeld rolls back an act that raised a Question: nothing is applied.
var errHeld = errors.New("held by a question")

func (h *handlers) factionAct(ctx context.Context, req *kit.Request) (kit.Response, error) {
	o, def, err := buildOrder(req)
	if err != nil {
		return kit.Response{}, err
	}
	t, err := h.Tray(req)
	if err != nil {
		return kit.Response{}, err
	}
	var out rules.Outcome
	var who string
	_, err = h.update(ctx, req, func(c *rules.Campaign) error {
		f, err := userFaction(c, req, req.Options.String("faction"))
		if err != nil {
			return err
		}
		who = f.Name
		if out, err = rules.Resolve(c, f.Name, o, t.Roller()); err != nil {
			return err
		}
		if len(out.Questions) > 0 {
			return errHeld
		}
		return t.Done()
	})
	if errors.Is(err, errHeld) {
		q := out.Questions[0]
		held, err := h.Factions.QueueOrder(ctx, req.GuildID, db.FactionOrder{Faction: who, Mode: db.OrderAct, Order: o, Question: &q, CreatedBy: req.User.ID})
		if err != nil {
			return kit.Response{}, err
		}
		return kit.Response{
			Content: fmt.Sprintf("**%s**: %s is held.\n%s", kit.EscapeMarkdown(who), def.Name, questionText(held)),
			Rows:    questionRows([]db.FactionOrder{held}),
			Result:  FactionActResult{Action: def.Key, Result: out, Held: held.ID, Outcome: kit.Outcome{Rolls: []kit.RollGroup{}}},
		}, nil
	}
	if err != nil {
		return kit.Response{}, err
	}
	res := FactionActResult{Action: def.Key, Result: out, Outcome: kit.Outcome{Rolls: []kit.RollGroup{}}}
	if tests := allTests(out); len(tests) > 0 {
		// Logged like every roll, so "what did you roll?" has an answer.
		res.Total = tests[0].Roll
		res.Succeeded(tests[0].Success, tests[0].Margin)
		if err := h.Finish(ctx, req, t, "faction "+def.Key, &res.Outcome, &res); err != nil {
			return kit.Response{}, err
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**%s**, round %d:\n", kit.EscapeMarkdown(who), turnRound(out))
	outcomeLines(&b, out, "", false)
	if out.TurnStart != nil && (len(out.TurnStart.Applied) > 0 || len(out.TurnStart.Changes) > 0) {
		fmt.Fprintf(&b, "-# the turn began: AP %d, %d delayed effects applied\n", out.TurnStart.AP, len(out.TurnStart.Applied))
	}
	if res.ID != "" {
		b.WriteString("-# roll " + res.ID)
	}
	// A Covert action is its faction's secret: only its player sees what
	// it did ("The Asset may not be attacked", nor watched).
	return kit.Response{Content: strings.TrimSpace(b.String()), Result: res, Ephemeral: out.Covert}, nil
}

// allTests lists an outcome's rolls with those of what it set off.
func allTests(o rules.Outcome) []rules.Test {
	out := slices.Clone(o.Tests)
	for _, t := range o.Triggered {
		out = append(out, allTests(t)...)
	}
	return out
}

func turnRound(o rules.Outcome) int {
	if o.TurnStart != nil {
		return o.TurnStart.Round
	}
	for _, e := range o.Effects {
		return e.Created
	}
	return 0
}

// FactionOrderResult is the console's `result` of /faction order and
// /faction orders.
type FactionOrderResult struct {
	ID       int64           `json:"id"`
	Faction  string          `json:"faction"`
	Seq      int             `json:"seq"`
	Mode     string          `json:"mode"`
	Order    string          `json:"order"`
	Question *rules.Question `json:"question,omitempty"`
}

func orderResult(o db.FactionOrder) FactionOrderResult {
	return FactionOrderResult{ID: o.ID, Faction: o.Faction, Seq: o.Seq, Mode: o.Mode, Order: o.Order.String(), Question: o.Question}
}

func (h *handlers) factionOrder(ctx context.Context, req *kit.Request) (kit.Response, error) {
	o, def, err := buildOrder(req)
	if err != nil {
		return kit.Response{}, err
	}
	if def.Kind == rules.KindTriggered && def.Key != "convert-duplicate" || def.Key == "counter-attack" {
		return kit.Response{}, kit.Errorf("%s is triggered (%s), not ordered: it happens by itself", def.Name, def.Duration)
	}
	fc, err := h.campaign(ctx, req)
	if err != nil {
		return kit.Response{}, err
	}
	f, err := userFaction(fc.Campaign, req, req.Options.String("faction"))
	if err != nil {
		return kit.Response{}, err
	}
	stored, err := h.Factions.QueueOrder(ctx, req.GuildID, db.FactionOrder{Faction: f.Name, Order: o, CreatedBy: req.User.ID})
	if err != nil {
		return kit.Response{}, factionError(err)
	}
	return kit.Response{
		Content: fmt.Sprintf("Queued order #%d of **%s** for round %d: `%s` (%s). /faction orders shows the queue.",
			stored.ID, kit.EscapeMarkdown(f.Name), fc.Campaign.Round, kit.CodeSafe(o.String()), def.Cost),
		Ephemeral: true,
		Result:    orderResult(stored),
	}, nil
}

func (h *handlers) factionOrders(ctx context.Context, req *kit.Request) (kit.Response, error) {
	fc, err := h.campaign(ctx, req)
	if err != nil {
		return kit.Response{}, err
	}
	c := fc.Campaign
	name := req.Options.String("faction")
	var f *rules.Faction
	if name != "" || !req.GM {
		if f, err = userFaction(c, req, name); err != nil {
			return kit.Response{}, err
		}
	}
	mayChange := func(factionName string) bool {
		return req.GM || strings.EqualFold(ownerOf(c, factionName), req.User.ID) && ownerOf(c, factionName) != ""
	}
	var note string
	if id, ok := req.Options.Int("remove"); ok {
		o, err := h.Factions.FactionOrder(ctx, req.GuildID, id)
		if errors.Is(err, db.ErrNotFound) || err == nil && !mayChange(o.Faction) {
			return kit.Response{}, kit.Errorf("there is no order #%d of yours: /faction orders lists them", id)
		}
		if err != nil {
			return kit.Response{}, err
		}
		if _, err := h.Factions.DeleteOrders(ctx, req.GuildID, o.Faction, id); err != nil {
			return kit.Response{}, err
		}
		note = fmt.Sprintf("Removed order #%d.\n", id)
	}
	if req.Options.Bool("clear") {
		if f == nil {
			return kit.Response{}, kit.Errorf("clear: name the faction with faction:")
		}
		n, err := h.Factions.DeleteOrders(ctx, req.GuildID, f.Name)
		if err != nil {
			return kit.Response{}, err
		}
		note += fmt.Sprintf("Removed %d orders of %s.\n", n, kit.EscapeMarkdown(f.Name))
	}
	factionName := ""
	if f != nil {
		factionName = f.Name
	}
	orders, err := h.Factions.FactionOrders(ctx, req.GuildID, factionName, "")
	if err != nil {
		return kit.Response{}, err
	}
	var b strings.Builder
	b.WriteString(note)
	out := []FactionOrderResult{}
	var held []db.FactionOrder
	for _, o := range orders {
		if !req.GM && !mayChange(o.Faction) {
			continue
		}
		out = append(out, orderResult(o))
		fmt.Fprintf(&b, "`#%d` **%s** %d. `%s`", o.ID, kit.EscapeMarkdown(o.Faction), o.Seq, kit.CodeSafe(o.Order.String()))
		if o.Mode == db.OrderAct {
			b.WriteString(" (act now)")
		}
		b.WriteString("\n")
		if o.Question != nil {
			b.WriteString("   " + questionText(o) + "\n")
			held = append(held, o)
		}
	}
	if len(out) == 0 {
		fmt.Fprintf(&b, "No orders queued for round %d. Queue one with /faction order action:invest stat:INF\n", c.Round)
	}
	return kit.Response{Content: b.String(), Ephemeral: true, Rows: questionRows(held), Result: out}, nil
}

// factionAnswer answers a held order's Question from its button
// (fans:<order>:<option>): the GM answers the GM's questions, a faction's
// player (or the GM) its consent. A held /faction act is then resolved;
// a queued order waits for its round.
func (h *handlers) factionAnswer(ctx context.Context, req *kit.Request) (kit.Response, error) {
	parts := strings.Split(req.CustomID, ":")
	if len(parts) != 3 {
		return kit.Response{}, kit.Errorf("this button no longer works: see /faction orders")
	}
	id, err1 := strconv.ParseInt(parts[1], 10, 64)
	idx, err2 := strconv.Atoi(parts[2])
	if err1 != nil || err2 != nil {
		return kit.Response{}, kit.Errorf("this button no longer works: see /faction orders")
	}
	var out rules.Outcome
	var answered, option string
	resolved := false
	o, fc, err := h.Factions.UpdateOrder(ctx, req.GuildID, id, func(o *db.FactionOrder, fc *db.FactionCampaign) (db.OrderChange, error) {
		q := o.Question
		if q == nil || idx < 0 || idx >= len(q.Options) {
			return db.OrderChange{}, kit.Errorf("order #%d waits for no answer any more", o.ID)
		}
		if q.Ask == "gm" && !req.GM {
			return db.OrderChange{}, kit.ErrNotGM
		}
		if q.Ask != "gm" && !req.GM && (ownerOf(fc.Campaign, q.Ask) != req.User.ID || ownerOf(fc.Campaign, q.Ask) == "") {
			return db.OrderChange{}, kit.Errorf("this question is for %s's player (or the GM)", q.Ask)
		}
		answered, option = q.Text, q.Options[idx]
		o.Order, o.Question = o.Order.With(q.Param, option), nil
		if o.Mode != db.OrderAct {
			return db.OrderChange{}, nil
		}
		var err error
		out, err = rules.Resolve(fc.Campaign, o.Faction, o.Order, h.Roller())
		if err != nil {
			return db.OrderChange{}, factionError(err)
		}
		if len(out.Questions) > 0 {
			next := out.Questions[0]
			o.Question = &next
			return db.OrderChange{}, nil
		}
		resolved = true
		return db.OrderChange{Remove: true, SaveCampaign: true}, nil
	})
	if errors.Is(err, db.ErrNotFound) {
		return kit.Response{}, kit.Errorf("order #%d is gone: it was carried out or removed", id)
	}
	if err != nil {
		return kit.Response{}, factionError(err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**%s** answered %q for order #%d (%s): %s\n", kit.DisplayName(req.User), option, id, kit.EscapeMarkdown(o.Faction), answered)
	var rows []kit.Row
	switch {
	case resolved:
		outcomeLines(&b, out, "", false)
	case o.Question != nil:
		b.WriteString(questionText(o))
		rows = questionRows([]db.FactionOrder{o})
	default:
		fmt.Fprintf(&b, "It will be carried out in round %d.", fc.Campaign.Round)
	}
	return kit.Response{Content: b.String(), Rows: rows, Ephemeral: resolved && out.Covert,
		Result: map[string]any{"order": orderResult(o), "resolved": resolved, "outcome": out}}, nil
}

// RoundResult is the console's `result` of /faction round and a firing.
type RoundResult struct {
	Rounds []rules.RoundReport  `json:"rounds"`
	Held   []FactionOrderResult `json:"held,omitempty"`
	// Summarised lists the reports that did not fit in the message.
	Summarised []string `json:"summarised,omitempty"`
	Round      int      `json:"round"` // the next round
}

func (h *handlers) factionRound(ctx context.Context, req *kit.Request) (kit.Response, error) {
	count := 1
	if n, ok := req.Options.Int("count"); ok {
		count = int(n)
	}
	t, err := h.Tray(req)
	if err != nil {
		return kit.Response{}, err
	}
	res, err := h.Factions.PlayRounds(ctx, req.GuildID, db.PlayOptions{Rounds: count, Roller: t.Roller(), ActorID: req.User.ID,
		// The dice: values must match exactly before anything is saved.
		Hook: func(p db.RoundPhase) error {
			if p == db.PhaseResolved {
				return t.Done()
			}
			return nil
		}})
	if errors.Is(err, db.ErrNotFound) {
		return kit.Response{}, NoCampaign
	}
	if err != nil {
		return kit.Response{}, factionError(err)
	}
	hist, err := h.Factions.RoundHistory(ctx, req.GuildID, chartRounds)
	if err != nil {
		return kit.Response{}, err
	}
	msgs, err := RoundMessages(res, hist, "", false)
	if err != nil {
		return kit.Response{}, err
	}
	return msgs[0], nil
}

// chartRounds is how many rounds the chart goes back.
const chartRounds = 50

// RoundMessages builds what played rounds post: one embed per faction and
// round, the stats chart, and the Questions of held orders with their
// buttons. header opens the first message. With paged, the reports run
// over as many messages as Discord's limits need (a schedule posts them
// all); without, they fit one message and those that do not are
// summarised in its last embed, which says so.
func RoundMessages(res db.PlayResult, hist []db.FactionRound, header string, paged bool) ([]kit.Response, error) {
	c := res.Campaign.Campaign
	var embeds []kit.Embed
	var summaries []string
	result := RoundResult{Round: c.Round}
	for _, r := range res.Rounds {
		result.Rounds = append(result.Rounds, r.Report)
		for i, fr := range r.Report.Factions {
			embeds = append(embeds, ReportEmbed(r.Report.Round, fr, i, false, true))
			summaries = append(summaries, reportSummary(r.Report.Round, fr))
		}
	}
	var b strings.Builder
	if header != "" {
		b.WriteString(header + "\n")
	}
	first, last := res.Rounds[0].Round, res.Rounds[len(res.Rounds)-1].Round
	if first == last {
		fmt.Fprintf(&b, "🗺️ **Round %d** is played. Next: round %d.", first, c.Round)
	} else {
		fmt.Fprintf(&b, "🗺️ **Rounds %d to %d** are played. Next: round %d.", first, last, c.Round)
	}
	for _, o := range res.Held {
		result.Held = append(result.Held, orderResult(o))
		b.WriteString("\n" + questionText(o))
	}
	png, err := statsChart(hist)
	if err != nil {
		return nil, fmt.Errorf("draw the faction chart: %w", err)
	}
	chart := kit.Embed{Title: "Health Stats over the rounds", Image: "attachment://" + chartFile}
	files := []kit.File{{Name: chartFile, ContentType: "image/png", Data: png}}
	rows := questionRows(res.Held)
	if !paged {
		kept, rest := packEmbeds(embeds, kit.MaxEmbeds-2, kit.MaxEmbedTotal-summaryBudget-chart.Size())
		if len(rest) > 0 {
			var sb strings.Builder
			fmt.Fprintf(&sb, "%d reports did not fit in one message: /faction report round:<n> faction:<name> shows each.\n", len(rest))
			for _, i := range rest {
				sb.WriteString(summaries[i] + "\n")
				result.Summarised = append(result.Summarised, summaries[i])
			}
			kept = append(kept, kit.Embed{Title: "In short", Description: kit.Truncate(sb.String(), summaryBudget-20, "…")})
		}
		return []kit.Response{{Content: b.String(), Embeds: append(kept, chart), Files: files, Rows: rows, Result: result}}, nil
	}
	var out []kit.Response
	for len(embeds) > 0 {
		kept, rest := packEmbeds(embeds, kit.MaxEmbeds-1, kit.MaxEmbedTotal-chart.Size())
		page := make([]kit.Embed, 0, len(kept))
		page = append(page, kept...)
		var next []kit.Embed
		for _, i := range rest {
			next = append(next, embeds[i])
		}
		out = append(out, kit.Response{Type: kit.Message, Embeds: page})
		embeds = next
	}
	if len(out) == 0 {
		out = append(out, kit.Response{Type: kit.Message})
	}
	out[0].Content, out[0].Result = b.String(), result
	lastMsg := &out[len(out)-1]
	lastMsg.Embeds, lastMsg.Files, lastMsg.Rows = append(lastMsg.Embeds, chart), files, rows
	return out, nil
}

// summaryBudget is what the summary of the reports that do not fit may
// take of a message's embed characters.
const summaryBudget = 1500

// maxReportEmbed bounds one faction's report, so several fit a message.
const maxReportEmbed = 1800

const chartFile = "factions.png"

// packEmbeds keeps embeds, in order, while at most n of them fit in total
// characters; it returns those kept and the indexes of the rest.
func packEmbeds(embeds []kit.Embed, n, total int) (kept []kit.Embed, rest []int) {
	size := 0
	for i, e := range embeds {
		if len(kept) < n && size+e.Size() <= total && len(rest) == 0 {
			kept = append(kept, e)
			size += e.Size()
			continue
		}
		rest = append(rest, i)
	}
	if len(kept) == 0 && len(embeds) > 0 {
		// Not even one fits whole: shrink it.
		e, _ := embeds[0].Shrink(total)
		kept, rest = []kit.Embed{e}, rest[1:]
	}
	return kept, rest
}

var factionColors = []int{0x5865f2, 0xed4245, 0x3ba55d, 0xfaa61a, 0xeb459e, 0x9b59b6, 0x1abc9c, 0xe67e22}

// reportEmbed is one faction's part of a round report; with chances, each
// roll shows its exact odds first (the preview).
// reportEmbed is one faction's part of a round report. A public report
// (posted to the channel, or shown to another faction's player) leaves out
// what Covert assets did, saying only how many such actions there were:
// "The Asset may not be attacked", nor its doings known, by the others.
func ReportEmbed(round int, fr rules.FactionReport, i int, chances, public bool) kit.Embed {
	var b strings.Builder
	fmt.Fprintf(&b, "AP %d → %d left", fr.Start.AP, fr.APEnd)
	if fr.Policy != "" {
		fmt.Fprintf(&b, " · no orders: policy **%s**", fr.Policy)
	}
	b.WriteString("\n")
	for _, e := range fr.Start.Applied {
		fmt.Fprintf(&b, "⏱️ %s\n", e.Note)
	}
	for _, c := range fr.Start.Costs {
		fmt.Fprintf(&b, "💸 %s\n", c)
	}
	for _, n := range fr.Start.Notes {
		fmt.Fprintf(&b, "ℹ️ %s\n", n)
	}
	covert := 0
	show := func(o rules.Outcome, indent string) {
		if public && o.Covert {
			covert++
			return
		}
		outcomeLines(&b, o, indent, chances)
	}
	for _, o := range fr.Arrivals {
		show(o, "")
	}
	for _, o := range fr.Outcomes {
		show(o, "")
	}
	for _, o := range fr.Reactions {
		show(o, "↩️ ")
	}
	if covert > 0 {
		fmt.Fprintf(&b, "🕶️ %d covert action(s): its player and the GM see them with /faction report\n", covert)
	}
	for _, s := range fr.Skipped {
		fmt.Fprintf(&b, "🚫 `%s` cannot be carried out: %s\n", kit.CodeSafe(s.Order.String()), s.Reason)
	}
	for _, q := range fr.Questions {
		fmt.Fprintf(&b, "❓ `%s` waits: %s\n", kit.CodeSafe(q.Order.String()), q.Question.Text)
	}
	shown := map[int]bool{}
	var mark func([]rules.Outcome)
	mark = func(os []rules.Outcome) {
		for _, o := range os {
			for _, e := range o.Effects {
				shown[e.ID] = true
			}
			mark(o.Triggered)
		}
	}
	mark(fr.Outcomes)
	for _, e := range fr.Pending {
		if !shown[e.ID] {
			fmt.Fprintf(&b, "⏳ round %d: %s\n", e.Due, e.Note)
		}
	}
	title := fmt.Sprintf("Round %d · %s", round, fr.Faction)
	if chances {
		title = "Preview of round " + strconv.Itoa(round) + " · " + fr.Faction
	}
	return kit.Embed{Title: title, Description: kit.Truncate(strings.TrimSpace(b.String()), maxReportEmbed-len(title), kit.TruncNote), Color: factionColors[i%len(factionColors)]}
}

func reportSummary(round int, fr rules.FactionReport) string {
	ok := 0
	for _, o := range fr.Outcomes {
		if o.Success {
			ok++
		}
	}
	s := fmt.Sprintf("Round %d · **%s**: %d actions (%d succeeded), AP %d → %d", round, kit.EscapeMarkdown(fr.Faction), len(fr.Outcomes), ok, fr.Start.AP, fr.APEnd)
	if len(fr.Skipped) > 0 {
		s += fmt.Sprintf(", %d skipped", len(fr.Skipped))
	}
	if len(fr.Questions) > 0 {
		s += fmt.Sprintf(", %d held", len(fr.Questions))
	}
	return s
}

// maxChartLines is how many factions the chart draws.
const maxChartLines = 12

// statsChart draws each faction's Health Stats (INF + TEC + SOL + POP)
// after each round of hist.
func statsChart(hist []db.FactionRound) ([]byte, error) {
	p := plot.New()
	p.Title.Text = "Health Stats (INF + TEC + SOL + POP)"
	p.X.Label.Text = "round"
	p.Y.Label.Text = "points"
	p.X.Tick.Marker = core.IntegerTicks{}
	p.Legend.Top = true
	p.Legend.Left = true
	var names []string
	series := map[string]plotter.XYs{}
	for _, r := range hist {
		for _, s := range r.Sheets {
			if _, ok := series[s.Faction]; !ok {
				if len(names) == maxChartLines {
					continue
				}
				names = append(names, s.Faction)
			}
			total := s.Stats.INF + s.Stats.TEC + s.Stats.SOL + s.Stats.POP
			series[s.Faction] = append(series[s.Faction], plotter.XY{X: float64(r.Round), Y: float64(total)})
		}
	}
	top := 1.0
	for i, n := range names {
		line, points, err := plotter.NewLinePoints(series[n])
		if err != nil {
			return nil, err
		}
		c := factionColors[i%len(factionColors)]
		col := color.NRGBA{R: uint8(c >> 16), G: uint8(c >> 8), B: uint8(c), A: 0xff}
		line.Color, points.Color = col, col
		line.Width = vg.Points(2)
		p.Add(line, points)
		p.Legend.Add(n, line, points)
		for _, xy := range series[n] {
			top = max(top, xy.Y)
		}
	}
	p.Y.Min, p.Y.Max = 0, top*1.3
	if len(hist) > 0 {
		p.X.Min, p.X.Max = float64(hist[0].Round)-0.5, float64(hist[len(hist)-1].Round)+0.5
	}
	wt, err := p.WriterTo(core.ChartWidth, core.ChartHeight, "png")
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if _, err := wt.WriteTo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// PreviewRounds plays n rounds on a copy of c: the dry run of what would
// happen, each Test with its exact Chance. Only the first round has the
// queued orders; later ones play the standing policies.
func PreviewRounds(c *rules.Campaign, orders map[string][]rules.Order, n int, r dice.Roller) ([]rules.RoundReport, error) {
	work := c.Clone()
	var out []rules.RoundReport
	for i := range n {
		if i > 0 {
			orders = nil
		}
		rep, err := rules.ResolveRound(work, orders, r)
		if err != nil {
			return nil, err
		}
		out = append(out, rep)
	}
	return out, nil
}

// PreviewEmbeds shows a dry run: per faction the AP it renews and what it
// pays, what completes, which orders cannot be carried out (not paid for,
// say), and the exact odds of every roll. The dice shown are one possible
// outcome.
func PreviewEmbeds(reps []rules.RoundReport) []kit.Embed {
	var out []kit.Embed
	for _, rep := range reps {
		for i, fr := range rep.Factions {
			e := ReportEmbed(rep.Round, fr, i, true, false)
			var paid []string
			for _, c := range fr.Costs() {
				paid = append(paid, c.String())
			}
			if len(paid) > 0 {
				e.Fields = append(e.Fields, kit.Field{Name: "Pays", Value: kit.Truncate(strings.Join(paid, "\n"), kit.MaxFieldValue, "…")})
			}
			out = append(out, e)
		}
	}
	return out
}

func (h *handlers) factionPreview(ctx context.Context, req *kit.Request) (kit.Response, error) {
	fc, orders, _, err := h.Factions.RoundPlan(ctx, req.GuildID)
	if errors.Is(err, db.ErrNotFound) {
		return kit.Response{}, NoCampaign
	}
	if err != nil {
		return kit.Response{}, err
	}
	reps, err := PreviewRounds(fc.Campaign, orders, 1, h.Roller())
	if err != nil {
		return kit.Response{}, factionError(err)
	}
	embeds := PreviewEmbeds(reps)
	kept, rest := packEmbeds(embeds, kit.MaxEmbeds, kit.MaxEmbedTotal)
	content := fmt.Sprintf("🔍 Dry run of round %d: nothing is changed. The odds are exact; the dice are one possible outcome.", fc.Campaign.Round)
	if len(rest) > 0 {
		content += fmt.Sprintf("\n%d factions did not fit: /faction orders faction:<name> lists their orders.", len(rest))
	}
	return kit.Response{Content: content, Embeds: kept, Ephemeral: true, Result: RoundResult{Rounds: reps, Round: fc.Campaign.Round}}, nil
}

func (h *handlers) factionReport(ctx context.Context, req *kit.Request) (kit.Response, error) {
	var r db.FactionRound
	if n, ok := req.Options.Int("round"); ok {
		var err error
		if r, err = h.Factions.PlayedRound(ctx, req.GuildID, int(n)); errors.Is(err, db.ErrNotFound) {
			return kit.Response{}, kit.Errorf("round %d has not been played here", n)
		} else if err != nil {
			return kit.Response{}, err
		}
	} else {
		hist, err := h.Factions.RoundHistory(ctx, req.GuildID, 1)
		if err != nil {
			return kit.Response{}, err
		}
		if len(hist) == 0 {
			return kit.Response{}, kit.Errorf("no round has been played yet: the GM plays one with /faction round")
		}
		r = hist[0]
	}
	var embeds []kit.Embed
	var reps []rules.FactionReport
	name := req.Options.String("faction")
	mine := map[string]bool{} // the factions whose covert doings req.User may see
	if !req.GM {
		if camp, err := h.Factions.Campaign(ctx, req.GuildID); err == nil {
			for _, f := range camp.Campaign.Factions {
				if f.Owner == req.User.ID {
					mine[strings.ToLower(f.Name)] = true
				}
			}
		}
	}
	for i, fr := range r.Report.Factions {
		if name == "" || strings.EqualFold(name, fr.Faction) {
			public := !req.GM && !mine[strings.ToLower(fr.Faction)]
			embeds = append(embeds, ReportEmbed(r.Round, fr, i, false, public))
			reps = append(reps, fr)
		}
	}
	if len(embeds) == 0 {
		return kit.Response{}, kit.Errorf("%s played no turn in round %d", name, r.Round)
	}
	kept, rest := packEmbeds(embeds, kit.MaxEmbeds, kit.MaxEmbedTotal)
	content := fmt.Sprintf("Report of round %d", r.Round)
	if !r.ScheduledAt.IsZero() {
		content += fmt.Sprintf(", played by the schedule for <t:%d:F>", r.ScheduledAt.Unix())
	}
	if len(rest) > 0 {
		content += fmt.Sprintf("; %d more: ask with faction:<name>", len(rest))
	}
	return kit.Response{Content: content + ".", Embeds: kept, Ephemeral: true, Result: reps}, nil
}

// suggestFactions autocompletes a faction's name: the user's own first.
func (h *handlers) suggestFactions(ctx context.Context, req *kit.Request) (kit.Response, error) {
	fc, err := h.Factions.Campaign(ctx, req.GuildID)
	if errors.Is(err, db.ErrNotFound) {
		return kit.Response{}, nil
	}
	if err != nil {
		return kit.Response{}, err
	}
	typed := strings.ToLower(strings.TrimSpace(req.Options.String(req.Focused)))
	fs := slices.Clone(fc.Campaign.Factions)
	slices.SortStableFunc(fs, func(a, b *rules.Faction) int {
		am, bm := a.Owner == req.User.ID, b.Owner == req.User.ID
		switch {
		case am && !bm:
			return -1
		case bm && !am:
			return 1
		}
		return 0
	})
	var out []kit.Choice
	for _, f := range fs {
		if strings.Contains(strings.ToLower(f.Name), typed) {
			out = append(out, kit.Choice{Name: f.Name + " (" + ownerLabel(f) + ")", Value: f.Name})
		}
	}
	return kit.Response{Choices: out}, nil
}

func ownerLabel(f *rules.Faction) string {
	if f.Owner == "" {
		return "NPC"
	}
	return "player"
}

// suggestAssets autocompletes an asset: those the user may see, the acting
// faction's first.
func (h *handlers) suggestAssets(ctx context.Context, req *kit.Request) (kit.Response, error) {
	fc, err := h.Factions.Campaign(ctx, req.GuildID)
	if errors.Is(err, db.ErrNotFound) {
		return kit.Response{}, nil
	}
	if err != nil {
		return kit.Response{}, err
	}
	c := fc.Campaign
	typed := strings.ToLower(strings.TrimSpace(fmt.Sprint(req.Options[req.Focused])))
	if _, ok := req.Options[req.Focused]; !ok {
		typed = ""
	}
	var mine, others []kit.Choice
	acting := req.Options.String("faction")
	for _, f := range c.Factions {
		for _, a := range f.Assets {
			if !sees(c, req, f, a) {
				continue
			}
			name := fmt.Sprintf("#%d %s (%s, Level %d/%d, %s)", a.ID, a.Name, f.Name, a.Health, a.Level, a.Location)
			if typed != "" && !strings.Contains(strings.ToLower(name), typed) {
				continue
			}
			ch := kit.Choice{Name: name, Value: int64(a.ID)}
			if f.Owner == req.User.ID && f.Owner != "" || strings.EqualFold(f.Name, acting) {
				mine = append(mine, ch)
			} else {
				others = append(others, ch)
			}
		}
	}
	return kit.Response{Choices: append(mine, others...)}, nil
}

// suggestActions lists what the acting faction may do right now, with the
// cost: rules.Available. The value names the asset too: "attack@12".
func (h *handlers) suggestActions(ctx context.Context, req *kit.Request) (kit.Response, error) {
	fc, err := h.Factions.Campaign(ctx, req.GuildID)
	if errors.Is(err, db.ErrNotFound) {
		return kit.Response{}, nil
	}
	if err != nil {
		return kit.Response{}, err
	}
	f, err := userFaction(fc.Campaign, req, req.Options.String("faction"))
	if err != nil {
		return kit.Response{}, err
	}
	opts, err := rules.Available(fc.Campaign, f.Name)
	if err != nil {
		return kit.Response{}, err
	}
	typed := strings.ToLower(strings.TrimSpace(req.Options.String("action")))
	var out []kit.Choice
	for _, o := range opts {
		if typed != "" && !strings.Contains(strings.ToLower(o.Label+" "+o.Action), typed) {
			continue
		}
		label := o.Label
		if !o.Affordable {
			label += " — not enough AP"
		}
		v := o.Action
		if o.Asset != 0 {
			v += "@" + strconv.Itoa(o.Asset)
		}
		out = append(out, kit.Choice{Name: label, Value: v})
	}
	return kit.Response{Choices: out}, nil
}

// suggestParams suggests the chosen action's parameters, to fill in.
func (h *handlers) suggestParams(ctx context.Context, req *kit.Request) (kit.Response, error) {
	key, _, _ := strings.Cut(req.Options.String("action"), "@")
	def, ok := rules.LookupAction(key)
	typed := strings.TrimSpace(req.Options.String("params"))
	if !ok {
		return kit.Response{Choices: []kit.Choice{{Name: "choose the action first", Value: typed}}}, nil
	}
	var out []kit.Choice
	if typed != "" {
		out = append(out, kit.Choice{Name: typed, Value: typed})
	}
	for _, p := range def.Params {
		if strings.Contains(typed, p.Name+"=") {
			continue
		}
		name := p.Name + "=… " + p.Text
		if p.Required {
			name = "(required) " + name
		}
		v := strings.TrimSpace(typed + " " + p.Name + "=")
		if len(v) > kit.MaxChoiceStringLen {
			continue
		}
		out = append(out, kit.Choice{Name: name, Value: v})
	}
	return kit.Response{Choices: out}, nil
}

func (h *handlers) suggestHabitats(ctx context.Context, req *kit.Request) (kit.Response, error) {
	fc, err := h.Factions.Campaign(ctx, req.GuildID)
	if errors.Is(err, db.ErrNotFound) {
		return kit.Response{}, nil
	}
	if err != nil {
		return kit.Response{}, err
	}
	typed := strings.ToLower(strings.TrimSpace(req.Options.String(req.Focused)))
	var out []kit.Choice
	for _, hb := range fc.Campaign.Habitats {
		if strings.Contains(strings.ToLower(hb.Name), typed) {
			owner := hb.Owner
			if owner == "" {
				owner = "unowned"
			}
			out = append(out, kit.Choice{Name: fmt.Sprintf("%s (%s, health %d/%d)", hb.Name, owner, hb.Health, hb.MaxHealth), Value: hb.Name})
		}
	}
	return kit.Response{Choices: out}, nil
}

func (h *handlers) suggestCharts(ctx context.Context, req *kit.Request) (kit.Response, error) {
	cfg := h.factionConfig()
	if fc, err := h.Factions.Campaign(ctx, req.GuildID); err == nil {
		cfg = fc.Campaign.Config
	}
	typed := strings.ToLower(strings.TrimSpace(req.Options.String("chart")))
	var out []kit.Choice
	for _, d := range cfg.Assets {
		name := fmt.Sprintf("%s (%s %s, Level %d)", d.Name, d.Category, d.Type, d.Level)
		if strings.Contains(strings.ToLower(name), typed) {
			out = append(out, kit.Choice{Name: name, Value: d.Name})
		}
	}
	return kit.Response{Choices: out}, nil
}

// fireTime renders a firing's time for Discord: every reader sees it in
// their own zone.
func FireTime(t time.Time) string { return fmt.Sprintf("<t:%d:F>", t.Unix()) }

// giveHabitatBonus adds hb's Health Stat bonus to f, its new owner.
func giveHabitatBonus(f *rules.Faction, hb *rules.Habitat) {
	for _, st := range rules.AllStats {
		f.Stats.Set(st, f.Stats.Get(st)+hb.Bonus.Get(st))
	}
}

// withdrawHabitatBonus takes hb's bonus back from its owner, if it holds
// it, never below 0.
func withdrawHabitatBonus(c *rules.Campaign, hb *rules.Habitat) {
	if old := c.Faction(hb.Owner); old != nil && hb.BonusActive {
		for _, st := range rules.AllStats {
			old.Stats.Set(st, max(old.Stats.Get(st)-hb.Bonus.Get(st), 0))
		}
	}
}
