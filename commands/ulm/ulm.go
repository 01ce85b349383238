// Package ulm answers /ulm: the rules of seed 002, "Midnight in Vaia"
// (see rules/ulm and docs/ulm.md): Action Slots, Movement Actions,
// falls, injuries, Epilogues, healing and rest. Option names that hold
// stats are the stat names of a ulm character sheet, so `character:`
// fills them in. move, fall, injure, epilogue and heal act on the
// channel's running ulm fight when they name one of its combatants (see
// fight.go); otherwise they work the rules out from their options.
//
// Files: ulm.go the command and its mounting; call.go the options every
// subcommand reads and its answer; state.go a Victim's state as shown;
// fight.go acting on a running fight; one file per subcommand.
package ulm

import (
	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/rules/dice"
	"github.com/tablehand/tablehand/rules/encounter"
	rules "github.com/tablehand/tablehand/rules/ulm"
)

// stateOptions are the Victim's Hit Points and Injury Panel, for the
// subcommands that change them.
var stateOptions = []kit.Option{
	{Type: kit.Integer, Name: "hp", Description: "Hit Points (stat hp)", MinValue: kit.Float(1)},
	{Type: kit.Integer, Name: "damage", Description: "Damage already on Injury Cards, besides Holy and Spite", MinValue: kit.Float(0)},
	{Type: kit.Integer, Name: "holy", Description: "Holy damage already on Injury Cards", MinValue: kit.Float(0)},
	{Type: kit.Integer, Name: "spite", Description: "Spite damage already on Injury Cards", MinValue: kit.Float(0)},
	{Type: kit.Boolean, Name: "vulnerable", Description: "Vulnerable now (default: damage exceeds hp)"},
}

var phaseOption = kit.Option{Type: kit.String, Name: "phase", Description: "Active Phase (Action Slots, default) or Reserve Phase (Reserved Slots)",
	Choices: kit.Choices(rules.Active, rules.Reserve)}

// actorOption names who acts; in a running fight, a combatant.
func actorOption(desc string) kit.Option {
	return kit.Option{Type: kit.String, Name: "actor", Description: desc, Autocomplete: true, MaxLength: kit.MaxNameLen}
}

// options are a subcommand's options: opts, then `dice:`, `character:`
// and `private:`.
func options(opts ...[]kit.Option) []kit.Option {
	var out []kit.Option
	for _, o := range opts {
		out = append(out, o...)
	}
	return append(out, kit.DiceOption, kit.CharacterOption, kit.PrivateOption, kit.VisibilityOption)
}

