package dice

import (
	"errors"
	"os"
	"slices"
	"strings"
	"testing"
)

// Notations players bring from other bots: Avrae's and Dice Maiden's
// trailing reasons, Dice Maiden's "N expr" repeat and "e6" explosion.
func TestNotations(t *testing.T) {
	checkNormalForms(t, []normalForm{
		{"reason after white space (Avrae)", "1d20+5 to hit", "1d20 + 5 # to hit", "to hit"},
		{"reason after #", "1d20+5 # attack", "1d20 + 5 # attack", "attack"},
		{"reason after # without space after", "1d20+5 #attack", "1d20 + 5 # attack", "attack"},
		{"reason after # without space before", "1d20+5# attack", "1d20 + 5 # attack", "attack"},
		{"reason after ! (Dice Maiden)", "1d20+5 ! attack", "1d20 + 5 # attack", "attack"},
		{"spaced ! is a reason, not an explosion", "3d6 ! fire", "3d6 # fire", "fire"},
		{"! against the term still explodes", "3d6! fire", "3d6! # fire", "fire"},
		{"reason of a word that starts like a modifier", "4d6 kill it", "4d6 # kill it", "kill it"},
		{"reason trimmed", "1d20   #   sneak  attack  ", "1d20 # sneak  attack", "sneak  attack"},
		{"reason after labelled parts", "1d20+5 [hit] 2d6 [dmg] # sneak attack", "1d20 + 5 [hit] 2d6 [dmg] # sneak attack", "sneak attack"},
		{"reason after a word-led label part", "1d20 [a] to hit", "1d20 [a] # to hit", "to hit"},
		{"reason of a number", "5 to hit", "5 ! to hit", "to hit"},
		{"normal form parses back", "5 ! to hit", "5 ! to hit", "to hit"},
		{"5 # to hit is 5 with a reason too", "5 # to hit", "5 ! to hit", "to hit"},
		{"after a number, ' # ' would be a repeat", "1 ! 0", "1 ! 0", "0"},
		{"a repeat of a number", "2#5 # x", "2#5 # x", "x"},
		{"a number part after a label", "1d20 [a] 5 to hit", "1d20 [a] 5 ! to hit", "to hit"},
		{"reason may hold brackets and #", "1d20 # a [b] # c", "1d20 # a [b] # c", "a [b] # c"},
		{"reason in any script", "1d20 привет", "1d20 # привет", "привет"},
		{"repeat with a space (Dice Maiden)", "6 4d6k3", "6#4d6kh3", ""},
		{"repeat with a space and a reason", "6 4d6k3 stats", "6#4d6kh3 # stats", "stats"},
		{"count and die apart stay one term", "4 d6", "4d6", ""},
		{"explode at or above (Dice Maiden)", "4d6 e6", "4d6!>=6", ""},
		{"explode at or above 5", "4d6e5", "4d6!>=5", ""},
		{"indefinite explode", "4d10ie9", "4d10!>=9", ""},
		{"e alone explodes on the highest face", "3d6e", "3d6!", ""},
		{"e with keep", "4d6e6kh3", "4d6!>=6kh3", ""},
	})
}

// normalForm is a text that parses, its normal form and its reason.
type normalForm struct{ name, input, want, reason string }

// checkNormalForms checks that each text parses to its normal form and
// reason.
func checkNormalForms(t *testing.T, tests []normalForm) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := Parse(tt.input)
			if err != nil {
				t.Fatalf("Parse(%q): %v", tt.input, err)
			}
			if got := e.String(); got != tt.want {
				t.Errorf("Parse(%q) = %q, want %q", tt.input, got, tt.want)
			}
			if got := e.Reason(); got != tt.reason {
				t.Errorf("Parse(%q).Reason() = %q, want %q", tt.input, got, tt.reason)
			}
		})
	}
}

func TestNotationErrors(t *testing.T) {
	tests := []struct{ name, input, want string }{
		// A word that is an expression is a forgotten operator, not a reason.
		{"alias after a term", "1d20 adv", "unexpected 'adv' at column 6"},
		{"die after a term", "1d20 d6", "unexpected 'd' at column 6"},
		{"misplaced repeat", "1+2#1d6", "unexpected '#' at column 4"},
		{"another bot's unknown modifier is no reason", "10d10 x8", "unexpected 'x' at column 7"},
		{"drop as many dice as rolled is no drop", "2d6d6", "unexpected 'd' at column 4"},
		{"empty reason", "1d20 #", "unexpected '#' at column 6"},
		{"reason not led by a letter", "1d20 + 5 +", "unexpected end of expression at column 11"},
		{"control character in a reason", "1d20 # a\x00b", "unexpected '#' at column 6"},
		{"reason too long", "1d20 # " + repeatText("a", MaxReasonLen+1), "reason too long: a reason holds at most 100 characters, and this one has 101 (shorten it, as in 1d20+5 to hit) at column 8"},
		{"reason too long after a space", "1d20+5 to " + repeatText("hit ", 25), "reason too long: a reason holds at most 100 characters, and this one has 102 (shorten it, as in 1d20+5 to hit) at column 8"},
		{"incomplete expression before a reason", "1d20+ # to hit", "unexpected '#' at column 7"},
		{"explosion twice", "3d6!e5", "unexpected 'e' at column 5"},
		{"e on every face", "1d6e1", "'e1' explodes on every face of a d6: it would never stop at column 4"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(tt.input)
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("Parse(%q) error = %v, want a *SyntaxError", tt.input, err)
			}
			if got := err.Error(); got != tt.want {
				t.Errorf("Parse(%q) error = %q, want %q", tt.input, got, tt.want)
			}
		})
	}
}

