package dice

import (
	"strconv"
	"unicode/utf8"
)

// tokenKind identifies a token. An operator or modifier prints as its
// canonical spelling, the one the normal form uses.
type tokenKind uint8

const (
	tokEOF tokenKind = iota
	tokIllegal
	tokInt
	tokDice    // d
	tokFudge   // dF
	tokV       // v:, the dice of seed 002
	tokPercent // % as in d%
	tokAdv     // adv: 2d20kh1
	tokDis     // dis: 2d20kl1
	tokDet     // det: 4d20kl1
	tokLParen
	tokRParen
	tokLabel // [text]
	tokHash  // # as in 6#4d6
	tokName  // a name, as in 1d20+som: its value comes from the roll's Lookup

	// Binary operators, ranked by precedence.
	tokPlus
	tokMinus
	tokStar
	tokSlash

	// Modifiers after a dice term.
	tokKeepHigh   // kh, or k
	tokKeepLow    // kl
	tokDropHigh   // dh
	tokDropLow    // dl
	tokReroll     // r
	tokRerollOnce // ro
	tokMin        // mi
	tokMax        // ma
	tokExplode    // !
	tokCompound   // !!
	tokExplodeAt  // e or ie, as in Dice Maiden's 4d6 e6: explode at or above
	tokFail       // f
	tokTarget     // t, as in Dice Maiden's 10d10 t8: successes at or above
	tokRerollUpTo // ir, as in Dice Maiden's 4d6 ir2: reroll at or below, again and again
	tokEq         // =
	tokLess       // <
	tokLessEq     // <=
	tokGreater    // >
	tokGreaterEq  // >=
)

var tokenNames = [...]string{
	tokEOF:        "end of expression",
	tokIllegal:    "illegal",
	tokInt:        "integer",
	tokDice:       "d",
	tokFudge:      "dF",
	tokV:          "v:",
	tokPercent:    "%",
	tokAdv:        "adv",
	tokDis:        "dis",
	tokDet:        "det",
	tokLParen:     "(",
	tokRParen:     ")",
	tokLabel:      "label",
	tokHash:       "#",
	tokName:       "name",
	tokPlus:       "+",
	tokMinus:      "-",
	tokStar:       "*",
	tokSlash:      "/",
	tokKeepHigh:   "kh",
	tokKeepLow:    "kl",
	tokDropHigh:   "dh",
	tokDropLow:    "dl",
	tokReroll:     "r",
	tokRerollOnce: "ro",
	tokMin:        "mi",
	tokMax:        "ma",
	tokExplode:    "!",
	tokCompound:   "!!",
	tokExplodeAt:  "e",
	tokFail:       "f",
	tokTarget:     "t",
	tokRerollUpTo: "ir",
	tokEq:         "=",
	tokLess:       "<",
	tokLessEq:     "<=",
	tokGreater:    ">",
	tokGreaterEq:  ">=",
}

func (k tokenKind) String() string {
	if int(k) < len(tokenNames) {
		return tokenNames[k]
	}
	return "token(" + strconv.Itoa(int(k)) + ")"
}

// precedence ranks binary operators, higher binding tighter; 0 is not one.
func (k tokenKind) precedence() int {
	switch k {
	case tokPlus, tokMinus:
		return 1
	case tokStar, tokSlash:
		return 2
	}
	return 0
}

func (k tokenKind) isKeep() bool       { return tokKeepHigh <= k && k <= tokDropLow }
func (k tokenKind) isComparison() bool { return tokEq <= k && k <= tokGreaterEq }

// startsOperand reports whether a token of kind k can begin an operand,
// and so a new part after a label.
func (k tokenKind) startsOperand() bool {
	switch k {
	case tokInt, tokDice, tokFudge, tokV, tokAdv, tokDis, tokDet, tokLParen, tokMinus:
		return true
	}
	return false
}

type token struct {
	kind tokenKind
	pos  int // byte offset in the source
	text string
}