// command is /ulm, as data.
var command = kit.Command{
	Name:        rules.SystemName,
	Description: "Midnight in Vaia: Action Slots, movement, falls, injuries and Epilogues",
	Options: []kit.Option{
		{Type: kit.SubCommand, Name: "slots", Description: "Action Slots your Active Phase begins with: 5 + Agility", Options: options([]kit.Option{
			{Type: kit.Integer, Name: "agility", Description: "Your Agility"},
			{Type: kit.String, Name: "alacrity", Description: "Enhanced Alacrity of each source, e.g. 2,1: the strongest counts", MaxLength: 100},
			{Type: kit.String, Name: "bonus", Description: "Bonus Action Slots of each source, first gained first: only one counts", MaxLength: 100},
			{Type: kit.Integer, Name: "bonus_instance", Description: "Which time this Full Round you gain Bonus slots (2+: Stress)", MinValue: kit.Float(1)},
			{Type: kit.String, Name: "dilation", Description: "Action Slots of each Time Dilation effect, e.g. 1,2: all stack", MaxLength: 100},
			{Type: kit.Boolean, Name: "shock", Description: "You are in Shock: only 1 Action Slot"},
		})},
		{Type: kit.SubCommand, Name: "move", Description: "A Movement Action: Celerity, Tiles, Momentum, Jump and Leap checks", Options: options([]kit.Option{
			{Type: kit.String, Name: "action", Description: "The Movement Action", Required: true, Choices: kit.Choices(rules.Moves...)},
			actorOption("Who moves: a combatant of this channel's fight spends its slots (default: the character)"),
			phaseOption,
			{Type: kit.Integer, Name: "accuracy", Description: "Your Accuracy, for jump and leap"},
			{Type: kit.Boolean, Name: "momentum", Description: "You have Momentum (needed by momentum and leap)"},
			{Type: kit.Integer, Name: "slots", Description: "Action Slots spent on momentum (3 Tiles each)", MinValue: kit.Float(1), MaxValue: kit.Float(100)},
			{Type: kit.Boolean, Name: "last_slot", Description: "This spends your last Action Slot of the Active Phase"},
			{Type: kit.String, Name: "surface", Description: "Surface climbed: minimal (rope), moderate (rock), difficult (brick), sheer", Choices: kit.Choices(rules.Surfaces...)},
			{Type: kit.Boolean, Name: "limbs_busy", Description: "Your hands or legs are not free (climbing needs them)"},
			{Type: kit.Boolean, Name: "gear", Description: "You have appropriate climbing equipment"},
		})},
		{Type: kit.SubCommand, Name: "fall", Description: "A fall: Action Slots consumed and (3v:6+T) damage, at least T% of Hit Points", Options: options([]kit.Option{
			{Type: kit.Integer, Name: "tiles", Description: "Tiles fallen, counting the Tile the fall begins from", Required: true, MinValue: kit.Float(1), MaxValue: kit.Float(100000)},
		}, stateOptions, []kit.Option{
			{Type: kit.Integer, Name: "slots", Description: "Action Slots you gain each Full Round (caps slots consumed)", MinValue: kit.Float(0)},
			{Type: kit.String, Name: "target", Description: "Who falls (default: the character or you)", Autocomplete: true, MaxLength: kit.MaxNameLen},
		})},
		{Type: kit.SubCommand, Name: "injure", Description: "Damage a Victim: Mitigation, an Injury Card, Vulnerable", Options: options([]kit.Option{
			{Type: kit.String, Name: "target", Description: "The Victim", Required: true, Autocomplete: true, MaxLength: kit.MaxNameLen},
			{Type: kit.String, Name: "amount", Description: "Potency: a number or dice, e.g. 2d6+3", Required: true, MaxLength: dice.MaxExprLen},
			{Type: kit.String, Name: "type", Description: "Damage type", Required: true, Choices: kit.Choices(rules.DamageTypes...)},
		}, stateOptions, []kit.Option{
			{Type: kit.Integer, Name: "mitigation", Description: "Mitigation of all sources", MinValue: kit.Float(0), MaxValue: kit.Float(encounter.MaxAmount)},
			{Type: kit.Integer, Name: "amplification", Description: "Amplification of all sources", MinValue: kit.Float(0), MaxValue: kit.Float(encounter.MaxAmount)},
			{Type: kit.Integer, Name: "weakness", Description: "Weakness of all sources", MinValue: kit.Float(0), MaxValue: kit.Float(encounter.MaxAmount)},
			{Type: kit.Boolean, Name: "object", Description: "The damage hits Armor or an Object's Durability"},
			{Type: kit.String, Name: "execution", Description: "The Action has Execution: this Epilogue applies if Vulnerable", Choices: kit.Choices(rules.Epilogues...)},
			{Type: kit.String, Name: "source", Description: "Damage Source on the Injury Card (default: you)", MaxLength: kit.MaxNameLen},
		})},
		{Type: kit.SubCommand, Name: "epilogue", Description: "Spend 1 slot on a Vulnerable Victim: maim, knockout or execute", Options: options([]kit.Option{
			{Type: kit.String, Name: "kind", Description: "The Epilogue", Required: true, Choices: kit.Choices(rules.Epilogues...)},
			{Type: kit.String, Name: "target", Description: "The Victim", Autocomplete: true, MaxLength: kit.MaxNameLen},
			actorOption("Who activates it: a combatant of this channel's fight spends its slot"),
		}, stateOptions, []kit.Option{
			phaseOption,
			{Type: kit.Integer, Name: "slots", Description: "Slots you have left in this phase", MinValue: kit.Float(0)},
			{Type: kit.Boolean, Name: "reach", Description: "Your equipment Reaches the Victim or it is in Range (default true)"},
		})},
		{Type: kit.SubCommand, Name: "heal", Description: "Heal Hit Points or grant a Barrier: Holy and Spite resist normal healing", Options: options([]kit.Option{
			{Type: kit.String, Name: "amount", Description: "Hit Points healed: a number or dice, e.g. 2d6", MaxLength: dice.MaxExprLen},
			{Type: kit.Boolean, Name: "special", Description: "Specialized healing or an item (heals Holy, Spite, a Maim)"},
			{Type: kit.Boolean, Name: "barrier", Description: "A Barrier is granted"},
			{Type: kit.String, Name: "target", Description: "Who is healed", Autocomplete: true, MaxLength: kit.MaxNameLen},
		}, stateOptions, []kit.Option{
			{Type: kit.Integer, Name: "maimed", Description: "Hours since the target was Maimed", MinValue: kit.Float(0)},
		})},
		{Type: kit.SubCommand, Name: "rest", Description: "Let time pass: Holy and Spite fade 1 a day, Shock and Knocked Out end", Options: options([]kit.Option{
			{Type: kit.Integer, Name: "rounds", Description: "Full Rounds that pass", MinValue: kit.Float(0), MaxValue: kit.Float(1000000)},
			{Type: kit.Integer, Name: "hours", Description: "Hours that pass", MinValue: kit.Float(0), MaxValue: kit.Float(100000)},
			{Type: kit.Integer, Name: "days", Description: "Days that pass", MinValue: kit.Float(0), MaxValue: kit.Float(10000)},
			{Type: kit.String, Name: "target", Description: "Who rests", MaxLength: kit.MaxNameLen},
		}, stateOptions, []kit.Option{
			{Type: kit.Integer, Name: "shock", Description: "Minutes of Shock left", MinValue: kit.Float(0)},
			{Type: kit.Integer, Name: "knocked_out", Description: "Full Rounds Knocked Out left", MinValue: kit.Float(0)},
			{Type: kit.Integer, Name: "maimed", Description: "Hours since the target was Maimed", MinValue: kit.Float(0)},
		})},
	},
}

// register adds /ulm, the rules of seed ulm (see rules/ulm), to r.
func (h *handlers) register(r *kit.Router) {
	r.Mount(command, kit.Routes{
		Handlers: map[string]kit.Handler{
			"slots":    h.slots,
			"move":     either(h, "actor", true, moveInput, h.moveInFight, h.moveByHand),
			"fall":     either(h, "target", true, fallTiles, h.fallInFight, h.fallByHand),
			"injure":   either(h, "target", false, injury, h.injureInFight, h.injureByHand),
			"epilogue": h.epilogue,
			"heal":     either(h, "target", true, healing, h.healInFight, h.healByHand),
			"rest":     h.rest,
		},
		// In a running fight, actor: and target: name its combatants.
		Suggest: map[string]kit.Handler{
			"character": h.SuggestCharacters, "actor": h.fight.SuggestCombatants, "target": h.fight.SuggestCombatants,
		},
	})
}
