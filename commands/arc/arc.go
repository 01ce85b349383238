// Package arc answers /arc: the rules of seed 001 (rules/arc), Action
// Resolution Checks against a threshold (check) or opposed (opposed),
// reaction checks, the declaration order of a turn, and movement and load
// (move).
//
// KS, US and ES are typed as text: a number, or the name of a stat on the
// character's sheet. A character has many of each (the text's own example
// adds "the score in Control", "the score in Accuracy" and "ES Tamper"), so
// `ks:control us:accuracy es:tamper` reads the three from one sheet; left
// out, they are read from the sheet's stats named ks, us and es.
package arc

import (
	"github.com/tablehand/tablehand/commands/kit"
	rules "github.com/tablehand/tablehand/rules/arc"
)

// scoreOption is a KS, US or ES option: a number or a stat of the sheet.
func scoreOption(name, desc string) kit.Option {
	return kit.Option{Type: kit.String, Name: name, Description: desc, MaxLength: 32, Autocomplete: true}
}

// countOption counts advantages or disadvantages of the situation.
func countOption(name, desc string) kit.Option {
	return kit.Option{Type: kit.Integer, Name: name, Description: desc, MinValue: kit.Float(0), MaxValue: kit.Float(20)}
}

// adjOption is the GM's other adjustment to an ARC.
func adjOption(name, desc string) kit.Option {
	return kit.Option{Type: kit.Integer, Name: name, Description: desc, MinValue: kit.Float(-100), MaxValue: kit.Float(100)}
}

// sizeOption is a size: a name, or steps from medium.
func sizeOption(name, desc string) kit.Option {
	return kit.Option{Type: kit.String, Name: name, Description: desc, MaxLength: 32, Autocomplete: true}
}

