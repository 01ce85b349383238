package faction

import (
	"fmt"
	"slices"
	"strings"
)

// Limits the text states.
const (
	// MaxMemes: "At no point may a Faction have more than 3 Memes."
	MaxMemes = 3
	// MaxLevel: Research "Increases an Asset's Level up to a maximum of 5."
	MaxLevel = 5
	// MaxRounds: "0 to 3 Rounds should take place between RP sessions."
	MaxRounds = 3
	// Die is the die of every test: "All tests use 1d10, counting from 1 -
	// 10 (not 0 - 9)."
	Die = 10
)

// Specials and traits an asset chart entry may list. The specials are the
// keys of the Special actions ("Special Actions are only available where
// listed explicitly (see "Asset" chart)"); SpecialAttack and SpecialPlan
// give "Attack (Special)" and "Plan (Special)"; the traits say what an asset
// is for.
const (
	SpecialAttack        = "attack"
	SpecialPlan          = "plan"
	SpecialCounterAttack = "counter-attack"
	SpecialLaundering    = "laundering"
	SpecialDiplomacy     = "diplomacy"
	SpecialSubterfuge    = "subterfuge"
	SpecialInvest        = "invest"
	SpecialRepair        = "repair"
	SpecialRemote        = "remote"
	SpecialCapture       = "capture"
	SpecialInvestigate   = "investigate"
	SpecialMisdirect     = "misdirect"
	SpecialSabotage      = "sabotage"
	SpecialTurnAgent     = "turn-agent"
	SpecialResearch      = "research"

	// TraitTransport carries other assets: "Locomote by vehicle (Shipping
	// Conglomerate, Vehicles, Units or Agents)".
	TraitTransport = "transport"
	// TraitCast sends and receives egos: "egocast/darkcast instantly
	// (Agents only)", at "Facility Level" AP.
	TraitCast = "cast"
	// TraitShipyard: "Vehicle production must take place at a Shipyard."
	TraitShipyard = "shipyard"
	// TraitMogul: "Make any Agent Asset (except Mogul) Covert", "(except
	// for Moguls and Double Agents)", "Mogul actions are free" (Cult of
	// Personality).
	TraitMogul = "mogul"
)

var knownSpecials = []string{
	SpecialAttack, SpecialPlan, SpecialCounterAttack, SpecialLaundering, SpecialDiplomacy,
	SpecialSubterfuge, SpecialInvest, SpecialRepair, SpecialRemote, SpecialCapture,
	SpecialInvestigate, SpecialMisdirect, SpecialSabotage, SpecialTurnAgent, SpecialResearch,
	TraitTransport, TraitCast, TraitShipyard, TraitMogul,
}

// AssetDef is one entry of the asset chart. The rule set's chart is not in
// the seed ("Special Actions are only available where listed explicitly
// (see "Asset" chart)"); [StarterAssets] is Tablehand's.
type AssetDef struct {
	Name     string   `toml:"name" json:"name"`
	Category Category `toml:"category" json:"category"`
	Type     Attr     `toml:"type" json:"type"`
	Level    int      `toml:"level" json:"level"`
	Specials []string `toml:"specials" json:"specials,omitempty"`
	// Requires is the Facility a faction must have to produce it: "It may
	// also Produce any Asset for which it has the appropriate Facility."
	// Empty for Facilities ("any facility") and Level 1 assets ("any Level
	// 1 Asset"), except Vehicles, which need a Shipyard where they are made.
	Requires string `toml:"requires" json:"requires,omitempty"`
	// Bonus is added to the owner's Attributes while the asset stands.
	Bonus Attributes `toml:"bonus" json:"bonus"`
	Text  string     `toml:"text" json:"text,omitempty"`
}

