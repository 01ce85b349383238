package dice

import (
	"slices"
	"strconv"
	"strings"
)

// MaxSuggestLen is the longest text Suggest looks at.
const MaxSuggestLen = 200

// Suggest's work is bounded, as /roll's autocomplete calls it at each
// keystroke: it parses at most maxSuggestTries candidates (a failing parse
// of a long text also looks for a reason in each of its words), and looks
// beyond the error's place only in texts of at most maxSuggestScan bytes.
const (
	maxSuggestTries = 1000
	maxSuggestScan  = 64
)

// suggestEdits are the characters Suggest puts in place of another, most
// likely first: "6x4d6k3" becomes "6#4d6k3" before "6*4d6k3", and
// "2d6x3" "2d6*3". suggestInserts are those it inserts: "1d20 adv"
// becomes "1d20 +adv". Both have the same characters.
const (
	suggestEdits   = "#*+-/()<>=[] dkhlr6012345789"
	suggestInserts = "#+*-/()<>=[] dkhlr6012345789"
)

// Suggest returns an expression one edit away from src (a character
// replaced, inserted or deleted) that parses, for a "did you mean"
// message, or "" when src parses already, is longer than MaxSuggestLen or
// has no such neighbour. Another bot's modifier at the error is written
// as Tablehand's first ("10d10 t8" to "10d10 >=8"). Then it tries edits at the place Parse reports and the
// few characters before it, where the mistake of a left-to-right parse
// lies, nearest first, then everywhere else in a short text; edits that bring in a digit
// come last, as they invent a number the user did not type (a 6 first:
// "2d" gets "2d6"). An edit that makes part of the
// text a reason is passed over (from "2d6x3", "2d6 # 3" would be one): a
// reason must lie after the edit and its separator, as it was in src. So
// is one that makes a name of what was not typed as one ("2d" to "hd",
// "1d20 # attack" to "1d20 - attack"): see namesTyped.
func Suggest(src string) string {
	if len(src) > MaxSuggestLen {
		return ""
	}
	_, err := parse(src)
	se, ok := err.(*SyntaxError)
	if !ok || se.Limit {
		return "" // a limit's error names the limit: no edit rolls what was meant
	}
	tries := maxSuggestTries
	lowered := strings.ToLower(src)
	srcInts := digitRuns(zeroes(src), nil)
	var candInts []string
	try := func(cand string, pos int) bool {
		if tries == 0 {
			return false
		}
		if bringsIn(cand, src, lowered, pos) {
			return false
		}
		tries--
		// Cutting a word short ("2d" to "2") is no correction.
		if t := strings.TrimSpace(cand); len(t) < len(src) && strings.HasPrefix(src, t) && isLetter(src[len(t)]) {
			return false
		}
		if candInts = digitRuns(zeroes(cand), candInts[:0]); !slices.Equal(candInts, srcInts) {
			return false // keepsMeaning would find a number changed, without a parse
		}
		e, err := parseWith(cand, true)
		if err != nil || !namesTyped(e, src) || !keepsMeaning(e, src) {
			return false
		}
		return reasonAfter(e, cand, src, pos)
	}
	if se.Pos > 0 && se.Pos < len(src) && strings.EqualFold(src[se.Pos-1:se.Pos+1], "ra") {
		return "" // Avrae's "ra", reroll and add, which Tablehand does not roll: not "r"
	}
	if s := translate(src, se.Pos); s != "" {
		return s
	}
	// at tries the edits at pos, with or without digits.
	at := func(pos int, digits bool) string {
		// A doubled character ("1d20++5") is most likely typed twice:
		// deleting it comes first.
		if !digits && 0 < pos && pos < len(src) && src[pos] == src[pos-1] {
			if cand := src[:pos] + src[pos+1:]; try(cand, pos) {
				return strings.TrimSpace(cand)
			}
		}
		for i := range len(suggestEdits) {
			if c := suggestEdits[i]; isDigit(c) == digits && pos < len(src) && c != src[pos] {
				if cand := src[:pos] + string(c) + src[pos+1:]; try(cand, pos) {
					return strings.TrimSpace(cand)
				}
			}
		}
		for i := range len(suggestInserts) {
			if c := suggestInserts[i]; isDigit(c) == digits {
				if cand := src[:pos] + string(c) + src[pos:]; try(cand, pos) {
					return strings.TrimSpace(cand)
				}
			}
		}
		if !digits && pos < len(src) {
			if cand := src[:pos] + src[pos+1:]; try(cand, pos) {
				return strings.TrimSpace(cand)
			}
		}
		return ""
	}
	lo := max(0, se.Pos-3)
	for _, digits := range [2]bool{false, true} {
		for pos := min(se.Pos, len(src)); pos >= lo; pos-- {
			if s := at(pos, digits); s != "" {
				return s
			}
		}
	}
	// Then anywhere else in a short text, so that every text one edit
	// away from an expression gets it ("1d6r<7" is two places after its
	// error).
	if len(src) > maxSuggestScan {
		return ""
	}
	for _, digits := range [2]bool{false, true} {
		for pos := len(src); pos >= 0; pos-- {
			if lo <= pos && pos <= se.Pos {
				continue // tried above
			}
			if s := at(pos, digits); s != "" {
				return s
			}
		}
	}
	return ""
}

