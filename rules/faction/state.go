package faction

import (
	"maps"
	"slices"
)

// Attr is one of the four Attributes: "Attributes are the bonuses to 1d10
// rolls" (faction-context.md).
type Attr string

// The Attributes, each paired with a Health Stat (faction-context.md).
const (
	RES Attr = "RES" // Resources: logistics, energy, feedstock, capital, labour
	INT Attr = "INT" // Intrigue: surveillance, research, secrecy, subterfuge
	COH Attr = "COH" // Cohesion: how readily the populace serves the faction's goals
	STR Attr = "STR" // Strength: military might
)

// Stat is one of the four Health Stats: "Stats are health that absorbs
// damage" (faction-context.md).
type Stat string

// The Health Stats.
const (
	INF Stat = "INF" // Infrastructure, related to RES
	TEC Stat = "TEC" // Technology, related to INT
	SOL Stat = "SOL" // Solidarity, related to COH
	POP Stat = "POP" // Populace, related to STR
)

// AllAttrs and AllStats list the Attributes and Stats in the sheet's order,
// the order every loop over them follows.
var (
	AllAttrs = []Attr{RES, INT, COH, STR}
	AllStats = []Stat{INF, TEC, SOL, POP}
)

// Stat returns the Attribute's Related Stat: "RES pairs with INF, INT with
// TEC, COH with SOL, STR with POP".
func (a Attr) Stat() Stat {
	switch a {
	case RES:
		return INF
	case INT:
		return TEC
	case COH:
		return SOL
	case STR:
		return POP
	}
	return ""
}

// Attr returns the Attribute the Stat is paired with.
func (s Stat) Attr() Attr {
	switch s {
	case INF:
		return RES
	case TEC:
		return INT
	case SOL:
		return COH
	case POP:
		return STR
	}
	return ""
}

// AttrWords are the words of an Attribute: its abbreviation, offered in
// the sheet's order, or its name, in any case.
var AttrWords = Words[Attr]{
	Values:  AllAttrs,
	Also:    map[string]Attr{"resources": RES, "intrigue": INT, "cohesion": COH, "strength": STR},
	Same:    sameWord,
	Mistake: "%q is not an Attribute",
}

// StatWords are the words of a Health Stat: its abbreviation, offered in
// the sheet's order, or its name, in any case.
var StatWords = Words[Stat]{
	Values:  AllStats,
	Also:    map[string]Stat{"infrastructure": INF, "technology": TEC, "solidarity": SOL, "populace": POP},
	Same:    sameWord,
	Mistake: "%q is not a Health Stat",
}

// ParseAttr reads an Attribute (AttrWords).
func ParseAttr(s string) (Attr, error) { return AttrWords.Parse(s) }

// ParseStat reads a Health Stat (StatWords).
func ParseStat(s string) (Stat, error) { return StatWords.Parse(s) }

// Attributes holds a value for each Attribute.
type Attributes struct {
	RES int `json:"res" toml:"res"`
	INT int `json:"int" toml:"int"`
	COH int `json:"coh" toml:"coh"`
	STR int `json:"str" toml:"str"`
}

// Get returns the value of a.
func (v Attributes) Get(a Attr) int {
	if p := v.field(a); p != nil {
		return *p
	}
	return 0
}

// Set sets the value of a.
func (v *Attributes) Set(a Attr, n int) {
	if p := v.field(a); p != nil {
		*p = n
	}
}

// field is the field of a, or nil for none.
func (v *Attributes) field(a Attr) *int {
	switch a {
	case RES:
		return &v.RES
	case INT:
		return &v.INT
	case COH:
		return &v.COH
	case STR:
		return &v.STR
	}
	return nil
}

// Stats holds a value for each Health Stat.
type Stats struct {
	INF int `json:"inf" toml:"inf"`
	TEC int `json:"tec" toml:"tec"`
	SOL int `json:"sol" toml:"sol"`
	POP int `json:"pop" toml:"pop"`
}