// MemeDef is a meme and what it does, as knobs these rules read. The list
// "goes on in the source; a campaign may define its own memes in config"
// (faction-context.md).
type MemeDef struct {
	Name string `toml:"name" json:"name"`
	Text string `toml:"text" json:"text"`
	// APDiscount AP less for Asset Actions whose action is in
	// DiscountActions or whose attribute is in DiscountAttrs.
	APDiscount      int      `toml:"ap_discount" json:"ap_discount,omitempty"`
	DiscountActions []string `toml:"discount_actions" json:"discount_actions,omitempty"`
	DiscountAttrs   []Attr   `toml:"discount_attributes" json:"discount_attributes,omitempty"`
	// FreeTrait: actions of assets with this trait cost no AP.
	FreeTrait string `toml:"free_trait" json:"free_trait,omitempty"`
	// HTAStat may serve ("may": the higher is used) or serves instead
	// ("instead") of the Attribute HTAFor ("" any) for Home Turf Advantage.
	HTAStat Stat   `toml:"hta_stat" json:"hta_stat,omitempty"`
	HTAFor  Attr   `toml:"hta_for" json:"hta_for,omitempty"`
	HTAMode string `toml:"hta_mode" json:"hta_mode,omitempty"`
	// RallyStat is added to Rally rolls.
	RallyStat Stat `toml:"rally_stat" json:"rally_stat,omitempty"`
	// HalveResearch: "Research costs halved, rounded down".
	HalveResearch bool `toml:"halve_research" json:"halve_research,omitempty"`
	// AllCovert: "all the faction's assets are Covert".
	AllCovert bool `toml:"all_covert" json:"all_covert,omitempty"`
	// PlanRequired: attacks against the faction must be Planned: "remote"
	// (remote attacks) or "INT" (INT attacks). PlanNoBonus: "that Plan
	// gives no bonus".
	PlanRequired string `toml:"plan_required" json:"plan_required,omitempty"`
	PlanNoBonus  bool   `toml:"plan_no_bonus" json:"plan_no_bonus,omitempty"`
}