// command is /arc: its subcommands and their options, as data.
var command = kit.Command{
	Name:        rules.SystemName,
	Description: "Arc rules: action checks (ARC), reactions, declaration order, movement and load",
	Options: []kit.Option{
		{Type: kit.SubCommand, Name: "check", Description: "ARCT: KS + US + ES die + adjustments, above a threshold to succeed", Options: []kit.Option{
			{Type: kit.String, Name: "threshold", Description: "Complexity: a name (average = 9) or a number", Required: true, MaxLength: 32, Autocomplete: true},
			scoreOption("ks", "KS score, or a stat of the sheet (e.g. control)"),
			scoreOption("us", "US score, or a stat of the sheet (e.g. accuracy)"),
			scoreOption("es", "ES score (sets the die), or a stat of the sheet (e.g. tamper)"),
			countOption("adv", "Advantages of the situation: +1 each"),
			countOption("dis", "Disadvantages of the situation: -1 each"),
			countOption("huge_adv", "Huge advantages (exceptional): +2 each"),
			countOption("huge_dis", "Huge disadvantages (exceptional): -2 each"),
			adjOption("adj", "Other adjustment from the GM, e.g. -1 for inadequate armor"),
			kit.DiceOption, kit.CharacterOption, kit.PrivateOption, kit.VisibilityOption,
		}},
		{Type: kit.SubCommand, Name: "opposed", Description: "ARCO: both sides roll an ARC; higher wins, a tie fails the actor", Options: []kit.Option{
			scoreOption("ks", "Your KS score, or a stat of your sheet"),
			scoreOption("us", "Your US score, or a stat of your sheet"),
			scoreOption("es", "Your ES score, or a stat of your sheet"),
			scoreOption("target_ks", "The opponent's KS score, or a stat of their sheet"),
			scoreOption("target_us", "The opponent's US score, or a stat of their sheet"),
			scoreOption("target_es", "The opponent's ES score, or a stat of their sheet"),
			countOption("adv", "Your advantages: +1 each"),
			countOption("dis", "Your disadvantages: -1 each"),
			countOption("huge_adv", "Your huge advantages: +2 each"),
			countOption("huge_dis", "Your huge disadvantages: -2 each"),
			adjOption("adj", "Your other adjustment from the GM"),
			countOption("target_adv", "The opponent's advantages: +1 each"),
			countOption("target_dis", "The opponent's disadvantages: -1 each"),
			countOption("target_huge_adv", "The opponent's huge advantages: +2 each"),
			countOption("target_huge_dis", "The opponent's huge disadvantages: -2 each"),
			adjOption("target_adj", "The opponent's other adjustment from the GM"),
			sizeOption("size", "Your size (default medium): the larger side gains"),
			sizeOption("target_size", "The opponent's size (default medium)"),
			kit.DiceOption, kit.CharacterOption,
			{Type: kit.String, Name: "target", Description: "Read the opponent's stats from this character's sheet", Autocomplete: true, MaxLength: kit.MaxNameLen},
			kit.PrivateOption, kit.VisibilityOption,
		}},
		{Type: kit.SubCommand, Name: "reaction", Description: "Reaction check: 1d10 at or under SOM, or lose the turn", Options: []kit.Option{
			{Type: kit.Integer, Name: "som", Description: "State of Mind, 1 (Panicked) to 10 (Exalted)", MinValue: kit.Float(rules.MinSOM), MaxValue: kit.Float(rules.MaxSOM)},
			kit.DiceOption, kit.CharacterOption, kit.PrivateOption, kit.VisibilityOption,
		}},
		{Type: kit.SubCommand, Name: "order", Description: "Declaration order: ascending SOM, then Empathy, Perception, 1d10", Options: []kit.Option{
			{Type: kit.String, Name: "who", Required: true, MaxLength: 1000,
				Description: "Sheet names, or name som=5 empathy=3 perception=4; comma between"},
			{Type: kit.String, Name: "surprised", MaxLength: 1000, Description: "Who is surprised or unconscious: they skip this turn"},
			kit.DiceOption,
		}},
		{Type: kit.SubCommand, Name: "move", Description: "MOV per turn (6 s) by size, Control and burden; LOADT; actions a turn", Options: []kit.Option{
			{Type: kit.Integer, Name: "control", Description: "Control score (sets the MOV bonus or malus)", MinValue: kit.Float(1), MaxValue: kit.Float(100)},
			{Type: kit.Integer, Name: "build", Description: "Build score (LOADT = Build x 3 kg)", MinValue: kit.Float(1), MaxValue: kit.Float(100)},
			{Type: kit.Number, Name: "load", Description: "Weight borne in kg, clothing included", MinValue: kit.Float(0), MaxValue: kit.Float(1e6)},
			{Type: kit.Number, Name: "clothing", Description: "Of that, kg of clothing (Build 1 bears clothing only)", MinValue: kit.Float(0), MaxValue: kit.Float(1e6)},
			sizeOption("size", "Size (default medium, as humans)"),
			{Type: kit.Integer, Name: "mov", Description: "Base MOV at medium size in m/turn (default 8, humans)", MinValue: kit.Float(1), MaxValue: kit.Float(1000)},
			scoreOption("es", "An ES score, or a stat of the sheet: actions a turn"),
			{Type: kit.Integer, Name: "turns", Description: "Distance covered in this many turns", MinValue: kit.Float(1), MaxValue: kit.Float(10000)},
			kit.CharacterOption, kit.PrivateOption, kit.VisibilityOption,
		}},
	},
}

// register adds /arc, its subcommands and their suggestions to r.
func (h *handlers) register(r *kit.Router) {
	r.Mount(command, kit.Routes{
		Handlers: map[string]kit.Handler{
			"check": h.check, "opposed": h.opposed, "reaction": h.reaction, "order": h.order, "move": h.move,
		},
		Suggest: map[string]kit.Handler{
			"character": h.SuggestCharacters, "target": h.SuggestCharacters,
			"threshold": h.suggestThresholds,
			"size":      h.suggestSizes, "target_size": h.suggestSizes,
			"ks": h.suggestStats, "us": h.suggestStats, "es": h.suggestStats,
			"target_ks": h.suggestStats, "target_us": h.suggestStats, "target_es": h.suggestStats,
		},
	})
}
