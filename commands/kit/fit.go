package kit

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"
)

// diceList is the list of dice a roll shows in parentheses after its
// expression, as rules/dice renders it: "(6, 5, ~~2~~, 4)", "(6!, 3)",
// "(~~1~~→5, **20**)". Each die is digits with the marks of the dice
// language (struck, bold, underlined, exploded, replaced, clamped,
// compounded, Fudge).
var diceList = regexp.MustCompile(`\((` + dieItem + `(?:, ` + dieItem + `)*)\)`)

const dieItem = `[-+~*_!→↑↓]*[0-9][-+~*_!→↑↓0-9]*`

// Shorten fits text into limit characters, keeping what a reply must never
// lose: the expression and the total of every roll it shows. Where text
// is too long it first shows fewer dice in each list of dice, the same
// number in each, as many as fit: "1000d6 (3, 5, 1, … and 940 more
// dice) = 3541"; then each list as its count alone, "(1000 dice)"; then
// none. Only text that is still too long is cut, with TruncNote. It
// reports whether it changed text.
func Shorten(text string, limit int) (string, bool) {
	if utf8.RuneCountInString(text) <= limit {
		return text, false
	}
	lists := diceList.FindAllStringSubmatchIndex(text, -1)
	if len(lists) > 0 {
		most := 0
		for _, l := range lists {
			most = max(most, strings.Count(text[l[2]:l[3]], ", ")+1)
		}
		// The largest k (dice kept per list) that fits, by bisection.
		lo, hi := -1, most-1 // keep(-1) drops the lists; keep(most) is text
		for lo < hi {
			k := (lo + hi + 1) / 2
			if utf8.RuneCountInString(keepDice(text, lists, k)) <= limit {
				lo = k
			} else {
				hi = k - 1
			}
		}
		if s := keepDice(text, lists, lo); utf8.RuneCountInString(s) <= limit {
			return s, true
		}
		text = keepDice(text, lists, -1)
	}
	return Truncate(text, limit, TruncNote), true
}

// keepDice rewrites each dice list of text (lists, as found by diceList)
// to show its first k dice and how many more there are; k 0 shows the
// count alone, and k -1 drops the list.
func keepDice(text string, lists [][]int, k int) string {
	var b strings.Builder
	last := 0
	for _, l := range lists {
		dice := strings.Split(text[l[2]:l[3]], ", ")
		if len(dice) <= k {
			continue
		}
		start := l[0]
		if k < 0 && start > 0 && text[start-1] == ' ' {
			start-- // "4d6 (…) = 14" becomes "4d6 = 14"
		}
		b.WriteString(text[last:start])
		switch {
		case k < 0:
		case k == 0:
			fmt.Fprintf(&b, "(%d dice)", len(dice))
		default:
			fmt.Fprintf(&b, "(%s, … and %d more %s)", strings.Join(dice[:k], ", "), len(dice)-k, plural(len(dice)-k, "die", "dice"))
		}
		last = l[1]
	}
	b.WriteString(text[last:])
	return b.String()
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
