package dice

import "fmt"

// readings are notations an expression holds that another bot reads
// otherwise: where the same letters mean two things, Tablehand chose one,
// and [Expr.Readings] says which, for the reply to say it too.
type readings uint8

const (
	readStrict    readings = 1 << iota // ">8" or "<3" in a condition: strict, as in Avrae; Roll20's includes the number
	readRerollEq                       // "r1": reroll each 1 again and again, as in Roll20; Dice Maiden's rerolls 1 and below once
	readExplodeAt                      // "e6": explode on 6 and above, again on each new one; Dice Maiden's explodes once
)

// Readings returns, for each notation of e that another bot reads
// otherwise, a line saying how Tablehand read it and how to write the
// other reading: "`>8` counts 9 and up...". Nil when there is none.
func (e *Expr) Readings() []string {
	var out []string
	if e.notes&readStrict != 0 {
		out = append(out, "`>` and `<` leave out their number here, as in Avrae: `>8` is 9 and up. Roll20's `>8` (8 and up) is `>=8` here.")
	}
	if e.notes&readRerollEq != 0 {
		n := e.firstSpec(func(d diceSpec) bool { return !d.once && d.reroll.op == tokEq }).reroll.n
		out = append(out, fmt.Sprintf("`r%[1]d` rerolls each %[1]d again and again here, as in Roll20. Dice Maiden's `r%[1]d` (%[1]d and below, once) is `ro<=%[1]d` here.", n))
	}
	if e.notes&readExplodeAt != 0 {
		n := e.firstSpec(func(d diceSpec) bool { return d.explode.op == tokGreaterEq }).explode.n
		out = append(out, fmt.Sprintf("`e%[1]d` explodes on %[1]d and up, again on each new one, as Dice Maiden's `ie%[1]d` does; Dice Maiden's `e%[1]d` explodes once, which Tablehand does not roll, and Avrae's explodes on %[1]d alone (`!=%[1]d` here).", n))
	}
	return out
}

// firstSpec is the first dice term of e that is, by the parse that noted
// a reading, one of them.
func (e *Expr) firstSpec(is func(diceSpec) bool) diceSpec {
	for _, d := range e.dice {
		if is(d) {
			return d
		}
	}
	return diceSpec{}
}
