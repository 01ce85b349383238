package ulm

import (
	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/rules/dice"
	"github.com/tablehand/tablehand/rules/encounter"
	rules "github.com/tablehand/tablehand/rules/ulm"
)

// The /ulm command: the rules of seed 002, "Midnight in Vaia" (see
// rules/ulm and docs/rules.md). Option names that hold stats are the stat
// names of a ulm character sheet, so `character:` fills them in.

var ulmPrivate = kit.Option{Type: kit.Boolean, Name: "private", Description: "Only you see the result"}

// ulmStateOptions are the Victim's Hit Points and Injury Panel, for the
// subcommands that change them.
var ulmStateOptions = []kit.Option{
	{Type: kit.Integer, Name: "hp", Description: "Hit Points (stat hp)", MinValue: kit.Float(1)},
	{Type: kit.Integer, Name: "damage", Description: "Damage already on Injury Cards, besides Holy and Spite", MinValue: kit.Float(0)},
	{Type: kit.Integer, Name: "holy", Description: "Holy damage already on Injury Cards", MinValue: kit.Float(0)},
	{Type: kit.Integer, Name: "spite", Description: "Spite damage already on Injury Cards", MinValue: kit.Float(0)},
	{Type: kit.Boolean, Name: "vulnerable", Description: "Vulnerable now (default: damage exceeds hp)"},
}

func ulmChoices[T ~string](vals []T) []kit.Choice {
	out := make([]kit.Choice, len(vals))
	for i, v := range vals {
		out[i] = kit.Choice{Name: string(v), Value: string(v)}
	}
	return out
}

var ulmPhaseOption = kit.Option{Type: kit.String, Name: "phase", Description: "Active Phase (Action Slots, default) or Reserve Phase (Reserved Slots)",
	Choices: ulmChoices([]rules.Phase{rules.Active, rules.Reserve})}

// ulmActorOption names who acts; in a running fight, a combatant.
func ulmActorOption(desc string) kit.Option {
	return kit.Option{Type: kit.String, Name: "actor", Description: desc, Autocomplete: true, MaxLength: kit.MaxNameLen}
}

func ulmOptions(opts ...[]kit.Option) []kit.Option {
	var out []kit.Option
	for _, o := range opts {
		out = append(out, o...)
	}
	return append(out, kit.DiceOption, kit.CharacterOption, ulmPrivate)
}