// Config holds the values the text leaves to tables it does not include or
// to the GM. Each field says which words of the text it rests on; a
// campaign overrides them in the [faction] section of the config file.
type Config struct {
	// Sequence is "turn-wise" or "phase-wise": "The sequence may be taken in
	// full for each faction (Turn-Wise), or faction by faction for each
	// phase (Phase-Wise). The former is easier to calculate with less
	// note-taking". Default "turn-wise".
	Sequence string `toml:"sequence" json:"sequence"`

	// APAttribute is the Attribute a faction's AP equal: "by default a
	// faction has AP equal to its COH" (faction-context.md). Default COH.
	APAttribute Attr `toml:"ap_attribute" json:"ap_attribute"`

	// StartAttributes, StartStats, HabitatHealth and HabitatBonus are a new
	// faction's sheet and a new habitat's health and Health Stat bonus. The
	// chapters that set them are not in the seed ("Attributes are the
	// bonuses to 1d10 rolls; Stats are health that absorbs damage"):
	// Attributes 4 (a Straight Faction roll succeeds 4 times in 10), Stats
	// 6, a habitat of Health 5 that adds 1 to each Stat.
	StartAttributes Attributes `toml:"start_attributes" json:"start_attributes"`
	StartStats      Stats      `toml:"start_stats" json:"start_stats"`
	HabitatHealth   int        `toml:"habitat_health" json:"habitat_health"`
	HabitatBonus    Stats      `toml:"habitat_bonus" json:"habitat_bonus"`

	// RegroupCost is how "Cost: [Points]^2 Related Stat (1st point no
	// cost)" reads: "first-free" (1 point costs 0, N points N^2), "minus-one"
	// (N^2 - 1) or "shifted" ((N-1)^2). Default "first-free", the formula
	// as written with its one exception.
	RegroupCost string `toml:"regroup_cost" json:"regroup_cost"`

	// HostileRepairCost is what Repair costs in hostile territory: "level"
	// ("spend [Level] INF and [Level] Related Stat") or "points" (the cost
	// line's "[Points] INF + [Points] Related Stat", the points healed, paid
	// after the roll). Default "level", the description.
	HostileRepairCost string `toml:"hostile_repair_cost" json:"hostile_repair_cost"`

	// RepurposeTime is which of the text's two durations Repurpose takes:
	// "description" (same type "[new Level] Rounds", another type "[(new
	// Level)+2] Rounds") or "header" ("[new Level+2] Rounds / [(new
	// Level+1)*2] Rounds"). Default "description", the more specific text.
	RepurposeTime string `toml:"repurpose_time" json:"repurpose_time"`

	// AnnexDefence is what the defending faction rolls against an
	// Annexation, "Opposed Faction (POP or COH)": "higher" (the better of
	// its POP and COH), "POP" or "COH". Default "higher": the defender
	// picks.
	AnnexDefence string `toml:"annex_defence" json:"annex_defence"`

	// RallyCost is the Habitat Health Rally costs in AP: "current" ("Cost:
	// [Habitat Health] AP", the habitat's health now, 0 while Suppressed)
	// or "full" (as Annex's "[Full Habitat Health]"). Default "current": the
	// text names the two differently.
	RallyCost string `toml:"rally_cost" json:"rally_cost"`

	// HabitatBlockers is which local assets keep an Attack off the Habitat:
	// "related" ("If in enemy territory and no Related Assets are present,
	// the attack incurs Habitat Damage": the defender's assets of the
	// attacker's type) or "local" ("Attacks in enemy territory first do
	// damage to Local Assets, and if none are available, to the Habitat
	// itself": any). Covert assets are never available to attack. Default
	// "related", the Attack action's own words.
	HabitatBlockers string `toml:"habitat_blockers" json:"habitat_blockers"`

	// ConvertRoll is the roll of Convert Duplicate: "none" (its "Roll Type:
	// none": always a success) or "straight-faction" (a Straight Faction
	// roll on the new type's Attribute, so that "On a failure, the
	// Conversion may be reattempted in [MoF/2] Rounds" can happen). Default
	// "straight-faction".
	ConvertRoll string `toml:"convert_roll" json:"convert_roll"`

	// MandateMoS is which of the three Mandate rolls gives the MoS of the
	// INF cost and of the "[10-(MoS)] Rounds" before the meme works: "last"
	// or "lowest". Each roll's own MoS sets its SOL damage ("The attempt
	// immediately does [10-(MoS)]/2 SOL damage"; a failed roll counts MoS
	// 0). Default "last".
	MandateMoS string `toml:"mandate_mos" json:"mandate_mos"`

	// EscapeStat is the stat an Escape damages: "[Level] Stat damage of
	// either TEC or the Agent's type": "higher" (whichever has more
	// points), "TEC" or "type". Default "higher".
	EscapeStat string `toml:"escape_stat" json:"escape_stat"`

	// ResearchAttribute is the Attribute of the Research roll, "Straight
	// Faction Roll (+HTA for the Researcher)". Default INT: "Intrigue
	// (INT), surveillance, research" (faction-context.md).
	ResearchAttribute Attr `toml:"research_attribute" json:"research_attribute"`

	// ResearchHTA is the Researcher's Home Turf Advantage on that roll:
	// "asset" (in its own territory the Researcher adds its own bonus,
	// Level x 2, to the Faction's Attribute: "may use the Faction's
	// Attribute as a Roll Bonus in addition to its own") or "none". Default
	// "asset".
	ResearchHTA string `toml:"research_hta" json:"research_hta"`

	// ResearchRetryLowersAP: each failed attempt lowers the AP of the
	// Research cost by 1 as well as its TEC ("at a TEC cost 1 lower ...
	// until ALL the costs are 0"). Default true: otherwise the AP never
	// reach 0.
	ResearchRetryLowersAP bool `toml:"research_retry_lowers_ap" json:"research_retry_lowers_ap"`

	// LaunderingAP is the AP a Laundering adds to the Planned action: "As
	// Plan" gives "MoS points to AP", but Laundering has "Roll Type: none".
	// Default 0: the action is Planned and Covert, with no AP.
	LaunderingAP int `toml:"laundering_ap" json:"laundering_ap"`

	// SabotageDamage is the damage of Sabotage's "cause Habitat Damage, Stat
	// Damage or Attribute Damage": "half-mos" ([MoS/2], as Attack) or "mos".
	// Default "half-mos".
	SabotageDamage string `toml:"sabotage_damage" json:"sabotage_damage"`

	// TravelSameRegion and TravelOtherRegion are the rounds a journey by
	// vehicle takes between habitats of the same region and of different
	// ones: "Time: Per travel time; see Charts" (not included). Casting is
	// instant ("egocast/darkcast instantly"). Defaults 0 (arrives this
	// turn: "the travel time is less than 1 Round") and 1.
	TravelSameRegion  int `toml:"travel_same_region" json:"travel_same_region"`
	TravelOtherRegion int `toml:"travel_other_region" json:"travel_other_region"`

	// PodDriftRounds is how long escape pods adrift in interplanetary space
	// take to land: "see the "Hohmann" and "Gravity Assist" charts. TL,DR:
	// See you in a few years." A round "is suggested to be about one
	// in-game month" (faction-context.md). Default 24.
	PodDriftRounds int `toml:"pod_drift_rounds" json:"pod_drift_rounds"`

	// GMApprovesProduction asks the GM before every Produce Asset: "Facility
	// production is contingent on local resources as judged by the GM ...
	// Unit production per GM's discretion. Asset production per GM's
	// discretion." Default true.
	GMApprovesProduction bool `toml:"gm_approves_production" json:"gm_approves_production"`

	// GMApprovesHostileRepair asks the GM before a Repair in hostile
	// territory: "spend [Level] INF and [Level] Related Stat per GM's
	// discretion". Default true.
	GMApprovesHostileRepair bool `toml:"gm_approves_hostile_repair" json:"gm_approves_hostile_repair"`

	// Assets is the asset chart; Memes the memes a Mandate may earn.
	Assets []AssetDef `toml:"assets" json:"assets"`
	Memes  []MemeDef  `toml:"memes" json:"memes"`
}

