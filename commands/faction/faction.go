// Package faction answers /faction and /schedule: the faction game of
// seed 000 (rules/faction), the strategic layer around the player
// characters, a round between sessions.
//
// A guild has one campaign (Campaign), created by the GM's first
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
package faction

import (
	"github.com/tablehand/tablehand/commands/kit"
	rules "github.com/tablehand/tablehand/rules/faction"
)

func factionOpt(required bool, desc string) kit.Option {
	return kit.Option{Type: kit.String, Name: "faction", Description: desc, Required: required, Autocomplete: true, MaxLength: kit.MaxNameLen}
}

// assetOpt is an option that names an asset, by number or by name (see
// resolveAssets).
func assetOpt(name string, required bool, desc string) kit.Option {
	return kit.Option{Type: kit.String, Name: name, Description: desc + " (number or name)", Required: required, Autocomplete: true, MaxLength: kit.MaxNameLen}
}

func habitatOpt(name string, required bool, desc string) kit.Option {
	return kit.Option{Type: kit.String, Name: name, Description: desc, Required: required, Autocomplete: true, MaxLength: kit.MaxNameLen}
}

var (
	policyOpt = kit.Option{Type: kit.String, Name: "policy", Description: "What it does in a round without orders", Choices: kit.Choices(rules.Policies.Values...)}
	statOpt   = kit.Option{Type: kit.String, Name: "stat", Description: "A Health Stat", Choices: kit.Choices(rules.StatWords.Values...)}
	payOpt    = kit.Option{Type: kit.String, Name: "pay", Description: "AP (default), the Related Stat instead, or auto", Choices: kit.Choices(rules.PayModes.Values...)}
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
	Name:        rules.SystemName,
	Description: "EPIC faction rules (Eclipse Phase): factions, actions, orders, rounds",
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
			{Type: kit.String, Name: "memes", Description: "Its memes, comma separated (active now); none: no meme", MaxLength: 300},
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
				{Type: kit.Boolean, Name: "covert", Description: "Covert from the start: no other faction sees it come"},
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
			{Type: kit.String, Name: "type", Description: "The roll type", Required: true, Choices: kit.Choices(rules.RollTypes.Values...)},
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
			kit.PrivateOption, kit.VisibilityOption,
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
		{Type: kit.SubCommand, Name: "page", Description: "Links to the campaign's read-only web pages, for players and for you (GM)", Options: []kit.Option{
			{Type: kit.Boolean, Name: "share", Description: "Also post the players' link in the channel"},
			{Type: kit.Boolean, Name: "revoke", Description: "Kill the old links and make new ones"},
		}},
		{Type: kit.SubCommand, Name: "report", Description: "A played round's report", Options: []kit.Option{
			{Type: kit.Integer, Name: "round", Description: "The round (default: the last)", MinValue: kit.Float(1)},
			factionOpt(false, "Only this faction"),
		}},
	},
}

// registerFaction adds /faction, its buttons and its suggestions.
func (h *handlers) registerFaction(r *kit.Router) {
	factions, assets, habitats := h.suggest(suggestFactions), h.suggest(suggestAssets), h.suggest(suggestHabitats)
	r.Mount(factionCommand, kit.Routes{
		Handlers: map[string]kit.Handler{
			"create": h.create, "show": h.show, "list": h.list, "set": h.set, "delete": h.delete,
			"asset/add": h.assetAdd, "asset/set": h.assetSet, "asset/remove": h.assetRemove, "asset/list": h.assetList,
			"habitat/add": h.habitatAdd, "habitat/set": h.habitatSet, "habitat/remove": h.habitatRemove, "habitat/list": h.habitatList,
			"roll": h.roll, "act": h.actNow, "order": h.order, "orders": h.orders,
			"round": h.round, "preview": h.preview, "report": h.report, "page": h.page,
		},
		GMOnly: []string{"create", "set", "delete", "asset/add", "asset/set", "asset/remove",
			"habitat/add", "habitat/set", "habitat/remove", "round", "preview", "page"},
		Suggest: map[string]kit.Handler{
			"faction": factions, "defender": factions,
			"asset": assets, "target": assets, "defender_asset": assets,
			"habitat": habitats, "home": habitats, "at": habitats,
			"action": h.suggest(suggestActions), "params": h.suggestParams, "chart": h.suggestCharts,
		},
	})
	r.RouteComponent("fans", h.answerQuestion, false)
}
