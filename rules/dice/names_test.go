package dice

import (
	"errors"
	"math/rand/v2"
	"testing"
)

// sheet is a Lookup over a character's stats, as /roll character: gives.
func sheet(stats map[string]int) Lookup {
	return func(name string) (int, bool) {
		v, ok := stats[name]
		return v, ok
	}
}

// Names where an operand is expected: a word that does not read as dice
// syntax. "1d20 som", with no operator, stays a reason.
func TestParseNames(t *testing.T) {
	checkNormalForms(t, []normalForm{
		{"a stat added", "1d20+som", "1d20 + som", ""},
		{"upper case is lower case", "1d20+SOM", "1d20 + som", ""},
		{"a word that scans as d then e", "1d20+dex", "1d20 + dex", ""},
		{"alone", "dex", "dex", ""},
		{"digits and underscore", "1d20+str_mod2*2", "1d20 + str_mod2 * 2", ""},
		{"negated", "-str", "-str", ""},
		{"in parentheses", "(str+2)*3", "(str + 2) * 3", ""},
		{"before a die", "str+1d20", "str + 1d20", ""},
		{"labelled", "2d6+str [fire]", "2d6 + str [fire]", ""},
		{"begins like an alias", "1d20+advice", "1d20 + advice", ""},
		{"begins like a keyword", "1d20+rank+mind+kit", "1d20 + rank + mind + kit", ""},
		{"keywords that are no dice", "1d20+def-fed", "1d20 + def - fed", ""},
		{"v without a colon or digit", "v+1", "v + 1", ""},
		{"repeated", "3#1d20+str", "3#1d20 + str", ""},
		{"in labelled parts", "1d20+str [hit] 2d6+str [dmg]", "1d20 + str [hit] 2d6 + str [dmg]", ""},
		{"a word after a space is a reason", "1d20 som", "1d20 # som", "som"},
		{"a name and a reason", "1d20+som to hit", "1d20 + som # to hit", "to hit"},
		{"a number and a reason", "1d20+5 to hit", "1d20 + 5 # to hit", "to hit"},
		{"after a spaced #, a reason", "5 # str", "5 ! str", "str"},
		{"after a spaced #, a reason however it reads", "5 # str+1", "5 ! str+1", "str+1"},
		{"a name repeated", "5#str", "5#str", ""},
		{"a part after a label does not begin with a name", "1d20 [a] str", "1d20 [a] # str", "str"},
		{"unless it says 1#, which it keeps", "1d20 [a] 1#str [b]", "1d20 [a] 1#str [b]", ""},
		{"and keeps before an operator", "1d20[a]1#STR*2", "1d20 [a] 1#str * 2", ""},
		{"dice stay dice", "d6+adv+dF+d%", "1d6 + adv + 1dF + 1d100", ""},
		{"a die with modifiers", "d20kh1+dex", "1d20kh1 + dex", ""},
		{"Dice Maiden's repeat", "6 4d6k3", "6#4d6kh3", ""},
		{"Dice Maiden's explosion", "4d6 e6", "4d6!>=6", ""},
		{"Avrae's comment", "1d20 # attack", "1d20 # attack", "attack"},
		{"Dice Maiden's comment", "1d20+5 ! attack", "1d20 + 5 # attack", "attack"},
	})
}

// A word that reads as dice is dice, mistakes and all: never a name.
func TestNameErrors(t *testing.T) {
	for _, tt := range []struct{ name, input, want string }{
		{"a mistyped die", "1d20+d6x", "unexpected 'x' at column 8"},
		{"the keyword d alone", "1d20+d", "unexpected end of expression, expected the sides of the die, as in 1d6 at column 7"},
		{"keywords that are modifiers", "1d20+khe", "unexpected 'kh' at column 6"},
		{"v: without its colon", "v20", "unexpected 'v' at column 1"},
		{"a name then a name", "str dex+1", "unexpected 'd' at column 5"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(tt.input)
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("Parse(%q) error = %v, want a *SyntaxError", tt.input, err)
			}
			if se.Error() != tt.want {
				t.Errorf("Parse(%q) error = %q, want %q", tt.input, se.Error(), tt.want)
			}
		})
	}
}