// Sequences.
const (
	TurnWise  = "turn-wise"
	PhaseWise = "phase-wise"
)

// DefaultConfig returns the documented defaults.
func DefaultConfig() Config {
	return Config{
		Sequence:                TurnWise,
		APAttribute:             COH,
		StartAttributes:         Attributes{RES: 4, INT: 4, COH: 4, STR: 4},
		StartStats:              Stats{INF: 6, TEC: 6, SOL: 6, POP: 6},
		HabitatHealth:           5,
		HabitatBonus:            Stats{INF: 1, TEC: 1, SOL: 1, POP: 1},
		RegroupCost:             "first-free",
		HostileRepairCost:       "level",
		RepurposeTime:           "description",
		AnnexDefence:            "higher",
		RallyCost:               "current",
		HabitatBlockers:         "related",
		ConvertRoll:             "straight-faction",
		MandateMoS:              "last",
		EscapeStat:              "higher",
		ResearchAttribute:       INT,
		ResearchHTA:             "asset",
		ResearchRetryLowersAP:   true,
		LaunderingAP:            0,
		SabotageDamage:          "half-mos",
		TravelSameRegion:        0,
		TravelOtherRegion:       1,
		PodDriftRounds:          24,
		GMApprovesProduction:    true,
		GMApprovesHostileRepair: true,
		Assets:                  StarterAssets(),
		Memes:                   StarterMemes(),
	}
}

// Clone returns a deep copy of c.
func (c Config) Clone() Config {
	n := c
	n.Assets = make([]AssetDef, len(c.Assets))
	for i, a := range c.Assets {
		a.Specials = slices.Clone(a.Specials)
		n.Assets[i] = a
	}
	n.Memes = make([]MemeDef, len(c.Memes))
	for i, m := range c.Memes {
		m.DiscountActions = slices.Clone(m.DiscountActions)
		m.DiscountAttrs = slices.Clone(m.DiscountAttrs)
		n.Memes[i] = m
	}
	return n
}