// translate returns src with the modifier of another bot at pos written
// as Tablehand's, when that parses, or "". (Dice Maiden's "t8" and "ir2"
// parse as they are.)
func translate(src string, pos int) string { return translateAdvantage(src, pos) }

// translateAdvantage reads Avrae's "1d20+5 adv": "adv" or "dis" (or
// spelt out) as the last word of src, at pos, rolls the roll's d20 with
// advantage or disadvantage: "2d20kh1+5". (One edit away, "1d20+5 +adv"
// would add a second d20 roll instead.)
func translateAdvantage(src string, pos int) string {
	word := src[pos:]
	end := 0
	for end < len(word) && isLetter(word[end]) {
		end++
	}
	if strings.TrimSpace(word[end:]) != "" {
		return ""
	}
	keep := ""
	switch strings.ToLower(word[:end]) {
	case "adv", "advantage":
		keep = "kh1"
	case "dis", "disadvantage":
		keep = "kl1"
	default:
		return ""
	}
	base := strings.TrimRightFunc(src[:pos], func(r rune) bool { return r == ' ' || r == '\t' })
	// The first die of 20 sides written alone: "1d20" or "d20", followed
	// by nothing that is part of the term.
	lowered := strings.ToLower(base)
	for i := strings.Index(lowered, "d20"); i >= 0; {
		at, next := i, i+3
		if i > 0 && base[i-1] == '1' && (i == 1 || !isDigit(base[i-2])) {
			at = i - 1
		}
		termStart := at == 0 || !isDigit(base[at-1]) && !isLetter(base[at-1])
		termEnd := next == len(base) || strings.IndexByte(" +-*/)[", base[next]) >= 0
		if termStart && termEnd {
			cand := base[:at] + "2d20" + keep + base[next:]
			if _, err := parse(cand); err == nil {
				return cand
			}
			return ""
		}
		j := strings.Index(lowered[next:], "d20")
		if j < 0 {
			break
		}
		i = next + j
	}
	return ""
}

// namesTyped reports whether every name of e, a correction of src, was
// typed in src as a name: a word that begins with a letter where an
// operand is expected, at the start of src or after an operator or "("
// (with white space between or not).
func namesTyped(e *Expr, src string) bool {
	for i := range e.nodes {
		n := &e.nodes[i]
		if n.kind != nodeName {
			continue
		}
		name, typed := e.src[n.x:n.y], false
		for at := strings.Index(src, name); at >= 0 && !typed; {
			typed = wordEnd(src, at) == at+len(name) && operandAt(src, at)
			next := strings.Index(src[at+1:], name)
			if next < 0 {
				break
			}
			at += 1 + next
		}
		if !typed {
			return false
		}
	}
	return true
}

// operandAt reports whether src[i] begins a word where an operand is
// expected: white space aside, it is the start of src or follows an
// operator or "(".
func operandAt(src string, i int) bool {
	if i > 0 && isWord(src[i-1]) {
		return false
	}
	before := strings.TrimRight(src[:i], " \t\r\n")
	return before == "" || strings.IndexByte("+-*/(", before[len(before)-1]) >= 0
}