// A name's value comes from the Lookup as the roll is made, and shows
// after the name in the breakdown; the dice: values go to the dice in
// order, and a reason changes nothing.
func TestRollNames(t *testing.T) {
	brom := sheet(map[string]int{"som": 3, "dex": -1, "str": 2})
	tests := []struct {
		input  string
		dice   []int
		total  int
		render string
		refs   []Ref
	}{
		{"1d20+som", []int{14}, 17, "1d20 (14) + som (3) = 17", []Ref{{"som", 3}}},
		{"1d20+SOM", []int{14}, 17, "1d20 (14) + som (3) = 17", []Ref{{"som", 3}}},
		{"1d20+som to hit", []int{14}, 17, "to hit: 1d20 (14) + som (3) = 17", []Ref{{"som", 3}}},
		{"1d20 + som # to hit", []int{14}, 17, "to hit: 1d20 (14) + som (3) = 17", []Ref{{"som", 3}}},
		{"dex+1d20+som+1d6", []int{14, 5}, 21, "dex (-1) + 1d20 (14) + som (3) + 1d6 (5) = 21", []Ref{{"dex", -1}, {"som", 3}}},
		{"(2d6+str)*2", []int{1, 6}, 18, "(2d6 (1, 6) + str (2)) * 2 = 18", []Ref{{"str", 2}}},
		{"2#1d20+str", []int{4, 20}, 28, "1d20 (4) + str (2) = 6\n1d20 (**20**) + str (2) = 22", []Ref{{"str", 2}, {"str", 2}}},
		{"1d20+str [hit] 2d6+str [dmg]", []int{9, 3, 4}, 20, "hit: 1d20 (9) + str (2) = 11\ndmg: 2d6 (3, 4) + str (2) = 9", []Ref{{"str", 2}, {"str", 2}}},
		{"str [strength] + 1d4", []int{2}, 4, "str (2) [strength] + 1d4 (2) = 4", []Ref{{"str", 2}}},
	}
	for _, tt := range tests {
		p := NewPhysical(tt.dice)
		res, err := mustParse(t, tt.input).RollWith(p, brom)
		if err == nil {
			err = p.Done()
		}
		if err != nil {
			t.Errorf("%s: %v", tt.input, err)
			continue
		}
		if res.Total != tt.total {
			t.Errorf("%s: total %d, want %d", tt.input, res.Total, tt.total)
		}
		if got := res.String(); got != tt.render {
			t.Errorf("%s: String() = %q, want %q", tt.input, got, tt.render)
		}
		if len(res.Refs) != len(tt.refs) {
			t.Errorf("%s: Refs = %v, want %v", tt.input, res.Refs, tt.refs)
			continue
		}
		for i := range tt.refs {
			if res.Refs[i] != tt.refs[i] {
				t.Errorf("%s: Refs = %v, want %v", tt.input, res.Refs, tt.refs)
			}
		}
	}
}

// A name that contains a dice term's text does not take its dice.
func TestRenderNameHoldingATerm(t *testing.T) {
	res, err := mustParse(t, "x1d6+1d6").RollWith(NewPhysical([]int{4}), sheet(map[string]int{"x1d6": 2}))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := res.String(), "x1d6 (2) + 1d6 (4) = 6"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	res, err = mustParse(t, "AdvA*Adv").RollWith(NewPhysical([]int{16, 13}), sheet(map[string]int{"adva": 4}))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := res.String(), "adva (4) * adv (16, ~~13~~) = 64"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}