func (t token) String() string {
	switch {
	case t.kind == tokEOF:
		return t.kind.String()
	case !strconv.CanBackquote(t.text):
		// A control character or a broken UTF-8 sequence, shown escaped.
		return strconv.QuoteToASCII(t.text)
	}
	return "'" + t.text + "'"
}

func isDigit(c byte) bool  { return '0' <= c && c <= '9' }
func isLetter(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }
func isSpace(c byte) bool  { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// isWord reports whether c may be part of a name: a letter, a digit or '_'.
func isWord(c byte) bool { return isLetter(c) || isDigit(c) || c == '_' }

// wordEnd returns where the run of word characters that begins at
// src[i] ends.
func wordEnd(src string, i int) int {
	for i < len(src) && isWord(src[i]) {
		i++
	}
	return i
}

// readsAsDice reports whether word, a run of word characters that begins
// with a letter, reads as dice syntax where an operand is expected, and
// so is not a name:
//
//   - the scanner reads a number in it before any character that is no
//     keyword ("d6", "d20kh1", "e6"; "d6x", a mistyped die), or it is
//     "v:20" without its colon ("v20");
//   - it is one keyword ("d", "kh", "e", "r", "mi"), or keywords that are
//     dice alone or after a die ("adv", "dF", "dFkh"; "khe", as in
//     "4d6khe").
//
// "dex" is a name, as "x" is no keyword; so are "def" and "fed", all
// keywords but dice syntax neither alone nor after a die.
func readsAsDice(word string) bool {
	if lower(word, 0) == 'v' && len(word) > 1 && isDigit(word[1]) {
		return true // "v20": the dice of seed 002, "v:20", without the colon
	}
	s := scanner{src: word}
	for tokens := 0; ; tokens++ {
		switch s.scan().kind {
		case tokInt:
			return true
		case tokIllegal:
			return false
		case tokEOF:
			return tokens == 1 || parsesAsDice(word) || parsesAsDice("1d6"+word)
		}
	}
}

// parsesAsDice reports whether src parses with no names in it.
func parsesAsDice(src string) bool {
	p := parser{src: src, sc: scanner{src: src}, noNames: true, quiet: true}
	return p.parseRoll() == nil
}

// Reserved reports whether name can never be read as a name in an
// expression, because it reads as dice syntax (see readsAsDice): "d",
// "kh", "dF", "adv", "e", "r", "d6", "khe". A name is a letter,
// then letters, digits and '_'; any other text is reserved too. A
// character sheet should refuse such a name for a stat, as no roll could
// read it.
func Reserved(name string) bool {
	return name == "" || !isLetter(name[0]) || wordEnd(name, 0) != len(name) || readsAsDice(name)
}

// scanner splits an expression into tokens, one per call to scan. It works
// on bytes: every token but an illegal one is ASCII, and a label's text is
// taken whole. A scanner is a small value, so the parser backtracks by
// copying it, or peeks at the next byte.
type scanner struct {
	src string
	pos int
}

// peek returns the first byte of the next token, or 0 at the end.
func (s *scanner) peek() byte {
	for i := s.pos; i < len(s.src); i++ {
		if !isSpace(s.src[i]) {
			return s.src[i]
		}
	}
	return 0
}

// scan returns the next token. A run of letters may hold several
// keywords, so "4dFkh3" scans as 4, dF, kh, 3: the scanner takes the
// longest keyword that starts the run, and a run that starts with none is
// one illegal token, so an error names the whole word.
func (s *scanner) scan() token {
	src := s.src
	i := s.pos
	for i < len(src) && isSpace(src[i]) {
		i++
	}
	start := i
	if i == len(src) {
		s.pos = i
		return token{kind: tokEOF, pos: i}
	}
	kind := tokIllegal
	c := src[i]
	i++
	switch {
	case isDigit(c):
		for i < len(src) && isDigit(src[i]) {
			i++
		}
		kind = tokInt
	case isLetter(c):
		var n int
		if kind, n = keyword(src[start:]); n > 0 {
			i = start + n
		} else {
			for i < len(src) && isLetter(src[i]) {
				i++
			}
		}
	case c == '[':
		// To the closing bracket, or to the end: the parser tells an
		// unclosed label by its missing ']'.
		for i < len(src) && src[i] != ']' {
			i++
		}
		if i < len(src) {
			i++
		}
		kind = tokLabel
	case c == '!':
		kind = tokExplode
		if i < len(src) && src[i] == '!' {
			i++
			kind = tokCompound
		}
	case c == '<':
		kind = tokLess
		if i < len(src) && src[i] == '=' {
			i++
			kind = tokLessEq
		}
	case c == '>':
		kind = tokGreater
		if i < len(src) && src[i] == '=' {
			i++
			kind = tokGreaterEq
		}
	case c == '=':
		kind = tokEq
	case c == '%':
		kind = tokPercent
	case c == '(':
		kind = tokLParen
	case c == ')':
		kind = tokRParen
	case c == '+':
		kind = tokPlus
	case c == '-':
		kind = tokMinus
	case c == '*':
		kind = tokStar
	case c == '/':
		kind = tokSlash
	case c == '#':
		kind = tokHash
	case c >= utf8.RuneSelf:
		// One illegal rune, whole, for the error message.
		_, w := utf8.DecodeRuneInString(src[start:])
		i = start + w
	}
	s.pos = i
	return token{kind: kind, pos: start, text: src[start:i]}
}

// keyword returns the longest keyword that begins s, which begins with a
// letter, and its length; 0 when there is none.
func keyword(s string) (tokenKind, int) {
	switch lower(s, 0) {
	case 'd':
		switch lower(s, 1) {
		case 'f':
			return tokFudge, 2
		case 'h':
			return tokDropHigh, 2
		case 'l':
			return tokDropLow, 2
		case 'i':
			if hasWord(s, "disadvantage") {
				return tokDis, 12
			}
			if lower(s, 2) == 's' {
				return tokDis, 3
			}
		case 'e':
			if hasWord(s, "detriment") {
				return tokDet, 9
			}
			if lower(s, 2) == 't' {
				return tokDet, 3
			}
		}
		return tokDice, 1
	case 'a':
		if hasWord(s, "advantage") {
			return tokAdv, 9
		}
		if lower(s, 1) == 'd' && lower(s, 2) == 'v' {
			return tokAdv, 3
		}
	case 'p':
		// Avrae's drop: "pl1" drops the lowest, "ph1" the highest.
		switch lower(s, 1) {
		case 'l':
			return tokDropLow, 2
		case 'h':
			return tokDropHigh, 2
		}
	case 't':
		return tokTarget, 1
	case 'k':
		switch lower(s, 1) {
		case 'h':
			return tokKeepHigh, 2
		case 'l':
			return tokKeepLow, 2
		}
		return tokKeepHigh, 1
	case 'r':
		switch lower(s, 1) {
		case 'o':
			return tokRerollOnce, 2
		case 'r':
			return tokReroll, 2 // Avrae's "rr": reroll again and again
		}
		return tokReroll, 1
	case 'm':
		switch lower(s, 1) {
		case 'i':
			return tokMin, 2
		case 'a':
			return tokMax, 2
		}
	case 'f':
		return tokFail, 1
	case 'e':
		return tokExplodeAt, 1
	case 'i':
		switch lower(s, 1) {
		case 'e':
			return tokExplodeAt, 2
		case 'r':
			return tokRerollUpTo, 2
		}
	case 'v':
		if len(s) > 1 && s[1] == ':' {
			return tokV, 2
		}
	}
	return tokIllegal, 0
}

// lower returns s[i] in lower case if it is a letter, and 0 otherwise.
func lower(s string, i int) byte {
	if i < len(s) && isLetter(s[i]) {
		return s[i] | 0x20
	}
	return 0
}

// hasWord reports whether s begins with word, which is lower case, in any case.
func hasWord(s, word string) bool {
	if len(s) < len(word) {
		return false
	}
	for i := range len(word) {
		if lower(s, i) != word[i] {
			return false
		}
	}
	return true
}