// keepsMeaning reports whether e, a correction of src, keeps the meaning
// of everything typed around the mistake: it rolls the dice typed in src,
// term by term, with the same count and sides (a letter o typed for a
// 0 in a number reads as the 0: "1d2o" is "1d20"), and holds no
// operator, sign, repeat or modifier that src does not, but for an x
// typed for "*" or "#" ("2d6x3", "6x4d6"). Parentheses and a label's
// closing bracket may come or go.
func keepsMeaning(e *Expr, src string) bool {
	// A reason stays as it was typed, with what introduced it: the edit
	// made no reason of what was typed as part of the roll.
	end := exprEnd(e)
	typed, ok := strings.CutSuffix(src, e.src[end:])
	if !ok {
		return false
	}
	want, wantTok, xs, wantInts := meaning(zeroes(typed))
	_, gotTok, _, gotInts := meaning(e.src[:end])
	if !slices.Equal(gotInts, wantInts) {
		return false // a number invented, lost, split or joined: "1+2#1d6" is not "12#1d6"
	}
	if len(e.dice) != len(want) {
		return false
	}
	for i := range e.dice {
		if termOf(&e.dice[i]) != want[i] {
			return false
		}
	}
	// A reason with dice in it may be a roll the edit cut off ("1d20
	// [to] hit] 2d6"): no suggestion makes one.
	if terms, _, _, _ := meaning(e.Reason()); len(terms) > 0 {
		return false
	}
	for i := range e.nodes { // and so with a label
		if n := &e.nodes[i]; n.kind == nodeLabel {
			if terms, _, _, _ := meaning(e.src[n.y:n.val]); len(terms) > 0 {
				return false
			}
		}
	}
	for k, n := range gotTok {
		if extra := n - wantTok[k]; extra > 0 {
			if k != tokStar && k != tokHash || extra > xs {
				return false
			}
			xs -= extra
		}
	}
	return true
}

// exprEnd returns where the expression of e ends in its source: before its
// reason and the mark that introduces it.
func exprEnd(e *Expr) int {
	if e.reason[0] == e.reason[1] {
		return len(e.src)
	}
	return len(strings.TrimRight(e.src[:e.reason[0]], " \t\r\n#!"))
}

// zeroes returns src with each letter o that ends a number written 0.
func zeroes(src string) string {
	b := []byte(src)
	for i := 1; i < len(b); i++ {
		if b[i]|0x20 == 'o' && isDigit(b[i-1]) && (i+1 == len(b) || !isLetter(b[i+1])) {
			b[i] = '0'
		}
	}
	return string(b)
}

// termOf returns the term of d as meaning reads it.
func termOf(d *diceSpec) term {
	t := term{count: strconv.Itoa(int(d.count)), sides: strconv.Itoa(int(d.sides))}
	switch d.kind {
	case diceD:
		t.kind = tokDice
	case diceV:
		t.kind = tokV
	case diceFudge:
		t.kind, t.sides = tokFudge, ""
	case diceAdv:
		t.kind, t.count, t.sides = tokAdv, "1", ""
	case diceDis:
		t.kind, t.count, t.sides = tokDis, "1", ""
	case diceDet:
		t.kind, t.count, t.sides = tokDet, "1", ""
	}
	return t
}

// term is a dice term as typed: its count, kind and sides; sides is -1
// when none were typed ("2d").
type term struct {
	kind         tokenKind
	count, sides string
}