// Get returns the value of s.
func (v Stats) Get(s Stat) int {
	if p := v.field(s); p != nil {
		return *p
	}
	return 0
}

// Set sets the value of s.
func (v *Stats) Set(s Stat, n int) {
	if p := v.field(s); p != nil {
		*p = n
	}
}

// field is the field of s, or nil for none.
func (v *Stats) field(s Stat) *int {
	switch s {
	case INF:
		return &v.INF
	case TEC:
		return &v.TEC
	case SOL:
		return &v.SOL
	case POP:
		return &v.POP
	}
	return nil
}

// Category is an asset's category: "Category: Facility, Vehicle, Unit,
// Agent" (faction-context.md).
type Category string

// The asset categories.
const (
	Facility Category = "Facility"
	Vehicle  Category = "Vehicle"
	Unit     Category = "Unit"
	Agent    Category = "Agent"
)

// Mobile reports whether assets of the category move: Vehicles, Units and
// Agents ("This may not be done with Mobile Assets" sets them apart from
// Facilities).
func (c Category) Mobile() bool { return c == Vehicle || c == Unit || c == Agent }

// Categories are the words of a category: its name, in any case.
var Categories = Words[Category]{
	Values:  []Category{Facility, Vehicle, Unit, Agent},
	Mistake: "%q is not an asset category",
}

// ParseCategory reads a category (Categories).
func ParseCategory(s string) (Category, error) { return Categories.Parse(s) }

// Policy is the standing policy of a faction that has no orders for a
// round: NPC factions, and players who queued nothing.
type Policy string

// The standing policies.
const (
	// PolicyHold takes no action.
	PolicyHold Policy = "hold"
	// PolicyInvest invests in the weakest Health Stat (the Invest Faction
	// Action) and has every asset whose type pairs with that stat Produce.
	PolicyInvest Policy = "invest"
	// PolicyRepair repairs the most damaged asset in friendly territory (the
	// Repair Faction Action, then one Repair (Special)), or invests when
	// nothing is damaged.
	PolicyRepair Policy = "repair"
	// PolicyProduce invests in the weakest Health Stat and has every asset
	// that can Produce do so, highest Level first, while AP last.
	PolicyProduce Policy = "produce"
)

// Policies are the words of a standing policy, in any case; "" is hold.
var Policies = Words[Policy]{
	Values:  []Policy{PolicyHold, PolicyInvest, PolicyRepair, PolicyProduce},
	Also:    map[string]Policy{"": PolicyHold},
	Mistake: "policy %q",
}

// ParsePolicy reads a standing policy (Policies).
func ParsePolicy(s string) (Policy, error) { return Policies.Parse(s) }

// Campaign is the whole state of a faction game.
type Campaign struct {
	Config Config `json:"config"`
	// Round is the round being played (the next to be resolved), from 1.
	Round int `json:"round"`
	// TurnOrder is the order of the factions' turns: "Each faction gets one
	// turn a round, in an order the GM chooses" (faction-context.md).
	TurnOrder []string   `json:"turn_order"`
	Factions  []*Faction `json:"factions"`
	Habitats  []*Habitat `json:"habitats"`
	Effects   []Effect   `json:"effects,omitempty"`
	Relations []Relation `json:"relations,omitempty"`
	Proposals []Proposal `json:"proposals,omitempty"`
	// NextID is the number of the next asset. Assets alone count here
	// (effects, projects and debts are numbered per faction: see
	// Campaign.newID) when PerFactionNumbers; a campaign saved before held
	// the next number of everything here (see Campaign.upgradeNumbers).
	NextID            int  `json:"next_id"`
	PerFactionNumbers bool `json:"per_faction_numbers,omitempty"`
	// Renumbered are the numbers of assets born Covert, each to the
	// number it took when the others first saw it (Campaign.NumberSeen):
	// an order its player gave before still finds it.
	Renumbered map[int]int `json:"renumbered,omitempty"`
}

