// Package burst answers /burst: the rules of seed 003 (rules/burst), an
// action die and bonus dice that burst. Action checks and Medicine
// (check.go), initiative (initiative.go), attack, Defense and movement
// (attack.go), damage against armor (damage.go), and Durability, Health,
// Shock and recovery (health.go); call.go holds what they share.
//
// Every handler has one shape, kit's Pipeline (see serve): open a
// kit.Call, read the options through it keeping the first mistake, apply
// the rules, and answer (kit.Answer, kit.Tell) with the outcome line, the
// dice and the roll's ID.
package burst

import (
	"github.com/tablehand/tablehand/commands/kit"
	rules "github.com/tablehand/tablehand/rules/burst"
)

// The options /burst's subcommands share. Integer option names are the
// stat names of a burst character sheet (see docs/burst.md), so a sheet
// fills in what the user does not type.
var (
	chargesOption    = kit.Option{Type: kit.Integer, Name: "charges", Description: "Charges: each steps bonus dice up (d12, d20)", MinValue: kit.Float(0), MaxValue: kit.Float(rules.MaxSteps)}
	challengesOption = kit.Option{Type: kit.Integer, Name: "challenges", Description: "Challenges: each steps bonus dice down (d8, d6, d4)", MinValue: kit.Float(0), MaxValue: kit.Float(rules.MaxSteps)}
	woundedOption    = kit.Option{Type: kit.Boolean, Name: "wounded", Description: "Wounded: bonus dice a step down"}
	vigorOption      = kit.Option{Type: kit.Integer, Name: "vigor", Description: "Your Vigor now, to pay the cost", MinValue: kit.Float(0)}
)

// bonusOption is the `bonus:` option, described by where its default
// comes from.
func bonusOption(desc string) kit.Option {
	return kit.Option{Type: kit.Integer, Name: "bonus", Description: desc, MinValue: kit.Float(0), MaxValue: kit.Float(rules.MaxBonusDice)}
}