// StarterAssets is Tablehand's asset chart: the rule set's own is missing,
// so this is a starter set of at least one asset per category and type,
// every Special action on at least one asset. Levels are 1 to 4, as "Level 1
// to 4 (Research can raise it to 5)" (faction-context.md).
func StarterAssets() []AssetDef {
	return []AssetDef{
		// Facilities: "The Faction may produce any facility".
		{Name: "Fabricator", Category: Facility, Type: RES, Level: 2, Specials: []string{SpecialRepair},
			Text: "Nanofabrication works; repairs other assets."},
		{Name: "Shipyard", Category: Facility, Type: RES, Level: 3, Specials: []string{SpecialRepair, TraitShipyard},
			Text: "Where Vehicles are made: \"Vehicle production must take place at a Shipyard.\""},
		{Name: "Shipping Conglomerate", Category: Facility, Type: RES, Level: 2, Specials: []string{TraitTransport},
			Text: "Moves Units and Agents: \"Locomote by vehicle (Shipping Conglomerate, ...)\"."},
		{Name: "University", Category: Facility, Type: INT, Level: 2, Specials: []string{SpecialResearch},
			Text: "A Research asset: \"two Research Assets (ie. a University and Researchers)\"."},
		{Name: "Intelligence Directorate", Category: Facility, Type: INT, Level: 3, Specials: []string{SpecialInvestigate, SpecialPlan},
			Text: "Counter-intelligence and planning staff."},
		{Name: "Egocasting Hub", Category: Facility, Type: INT, Level: 1, Specials: []string{TraitCast},
			Text: "Egocasting and darkcasting for Agents."},
		{Name: "Media Network", Category: Facility, Type: COH, Level: 2, Specials: []string{SpecialInvest, SpecialDiplomacy},
			Text: "Feeds, memes and public relations."},
		{Name: "Diplomatic Mission", Category: Facility, Type: COH, Level: 1, Specials: []string{SpecialDiplomacy},
			Text: "An embassy."},
		{Name: "Defense Grid", Category: Facility, Type: STR, Level: 3, Specials: []string{SpecialAttack, SpecialCounterAttack},
			Text: "Fixed weapons that answer fire."},
		{Name: "Barracks", Category: Facility, Type: STR, Level: 2, Specials: []string{SpecialCounterAttack},
			Text: "Trains Marines and Commandos."},

		// Vehicles: all need a Shipyard.
		{Name: "Freighter", Category: Vehicle, Type: RES, Level: 1, Specials: []string{TraitTransport}, Requires: "Shipyard",
			Text: "Carries Units and Agents."},
		{Name: "Stealth Courier", Category: Vehicle, Type: INT, Level: 2, Specials: []string{TraitTransport, SpecialRemote}, Requires: "Shipyard",
			Text: "A quiet ship that lets others act from afar."},
		{Name: "Diplomatic Yacht", Category: Vehicle, Type: COH, Level: 1, Specials: []string{TraitTransport, SpecialDiplomacy}, Requires: "Shipyard",
			Text: "Carries envoys in style."},
		{Name: "Frigate", Category: Vehicle, Type: STR, Level: 2, Specials: []string{TraitTransport, SpecialAttack, SpecialCounterAttack}, Requires: "Shipyard",
			Text: "A warship that carries troops."},
		{Name: "Dreadnought", Category: Vehicle, Type: STR, Level: 4, Specials: []string{TraitTransport, SpecialAttack, SpecialCounterAttack}, Requires: "Shipyard",
			Text: "A capital ship."},

		// Units: "any Level 1 Asset", the others need their Facility.
		{Name: "Work Crew", Category: Unit, Type: RES, Level: 1, Specials: []string{SpecialRepair},
			Text: "Engineers and bots."},
		{Name: "Hacker Cell", Category: Unit, Type: INT, Level: 2, Specials: []string{SpecialSabotage, SpecialRemote, SpecialPlan}, Requires: "University",
			Text: "Infosec intruders: Plan -> Remote -> Sabotage."},
		{Name: "Research Team", Category: Unit, Type: INT, Level: 1, Specials: []string{SpecialResearch},
			Text: "Researchers."},
		{Name: "Propaganda Corps", Category: Unit, Type: COH, Level: 1, Specials: []string{SpecialInvest},
			Text: "Spin doctors and volunteers."},
		{Name: "Militia", Category: Unit, Type: STR, Level: 1, Specials: []string{SpecialCounterAttack},
			Text: "Armed citizens."},
		{Name: "Marines", Category: Unit, Type: STR, Level: 2, Specials: []string{SpecialAttack, SpecialCounterAttack, SpecialCapture}, Requires: "Barracks",
			Text: "Boarding and assault troops."},

		// Agents.
		{Name: "Fixer", Category: Agent, Type: RES, Level: 1, Specials: []string{SpecialLaundering, SpecialSubterfuge},
			Text: "Moves money and people quietly."},
		{Name: "Spy", Category: Agent, Type: INT, Level: 2, Specials: []string{SpecialInvestigate, SpecialCapture, SpecialMisdirect, SpecialSabotage, SpecialSubterfuge}, Requires: "Intelligence Directorate",
			Text: "A field operative."},
		{Name: "Interrogator", Category: Agent, Type: INT, Level: 2, Specials: []string{SpecialTurnAgent, SpecialInvestigate, SpecialCapture}, Requires: "Intelligence Directorate",
			Text: "Psychosurgeon: turns captured agents."},
		{Name: "Envoy", Category: Agent, Type: COH, Level: 1, Specials: []string{SpecialDiplomacy, SpecialSubterfuge},
			Text: "A diplomat."},
		{Name: "Mogul", Category: Agent, Type: COH, Level: 3, Specials: []string{TraitMogul, SpecialInvest, SpecialDiplomacy}, Requires: "Media Network",
			Bonus: Attributes{COH: 1}, Text: "A public figure; adds 1 to COH while it stands."},
		{Name: "Commando", Category: Agent, Type: STR, Level: 2, Specials: []string{SpecialAttack, SpecialCounterAttack, SpecialSabotage}, Requires: "Barracks",
			Text: "Special forces."},
	}
}