// Faction is one faction's sheet.
type Faction struct {
	Name string `json:"name"`
	// Owner is the player who plays the faction (a Discord user ID); empty
	// for an NPC faction.
	Owner string `json:"owner,omitempty"`
	// Policy is what the faction does in a round it has no orders for.
	Policy Policy `json:"policy,omitempty"`
	// Home is the habitat escaping agents return to; empty: the faction's
	// first habitat in the campaign's order.
	Home string `json:"home,omitempty"`
	// Attributes are the current Attributes, after Attribute damage.
	Attributes Attributes `json:"attributes"`
	// MaxAttributes are the undamaged Attributes Regroup heals up to.
	MaxAttributes Attributes `json:"max_attributes"`
	// Stats are the current Health Stats, boosts included.
	Stats Stats `json:"stats"`
	// BaseStats are the full Health Stats without habitat bonuses; the
	// full value of a stat is its base plus the bonuses of the faction's
	// habitats whose bonus is active (see [Campaign.StatMax]).
	BaseStats Stats `json:"base_stats"`
	// AP are the Action Points left this turn.
	AP     int      `json:"ap"`
	Memes  []Meme   `json:"memes,omitempty"`
	Assets []*Asset `json:"assets,omitempty"`
	// Research projects under way or awaiting their Design cost.
	Research []Project `json:"research,omitempty"`
	// Debts are payments the text lets a faction delay: the POP of an
	// Annexation and Design costs.
	Debts   []Debt   `json:"debts,omitempty"`
	Mandate *Mandate `json:"mandate,omitempty"`
	// MandateLockedUntil: "If one of the rolls fail, a Mandate may not be
	// re-attempted for [(MoF)*2] Rounds": the first round it may be.
	MandateLockedUntil int `json:"mandate_locked_until,omitempty"`
	// Decline lists the reactions the faction does not take when triggered:
	// "counter-attack", "escape", "rally", "investigate", "escape-pods".
	// Empty: it takes all of them.
	Decline []string `json:"decline,omitempty"`
	// Rallied is the round the faction last Rallied to interrupt an
	// Annexation outside its own turn.
	Rallied int       `json:"rallied,omitempty"`
	Turn    TurnState `json:"turn"`
	// NextID is the number of the faction's next delayed effect or Plan,
	// NextProject of its next research project or debt (see
	// Campaign.newID); 0: not yet counting.
	NextID      int `json:"next_id,omitempty"`
	NextProject int `json:"next_project,omitempty"`
	// HiddenBase and NextHidden number the faction's assets born Covert
	// (Campaign.newAssetID): HiddenBase + 1, + 2, ...; 0: none yet.
	HiddenBase int `json:"hidden_base,omitempty"`
	NextHidden int `json:"next_hidden,omitempty"`
}

// Meme is one of a faction's memes (at most 3).
type Meme struct {
	Name string `json:"name"`
	// ActiveFrom is the round the meme starts working: "A new Meme provides
	// no benefits for [10-(MoS)] Rounds."
	ActiveFrom int `json:"active_from"`
	// Active is set when the meme's delayed effect is applied.
	Active bool `json:"active"`
}

// Mandate is a Mandate under way: "Straight Faction (COH) x 3 Turns in a
// row".
type Mandate struct {
	Meme      string `json:"meme"`
	Replace   string `json:"replace,omitempty"`
	Successes int    `json:"successes"`
	LastRound int    `json:"last_round"`
	MoS       []int  `json:"mos"`
}

