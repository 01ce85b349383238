package faction

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// NewCampaign starts a campaign at round 1 under cfg.
func NewCampaign(cfg Config) (*Campaign, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return &Campaign{Config: cfg, Round: 1, NextID: 1, PerFactionNumbers: true}, nil
}

// The numbers a player reads count only what that player may see (issue
// 20), each kind of thing counted where its readers see it all:
//   - assets, which every faction sees (but Covert ones), take the
//     campaign's counter (Campaign.NextID);
//   - research projects and debts, which come of actions every faction
//     sees (Research, Annexation, a Research Time's end; none is ever
//     Covert), take their faction's (Faction.NextProject): another
//     faction reads project numbers in reports;
//   - delayed effects and Plans, which may come of Covert actions, take
//     their faction's other counter (Faction.NextID), and only its player
//     and the GM read their numbers: no text another faction reads
//     names one, but for an enemy's Investigate or Sabotage naming it.
// Each is found by number where it is counted: effects, projects and
// debts within their faction.

//
// An asset born Covert (its faction's assets all are: Clandestine) is
// seen by no other faction, so it takes no number from the campaign's
// counter, which the others read: it takes one from its faction's own
// block (hiddenBlock numbers from Faction.HiddenBase, above any the
// counter gives), and the counter's next number when another faction
// first sees it (NumberSeen).

// hiddenBlock is the size of a faction's block of numbers for assets born
// Covert; the campaign's counter stays below the first block.
const hiddenBlock = 1_000_000

// hiddenNumber reports whether id is from a faction's block.
func hiddenNumber(id int) bool { return id >= hiddenBlock }

// newAssetID is the number of a new asset of f: from the campaign's
// counter, or from f's block when the asset is born Covert.
func (c *Campaign) newAssetID(f *Faction) int {
	c.upgradeNumbers()
	if f != nil && c.allCovert(f) {
		return c.hiddenAssetID(f)
	}
	return nextNumber(&c.NextID, func() int {
		n := 0
		for _, f := range c.Factions {
			for _, a := range f.Assets {
				if !hiddenNumber(a.ID) {
					n = max(n, a.ID)
				}
			}
		}
		return n
	})
}

// hiddenAssetID is the next number of f's block.
func (c *Campaign) hiddenAssetID(f *Faction) int {
	if f.HiddenBase == 0 {
		f.HiddenBase = c.freeHiddenBase(f)
	}
	f.NextHidden++
	return f.HiddenBase + f.NextHidden
}

// freeHiddenBase is f's block: the one of its place among the factions
// (a public fact), or the next one no faction and no asset holds.
func (c *Campaign) freeHiddenBase(f *Faction) int {
	taken := func(base int) bool {
		for _, g := range c.Factions {
			if g.HiddenBase == base {
				return true
			}
			for _, a := range g.Assets {
				if a.ID > base && a.ID <= base+hiddenBlock {
					return true
				}
			}
		}
		return false
	}
	base := (slices.Index(c.Factions, f) + 1) * hiddenBlock
	for taken(base) {
		base += hiddenBlock
	}
	return base
}

// allCovert reports whether every asset of f is Covert from its start.
func (c *Campaign) allCovert(f *Faction) bool {
	return slices.ContainsFunc(c.ActiveMemes(f), func(m MemeDef) bool { return m.AllCovert })
}

// NumberSeen gives each asset born Covert that another faction now sees
// the campaign counter's next number, in the factions' and their assets'
// order; its old number stays an alias (Renumbered). The caller runs it
// after every change, before what the change says is read.
func (c *Campaign) NumberSeen() {
	for _, f := range c.Factions {
		for _, a := range f.Assets {
			c.numberIfSeen(f, a)
		}
	}
}

// numberIfSeen renumbers a, own's, if it is born Covert and another
// faction sees it now (see SeenBy).
func (c *Campaign) numberIfSeen(own *Faction, a *Asset) {
	if !hiddenNumber(a.ID) || !slices.ContainsFunc(c.Factions, func(g *Faction) bool { return g != own && c.SeenBy(g, own, a) }) {
		return
	}
	old := a.ID
	a.ID = c.newAssetID(nil)
	if c.Renumbered == nil {
		c.Renumbered = map[int]int{}
	}
	c.Renumbered[old] = a.ID
	c.renumberRefs(old, a.ID)
}

