package dice

import (
	"slices"
	"strings"
)

// Doubt is what a roll's reason holds that looks like part of the roll,
// which a player may have meant to roll: see [Expr.ReasonDoubt].
type Doubt struct {
	Word   string // the word or dice term, as typed: "adv", "+1d4", "str"
	Rolled string // the roll that takes it in, with the rest as reason: "1d20 + 5 + 1d4 # to hit, with bless"; "" when none can (adv without a lone d20)
	Words  string // the roll that keeps the reason as words: "1d20 + 5 # to hit, with bless +1d4"
}

// ReasonDoubt returns what e's reason, when white space introduced it
// (not "#" nor " ! ", which say the rest is words), holds that a player
// may have meant to roll: a dice term ("1d20+5 to hit, with bless
// +1d4"), advantage or disadvantage ("1d20+5 to hit adv"), or, when
// isStat says its first word is a stat of the roller's sheet, that stat
// ("1d20 str"). ok is false when there is no such doubt.
func (e *Expr) ReasonDoubt(isStat func(string) bool) (d Doubt, ok bool) {
	reason := e.Reason()
	if reason == "" || strings.ContainsAny(e.src[exprEnd(e):e.reason[0]], "#!") {
		return Doubt{}, false
	}
	roll := e.text
	if i := strings.LastIndex(roll, " # "); i >= 0 {
		roll = roll[:i]
	} else if i := strings.LastIndex(roll, " ! "); i >= 0 {
		roll = roll[:i]
	}
	d.Words = roll + " # " + reason
	withRest := func(rolled, rest string) string {
		if rest = strings.TrimSpace(rest); rest != "" {
			return rolled + " # " + rest
		}
		return rolled
	}
	words := strings.Fields(reason)
	if isStat != nil && isStat(strings.ToLower(words[0])) {
		d.Word = words[0]
		d.Rolled = withRest(roll+" + "+strings.ToLower(words[0]), strings.TrimPrefix(reason, words[0]))
		return d, true
	}
	for i, w := range words {
		// rest is the reason without w.
		rest := func() string { return strings.Join(slices.Delete(slices.Clone(words), i, i+1), " ") }
		lw := strings.ToLower(strings.Trim(w, ",.;:"))
		switch lw {
		case "adv", "advantage", "dis", "disadvantage":
			d.Word = w
			if s := translateAdvantage(roll+" "+lw, len(roll)+1); s != "" {
				d.Rolled = withRest(s, rest())
			}
			return d, true
		}
		if terms, _, _, _ := meaning(w); len(terms) > 0 && readsAsDiceTerm(w) {
			d.Word = w
			term := strings.TrimLeft(w, "+-")
			sign := " + "
			if strings.HasPrefix(w, "-") {
				sign = " - "
			}
			d.Rolled = withRest(roll+sign+term, rest())
			return d, true
		}
	}
	return Doubt{}, false
}

// readsAsDiceTerm reports whether w, a word of a reason, is a dice term
// with a sign or none: "+1d4", "2d6", "d8".
func readsAsDiceTerm(w string) bool {
	t := strings.TrimRight(strings.TrimLeft(w, "+-"), ",.;:")
	if t == "" {
		return false
	}
	e, err := parseWith(t, true)
	return err == nil && len(e.dice) == 1 && len(e.nodes) == 1
}