// TurnState is what a faction did in its current turn.
type TurnState struct {
	// CovertAP and CovertStats are what the faction's Covert actions made
	// with /faction act since the last round cost it (Stats: before less
	// after). The others read its AP and Health Stats as if unpaid
	// (SeenAP, SeenStats) until the round is played, whose report tells
	// how many Covert actions there were: "The Asset may not be attacked",
	// nor its doings watched.
	CovertAP    int   `json:"covert_ap,omitempty"`
	CovertStats Stats `json:"covert_stats"`

	// Round is the round of the turn; a turn begins (AP renewed, delayed
	// effects applied) when Round falls behind the campaign's.
	Round int   `json:"round"`
	Phase Phase `json:"phase"`
	// FactionAction is the Faction Action taken this turn ("Each Faction
	// takes ONE Faction Action").
	FactionAction string `json:"faction_action,omitempty"`
	// Acted lists the assets that acted this turn ("Each Asset may only act
	// once per turn unless otherwise noted"); Extra the assets allowed one
	// more action.
	Acted        []int `json:"acted,omitempty"`
	Extra        []int `json:"extra,omitempty"`
	AssetActions int   `json:"asset_actions"`
	// InvestUsed and RepairUsed: Invest (Special) and Repair (Special) "may
	// be performed as an Asset Action once per Turn".
	InvestUsed bool `json:"invest_used,omitempty"`
	RepairUsed bool `json:"repair_used,omitempty"`
	// Exclusive: the turn's only action was Faction Stat or Attribute
	// Research: "No Faction Actions or other Asset Actions in the entire
	// Turn".
	Exclusive bool `json:"exclusive,omitempty"`
	// Plans are Plan AP bonuses usable this turn; Remotes the assets enabled
	// to act Remotely this turn.
	Plans   []PlanBonus   `json:"plans,omitempty"`
	Remotes []RemoteGrant `json:"remotes,omitempty"`
	APStart int           `json:"ap_start"`
}

// PlanBonus is a Plan's "MoS points to AP for a specific Asset Action".
type PlanBonus struct {
	Effect  int    `json:"effect"` // the Plan effect it came from
	Planner int    `json:"planner"`
	Asset   int    `json:"asset"`
	Action  string `json:"action"`
	AP      int    `json:"ap"`
	// Covert: Laundering "also makes the Asset involved Covert for the
	// duration of the Planned action".
	Covert bool `json:"covert,omitempty"`
}

// RemoteGrant lets an asset "perform an action Remotely ... while ignoring
// MoS points of opponent's Home Turf Advantage".
type RemoteGrant struct {
	Effect int `json:"effect"`
	Asset  int `json:"asset"`
	Ignore int `json:"ignore"`
}