// renumberRefs changes every reference to the asset numbered old to new:
// numbers of a faction's block are no effect's, project's or debt's own,
// so any field that may hold an asset's number is changed where it holds
// old.
func (c *Campaign) renumberRefs(old, new int) {
	swap := func(p *int) {
		if *p == old {
			*p = new
		}
	}
	swapAll := func(ps []int) {
		for i := range ps {
			swap(&ps[i])
		}
	}
	for i := range c.Effects {
		swap(&c.Effects[i].Asset)
		swap(&c.Effects[i].Target)
	}
	for _, f := range c.Factions {
		swapAll(f.Turn.Acted)
		swapAll(f.Turn.Extra)
		for i := range f.Turn.Plans {
			swap(&f.Turn.Plans[i].Planner)
			swap(&f.Turn.Plans[i].Asset)
		}
		for i := range f.Turn.Remotes {
			swap(&f.Turn.Remotes[i].Asset)
		}
		for i := range f.Research {
			swap(&f.Research[i].Asset)
		}
		for _, a := range f.Assets {
			swap(&a.Aboard)
			if a.Transit != nil {
				swap(&a.Transit.Carrier)
				swapAll(a.Transit.Passengers)
			}
		}
	}
}

// newID is the number of a new delayed effect or Plan of f.
func (c *Campaign) newID(f *Faction) int {
	c.upgradeNumbers()
	return nextNumber(&f.NextID, func() int {
		n := 0
		for _, e := range c.Effects {
			if e.Faction == f.Name {
				n = max(n, e.ID)
			}
		}
		for _, p := range f.Turn.Plans {
			n = max(n, p.Effect)
		}
		for _, r := range f.Turn.Remotes {
			n = max(n, r.Effect)
		}
		return n
	})
}

// newProjectID is the number of a new research project or debt of f.
func (c *Campaign) newProjectID(f *Faction) int {
	c.upgradeNumbers()
	return nextNumber(&f.NextProject, func() int {
		n := 0
		for _, p := range f.Research {
			n = max(n, p.ID)
		}
		for _, d := range f.Debts {
			n = max(n, d.ID)
		}
		return n
	})
}

// upgradeNumbers moves a campaign saved when one counter (next_id)
// numbered everything to the counters above, once, before it numbers
// anything: its factions' counters start at that counter's next number,
// past any number its players have read, so none is given again (and
// nothing held is renumbered); its assets go on from it.
func (c *Campaign) upgradeNumbers() {
	if c.PerFactionNumbers {
		return
	}
	c.PerFactionNumbers = true
	for _, f := range c.Factions {
		f.NextID = max(f.NextID, c.NextID)
		f.NextProject = max(f.NextProject, c.NextID)
	}
}

// nextNumber draws the next number of a counter. A counter not yet
// counting (a new faction's) starts past every number held where it
// counts.
func nextNumber(counter *int, held func() int) int {
	if *counter < 1 {
		*counter = held() + 1
	}
	id := *counter
	*counter++
	return id
}

// AddFaction adds a faction with the config's starting sheet, its AP full,
// last in the turn order. owner is the player's ID, "" for an NPC.
func (c *Campaign) AddFaction(name, owner string) (*Faction, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return nil, fmt.Errorf("%w: a faction needs a name", ErrBadParam)
	}
	if c.Faction(name) != nil {
		return nil, fmt.Errorf("%w: there is already a faction %q", ErrBadParam, name)
	}
	f := &Faction{
		Name: name, Owner: owner,
		Attributes: c.Config.StartAttributes, MaxAttributes: c.Config.StartAttributes,
		Stats: c.Config.StartStats, BaseStats: c.Config.StartStats,
	}
	if owner == "" {
		f.Policy = PolicyHold
	}
	c.Factions = append(c.Factions, f)
	c.TurnOrder = append(c.TurnOrder, name)
	f.AP = c.APMax(f)
	return f, nil
}