// command is /burst: one subcommand a rule of seed 003. Its choices are
// the rules' own lists of names, which their ParseX read (kit.Choices);
// [1:] leaves out the first, the rules' default ("none", "normal") that
// the option's absence means.
var command = kit.Command{
	Name:        rules.SystemName,
	Description: "Burst rules: d20 + bonus dice that burst, Guard, damage, Durability",
	Options: []kit.Option{
		{Type: kit.SubCommand, Name: "roll", Description: "Action roll: 1d20 + bonus dice against a victory sum (VS)", Options: []kit.Option{
			{Type: kit.Integer, Name: "vs", Description: "The victory sum to reach", Required: true, MinValue: kit.Float(1), MaxValue: kit.Float(rules.MaxVS)},
			bonusOption("Bonus dice (default: the sheet's stat:)"),
			{Type: kit.String, Name: "stat", Description: "Sheet stat giving the bonus dice, e.g. agility", MaxLength: 32},
			{Type: kit.Boolean, Name: "resist", Description: "A Resistance check: add your resistance dice"},
			{Type: kit.Integer, Name: "resistance", Description: "General Resistance bonus dice (default: sheet)", MinValue: kit.Float(0), MaxValue: kit.Float(rules.MaxBonusDice)},
			chargesOption, challengesOption, woundedOption,
			{Type: kit.String, Name: "visibility", Description: "Piloting or navigating by sight in: VS penalty", Choices: kit.Choices(rules.Visibilities()[1:]...)},
			kit.DiceOption, kit.CharacterOption, kit.PrivateOption, kit.RollVisibilityOption,
		}},
		{Type: kit.SubCommand, Name: "initiative", Description: "Initiative: 1d20 + bonus dice; actions in the first round", Options: []kit.Option{
			bonusOption("Bonus dice (default: sheet initiative)"),
			chargesOption, challengesOption, woundedOption,
			{Type: kit.String, Name: "watch", Description: "Over Watch: attack from the expected vector or another", Choices: kit.Choices(rules.Watches()[1:]...)},
			{Type: kit.String, Name: "ambush", Description: "Your side of an ambush", Choices: kit.Choices(rules.Ambushes()[1:]...)},
			{Type: kit.Integer, Name: "actions", Description: "Actions a turn (default: sheet, else 2)", MinValue: kit.Float(1), MaxValue: kit.Float(rules.MaxActions)},
			kit.DiceOption, kit.CharacterOption, kit.PrivateOption, kit.RollVisibilityOption,
		}},
		{Type: kit.SubCommand, Name: "attack", Description: "Attack roll against Guard; the target may roll Defense", Options: []kit.Option{
			bonusOption("Bonus dice (default: sheet agility, soul or speed)"),
			{Type: kit.String, Name: "with", Description: "Weapon, unarmed, spell or technique", Choices: kit.Choices(rules.AttackWith()...)},
			{Type: kit.Integer, Name: "guard", Description: "Target's Guard: 15 + armor and abilities", MinValue: kit.Float(1), MaxValue: kit.Float(rules.MaxGuard)},
			{Type: kit.Boolean, Name: "behind", Description: "From behind an unaware target: Guard halved"},
			{Type: kit.Boolean, Name: "ranged", Description: "An attack at range"},
			{Type: kit.Boolean, Name: "area", Description: "An area attack (light cover does not count)"},
			{Type: kit.String, Name: "cover", Description: "Target's cover (ranged)", Choices: kit.Choices(rules.Covers()[1:]...)},
			{Type: kit.String, Name: "size", Description: "Your size (default medium)", Choices: kit.Choices(rules.Sizes()...)},
			{Type: kit.String, Name: "target_size", Description: "Target's size (default medium)", Choices: kit.Choices(rules.Sizes()...)},
			{Type: kit.String, Name: "visibility", Description: "Visibility (ranged)", Choices: kit.Choices(rules.Visibilities()[1:]...)},
			{Type: kit.Integer, Name: "range", Description: "Distance in feet, for visibility limits", MinValue: kit.Float(0), MaxValue: kit.Float(100000)},
			{Type: kit.Boolean, Name: "prone", Description: "Target is prone"},
			{Type: kit.Boolean, Name: "offhand", Description: "Off-hand attack: 8 Vigor, 2 challenges"},
			{Type: kit.Boolean, Name: "opening", Description: "Take Opening reaction: 5 Vigor"},
			vigorOption,
			{Type: kit.Integer, Name: "defense", Description: "Target's Speed dice: it rolls Defense if hit", MinValue: kit.Float(0), MaxValue: kit.Float(rules.MaxBonusDice)},
			chargesOption, challengesOption, woundedOption,
			kit.DiceOption, kit.CharacterOption, kit.PrivateOption, kit.RollVisibilityOption,
		}},
		{Type: kit.SubCommand, Name: "defend", Description: "Defense reaction: 1d20 + Speed dice, must beat the attack", Options: []kit.Option{
			{Type: kit.Integer, Name: "attack", Description: "The attack roll to beat", Required: true, MinValue: kit.Float(1), MaxValue: kit.Float(100000)},
			{Type: kit.Integer, Name: "speed", Description: "Speed bonus dice (default: sheet)", MinValue: kit.Float(0), MaxValue: kit.Float(rules.MaxBonusDice)},
			{Type: kit.Boolean, Name: "prone", Description: "You are prone: Speed dice a quarter"},
			{Type: kit.Boolean, Name: "defending", Description: "You took the Defend action: costs 2 less"},
			vigorOption,
			chargesOption, challengesOption, woundedOption,
			kit.DiceOption, kit.CharacterOption, kit.PrivateOption, kit.RollVisibilityOption,
		}},
		{Type: kit.SubCommand, Name: "damage", Description: "Damage dice by quality + Strength/Skill dice, less armor", Options: []kit.Option{
			{Type: kit.Integer, Name: "count", Description: "Damage value: how many dice (unarmed: 1)", MinValue: kit.Float(0), MaxValue: kit.Float(rules.MaxBonusDice)},
			{Type: kit.String, Name: "rank", Description: "Weapon quality (unarmed: feeble)", Choices: kit.Choices(rules.Qualities()...)},
			{Type: kit.String, Name: "kind", Description: "Weapon kind: adds Strength or Skill dice", Choices: kit.Choices(rules.WeaponKinds()...)},
			{Type: kit.Integer, Name: "strength", Description: "Strength bonus dice (default: sheet)", MinValue: kit.Float(0), MaxValue: kit.Float(rules.MaxBonusDice)},
			{Type: kit.Integer, Name: "skill", Description: "Skill bonus dice (default: sheet)", MinValue: kit.Float(0), MaxValue: kit.Float(rules.MaxBonusDice)},
			{Type: kit.String, Name: "type", Description: "Damage type (default kinetic)", Choices: kit.Choices(rules.DamageTypes()...)},
			{Type: kit.Integer, Name: "armor", Description: "Target's worn Armor Rank", MinValue: kit.Float(0), MaxValue: kit.Float(rules.MaxArmor)},
			{Type: kit.String, Name: "armor_quality", Description: "Its quality (default ordinary)", Choices: kit.Choices(rules.Qualities()...)},
			{Type: kit.Integer, Name: "other_armor", Description: "Another Armor Rank (natural...): highest counts", MinValue: kit.Float(0), MaxValue: kit.Float(rules.MaxArmor)},
			{Type: kit.Boolean, Name: "sealed", Description: "Armor stated to stop every damage type"},
			{Type: kit.String, Name: "cover", Description: "Target's cover against this ranged attack", Choices: kit.Choices(rules.Covers()[1:]...)},
			{Type: kit.String, Name: "durability", Description: "Target's superior Durability", Choices: kit.Choices(rules.Qualities()[rules.Heroic:]...)},
			{Type: kit.Boolean, Name: "object", Description: "Target is an object"},
			{Type: kit.Boolean, Name: "offhand", Description: "Off-hand attack: 2 challenges"},
			chargesOption,
			{Type: kit.Integer, Name: "challenges", Description: "Challenges the rules put on damage", MinValue: kit.Float(0), MaxValue: kit.Float(rules.MaxSteps)},
			woundedOption,
			kit.DiceOption, kit.CharacterOption, kit.PrivateOption, kit.RollVisibilityOption,
		}},
		{Type: kit.SubCommand, Name: "move", Description: "Move actions: 1 foot per point of Speed Score each", Options: []kit.Option{
			{Type: kit.Integer, Name: "speed_score", Description: "Speed Score (default: sheet)", MinValue: kit.Float(0), MaxValue: kit.Float(100000)},
			{Type: kit.Integer, Name: "moves", Description: "Move actions taken (default 1)", MinValue: kit.Float(1), MaxValue: kit.Float(rules.MaxActions)},
			{Type: kit.Boolean, Name: "prone", Description: "Prone: a quarter of your Speed"},
			kit.DiceOption, kit.CharacterOption, kit.PrivateOption, kit.RollVisibilityOption,
		}},
		{Type: kit.SubCommand, Name: "hurt", Description: "Apply damage to Durability, then Health, then Shock", Options: []kit.Option{
			{Type: kit.Integer, Name: "damage", Description: "Damage taken (after armor)", Required: true, MinValue: kit.Float(0), MaxValue: kit.Float(1000000)},
			{Type: kit.Integer, Name: "durability", Description: "Durability now (default: sheet)", MinValue: kit.Float(0)},
			{Type: kit.Integer, Name: "health", Description: "Health now (default: sheet)", MinValue: kit.Float(0)},
			{Type: kit.Integer, Name: "stamina", Description: "Stamina: rounds to live in Shock (default: sheet)", MinValue: kit.Float(0)},
			{Type: kit.Boolean, Name: "shock", Description: "Already in Shock"},
			{Type: kit.Boolean, Name: "object", Description: "An object: Durability only"},
			kit.DiceOption, kit.CharacterOption, kit.PrivateOption, kit.RollVisibilityOption,
		}},
		{Type: kit.SubCommand, Name: "recover", Description: "Recovery Phase at the end of a round: Vigor and more", Options: []kit.Option{
			{Type: kit.Integer, Name: "stamina", Description: "Stamina (default: sheet)", MinValue: kit.Float(0)},
			{Type: kit.Integer, Name: "vigor", Description: "Vigor now (default: sheet)", MinValue: kit.Float(0)},
			{Type: kit.Integer, Name: "max_vigor", Description: "Most Vigor (default: sheet)", MinValue: kit.Float(0)},
			{Type: kit.Boolean, Name: "winded", Description: "Winded (always at 0 Vigor)"},
			{Type: kit.Integer, Name: "durability", Description: "Durability now (default: sheet)", MinValue: kit.Float(0)},
			{Type: kit.Integer, Name: "max_durability", Description: "Most Durability (default: sheet)", MinValue: kit.Float(0)},
			{Type: kit.Integer, Name: "regen", Description: "Durability a special ability restores", MinValue: kit.Float(0)},
			{Type: kit.Integer, Name: "health", Description: "Health now (default: sheet)", MinValue: kit.Float(0)},
			{Type: kit.Integer, Name: "health_regen", Description: "Health a special ability restores", MinValue: kit.Float(0)},
			{Type: kit.Integer, Name: "mana", Description: "Mana now (default: sheet)", MinValue: kit.Float(0)},
			{Type: kit.Integer, Name: "mana_regen", Description: "Mana a special ability restores", MinValue: kit.Float(0)},
			{Type: kit.Integer, Name: "max_mana", Description: "Most Mana (default: sheet)", MinValue: kit.Float(0)},
			{Type: kit.Boolean, Name: "shock", Description: "In Shock (0 Health)"},
			{Type: kit.Integer, Name: "rounds", Description: "In Shock: rounds left (default: Stamina)", MinValue: kit.Float(0)},
			{Type: kit.Boolean, Name: "stable", Description: "In Shock but stabilised"},
			kit.DiceOption, kit.CharacterOption, kit.PrivateOption, kit.RollVisibilityOption,
		}},
		{Type: kit.SubCommand, Name: "stabilise", Description: "Medicine check VS 20 to stabilise a creature in Shock", Options: []kit.Option{
			{Type: kit.Integer, Name: "medicine", Description: "Medicine bonus dice (default: sheet)", MinValue: kit.Float(0), MaxValue: kit.Float(rules.MaxBonusDice)},
			chargesOption, challengesOption, woundedOption,
			kit.DiceOption, kit.CharacterOption, kit.PrivateOption, kit.RollVisibilityOption,
		}},
		{Type: kit.SubCommand, Name: "aid", Description: "Emergency aid, 2 actions: Medicine VS 20 restores 1d10 Durability", Options: []kit.Option{
			{Type: kit.Integer, Name: "medicine", Description: "Medicine bonus dice (default: sheet)", MinValue: kit.Float(0), MaxValue: kit.Float(rules.MaxBonusDice)},
			{Type: kit.Integer, Name: "durability", Description: "Patient's Durability now", MinValue: kit.Float(0)},
			{Type: kit.Integer, Name: "max_durability", Description: "Patient's most Durability", MinValue: kit.Float(0)},
			chargesOption, challengesOption, woundedOption,
			kit.DiceOption, kit.CharacterOption, kit.PrivateOption, kit.RollVisibilityOption,
		}},
	},
}

// register adds /burst and its subcommands, each with the `character:`
// option's suggestions, to r.
func (h *handlers) register(r *kit.Router) {
	r.Mount(command, kit.Routes{
		Handlers: map[string]kit.Handler{
			"roll": h.roll, "initiative": h.initiative, "attack": h.attack, "defend": h.defend, "damage": h.damage,
			"move": h.move, "hurt": h.hurt, "recover": h.recover, "stabilise": h.stabilise, "aid": h.aid,
		},
		Suggest: map[string]kit.Handler{"character": h.SuggestCharacters},
	})
}