// Asset is a Facility, Vehicle, Unit or Agent.
type Asset struct {
	ID int `json:"id"`
	// Name is the asset's own name; Chart the asset chart entry it is.
	Name     string   `json:"name"`
	Chart    string   `json:"chart"`
	Category Category `json:"category"`
	Type     Attr     `json:"type"`
	// Level is the full Level (1 to 4, Research up to 5); Health the
	// current one: "An asset's health is its Level; damage is taken off the
	// Level, and rolls use the damaged value."
	Level  int `json:"level"`
	Health int `json:"health"`
	// Upgrade is the Increase Asset Effectiveness research: "+1 to the
	// Asset's Relevant Attribute Action rolls" each.
	Upgrade int `json:"upgrade,omitempty"`
	// Specials are the special actions and traits the chart lists for it.
	Specials []string `json:"specials,omitempty"`
	// Bonus is added to the owner's Attributes while the asset stands: "Any
	// Attribute bonuses from the Asset disappear immediately."
	Bonus    Attributes `json:"bonus"`
	Location string     `json:"location,omitempty"`
	Transit  *Transit   `json:"transit,omitempty"`
	// Aboard is the vehicle the asset rides in, 0 when none.
	Aboard int `json:"aboard,omitempty"`
	// Covert: "The Asset may not be attacked (except for Investigation)".
	// Revealed: found by Investigation; it is not Covert until it takes
	// Subterfuge again (it overrides Clandestine too).
	Covert   bool `json:"covert,omitempty"`
	Revealed bool `json:"revealed,omitempty"`
	// EscapeFailed: after a failed Escape "it may only use Subterfuge or
	// Darkcasting".
	EscapeFailed bool `json:"escape_failed,omitempty"`
	// DoubleFor is the faction the agent is a Double Agent for.
	DoubleFor string `json:"double_for,omitempty"`
	// DoubleActed is the last round the Double Agent acted in its new
	// faction's turn.
	DoubleActed int `json:"double_acted,omitempty"`
	// CapturedBy is the faction holding the agent captive.
	CapturedBy string `json:"captured_by,omitempty"`
	// Interrogated: a captive "Can subsequently be Investigated again,
	// once".
	Interrogated bool `json:"interrogated,omitempty"`
	// HiredBy is the faction that hired the asset as a Mercenary;
	// HiredRound the round it was hired; Bespoke: made for the hire, it
	// disappears when released.
	HiredBy    string `json:"hired_by,omitempty"`
	HiredRound int    `json:"hired_round,omitempty"`
	Bespoke    bool   `json:"bespoke,omitempty"`
	// Duplicate: "unusable until it is converted".
	Duplicate bool `json:"duplicate,omitempty"`
	// ConvertAfter: a failed Convert Duplicate "may be reattempted in
	// [MoF/2] Rounds".
	ConvertAfter int `json:"convert_after,omitempty"`
	// BusyUntil: being repurposed or converted; it cannot act before this
	// round.
	BusyUntil int `json:"busy_until,omitempty"`
	// Blocked is a round the asset may take no action (Misdirect).
	Blocked int `json:"blocked,omitempty"`
	// destroyed is set when the asset leaves play, so a pointer held during
	// an action sees it.
	destroyed bool
}

// Transit is a journey under way.
type Transit struct {
	From     string `json:"from"`
	To       string `json:"to"`
	Arrive   int    `json:"arrive"`
	Rerouted bool   `json:"rerouted,omitempty"`
	// Passengers ride along; Carrier is the vehicle a passenger rides.
	Passengers []int `json:"passengers,omitempty"`
	Carrier    int   `json:"carrier,omitempty"`
	// Pod: escape pods adrift, landing at To.
	Pod bool `json:"pod,omitempty"`
}

// Has reports whether the asset's chart lists the special action or trait.
func (a *Asset) Has(special string) bool { return slices.Contains(a.Specials, special) }

// Habitat is a piece of territory.
type Habitat struct {
	Name   string `json:"name"`
	Owner  string `json:"owner,omitempty"`
	Region string `json:"region,omitempty"`
	// Health and MaxHealth: the Habitat's health; "When the Habitat's
	// health is reduced to 0, it is Suppresed."
	Health    int `json:"health"`
	MaxHealth int `json:"max_health"`
	// Bonus is what the habitat adds to its owner's full Health Stats while
	// BonusActive: "the former Faction immediately loses the Habitat's
	// Health Stat bonuses"; the new one "must heal the Habitat and its own
	// Health Stats to gain the Habitat's bonuses".
	Bonus       Stats `json:"bonus"`
	BonusActive bool  `json:"bonus_active"`
	Suppressed  bool  `json:"suppressed,omitempty"`
	// Delays are the first rounds factions may (re)attempt Annexation.
	Delays []AnnexDelay `json:"delays,omitempty"`
	// Ruins are Facilities destroyed here: after Annexation "the new
	// Faction may also 'Produce' destroyed Facilities, which appear at
	// Level 0".
	Ruins []Ruin `json:"ruins,omitempty"`
}

// AnnexDelay is the first round a faction may attempt to Annex a habitat.
type AnnexDelay struct {
	Faction string `json:"faction"`
	Round   int    `json:"round"`
}

// Ruin is a destroyed Facility.
type Ruin struct {
	Chart string `json:"chart"`
	Owner string `json:"owner"`
}

