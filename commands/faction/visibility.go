package faction

import (
	"strings"

	"github.com/tablehand/tablehand/commands/kit"
	rules "github.com/tablehand/tablehand/rules/faction"
)

// Viewer is who reads the campaign, and this file the one rule of what
// they may see: the Discord replies (/faction show, list, orders, report,
// roll) and the web pages (bot/web.go, through Page) ask it alike, so the
// two cannot drift apart.
//
// The GM sees everything. A player sees, of a faction they play, all; of
// the others, their assets that are not Covert (and a Covert one their
// faction hired), neither their queued orders nor their pending effects,
// and their part of a round's report as the public reads it (what Covert
// assets did only counted). PlayersView is a player who plays no faction:
// what every player may read, the players' page.
type Viewer struct {
	GM   bool
	User string // the user's ID; "" plays no faction
}

// PlayersView and GMView are the web pages' viewers.
var (
	PlayersView = Viewer{}
	GMView      = Viewer{GM: true}
)

// viewer is the request's reader.
func viewer(req *kit.Request) Viewer { return Viewer{GM: req.GM, User: req.User.ID} }

// Plays reports whether the viewer plays f (an NPC faction, or none, is
// played by nobody).
func (v Viewer) Plays(f *rules.Faction) bool {
	return f != nil && f.Owner != "" && f.Owner == v.User
}

// SeesAll reports whether the viewer sees what f keeps to itself: its
// pending effects, its covert doings in a report. A faction that is gone
// (nil) keeps nothing from the GM and everything from the others.
func (v Viewer) SeesAll(f *rules.Faction) bool { return v.GM || v.Plays(f) }

// Sees reports whether the viewer may see the asset a of own: the GM and
// own's player see every asset, others only those that are not Covert,
// and the player of the faction that hired it.
func (v Viewer) Sees(c *rules.Campaign, own *rules.Faction, a *rules.Asset) bool {
	return v.SeesAll(own) || a.HiredBy != "" && v.Plays(c.Faction(a.HiredBy)) || !c.Covert(own, a)
}

// SeesOrders reports whether the viewer may see (and change) the queued
// orders of the faction called name: the GM, and its player (user IDs
// compared as /faction orders always has, without case).
func (v Viewer) SeesOrders(c *rules.Campaign, name string) bool {
	owner := ownerOf(c, name)
	return v.GM || owner != "" && strings.EqualFold(owner, v.User)
}

// PublicReport reports whether the viewer reads the faction called
// name's part of a round report as the public does.
func (v Viewer) PublicReport(c *rules.Campaign, name string) bool { return !v.SeesAll(c.Faction(name)) }
