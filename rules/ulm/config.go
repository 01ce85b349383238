// Package ulm implements the rules of seed 002 (../shared/seeds/002_023fc247285cba5c.txt),
// "Midnight in Vaia": Action Slots, Celerity, movement actions, climbing,
// jumping, falling, Hit Points, Injury Cards, Vulnerable and Epilogues.
//
// Every function is pure: dice come through a [Dice] passed in, time passes
// only when a caller says how much has passed.
package ulm

import (
	"fmt"
	"time"
)

// Config holds the values the text leaves to tables it does not include or
// to the GM. Each field says which words of the text it rests on; a
// campaign overrides them in the [ulm] section of the config file.
type Config struct {
	// MinActionSlots is the fewest Action Slots a Character gains, however
	// low its Agility. The text gives only the formula, "The base number of
	// Action Slots a Character gains when their Active Phase begins is
	// (5 +/- Agility)", which goes below zero for an Agility under -5; a
	// negative count of slots means nothing, so the default floor is 0.
	MinActionSlots int `toml:"min_action_slots"`

	// FallDamageMinTiles is the shortest fall, in Tiles, that deals
	// damage. The text: "Falling anywhere between 3 Tiles and 100 Tiles
	// uses this formula." It says nothing of shorter falls, so by default
	// they deal none.
	FallDamageMinTiles int `toml:"fall_damage_min_tiles"`

	// FallFreeTiles is the longest fall, in Tiles, that consumes no Action
	// Slot. The text: "Falls Shorter than 10 Tiles and taller than 3 Tiles
	// still consume 1 Action Slot." and "A 2 Tile Drop is generally ignored
	// in Action Economy." A fall of exactly 3 Tiles is in neither sentence;
	// read literally ("taller than 3"), it consumes none: the default is 3.
	FallFreeTiles int `toml:"fall_free_tiles"`

	// FallSlotsRoundUp says whether a part of 10 Tiles consumes a whole
	// Action Slot (15 Tiles: 2 slots) or is dropped (15 Tiles: 1 slot). The
	// text: "each 10 Tiles a Character falls consumes 1 Action Slot", and a
	// fall under 10 Tiles "still consume[s] 1": a part of 10 counts, so the
	// default rounds up.
	FallSlotsRoundUp bool `toml:"fall_slots_round_up"`

	// FallMinimumRoundUp says how "Minimum T% Hit Points" rounds when T% of
	// the Hit Points is not whole. The text does not say; a minimum is met
	// in full, so the default rounds up.
	FallMinimumRoundUp bool `toml:"fall_minimum_round_up"`

	// FallDamageType is the damage type of the Injury Card a fall makes.
	// The text: "Each time a Character or Unit takes damage, an Injury card
	// is made", with "Damage Source, Damage Type, and Total Damage", but it
	// names no type for falling. A fall is blunt force: "Contusion:
	// Blunt-Force Trauma Injury Card."
	FallDamageType DamageType `toml:"fall_damage_type"`

	// FallKillsVulnerable says whether a fall kills a Character who was
	// already Vulnerable before it. The text: "If a Character Becomes
	// Vulnerable due to damage from Falling, they die." Read literally, one
	// already Vulnerable does not "become" so: the default is false.
	FallKillsVulnerable bool `toml:"fall_kills_already_vulnerable"`

	// ModifierMode says how Mitigation, Amplification and Weakness change
	// Potency: "flat" (Potency - Mitigation + Amplification + Weakness) or
	// "percent" (each a percentage of the Potency, rounded down). The text:
	// "all sources of Mitigation, Amplifications, and Weaknesses are
	// calculated and applied to the Potency of the Action", without the
	// arithmetic. The default is flat.
	ModifierMode string `toml:"modifier_mode"`

	// RawArmorRoundUp says how "½ damage" rounds for an odd amount. The
	// text: "Raw Damage deals ½ damage to Armor and Object Durability."
	// The default rounds down.
	RawArmorRoundUp bool `toml:"raw_armor_round_up"`

	// FadePerCard says whether "fades at the rate of 1 damage per day"
	// takes 1 from every Holy and Spite Injury Card each day (true) or 1
	// from all Holy damage and 1 from all Spite damage (false, the
	// default: the sentence is about the damage type, not the card).
	FadePerCard bool `toml:"fade_per_card"`

	// FullRoundSeconds is the length of a Full Round in seconds, to count
	// Full Rounds (Knocked Out "for 3 Full Rounds") and hours (Shock "for 1
	// hour") on one clock. The Time chapter is not in the text; it says
	// only "each Full Round of falling is 100 Tiles of movement" and
	// "terminal velocity is reached in around 5-10 Seconds of falling. In
	// this sense, 100 Tiles of falling brings us to the maximum": a Full
	// Round is 5 to 10 seconds. The default takes 10.
	FullRoundSeconds int `toml:"full_round_seconds"`

	// ReserveUnspent says where a Character's Reserved Slots come from in
	// an encounter. The text names them ("To Activate an Action as a
	// Responsive Action, it must have a Reserved Slot cost, and the
	// Activator must have the Reserved Slots needed to Activate it") and
	// prices every Action in both ("Celerity: (active|reserve)"), but the
	// count is in the Time chapter, which is not in the text. By default
	// (true) the Action Slots a Character has not spent when its Active
	// Phase ends are its Reserved Slots until its next Active Phase
	// begins; false gives none beyond a combatant's "reserved" stat.
	ReserveUnspent bool `toml:"reserve_unspent_slots"`
}

// DefaultConfig returns the documented defaults.
func DefaultConfig() Config {
	return Config{
		MinActionSlots:      0,
		FallDamageMinTiles:  3,
		FallFreeTiles:       3,
		FallSlotsRoundUp:    true,
		FallMinimumRoundUp:  true,
		FallDamageType:      Contusion,
		FallKillsVulnerable: false,
		ModifierMode:        ModifierFlat,
		RawArmorRoundUp:     false,
		FadePerCard:         false,
		FullRoundSeconds:    10,
		ReserveUnspent:      true,
	}
}

// Modifier modes of Config.ModifierMode.
const (
	ModifierFlat    = "flat"
	ModifierPercent = "percent"
)

// Validate reports a configuration the rules cannot work with.
func (c Config) Validate() error {
	if c.MinActionSlots < 0 {
		return fmt.Errorf("ulm config: min_action_slots is %d; it must be 0 or more", c.MinActionSlots)
	}
	if c.FallDamageMinTiles < 1 {
		return fmt.Errorf("ulm config: fall_damage_min_tiles is %d; it must be 1 or more", c.FallDamageMinTiles)
	}
	if c.FallFreeTiles < 0 {
		return fmt.Errorf("ulm config: fall_free_tiles is %d; it must be 0 or more", c.FallFreeTiles)
	}
	if _, ok := damageTypes[c.FallDamageType]; !ok {
		return fmt.Errorf("ulm config: fall_damage_type %q is not a damage type (%s)", c.FallDamageType, typeList())
	}
	if c.ModifierMode != ModifierFlat && c.ModifierMode != ModifierPercent {
		return fmt.Errorf("ulm config: modifier_mode %q is not %q or %q", c.ModifierMode, ModifierFlat, ModifierPercent)
	}
	if c.FullRoundSeconds < 1 {
		return fmt.Errorf("ulm config: full_round_seconds is %d; it must be 1 or more", c.FullRoundSeconds)
	}
	return nil
}

// FullRound is the length of one Full Round.
func (c Config) FullRound() time.Duration {
	return time.Duration(c.FullRoundSeconds) * time.Second
}