// Relation is an agreement or alliance formed by Diplomacy, or open
// hostility. A and B are in name order.
type Relation struct {
	A     string `json:"a"`
	B     string `json:"b"`
	Kind  string `json:"kind"` // alliance, agreement or hostile
	Since int    `json:"since"`
}

// Relation kinds.
const (
	Alliance  = "alliance"
	Agreement = "agreement"
	Hostile   = "hostile"
)

// Proposal is one side of an agreement or alliance awaiting the other.
type Proposal struct {
	From  string `json:"from"`
	To    string `json:"to"`
	Kind  string `json:"kind"`
	Round int    `json:"round"`
}

// Debt is a payment delayed at the faction's prerogative.
type Debt struct {
	ID      int    `json:"id"`
	Kind    string `json:"kind"` // "annex" or "design"
	Habitat string `json:"habitat,omitempty"`
	Project int    `json:"project,omitempty"`
	Stat    Stat   `json:"stat,omitempty"`
	Amount  int    `json:"amount"`
	AP      int    `json:"ap,omitempty"`
	// Exclusive: paying takes the whole turn and brings all Stats to 0
	// (Faction Stat and Attribute research).
	Exclusive bool   `json:"exclusive,omitempty"`
	Note      string `json:"note"`
}

// Effect is a delayed effect: "Multi-turn effects, such as Production,
// Planning AP bonuses, and Meme changes are applied here" (phase 2 of the
// turn of Faction, in round Due).
type Effect struct {
	ID      int        `json:"id"`
	Kind    EffectKind `json:"kind"`
	Faction string     `json:"faction"`
	Due     int        `json:"due"`
	Created int        `json:"created"`
	Source  string     `json:"source"` // the action that queued it
	Asset   int        `json:"asset,omitempty"`
	Target  int        `json:"target,omitempty"`
	Habitat string     `json:"habitat,omitempty"`
	Stat    Stat       `json:"stat,omitempty"`
	Attr    Attr       `json:"attr,omitempty"`
	Amount  int        `json:"amount,omitempty"`
	Chart   string     `json:"chart,omitempty"`
	Name    string     `json:"name,omitempty"` // a meme, a relation kind, a planned action
	Other   string     `json:"other,omitempty"`
	Flag    bool       `json:"flag,omitempty"`
	Note    string     `json:"note"`
}

// EffectKind names what a delayed effect does.
type EffectKind string

// The delayed effects.
const (
	EffectHealStat    EffectKind = "heal-stat"    // Invest, Produce: heal or boost a stat
	EffectBoostEnd    EffectKind = "boost-end"    // a boost "for one Round" ends
	EffectHealAttr    EffectKind = "heal-attr"    // Regroup
	EffectHealHabitat EffectKind = "heal-habitat" // Maintenance
	EffectHealAsset   EffectKind = "heal-asset"   // Repair
	EffectProduce     EffectKind = "produce"      // Produce Asset: the asset is ready
	EffectRepurpose   EffectKind = "repurpose"    // Repurpose, Convert Duplicate
	EffectMeme        EffectKind = "meme"         // Mandate: the meme starts working
	EffectPlan        EffectKind = "plan"         // Plan, Laundering: AP for an action next round
	EffectRemote      EffectKind = "remote"       // Remote: act remotely next round
	EffectRelation    EffectKind = "relation"     // Diplomacy: an agreement formed or broken
	EffectTurnAgent   EffectKind = "turn-agent"   // Turn Agent: the captive turns
	EffectResearch    EffectKind = "research"     // Research: the research time elapses
	EffectMercenary   EffectKind = "mercenary"    // Hire Mercenaries: a bespoke mercenary is made
	EffectPodLanding  EffectKind = "pod-landing"  // an escape pod adrift in space lands
)

