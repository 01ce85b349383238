package dice

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// tokenKind identifies a token. An operator or modifier prints as its
// canonical spelling, the one the normal form uses.
type tokenKind int

const (
	tokEOF tokenKind = iota
	tokIllegal
	tokInt
	tokDice    // d
	tokPercent // % as in d%
	tokLParen
	tokRParen

	// Binary operators, ranked by precedence.
	tokPlus
	tokMinus
	tokStar
	tokSlash

	// Modifiers after a dice term.
	tokKeepHigh // kh, or k
	tokKeepLow  // kl
	tokDropHigh // dh
	tokDropLow  // dl
)

var tokenNames = [...]string{
	tokEOF:      "end of expression",
	tokIllegal:  "illegal",
	tokInt:      "integer",
	tokDice:     "d",
	tokPercent:  "%",
	tokLParen:   "(",
	tokRParen:   ")",
	tokPlus:     "+",
	tokMinus:    "-",
	tokStar:     "*",
	tokSlash:    "/",
	tokKeepHigh: "kh",
	tokKeepLow:  "kl",
	tokDropHigh: "dh",
	tokDropLow:  "dl",
}

func (k tokenKind) String() string {
	if 0 <= k && int(k) < len(tokenNames) {
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

func (k tokenKind) isModifier() bool { return tokKeepHigh <= k && k <= tokDropLow }

// keywords holds the words the language knows, lower case. A run of
// letters is one word, so "4d6dl1" scans as 4, d, 6, dl, 1; later
// modifiers (r, adv, dF) are new entries here, not new scanning code.
var keywords = map[string]tokenKind{
	"d":  tokDice,
	"k":  tokKeepHigh,
	"kh": tokKeepHigh,
	"kl": tokKeepLow,
	"dh": tokDropHigh,
	"dl": tokDropLow,
}

type token struct {
	kind tokenKind
	pos  int // byte offset in the source
	text string
}

func (t token) String() string {
	if t.kind == tokEOF {
		return t.kind.String()
	}
	return "'" + t.text + "'"
}

const (
	eof     = -1
	digits  = "0123456789"
	letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	spaces  = " \t\r\n"
)

// scanner splits an expression into tokens, one per call to scan.
type scanner struct {
	src   string
	pos   int
	width int // of the last rune read, for backup
}

func (s *scanner) next() rune {
	if s.pos >= len(s.src) {
		s.width = 0
		return eof
	}
	r, w := utf8.DecodeRuneInString(s.src[s.pos:])
	s.width = w
	s.pos += w
	return r
}

// backup steps back over the last rune read; only once per next.
func (s *scanner) backup() { s.pos -= s.width }

func (s *scanner) accept(valid string) bool {
	if strings.ContainsRune(valid, s.next()) {
		return true
	}
	s.backup()
	return false
}

func (s *scanner) acceptRun(valid string) {
	for strings.ContainsRune(valid, s.next()) {
	}
	s.backup()
}

func (s *scanner) scan() token {
	s.acceptRun(spaces)
	start := s.pos
	kind := tokIllegal
	switch {
	case s.accept(digits):
		s.acceptRun(digits)
		kind = tokInt
	case s.accept(letters):
		s.acceptRun(letters)
		if k, ok := keywords[strings.ToLower(s.src[start:s.pos])]; ok {
			kind = k
		}
	default:
		switch s.next() {
		case eof:
			kind = tokEOF
		case '%':
			kind = tokPercent
		case '(':
			kind = tokLParen
		case ')':
			kind = tokRParen
		case '+':
			kind = tokPlus
		case '-':
			kind = tokMinus
		case '*':
			kind = tokStar
		case '/':
			kind = tokSlash
		}
	}
	return token{kind: kind, pos: start, text: s.src[start:s.pos]}
}