// meaning reads src token by token, as far as it scans: the dice terms
// it names, how often each operator and modifier appears, how many x's
// stand for an operator (an x typed for "*" or "#"), and its numbers. A
// word that is a name is passed over.
func meaning(src string) (terms []term, toks map[tokenKind]int, xs int, ints []string) {
	toks = map[tokenKind]int{}
	sc := scanner{src: src}
	count := ""
	for {
		t := sc.scan()
		if t.kind == tokLabel && !strings.HasSuffix(t.text, "]") {
			sc.pos = t.pos + 1 // an unclosed label: what follows is read too
			continue
		}
		if (t.text == "x" || t.text == "X") && t.pos+1 < len(src) && isDigit(src[t.pos+1]) {
			xs++ // "6x4d6", "2d6x3": an x typed for "#" or "*"
			sc.pos, count = t.pos+1, ""
			continue
		}
		if t.kind != tokV && t.text != "" && isLetter(t.text[0]) && (t.pos == 0 || !isWord(src[t.pos-1])) {
			if end := wordEnd(src, t.pos); !readsAsDice(src[t.pos:end]) {
				sc.pos, count = end, ""
				if strings.EqualFold(src[t.pos:end], "x") {
					xs++
				}
				if hasDiceIn(src[t.pos:end]) {
					terms = append(terms, term{kind: tokName}) // "h200d100": dice typed into a word
				}
				continue
			}
		}
		switch t.kind {
		case tokEOF:
			return terms, toks, xs, ints
		case tokInt:
			count = t.text
			toks[tokInt]++
			ints = append(ints, number(t.text))
			continue
		case tokDice, tokV:
			tm := term{kind: t.kind, count: number(count), sides: "-1"}
			save := sc
			switch n := sc.scan(); {
			case n.kind == tokInt:
				tm.sides = number(n.text)
			case n.kind == tokPercent && t.kind == tokDice:
				tm.sides = "100"
			default:
				sc = save
			}
			if tm.count == "" && count == "" {
				tm.count = "1"
			}
			terms = append(terms, tm)
		case tokFudge, tokAdv, tokDis, tokDet:
			c := number(count)
			if count == "" || t.kind != tokFudge {
				c = "1"
			}
			terms = append(terms, term{kind: t.kind, count: c})
		case tokIllegal, tokLabel, tokLParen, tokRParen, tokName, tokPercent:
		default:
			toks[t.kind]++
		}
		count = ""
	}
}

// number returns the digits s without leading zeros ("0" for zero), or
// "" for "".
func number(s string) string {
	if t := strings.TrimLeft(s, "0"); t != "" || s == "" {
		return t
	}
	return "0"
}

// hasDiceIn reports whether word holds a digit, a d and a digit in a
// row, as "h200d100" does.
func hasDiceIn(word string) bool {
	for i := 1; i+1 < len(word); i++ {
		if word[i]|0x20 == 'd' && isDigit(word[i-1]) && isDigit(word[i+1]) {
			return true
		}
	}
	return false
}

// digitRuns appends the runs of digits in s to runs, each without its
// leading zeros, and returns it.
func digitRuns(s string, runs []string) []string {
	for i := 0; i < len(s); {
		if !isDigit(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && isDigit(s[j]) {
			j++
		}
		runs = append(runs, number(s[i:j]))
		i = j
	}
	return runs
}

// bringsIn reports whether cand, src edited at pos, brings in an operator
// or a modifier's letter that src (lowered, in lower case) lacks, which
// changes the roll (see keepsMeaning): not worth a parse.
func bringsIn(cand, src, lowered string, pos int) bool {
	if len(cand) > len(src) || len(cand) == len(src) && pos < len(cand) && cand[pos] != src[pos] {
		c := cand[pos] | 0x20
		return strings.IndexByte("+-/<>=dkhlr", c) >= 0 && strings.IndexByte(lowered, c) < 0 ||
			(c == '*' || c == '#') && strings.IndexAny(lowered, "*#x") < 0
	}
	return false
}

// reasonAfter reports whether the reason of e, which parsed cand, src
// edited at pos, lies after the edit and its separator, as it was in
// src; true without a reason.
func reasonAfter(e *Expr, cand, src string, pos int) bool {
	if e.reason[1] == e.reason[0] {
		return true
	}
	sep := int(e.reason[0]) - 1 // the white space before a word
	if c := strings.TrimRight(cand[:e.reason[0]], " \t\r\n"); strings.HasSuffix(c, "#") || strings.HasSuffix(c, "!") {
		sep = len(c) - 1
	}
	return pos < sep && strings.HasSuffix(src, e.Reason())
}