func TestRollUnknownName(t *testing.T) {
	for _, tt := range []struct {
		input string
		look  Lookup
		name  string
		pos   int
		msg   string
	}{
		{"1d20+sm", sheet(map[string]int{"som": 3}), "sm", 5, "unknown name 'sm' at column 6"},
		{"1d20+som", nil, "som", 5, "'som' is a name, and this roll reads no values for names at column 6"},
	} {
		_, err := mustParse(t, tt.input).RollWith(NewPhysical([]int{10}), tt.look)
		var de *Error
		if !errors.As(err, &de) {
			t.Fatalf("%s: error %v, want an *Error", tt.input, err)
		}
		if de.Name != tt.name || de.Pos != tt.pos || de.Error() != tt.msg {
			t.Errorf("%s: error {Name %q, Pos %d, %q}, want {%q, %d, %q}", tt.input, de.Name, de.Pos, de.Error(), tt.name, tt.pos, tt.msg)
		}
	}
}

// The cache keeps the parse, never the values: one Expr rolls with
// whatever each Lookup gives.
func TestNamesCacheTheParseNotTheValues(t *testing.T) {
	a, b := mustParse(t, "1d20+som"), mustParse(t, "1d20+som")
	if a != b {
		t.Fatalf("Parse of the same text twice gave two Exprs: not cached")
	}
	for _, som := range []int{3, -2} {
		res, err := b.RollWith(NewPhysical([]int{10}), sheet(map[string]int{"som": som}))
		if err != nil {
			t.Fatal(err)
		}
		if res.Total != 10+som {
			t.Errorf("som %d: total %d, want %d", som, res.Total, 10+som)
		}
	}
}

func TestReserved(t *testing.T) {
	for _, name := range []string{
		"d", "kh", "k", "kl", "dh", "dl", "df", "dF", "adv", "dis", "det", "advantage", "disadvantage", "detriment",
		"e", "ie", "r", "ro", "mi", "ma", "f", "d6", "d20kh1", "e6", "r1", "v20", "d6x", "khe", "dfe", "dfkh", "ekl",
		"", "1st", "_x", "a-b", "som mod", "é",
	} {
		if !Reserved(name) {
			t.Errorf("Reserved(%q) = false, want true", name)
		}
	}
	for _, name := range []string{"som", "dex", "str", "hp", "ks", "advice", "rank", "mind", "luck", "v", "a", "i", "str_mod", "x1d6", "my_kh", "def", "fed", "mid", "red", "kid"} {
		if Reserved(name) {
			t.Errorf("Reserved(%q) = true, want false", name)
		}
	}
}

// Reserved agrees with the parser on every short word: a name it allows
// reads as that name after an operator, and one it refuses never does.
func TestReservedAgreesWithParse(t *testing.T) {
	const alphabet = "adefhiklmorsv_06"
	words := []string{""}
	for range 3 {
		next := words
		for _, w := range words {
			for i := range len(alphabet) {
				next = append(next, w+alphabet[i:i+1])
			}
		}
		words = next
	}
	for _, w := range words {
		if w == "" || !isLetter(w[0]) {
			continue
		}
		e, err := parse("1+" + w)
		readAsName := err == nil && e.names == 1 && e.text == "1 + "+w
		if readAsName == Reserved(w) {
			t.Errorf("Reserved(%q) = %v, but 1+%s reads as the name: %v (%v)", w, Reserved(w), w, readAsName, err)
		}
	}
}

func TestDistributionOfNames(t *testing.T) {
	_, err := mustParse(t, "1d20+som").Distribution(NewRandom(rand.New(rand.NewPCG(1, 2))))
	var de *Error
	if !errors.As(err, &de) || de.Name != "som" || de.Pos != 5 {
		t.Errorf("Distribution(1d20+som) error = %v, want an *Error of the name som at 5", err)
	}
	if _, _, ok := mustParse(t, "1d20+som").Bounds(); ok {
		t.Errorf("Bounds(1d20+som) ok, want not: the name's value is not known")
	}
}

func TestSuggestNames(t *testing.T) {
	for _, tt := range []struct{ input, want string }{
		{"1d20++str", "1d20+str"},
		{"1d20+str)", "1d20+str"},
		{"2d", ""}, // not the name "hd", nor a d6 the player did not type
	} {
		if got := Suggest(tt.input); got != tt.want {
			t.Errorf("Suggest(%q) = %q, want %q", tt.input, got, tt.want)
		}
	}
}