func repeatText(s string, n int) string {
	b := make([]byte, 0, n*len(s))
	for range n {
		b = append(b, s...)
	}
	return string(b)
}

// A reason never changes the total, and the dice: values go to the dice
// in order whatever the notation.
func TestNotationsRoll(t *testing.T) {
	tests := []struct {
		input, bare string
		values      []int
		total       int
		render      string
	}{
		{"1d20+5 to hit", "1d20+5", []int{14}, 19, "to hit: 1d20 (14) + 5 = 19"},
		{"1d20+5 ! attack", "1d20+5", []int{3}, 8, "attack: 1d20 (3) + 5 = 8"},
		{"2d6+3 # *bold* @everyone", "2d6+3", []int{4, 5}, 12, `\*bold\* \@everyone: 2d6 (4, 5) + 3 = 12`},
		{"2 1d20+1 twice", "2#1d20+1", []int{10, 20}, 32, "twice:\n1d20 (10) + 1 = 11\n1d20 (**20**) + 1 = 21"},
		{"4d6 e5", "4d6!>=5", []int{5, 6, 1, 2, 3, 4}, 21, "4d6!>=5 (5!, 6!, 1, 2, 3, 4) = 21"},
		{"1d20 [a # b] + 2 # c", "1d20 [a # b] + 2", []int{7}, 9, "c: 1d20 (7) [a # b] + 2 = 9"},
	}
	for _, tt := range tests {
		t.Run(tt.input, func(t *testing.T) {
			res := rollWith(t, tt.input, tt.values)
			checkResult(t, res)
			bare := rollWith(t, tt.bare, tt.values)
			if res.Total != tt.total || bare.Total != tt.total {
				t.Errorf("Total = %d, without the reason %d; want %d", res.Total, bare.Total, tt.total)
			}
			if want := mustParse(t, tt.input).Reason(); res.Reason() != want {
				t.Errorf("Result.Reason() = %q, want Parse's %q", res.Reason(), want)
			}
			if got := res.String(); got != tt.render {
				t.Errorf("String() = %q, want %q", got, tt.render)
			}
		})
	}
}

func TestSuggest(t *testing.T) {
	tests := []struct{ input, want string }{
		{"6x4d6k3", "6#4d6k3"},
		{"2d6x3", "2d6*3"},
		{"(1d20+5))", "(1d20+5)"},
		{"1d20+(5", "1d20+(5)"},
		{"1d20 + 5 +", "1d20 + 5"},
		{"d20+", "d20"},
		{"1d20++5", "1d20+5"},   // a doubled character is deleted first
		{"1d20 adv", "2d20kh1"}, // Avrae's advantage after the roll
		{"1d20+5 adv", "2d20kh1+5"},
		{"d20 + 3 DIS", "2d20kl1 + 3"},
		{"1d20+1d4 advantage", "2d20kh1+1d4"},
		{"11d20 adv", ""}, // not a lone d20, and "+adv" would roll two d20 more
		{"2d6 adv", ""},   // no d20, and "+adv" would roll two d20 more
		{"2d", ""},        // unfinished: which die was meant is not typed
		{"1+2#1d6", ""},   // "1+2*1d6" brings in an operator, "12#1d6" joins two numbers
		// Suggestions that changed the roll (issue 22): none, or the likely one.
		{"1d20+5 adv to hit", ""}, // not "+adv": that rolls three d20
		{"1d2o", "1d20"},          // an o typed for a 0, not "1d2k"
		{"1001d6", ""},            // a limit: not "-001d6"
		{"1d20 + 5 )", "1d20 + 5"},
		{"4d6d1", ""},                       // Roll20's drop: it parses, not "4d6*1"
		{"1d20+ # attack", "1d20 # attack"}, // the reason stays as it was
		{"1d20+5", ""},                      // parses already
		{"hello", ""},                       // nothing one edit away
	}
	for _, tt := range tests {
		t.Run(tt.input, func(t *testing.T) {
			got := Suggest(tt.input)
			if got != tt.want {
				t.Errorf("Suggest(%q) = %q, want %q", tt.input, got, tt.want)
			}
			if got != "" {
				if _, err := Parse(got); err != nil {
					t.Errorf("Suggest(%q) = %q does not parse: %v", tt.input, got, err)
				}
			}
		})
	}
}