// Project is a Research project.
type Project struct {
	ID    int          `json:"id"`
	Kind  ResearchKind `json:"kind"`
	Asset int          `json:"asset,omitempty"`
	Chart string       `json:"chart,omitempty"`
	Stat  Stat         `json:"stat,omitempty"`
	Attr  Attr         `json:"attr,omitempty"`
	// New is the new Level, upgrade, Stat or Attribute value.
	New int `json:"new"`
	// TEC and AP are the Research cost of the next attempt.
	TEC      int `json:"tec"`
	AP       int `json:"ap"`
	Attempts int `json:"attempts"`
	// Time is the Research Time in rounds.
	Time int `json:"time"`
	// Status: "researching" (rolled a success, waiting for the Research
	// Time), "retry" (failed: may be re-attempted from Ready), "design"
	// (complete: awaiting the Design cost).
	Status string `json:"status"`
	Ready  int    `json:"ready"`
}

// Clone returns a deep copy of c: a round can be resolved on it and thrown
// away.
func (c *Campaign) Clone() *Campaign {
	n := &Campaign{
		Config:            c.Config.Clone(),
		Round:             c.Round,
		TurnOrder:         slices.Clone(c.TurnOrder),
		Effects:           slices.Clone(c.Effects),
		Relations:         slices.Clone(c.Relations),
		Proposals:         slices.Clone(c.Proposals),
		NextID:            c.NextID,
		PerFactionNumbers: c.PerFactionNumbers,
		Renumbered:        maps.Clone(c.Renumbered),
	}
	n.Factions = make([]*Faction, len(c.Factions))
	for i, f := range c.Factions {
		n.Factions[i] = f.Clone()
	}
	n.Habitats = make([]*Habitat, len(c.Habitats))
	for i, h := range c.Habitats {
		n.Habitats[i] = h.Clone()
	}
	return n
}

// Clone returns a deep copy of f.
func (f *Faction) Clone() *Faction {
	n := *f
	n.Memes = slices.Clone(f.Memes)
	n.Research = slices.Clone(f.Research)
	n.Debts = slices.Clone(f.Debts)
	n.Decline = slices.Clone(f.Decline)
	if f.Mandate != nil {
		m := *f.Mandate
		m.MoS = slices.Clone(m.MoS)
		n.Mandate = &m
	}
	n.Turn.Acted = slices.Clone(f.Turn.Acted)
	n.Turn.Extra = slices.Clone(f.Turn.Extra)
	n.Turn.Plans = slices.Clone(f.Turn.Plans)
	n.Turn.Remotes = slices.Clone(f.Turn.Remotes)
	if f.Assets != nil {
		n.Assets = make([]*Asset, len(f.Assets))
		for i, a := range f.Assets {
			n.Assets[i] = a.Clone()
		}
	}
	return &n
}

// Clone returns a deep copy of a.
func (a *Asset) Clone() *Asset {
	n := *a
	n.Specials = slices.Clone(a.Specials)
	if a.Transit != nil {
		t := *a.Transit
		t.Passengers = slices.Clone(t.Passengers)
		n.Transit = &t
	}
	return &n
}

// Clone returns a deep copy of h.
func (h *Habitat) Clone() *Habitat {
	n := *h
	n.Delays = slices.Clone(h.Delays)
	n.Ruins = slices.Clone(h.Ruins)
	return &n
}

// hideCosts adds to t what a Covert action cost: ap, and the Health Stats
// from before to after.
func (t *TurnState) hideCosts(ap int, before, after Stats) {
	t.CovertAP += ap
	for _, s := range AllStats {
		t.CovertStats.Set(s, t.CovertStats.Get(s)+before.Get(s)-after.Get(s))
	}
}

// SeenAP is the AP the others read of f's: as if its Covert actions were
// not paid.
func (f *Faction) SeenAP() int { return f.AP + f.Turn.CovertAP }

// SeenStats are the Health Stats the others read of f: as if its Covert
// actions were not paid.
func (f *Faction) SeenStats() Stats {
	out := f.Stats
	for _, s := range AllStats {
		out.Set(s, out.Get(s)+f.Turn.CovertStats.Get(s))
	}
	return out
}
