package dice

import (
	"errors"
	"strconv"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	tests := []struct {
		name, input, want string
	}{
		{"constant", "7", "7"},
		{"leading zeros", "007", "7"},
		{"die without count", "d6", "1d6"},
		{"die", "1d20", "1d20"},
		{"upper case", "4D6KH3", "4d6kh3"},
		{"percentile", "d%", "1d100"},
		{"percentile with count", "2d%", "2d100"},
		{"zero dice", "0d6", "0d6"},
		{"k is kh", "4d6k3", "4d6kh3"},
		{"keep count defaults to 1", "2d20kh", "2d20kh1"},
		{"keep lowest", "2d20kl1", "2d20kl1"},
		{"drop lowest", "4d6dl1", "4d6dl1"},
		{"drop highest", "4d6dh", "4d6dh1"},
		{"spaces", " 4 d 6 kh 3 +\t2 ", "4d6kh3 + 2"},
		{"spaces added", "2d6+3", "2d6 + 3"},
		{"precedence", "1+2*3", "1 + 2 * 3"},
		{"parentheses kept where needed", "(1d6+2)*3", "(1d6 + 2) * 3"},
		{"redundant parentheses dropped", "((1d6))+(2*3)", "1d6 + 2 * 3"},
		{"left assoc", "(1-2)-3", "1 - 2 - 3"},
		{"right operand keeps parentheses", "1-(2-3)", "1 - (2 - 3)"},
		{"division", "8/(4/2)", "8 / (4 / 2)"},
		{"unary minus", "-2", "-2"},
		{"unary minus binds tight", "-2*3", "-2 * 3"},
		{"unary minus of group", "-(1+2)", "-(1 + 2)"},
		{"double minus", "--2", "--2"},
		{"minus minus", "2--3", "2 - -3"},
		{"negative die", "-1d6", "-1d6"},
		{"many terms", "1d20+1d4+3-1d6", "1d20 + 1d4 + 3 - 1d6"},
		{"largest number", strconv.Itoa(maxInt), strconv.Itoa(maxInt)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := Parse(tt.input)
			if err != nil {
				t.Fatalf("Parse(%q): %v", tt.input, err)
			}
			if got := e.String(); got != tt.want {
				t.Errorf("Parse(%q) = %q, want %q", tt.input, got, tt.want)
			}
			// The normal form is a fixed point.
			again, err := Parse(tt.want)
			if err != nil || again.String() != tt.want {
				t.Errorf("Parse(%q) = %v, %v; want it unchanged", tt.want, again, err)
			}
		})
	}
}

const maxInt = int(^uint(0) >> 1)

func TestSyntaxErrors(t *testing.T) {
	tests := []struct {
		name, input, want string
	}{
		{"double operator", "1d20++5", "unexpected '+' at column 6"},
		{"empty", "", "empty expression at column 1"},
		{"blank", "   ", "empty expression at column 4"},
		{"trailing operator", "1d20+", "unexpected end of expression at column 6"},
		{"unknown word", "1d20+str", "unexpected 'str' at column 6"},
		{"unknown rune", "1d20 $ 2", "unexpected '$' at column 6"},
		{"non-ASCII", "1d20×2", "unexpected '×' at column 5"},
		{"unary plus", "+5", "unexpected '+' at column 1"},
		{"missing sides", "2d", "unexpected end of expression, expected the sides of the die, as in 1d6 at column 3"},
		{"d0", "1d0", "d0: a die needs at least 1 side (try 1d6) at column 3"},
		{"d00", "d00", "d0: a die needs at least 1 side (try 1d6) at column 2"},
		{"unclosed", "(1+2", "unexpected end of expression, expected ')' at column 5"},
		{"unopened", "1+2)", "unexpected ')' at column 4"},
		{"two modifiers", "4d6kh3dl1", "unexpected 'dl' at column 7"},
		{"juxtaposed", "2(3)", "unexpected '(' at column 2"},
		{"d after modifier count", "4d6kh3d6", "unexpected 'd' at column 7"},
		{"number too large", "1+99999999999999999999", "number too large (at most " + strconv.Itoa(maxInt) + ") at column 3"},
		{"dice count too large", "99999999999999999999d6", "number too large (at most " + strconv.Itoa(maxInt) + ") at column 1"},
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
			if se.Expr != tt.input {
				t.Errorf("SyntaxError.Expr = %q, want %q", se.Expr, tt.input)
			}
		})
	}
}

func TestSyntaxErrorDetail(t *testing.T) {
	tests := []struct{ input, want string }{
		{"1d20++5", "1d20++5\n     ^"},
		{"1d20\t++5", "1d20\t++5\n    \t ^"},
		{"1 ×", "1 ×\n  ^"},
		{"(1\n", "(1 \n   ^"},
	}
	for _, tt := range tests {
		_, err := Parse(tt.input)
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Fatalf("Parse(%q) error = %v, want a *SyntaxError", tt.input, err)
		}
		if got := se.Detail(); got != tt.want {
			t.Errorf("Parse(%q) Detail =\n%s\nwant\n%s", tt.input, got, tt.want)
		}
	}
}

func TestParseLimits(t *testing.T) {
	nest := func(n int) string { return strings.Repeat("(", n) + "1" + strings.Repeat(")", n) }
	tests := []struct {
		name, input string
		want        string // "" for no error
	}{
		{"MaxExprLen", strings.Repeat(" ", MaxExprLen-1) + "1", ""},
		{"MaxExprLen+1", strings.Repeat(" ", MaxExprLen) + "1", "expression too long (at most 500 characters) at column 501"},
		{"MaxDepth parentheses", nest(MaxDepth), ""},
		{"MaxDepth+1 parentheses", nest(MaxDepth + 1), "too deeply nested (at most 32 levels) at column 33"},
		{"MaxDepth minus", strings.Repeat("-", MaxDepth) + "1", ""},
		{"MaxDepth+1 minus", strings.Repeat("-", MaxDepth+1) + "1", "too deeply nested (at most 32 levels) at column 33"},
		{"MaxDepth mixed", strings.Repeat("-(", MaxDepth/2) + "-1" + strings.Repeat(")", MaxDepth/2), "too deeply nested (at most 32 levels) at column 33"},
		{"MaxSides", "1d1000000", ""},
		{"MaxSides+1", "1d1000001", "d1000001: a die has at most 1000000 sides at column 3"},
		{"MaxDice in one term", "1000d6", ""},
		{"MaxDice+1 in one term", "2+1001d6", "1001d6: too many dice (at most 1000 in one roll) at column 3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(tt.input)
			if tt.want == "" {
				if err != nil {
					t.Fatalf("Parse: %v", err)
				}
				return
			}
			var se *SyntaxError
			if !errors.As(err, &se) || err.Error() != tt.want {
				t.Errorf("Parse error = %v, want *SyntaxError %q", err, tt.want)
			}
		})
	}
}

func TestScan(t *testing.T) {
	s := scanner{src: "4D6Kh3 + d% -(x)"}
	var got []string
	for {
		tok := s.scan()
		got = append(got, tok.kind.String()+"@"+strconv.Itoa(tok.pos)+"="+tok.text)
		if tok.kind == tokEOF {
			break
		}
	}
	want := "integer@0=4 d@1=D integer@2=6 kh@3=Kh integer@5=3 +@7=+ d@9=d %@10=% -@12=- (@13=( illegal@14=x )@15=) end of expression@16="
	if g := strings.Join(got, " "); g != want {
		t.Errorf("tokens:\n%s\nwant\n%s", g, want)
	}
}
