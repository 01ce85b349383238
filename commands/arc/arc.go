package arc

import (
	"strings"

	"github.com/tablehand/tablehand/commands/kit"
	rules "github.com/tablehand/tablehand/rules/arc"
)

// /arc speaks the rules of seed 001 (rules/arc): Action Resolution Checks
// against a threshold (check) or opposed (opposed), reaction checks,
// the declaration order of a turn, and movement and load (move).
//
// KS, US and ES are typed as text: a number, or the name of a stat on the
// character's sheet. A character has many of each (the text's own example
// adds "the score in Control", "the score in Accuracy" and "ES Tamper"), so
// `ks:control us:accuracy es:tamper` reads the three from one sheet; left
// out, they are read from the sheet's stats named ks, us and es.

var arcPrivate = kit.Option{Type: kit.Boolean, Name: "private", Description: "Only you see the result"}

// arcScoreOption is a KS, US or ES option: a number or a stat of the sheet.
func arcScoreOption(name, desc string) kit.Option {
	return kit.Option{Type: kit.String, Name: name, Description: desc, MaxLength: 32, Autocomplete: true}
}

func arcCount(name, desc string) kit.Option {
	return kit.Option{Type: kit.Integer, Name: name, Description: desc, MinValue: kit.Float(0), MaxValue: kit.Float(20)}
}

func arcAdj(name, desc string) kit.Option {
	return kit.Option{Type: kit.Integer, Name: name, Description: desc, MinValue: kit.Float(-100), MaxValue: kit.Float(100)}
}

func arcSize(name, desc string) kit.Option {
	return kit.Option{Type: kit.String, Name: name, Description: desc, MaxLength: 32, Autocomplete: true}
}

var arcCommand = kit.Command{
	Name:        "arc",
	Description: "Arc rules: action checks (ARC), reactions, declaration order, movement and load",
	Options: []kit.Option{
		{Type: kit.SubCommand, Name: "check", Description: "ARCT: KS + US + ES die + adjustments, above a threshold to succeed", Options: []kit.Option{
			{Type: kit.String, Name: "threshold", Description: "Complexity: a name (average = 9) or a number", Required: true, MaxLength: 32, Autocomplete: true},
			arcScoreOption("ks", "KS score, or a stat of the sheet (e.g. control)"),
			arcScoreOption("us", "US score, or a stat of the sheet (e.g. accuracy)"),
			arcScoreOption("es", "ES score (sets the die), or a stat of the sheet (e.g. tamper)"),
			arcCount("adv", "Advantages of the situation: +1 each"),
			arcCount("dis", "Disadvantages of the situation: -1 each"),
			arcCount("huge_adv", "Huge advantages (exceptional): +2 each"),
			arcCount("huge_dis", "Huge disadvantages (exceptional): -2 each"),
			arcAdj("adj", "Other adjustment from the GM, e.g. -1 for inadequate armor"),
			kit.DiceOption, kit.CharacterOption, arcPrivate,
		}},
		{Type: kit.SubCommand, Name: "opposed", Description: "ARCO: both sides roll an ARC; higher wins, a tie fails the actor", Options: []kit.Option{
			arcScoreOption("ks", "Your KS score, or a stat of your sheet"),
			arcScoreOption("us", "Your US score, or a stat of your sheet"),
			arcScoreOption("es", "Your ES score, or a stat of your sheet"),
			arcScoreOption("target_ks", "The opponent's KS score, or a stat of their sheet"),
			arcScoreOption("target_us", "The opponent's US score, or a stat of their sheet"),
			arcScoreOption("target_es", "The opponent's ES score, or a stat of their sheet"),
			arcCount("adv", "Your advantages: +1 each"),
			arcCount("dis", "Your disadvantages: -1 each"),
			arcCount("huge_adv", "Your huge advantages: +2 each"),
			arcCount("huge_dis", "Your huge disadvantages: -2 each"),
			arcAdj("adj", "Your other adjustment from the GM"),
			arcCount("target_adv", "The opponent's advantages: +1 each"),
			arcCount("target_dis", "The opponent's disadvantages: -1 each"),
			arcCount("target_huge_adv", "The opponent's huge advantages: +2 each"),
			arcCount("target_huge_dis", "The opponent's huge disadvantages: -2 each"),
			arcAdj("target_adj", "The opponent's other adjustment from the GM"),
			arcSize("size", "Your size (default medium): the larger side gains"),
			arcSize("target_size", "The opponent's size (default medium)"),
			kit.DiceOption, kit.CharacterOption,
			{Type: kit.String, Name: "target", Description: "Read the opponent's stats from this character's sheet", Autocomplete: true, MaxLength: kit.MaxNameLen},
			arcPrivate,
		}},
		{Type: kit.SubCommand, Name: "reaction", Description: "Reaction check: 1d10 at or under SOM, or lose the turn", Options: []kit.Option{
			{Type: kit.Integer, Name: "som", Description: "State of Mind, 1 (Panicked) to 10 (Exalted)", MinValue: kit.Float(rules.MinSOM), MaxValue: kit.Float(rules.MaxSOM)},
			kit.DiceOption, kit.CharacterOption, arcPrivate,
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
			arcSize("size", "Size (default medium, as humans)"),
			{Type: kit.Integer, Name: "mov", Description: "Base MOV at medium size in m/turn (default 8, humans)", MinValue: kit.Float(1), MaxValue: kit.Float(1000)},
			arcScoreOption("es", "An ES score, or a stat of the sheet: actions a turn"),
			{Type: kit.Integer, Name: "turns", Description: "Distance covered in this many turns", MinValue: kit.Float(1), MaxValue: kit.Float(10000)},
			kit.CharacterOption, arcPrivate,
		}},
	},
}

// registerArc adds /arc, the rules of seed arc (see rules/arc).
func (h *handlers) registerArc(r *kit.Router) {
	r.Define(arcCommand)
	r.Route("arc/check", h.arcCheck, false)
	r.Route("arc/opposed", h.arcOpposed, false)
	r.Route("arc/reaction", h.arcReaction, false)
	r.Route("arc/order", h.arcOrder, false)
	r.Route("arc/move", h.arcMove, false)
	for _, sub := range []string{"check", "opposed", "reaction", "move"} {
		r.RouteAutocomplete("arc/"+sub, "character", h.SuggestCharacters)
	}
	r.RouteAutocomplete("arc/opposed", "target", h.SuggestCharacters)
	r.RouteAutocomplete("arc/check", "threshold", h.arcSuggestThresholds)
	for _, o := range []string{"ks", "us", "es"} {
		r.RouteAutocomplete("arc/check", o, h.arcSuggestStats)
		r.RouteAutocomplete("arc/opposed", o, h.arcSuggestStats)
		r.RouteAutocomplete("arc/opposed", "target_"+o, h.arcSuggestStats)
	}
	r.RouteAutocomplete("arc/move", "es", h.arcSuggestStats)
	for _, o := range []string{"arc/opposed:size", "arc/opposed:target_size", "arc/move:size"} {
		path, opt, _ := strings.Cut(o, ":")
		r.RouteAutocomplete(path, opt, h.arcSuggestSizes)
	}
}
