// Package xhalem answers /xhalem: the rules of seed xhalem (rules/xhalem;
// docs/xhalem.md lists every rule and the subcommand that applies it) for
// mechs and creatures in combat: initiative, engagement and its damage,
// grapples and shoves, movement and checks.
package xhalem

import (
	"github.com/tablehand/tablehand/commands/kit"
	rules "github.com/tablehand/tablehand/rules/xhalem"
)

// The options several subcommands share.
var (
	kindOpt = func(required bool) kit.Option {
		return kit.Option{Type: kit.String, Name: "kind", Description: "Machine (mech, ship) or creature", Required: required, Choices: kit.Choices(rules.Kinds.Choices()...)}
	}
	modeChoices   = kit.Choices(rules.Modes.Choices()...)
	modeOpt       = kit.Option{Type: kit.String, Name: "mode", Description: "Architect's call: advantage 2d20 high, disadvantage 2d20 low, detriment 4d20 low", Choices: modeChoices}
	targetModeOpt = kit.Option{Type: kit.String, Name: "target_mode", Description: "Architect's call for the target's evasion roll", Choices: modeChoices}
	bonusOpt      = kit.Option{Type: kit.Integer, Name: "bonus", Description: "Other bonuses and penalties to your roll"}
	evasionOpt    = kit.Option{Type: kit.Integer, Name: "evasion", Description: "What the target adds to its 1d20 evasion roll", Required: true}
	systemsOpt    = kit.Option{Type: kit.Integer, Name: "systems", Description: "Your Systems (machine engagement)"}
	agilityOpt    = kit.Option{Type: kit.Integer, Name: "agility", Description: "Your Agility (creature engagement)"}
	hullOpt       = kit.Option{Type: kit.Integer, Name: "hull", Description: "Your Hull (machine)"}
	strengthOpt   = kit.Option{Type: kit.Integer, Name: "strength", Description: "Your Strength (creature)"}
	waterOpt      = kit.Option{Type: kit.String, Name: "underwater", Description: "Underwater: disadvantage unless adapted to it", Choices: kit.Choices(rules.Waters.Choices()...)}
	sizeChoices   = kit.Choices(rules.SizeWords.Choices()...)
	sizeOpt       = kit.Option{Type: kit.String, Name: "size", Description: "Your size", Choices: sizeChoices}
	targetSizeOpt = kit.Option{Type: kit.String, Name: "target_size", Description: "The target's size: at most one larger than yours", Choices: sizeChoices}
	helplessOpt   = kit.Option{Type: kit.Boolean, Name: "helpless", Description: "The target is incapacitated or immobilized: automatic"}
)