var ulmCommand = kit.Command{
	Name:        "ulm",
	Description: "Midnight in Vaia: Action Slots, movement, falls, injuries and Epilogues",
	Options: []kit.Option{
		{Type: kit.SubCommand, Name: "slots", Description: "Action Slots your Active Phase begins with: 5 + Agility", Options: ulmOptions([]kit.Option{
			{Type: kit.Integer, Name: "agility", Description: "Your Agility"},
			{Type: kit.String, Name: "alacrity", Description: "Enhanced Alacrity of each source, e.g. 2,1: the strongest counts", MaxLength: 100},
			{Type: kit.String, Name: "bonus", Description: "Bonus Action Slots of each source, first gained first: only one counts", MaxLength: 100},
			{Type: kit.Integer, Name: "bonus_instance", Description: "Which time this Full Round you gain Bonus slots (2+: Stress)", MinValue: kit.Float(1)},
			{Type: kit.String, Name: "dilation", Description: "Action Slots of each Time Dilation effect, e.g. 1,2: all stack", MaxLength: 100},
			{Type: kit.Boolean, Name: "shock", Description: "You are in Shock: only 1 Action Slot"},
		})},
		{Type: kit.SubCommand, Name: "move", Description: "A Movement Action: Celerity, Tiles, Momentum, Jump and Leap checks", Options: ulmOptions([]kit.Option{
			{Type: kit.String, Name: "action", Description: "The Movement Action", Required: true, Choices: ulmChoices(rules.Moves)},
			ulmActorOption("Who moves: a combatant of this channel's fight spends its slots (default: the character)"),
			ulmPhaseOption,
			{Type: kit.Integer, Name: "accuracy", Description: "Your Accuracy, for jump and leap"},
			{Type: kit.Boolean, Name: "momentum", Description: "You have Momentum (needed by momentum and leap)"},
			{Type: kit.Integer, Name: "slots", Description: "Action Slots spent on momentum (3 Tiles each)", MinValue: kit.Float(1), MaxValue: kit.Float(100)},
			{Type: kit.Boolean, Name: "last_slot", Description: "This spends your last Action Slot of the Active Phase"},
			{Type: kit.String, Name: "surface", Description: "Surface climbed: minimal (rope), moderate (rock), difficult (brick), sheer", Choices: ulmChoices(rules.Surfaces)},
			{Type: kit.Boolean, Name: "limbs_busy", Description: "Your hands or legs are not free (climbing needs them)"},
			{Type: kit.Boolean, Name: "gear", Description: "You have appropriate climbing equipment"},
		})},
		{Type: kit.SubCommand, Name: "fall", Description: "A fall: Action Slots consumed and (3v:6+T) damage, at least T% of Hit Points", Options: ulmOptions([]kit.Option{
			{Type: kit.Integer, Name: "tiles", Description: "Tiles fallen, counting the Tile the fall begins from", Required: true, MinValue: kit.Float(1), MaxValue: kit.Float(100000)},
		}, ulmStateOptions, []kit.Option{
			{Type: kit.Integer, Name: "slots", Description: "Action Slots you gain each Full Round (caps slots consumed)", MinValue: kit.Float(0)},
			{Type: kit.String, Name: "target", Description: "Who falls (default: the character or you)", Autocomplete: true, MaxLength: kit.MaxNameLen},
		})},
		{Type: kit.SubCommand, Name: "injure", Description: "Damage a Victim: Mitigation, an Injury Card, Vulnerable", Options: ulmOptions([]kit.Option{
			{Type: kit.String, Name: "target", Description: "The Victim", Required: true, Autocomplete: true, MaxLength: kit.MaxNameLen},
			{Type: kit.String, Name: "amount", Description: "Potency: a number or dice, e.g. 2d6+3", Required: true, MaxLength: dice.MaxExprLen},
			{Type: kit.String, Name: "type", Description: "Damage type", Required: true, Choices: ulmChoices(rules.DamageTypes)},
		}, ulmStateOptions, []kit.Option{
			{Type: kit.Integer, Name: "mitigation", Description: "Mitigation of all sources", MinValue: kit.Float(0), MaxValue: kit.Float(encounter.MaxAmount)},
			{Type: kit.Integer, Name: "amplification", Description: "Amplification of all sources", MinValue: kit.Float(0), MaxValue: kit.Float(encounter.MaxAmount)},
			{Type: kit.Integer, Name: "weakness", Description: "Weakness of all sources", MinValue: kit.Float(0), MaxValue: kit.Float(encounter.MaxAmount)},
			{Type: kit.Boolean, Name: "object", Description: "The damage hits Armor or an Object's Durability"},
			{Type: kit.String, Name: "execution", Description: "The Action has Execution: this Epilogue applies if Vulnerable", Choices: ulmChoices(rules.Epilogues)},
			{Type: kit.String, Name: "source", Description: "Damage Source on the Injury Card (default: you)", MaxLength: kit.MaxNameLen},
		})},
		{Type: kit.SubCommand, Name: "epilogue", Description: "Spend 1 slot on a Vulnerable Victim: maim, knockout or execute", Options: ulmOptions([]kit.Option{
			{Type: kit.String, Name: "kind", Description: "The Epilogue", Required: true, Choices: ulmChoices(rules.Epilogues)},
			{Type: kit.String, Name: "target", Description: "The Victim", Autocomplete: true, MaxLength: kit.MaxNameLen},
			ulmActorOption("Who activates it: a combatant of this channel's fight spends its slot"),
		}, ulmStateOptions, []kit.Option{
			ulmPhaseOption,
			{Type: kit.Integer, Name: "slots", Description: "Slots you have left in this phase", MinValue: kit.Float(0)},
			{Type: kit.Boolean, Name: "reach", Description: "Your equipment Reaches the Victim or it is in Range (default true)"},
		})},
		{Type: kit.SubCommand, Name: "heal", Description: "Heal Hit Points or grant a Barrier: Holy and Spite resist normal healing", Options: ulmOptions([]kit.Option{
			{Type: kit.String, Name: "amount", Description: "Hit Points healed: a number or dice, e.g. 2d6", MaxLength: dice.MaxExprLen},
			{Type: kit.Boolean, Name: "special", Description: "Specialized healing or an item (heals Holy, Spite, a Maim)"},
			{Type: kit.Boolean, Name: "barrier", Description: "A Barrier is granted"},
			{Type: kit.String, Name: "target", Description: "Who is healed", Autocomplete: true, MaxLength: kit.MaxNameLen},
		}, ulmStateOptions, []kit.Option{
			{Type: kit.Integer, Name: "maimed", Description: "Hours since the target was Maimed", MinValue: kit.Float(0)},
		})},
		{Type: kit.SubCommand, Name: "rest", Description: "Let time pass: Holy and Spite fade 1 a day, Shock and Knocked Out end", Options: ulmOptions([]kit.Option{
			{Type: kit.Integer, Name: "rounds", Description: "Full Rounds that pass", MinValue: kit.Float(0), MaxValue: kit.Float(1000000)},
			{Type: kit.Integer, Name: "hours", Description: "Hours that pass", MinValue: kit.Float(0), MaxValue: kit.Float(100000)},
			{Type: kit.Integer, Name: "days", Description: "Days that pass", MinValue: kit.Float(0), MaxValue: kit.Float(10000)},
			{Type: kit.String, Name: "target", Description: "Who rests", MaxLength: kit.MaxNameLen},
		}, ulmStateOptions, []kit.Option{
			{Type: kit.Integer, Name: "shock", Description: "Minutes of Shock left", MinValue: kit.Float(0)},
			{Type: kit.Integer, Name: "knocked_out", Description: "Full Rounds Knocked Out left", MinValue: kit.Float(0)},
			{Type: kit.Integer, Name: "maimed", Description: "Hours since the target was Maimed", MinValue: kit.Float(0)},
		})},
	},
}

// registerUlm adds /ulm, the rules of seed ulm (see rules/ulm).
func (h *handlers) registerUlm(r *kit.Router) {
	r.Define(ulmCommand)
	for _, sub := range []struct {
		name string
		h    kit.Handler
	}{
		{"slots", h.ulmSlots}, {"move", h.ulmMove}, {"fall", h.ulmFall}, {"injure", h.ulmInjure},
		{"epilogue", h.ulmEpilogue}, {"heal", h.ulmHeal}, {"rest", h.ulmRest},
	} {
		r.Route("ulm/"+sub.name, sub.h, false)
		r.RouteAutocomplete("ulm/"+sub.name, "character", h.SuggestCharacters)
	}
	// In a running fight, actor: and target: name its combatants.
	for _, route := range []struct{ sub, option string }{
		{"move", "actor"}, {"epilogue", "actor"}, {"epilogue", "target"}, {"fall", "target"}, {"heal", "target"}, {"injure", "target"},
	} {
		r.RouteAutocomplete("ulm/"+route.sub, route.option, h.fight.SuggestCombatants)
	}
}