// AddHabitat adds a habitat of the config's health and bonus. An owned
// habitat's bonus is active: the owner's full Stats include it, and so do
// its current Stats.
func (c *Campaign) AddHabitat(name, owner, region string) (*Habitat, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return nil, fmt.Errorf("%w: a habitat needs a name", ErrBadParam)
	}
	if c.Habitat(name) != nil {
		return nil, fmt.Errorf("%w: there is already a habitat %q", ErrBadParam, name)
	}
	h := &Habitat{Name: name, Region: region, Health: c.Config.HabitatHealth,
		MaxHealth: c.Config.HabitatHealth, Bonus: c.Config.HabitatBonus}
	if owner != "" {
		f := c.Faction(owner)
		if f == nil {
			return nil, fmt.Errorf("%w: %q", ErrUnknownFaction, owner)
		}
		h.Owner = f.Name
		h.BonusActive = true
		for _, s := range AllStats {
			f.Stats.Set(s, f.Stats.Get(s)+h.Bonus.Get(s))
		}
		if f.Home == "" {
			f.Home = h.Name
		}
	}
	c.Habitats = append(c.Habitats, h)
	return h, nil
}

// AddAsset gives a faction an asset of the chart entry chart, at full
// Level, at a habitat: the GM's doing, which no other faction sees, so an
// asset born Covert takes a number of its faction's block (newAssetID).
func (c *Campaign) AddAsset(faction, chart, location string) (*Asset, error) {
	return c.addAsset(faction, chart, location, false)
}

// AddCovertAsset is AddAsset of an asset Covert from its start: the
// others never see it come, nor its number.
func (c *Campaign) AddCovertAsset(faction, chart, location string) (*Asset, error) {
	return c.addAsset(faction, chart, location, true)
}

func (c *Campaign) addAsset(faction, chart, location string, covert bool) (*Asset, error) {
	f := c.Faction(faction)
	if f == nil {
		return nil, fmt.Errorf("%w: %q", ErrUnknownFaction, faction)
	}
	d, ok := c.Config.AssetDef(chart)
	if !ok {
		return nil, fmt.Errorf("%w: %q is not in the asset chart", ErrBadParam, chart)
	}
	h := c.Habitat(location)
	if h == nil {
		return nil, fmt.Errorf("%w: %q", ErrUnknownHabitat, location)
	}
	id := 0
	if covert {
		id = c.hiddenAssetID(f)
	} else {
		id = c.newAssetID(f)
	}
	a := assetOf(d, d.Level, id)
	a.Location, a.Covert = h.Name, covert
	f.Assets = append(f.Assets, a)
	return a, nil
}

// newAsset is a new asset of the chart entry d. It takes the campaign
// counter's next number: what makes it (Production, Annexation, a
// mercenary's hire) is told in the round's report, so its number tells
// nothing more.
func (c *Campaign) newAsset(d AssetDef, health int) *Asset {
	return assetOf(d, health, c.newAssetID(nil))
}

// assetOf is an asset of the chart entry d, numbered id.
func assetOf(d AssetDef, health, id int) *Asset {
	return &Asset{ID: id, Name: d.Name, Chart: d.Name, Category: d.Category, Type: d.Type,
		Level: d.Level, Health: health, Specials: slices.Clone(d.Specials), Bonus: d.Bonus}
}

// Faction returns the faction named name (in any case), or nil.
func (c *Campaign) Faction(name string) *Faction {
	for _, f := range c.Factions {
		if strings.EqualFold(f.Name, name) {
			return f
		}
	}
	return nil
}

// Habitat returns the habitat named name (in any case), or nil.
func (c *Campaign) Habitat(name string) *Habitat {
	for _, h := range c.Habitats {
		if strings.EqualFold(h.Name, name) {
			return h
		}
	}
	return nil
}

// Asset returns the asset with the ID and the faction that owns it, or nil.
func (c *Campaign) Asset(id int) (*Asset, *Faction) {
	for _, f := range c.Factions {
		for _, a := range f.Assets {
			if a.ID == id {
				return a, f
			}
		}
	}
	if now, ok := c.Renumbered[id]; ok {
		return c.Asset(now)
	}
	return nil, nil
}