// command is /xhalem as Discord shows it: its subcommands and their
// options.
var command = kit.Command{
	Name:        rules.SystemName,
	Description: "Xha'lem: mechs and creatures in combat",
	Options: []kit.Option{
		{Type: kit.SubCommand, Name: "initiative", Description: "Initiative: 1d20 + Engine (machine) or Evasion (creature)", Options: []kit.Option{
			kindOpt(true),
			{Type: kit.Integer, Name: "engine", Description: "Your Engine (machine)"},
			{Type: kit.Integer, Name: "evasion", Description: "Your Evasion (creature)"},
			bonusOpt,
			{Type: kit.String, Name: "side", Description: "Who controls you (for ties)", Choices: kit.Choices(rules.Sides.Choices()...)},
			{Type: kit.Integer, Name: "opponent", Description: "Another combatant's Initiative, to see who goes first"},
			{Type: kit.Integer, Name: "opponent_score", Description: "Its Engine or Evasion (breaks a tie between players)"},
			{Type: kit.String, Name: "opponent_side", Description: "Who controls it", Choices: kit.Choices(rules.Sides.Choices()...)},
			kit.DiceOption, kit.CharacterOption, kit.PrivateOption, kit.VisibilityOption,
		}},
		{Type: kit.SubCommand, Name: "engage", Description: "Engage (attack): 1d20 + Systems or Agility against the target's evasion roll", Options: []kit.Option{
			kindOpt(true), evasionOpt, systemsOpt, agilityOpt, bonusOpt, modeOpt, targetModeOpt,
			{Type: kit.String, Name: "target", Description: "Cloaked: detriment; concealed: disadvantage; all but visible evade with advantage",
				Choices: kit.Choices(rules.TargetWords.Choices()...)},
			{Type: kit.String, Name: "stealth", Description: "You are cloaked or concealed: advantage; unaware target does not evade", Choices: kit.Choices(rules.Stealths.Choices()...)},
			{Type: kit.String, Name: "range", Description: "Out: disadvantage, half damage (hidden target: fails); blocked: fails", Choices: kit.Choices(rules.Ranges.Choices()...)},
			{Type: kit.String, Name: "position", Description: "Where you stand around the target, for flanking", Choices: kit.Choices(rules.PositionWords.Choices()...)},
			{Type: kit.String, Name: "allies", Description: "Allies in melee with it, e.g. \"back,left\"", MaxLength: 60},
			{Type: kit.Boolean, Name: "assisted", Description: "An ally took the Assist action: advantage"},
			{Type: kit.String, Name: "opportunity", Description: "Opportunity attack: provoked (advantage) or forced (disadvantage)", Choices: kit.Choices(rules.Opportunities.Choices()...)},
			waterOpt, kit.DiceOption, kit.CharacterOption, kit.PrivateOption, kit.VisibilityOption,
		}},
		{Type: kit.SubCommand, Name: "damage", Description: "Damage of a hit: the weapon's dice + Hull, Reactor or Strength", Options: []kit.Option{
			kindOpt(true),
			{Type: kit.String, Name: "weapon", Description: "What hit: energy and conventional are ranged", Required: true, Choices: kit.Choices(rules.WeaponWords.Choices()...)},
			{Type: kit.String, Name: "roll", Description: "The weapon's damage dice, e.g. 2d8", MaxLength: 100},
			hullOpt,
			{Type: kit.Integer, Name: "reactor", Description: "Your Reactor (machine, energy ranged)"},
			strengthOpt, bonusOpt,
			{Type: kit.Boolean, Name: "out_of_range", Description: "A ranged hit beyond the weapon's range: halved"},
			{Type: kit.String, Name: "type", Description: "Damage type, for water", Choices: kit.Choices(rules.DamageTypes.Choices()...)},
			{Type: kit.String, Name: "immersion", Description: "The target in water: full (fire immune), partial or full (electrical x2)", Choices: kit.Choices(rules.Immersions.Choices()...)},
			{Type: kit.Boolean, Name: "inside_mech", Description: "The target is a creature inside a mech"},
			kit.DiceOption, kit.CharacterOption, kit.PrivateOption, kit.VisibilityOption,
		}},
		{Type: kit.SubCommand, Name: "grapple", Description: "Grapple: 1d20 + Hull or Strength against the target's evasion roll", Options: []kit.Option{
			kindOpt(true), evasionOpt, hullOpt, strengthOpt, bonusOpt, modeOpt, targetModeOpt, waterOpt, sizeOpt, targetSizeOpt, helplessOpt,
			kit.DiceOption, kit.CharacterOption, kit.PrivateOption, kit.VisibilityOption,
		}},
		{Type: kit.SubCommand, Name: "escape", Description: "Break a grapple: 1d20 + Hull or Strength, equal or better frees you", Options: []kit.Option{
			kindOpt(true),
			{Type: kit.Integer, Name: "grappler", Description: "The grappler's Hull or Strength", Required: true},
			hullOpt, strengthOpt, bonusOpt, modeOpt,
			kit.DiceOption, kit.CharacterOption, kit.PrivateOption, kit.VisibilityOption,
		}},
		{Type: kit.SubCommand, Name: "shove", Description: "Shove: engage, then Hull or Strength against the target's: knock down or push", Options: []kit.Option{
			kindOpt(true), evasionOpt,
			{Type: kit.Integer, Name: "resist", Description: "The target's Hull or Strength", Required: true},
			systemsOpt, agilityOpt, hullOpt, strengthOpt, bonusOpt,
			{Type: kit.String, Name: "effect", Description: "On success (default push)", Choices: kit.Choices(effects.Choices()...)},
			modeOpt, targetModeOpt, waterOpt, sizeOpt, targetSizeOpt,
			{Type: kit.Boolean, Name: "helpless", Description: "The target is incapacitated: automatic"},
			kit.DiceOption, kit.CharacterOption, kit.PrivateOption, kit.VisibilityOption,
		}},
		{Type: kit.SubCommand, Name: "speed", Description: "Movement: hexes or feet, dash or thrust, reach, space speed", Options: []kit.Option{
			kindOpt(false),
			{Type: kit.Integer, Name: "engine", Description: "Your Engine (space speed)"},
			{Type: kit.Integer, Name: "reactor", Description: "Your Reactor (space speed)"},
			sizeOpt,
			{Type: kit.Integer, Name: "speed", Description: "Your base speed (creature race; default mech 25 or 35)", MinValue: kit.Float(0)},
			{Type: kit.Integer, Name: "bonus", Description: "Benefits and penalties to your speed"},
			{Type: kit.Boolean, Name: "dash", Description: "Dash or thrust: double your speed"},
			{Type: kit.Boolean, Name: "difficult", Description: "Through difficult terrain, on the ground or in the air"},
			{Type: kit.Integer, Name: "mount", Description: "Your mount's speed: it replaces yours", MinValue: kit.Float(0)},
			{Type: kit.String, Name: "drag", Description: "Size of a grappled combatant you move: halves speed", Choices: sizeChoices},
			{Type: kit.Integer, Name: "moved", Description: "Already moved this turn (any speed)", MinValue: kit.Float(0)},
			{Type: kit.Integer, Name: "rounds", Description: "How far in this many 10-second rounds", MinValue: kit.Float(0), MaxValue: kit.Float(100000)},
			kit.DiceOption, kit.CharacterOption, kit.PrivateOption, kit.VisibilityOption,
		}},
		{Type: kit.SubCommand, Name: "check", Description: "Check (scan, Stealth, mount, ...): 1d20 + stat must beat the CR", Options: []kit.Option{
			{Type: kit.String, Name: "stat", Description: "The stat, e.g. hull, strength, scanners, stealth", Required: true, MaxLength: kit.MaxStatName},
			{Type: kit.Integer, Name: "cr", Description: "The number to beat: a CR, or an opposing total", Required: true},
			{Type: kit.Integer, Name: "score", Description: "The stat's value (default: from the character)"},
			bonusOpt, modeOpt,
			kit.DiceOption, kit.CharacterOption, kit.PrivateOption, kit.VisibilityOption,
		}},
	},
}

// register adds /xhalem, the rules of seed xhalem (see rules/xhalem).
func (h *handlers) register(r *kit.Router) {
	r.Mount(command, kit.Routes{
		Handlers: map[string]kit.Handler{
			"initiative": h.serve(initiativeExample, h.initiative),
			"engage":     h.serve(engageExample, h.engage),
			"damage":     h.serve(damageExample, h.damage),
			"grapple":    h.serve(grappleExample, h.grapple),
			"escape":     h.serve(escapeExample, h.escape),
			"shove":      h.serve(shoveExample, h.shove),
			"speed":      h.serve(speedExample, h.speed),
			"check":      h.serve(checkExample, h.check),
		},
		Suggest: map[string]kit.Handler{"character": h.SuggestCharacters},
	})
}