// StarterMemes are the memes faction-context.md lists, as knobs.
func StarterMemes() []MemeDef {
	return []MemeDef{
		{Name: "Anarcho-Capitalism", Text: "Produce actions cost 1 AP less.",
			APDiscount: 1, DiscountActions: []string{"produce"}},
		{Name: "Cult of Personality", Text: "Mogul actions are free.", FreeTrait: TraitMogul},
		{Name: "Independence", Text: "SOL may serve for Home Turf Advantage, and is added to Rally rolls.",
			HTAStat: SOL, HTAMode: "may", RallyStat: SOL},
		{Name: "Armed Society", Text: "POP instead of STR for Home Turf Advantage, and added to Rally rolls.",
			HTAStat: POP, HTAFor: STR, HTAMode: "instead", RallyStat: POP},
		{Name: "Legalism", Text: "RES and COH actions cost 1 AP less.",
			APDiscount: 1, DiscountAttrs: []Attr{RES, COH}},
		{Name: "Isolationism", Text: "Remote attacks against the faction must be Planned, and that Plan gives no bonus.",
			PlanRequired: "remote", PlanNoBonus: true},
		{Name: "Singularity", Text: "INT actions cost 1 AP less, Research costs halved, rounded down.",
			APDiscount: 1, DiscountAttrs: []Attr{INT}, HalveResearch: true},
		{Name: "Clandestine", Text: "All the faction's assets are Covert.", AllCovert: true},
		{Name: "Security Clearance", Text: "INT attacks against the faction must be Planned.", PlanRequired: "INT"},
	}
}

// AssetDef returns the chart entry named name, in any case.
func (c *Config) AssetDef(name string) (AssetDef, bool) {
	for _, d := range c.Assets {
		if strings.EqualFold(d.Name, name) {
			return d, true
		}
	}
	return AssetDef{}, false
}

// MemeDef returns the meme named name, in any case.
func (c *Config) MemeDef(name string) (MemeDef, bool) {
	for _, m := range c.Memes {
		if strings.EqualFold(m.Name, name) {
			return m, true
		}
	}
	return MemeDef{}, false
}