// A suggestion keeps the dice the player typed: every one-character edit
// (a character replaced, inserted or deleted) of each expression of
// testdata/typos.txt that does not parse gets, if anything, a suggestion
// that parses, rolls the very dice of the expression (count and sides,
// term by term) unless the edit fell on a dice term itself (then the
// typed text no longer says which dice were meant: "2d" gets nothing),
// and brings in no operator, sign or "#" the typed text lacks (an x may
// become "*" or "#").
func TestSuggestKeepsTheDice(t *testing.T) {
	b, err := os.ReadFile("testdata/typos.txt")
	if err != nil {
		t.Fatal(err)
	}
	var corpus []string
	for _, line := range strings.Split(string(b), "\n") {
		if line != "" && !strings.HasPrefix(line, "#") {
			corpus = append(corpus, line)
		}
	}
	// The characters Suggest puts in (but the digits but 0 and 6, and
	// "<" and "l", each much like another), and typos it must not read
	// as dice: an x, an o, a letter.
	chars := "#*+-/()>=[] dkhr60" + "xoa!"
	var variants, suggested int
	seen := map[string]bool{}
	check := func(orig string, at int, typo string) {
		if seen[typo] {
			return
		}
		seen[typo] = true
		if _, err := Parse(typo); err == nil {
			return
		}
		variants++
		s := Suggest(typo)
		if s == "" {
			return
		}
		suggested++
		e, err := Parse(s)
		if err != nil {
			t.Errorf("Suggest(%q) = %q does not parse: %v", typo, s, err)
			return
		}
		if !touchesDice(orig, at) && !slices.Equal(diceOf(e), diceOf(mustParse(t, orig))) {
			t.Errorf("Suggest(%q) = %q rolls %v, but %q (one edit away) rolls %v", typo, s, diceOf(e), orig, diceOf(mustParse(t, orig)))
		}
		expr := s[:exprEnd(e)]
		for i := range e.nodes { // a label's text is no operator
			if n := &e.nodes[i]; n.kind == nodeLabel {
				expr = expr[:n.y] + strings.Repeat(" ", int(n.val)-int(n.y)) + expr[n.val:]
			}
		}
		xs := strings.Count(strings.ToLower(typo), "x")
		for _, op := range []string{"+", "-", "*", "/", "#"} {
			extra := strings.Count(expr, op) - strings.Count(typo, op)
			if (op == "*" || op == "#") && extra > 0 && extra <= xs {
				xs -= extra
				continue
			}
			if extra > 0 {
				t.Errorf("Suggest(%q) = %q brings in %q", typo, s, op)
			}
		}
	}
	for _, e := range corpus {
		for pos := 0; pos <= len(e); pos++ {
			for i := range len(chars) {
				c := string(chars[i])
				check(e, pos, e[:pos]+c+e[pos:])
				if pos < len(e) {
					check(e, pos, e[:pos]+c+e[pos+1:])
				}
			}
			if pos < len(e) {
				check(e, pos, e[:pos]+e[pos+1:])
			}
		}
	}
	t.Logf("%d expressions, %d typos that do not parse, %d with a suggestion", len(corpus), variants, suggested)
	if len(corpus) < 100 || variants < 10000 {
		t.Fatalf("only %d expressions and %d typos checked", len(corpus), variants)
	}
}

// diceOf returns the dice terms e rolls: kind, count and sides of each.
func diceOf(e *Expr) [][3]int {
	var out [][3]int
	for _, d := range e.dice {
		out = append(out, [3]int{int(d.kind), int(d.count), int(d.sides)})
	}
	return out
}

// touchesDice reports whether an edit at byte at of src falls on one of
// its dice terms, from the count to the sides (or an alias), or just
// before or after one.
func touchesDice(src string, at int) bool {
	sc := scanner{src: src}
	start := -1
	for {
		t := sc.scan()
		switch t.kind {
		case tokEOF:
			return false
		case tokInt:
			if start < 0 {
				start = t.pos
			}
			continue
		case tokDice, tokV, tokFudge, tokAdv, tokDis, tokDet:
			if start < 0 {
				start = t.pos
			}
			end := t.pos + len(t.text)
			if t.kind == tokDice || t.kind == tokV {
				save := sc
				if n := sc.scan(); n.kind == tokInt || n.kind == tokPercent {
					end = n.pos + len(n.text)
				} else {
					sc = save
				}
			}
			if start-1 <= at && at <= end {
				return true
			}
		}
		start = -1
	}
}