// Label names an asset for a player: "Spy #12".
func (a *Asset) Label() string {
	if a == nil {
		return "no asset"
	}
	return a.Name + " #" + strconv.Itoa(a.ID)
}

// Attribute is a faction's Attribute as rolled: its current value plus the
// bonuses of its standing assets.
func (c *Campaign) Attribute(f *Faction, a Attr) int {
	n := f.Attributes.Get(a)
	for _, as := range f.Assets {
		if as.Health > 0 && as.CapturedBy == "" && !as.Duplicate {
			n += as.Bonus.Get(a)
		}
	}
	return n
}

// StatMax is a faction's full Health Stat: its base plus the bonuses of its
// habitats whose bonus is active.
func (c *Campaign) StatMax(f *Faction, s Stat) int {
	n := f.BaseStats.Get(s)
	for _, h := range c.Habitats {
		if h.BonusActive && h.Owner == f.Name {
			n += h.Bonus.Get(s)
		}
	}
	return n
}

// APMax is the AP a faction renews each turn: "by default a faction has AP
// equal to its COH" (faction-context.md; config ap_attribute).
func (c *Campaign) APMax(f *Faction) int { return max(c.Attribute(f, c.Config.APAttribute), 0) }

// ActiveMemes returns the definitions of the faction's memes that work now.
// A meme the config does not define does nothing.
func (c *Campaign) ActiveMemes(f *Faction) []MemeDef {
	var out []MemeDef
	for _, m := range f.Memes {
		if !m.Active {
			continue
		}
		if d, ok := c.Config.MemeDef(m.Name); ok {
			out = append(out, d)
		}
	}
	return out
}

// Allied reports whether two factions are the same or allied: "friendly".
func (c *Campaign) Allied(a, b string) bool {
	if strings.EqualFold(a, b) {
		return true
	}
	return c.relation(a, b) == Alliance
}

func (c *Campaign) relation(a, b string) string {
	x, y := pair(a, b)
	for _, r := range c.Relations {
		if r.A == x && r.B == y {
			return r.Kind
		}
	}
	return ""
}

func pair(a, b string) (string, string) {
	if a > b {
		return b, a
	}
	return a, b
}

// Friendly reports whether the habitat is friendly territory for the
// faction: its own or an ally's.
func (c *Campaign) Friendly(f *Faction, habitat string) bool {
	h := c.Habitat(habitat)
	return h != nil && h.Owner != "" && c.Allied(h.Owner, f.Name)
}

// Home reports whether the habitat is the faction's own territory (Home
// Turf).
func (c *Campaign) Home(f *Faction, habitat string) bool {
	h := c.Habitat(habitat)
	return h != nil && h.Owner == f.Name
}

// Covert reports whether an asset is Covert: made so by Subterfuge or a
// Laundered plan, or by its owner's Clandestine meme, and not revealed.
func (c *Campaign) Covert(owner *Faction, a *Asset) bool {
	if a.Revealed {
		return false
	}
	return a.Covert || c.allCovert(owner)
}

// home returns where an escaping agent goes: the faction's Home, else its
// first habitat.
func (c *Campaign) home(f *Faction) string {
	if f.Home != "" {
		if h := c.Habitat(f.Home); h != nil && h.Owner == f.Name {
			return h.Name
		}
	}
	for _, h := range c.Habitats {
		if h.Owner == f.Name {
			return h.Name
		}
	}
	return ""
}

func (f *Faction) declines(reaction string) bool { return slices.Contains(f.Decline, reaction) }

func (f *Faction) removeAsset(a *Asset) {
	a.destroyed = true
	f.Assets = slices.DeleteFunc(f.Assets, func(x *Asset) bool { return x == a })
}

// Pending returns the faction's delayed effects still to come, in the order
// they will apply.
func (c *Campaign) Pending(faction string) []Effect {
	var out []Effect
	for _, e := range c.Effects {
		if strings.EqualFold(e.Faction, faction) {
			out = append(out, e)
		}
	}
	slices.SortStableFunc(out, func(a, b Effect) int {
		if a.Due != b.Due {
			return a.Due - b.Due
		}
		return a.ID - b.ID
	})
	return out
}