// Validate reports a configuration these rules cannot work with.
func (c Config) Validate() error {
	oneOf := func(key, v string, ok ...string) error {
		if !slices.Contains(ok, v) {
			return fmt.Errorf("faction config: %s %q: use %s", key, v, strings.Join(ok, ", "))
		}
		return nil
	}
	for _, err := range []error{
		oneOf("sequence", c.Sequence, TurnWise, PhaseWise),
		oneOf("regroup_cost", c.RegroupCost, "first-free", "minus-one", "shifted"),
		oneOf("hostile_repair_cost", c.HostileRepairCost, "level", "points"),
		oneOf("repurpose_time", c.RepurposeTime, "description", "header"),
		oneOf("annex_defence", c.AnnexDefence, "higher", "POP", "COH"),
		oneOf("rally_cost", c.RallyCost, "current", "full"),
		oneOf("habitat_blockers", c.HabitatBlockers, "related", "local"),
		oneOf("convert_roll", c.ConvertRoll, "none", "straight-faction"),
		oneOf("mandate_mos", c.MandateMoS, "last", "lowest"),
		oneOf("escape_stat", c.EscapeStat, "higher", "TEC", "type"),
		oneOf("research_hta", c.ResearchHTA, "asset", "none"),
		oneOf("sabotage_damage", c.SabotageDamage, "half-mos", "mos"),
		oneOf("ap_attribute", string(c.APAttribute), "RES", "INT", "COH", "STR"),
		oneOf("research_attribute", string(c.ResearchAttribute), "RES", "INT", "COH", "STR"),
	} {
		if err != nil {
			return err
		}
	}
	for _, f := range []struct {
		key string
		n   int
	}{{"habitat_health", c.HabitatHealth}, {"travel_same_region", c.TravelSameRegion},
		{"travel_other_region", c.TravelOtherRegion}, {"pod_drift_rounds", c.PodDriftRounds}, {"laundering_ap", c.LaunderingAP}} {
		if f.n < 0 {
			return fmt.Errorf("faction config: %s %d: at least 0", f.key, f.n)
		}
	}
	seen := map[string]bool{}
	for _, d := range c.Assets {
		k := strings.ToLower(d.Name)
		switch {
		case d.Name == "":
			return fmt.Errorf("faction config: an asset has no name")
		case seen[k]:
			return fmt.Errorf("faction config: asset %q listed twice", d.Name)
		case d.Level < 0 || d.Level > MaxLevel:
			return fmt.Errorf("faction config: asset %q: level %d: use 0-%d", d.Name, d.Level, MaxLevel)
		case d.Type.Stat() == "":
			return fmt.Errorf("faction config: asset %q: type %q: use %s", d.Name, d.Type, AttrWords.Use())
		}
		if _, err := ParseCategory(string(d.Category)); err != nil {
			return fmt.Errorf("faction config: asset %q: %w", d.Name, err)
		}
		for _, s := range d.Specials {
			if !slices.Contains(knownSpecials, s) {
				return fmt.Errorf("faction config: asset %q: unknown special %q", d.Name, s)
			}
		}
		seen[k] = true
	}
	for _, d := range c.Assets {
		if d.Requires != "" && !seen[strings.ToLower(d.Requires)] {
			return fmt.Errorf("faction config: asset %q requires %q, which is not in the chart", d.Name, d.Requires)
		}
	}
	memes := map[string]bool{}
	for _, m := range c.Memes {
		k := strings.ToLower(m.Name)
		if m.Name == "" || memes[k] {
			return fmt.Errorf("faction config: meme %q: empty or listed twice", m.Name)
		}
		memes[k] = true
		if m.HTAMode != "" && m.HTAMode != "may" && m.HTAMode != "instead" {
			return fmt.Errorf("faction config: meme %q: hta_mode %q: use may or instead", m.Name, m.HTAMode)
		}
		if m.PlanRequired != "" && m.PlanRequired != "remote" && m.PlanRequired != "INT" {
			return fmt.Errorf("faction config: meme %q: plan_required %q: use remote or INT", m.Name, m.PlanRequired)
		}
	}
	return nil
}
