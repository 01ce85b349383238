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
		{"label ending parentheses keeps them", "0[0](0[0])", "0 [0] (0 [0])"},
		{"label ending a parenthesised sum keeps them", "(1+2[a])", "(1 + 2 [a])"},
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

		// Explosions.
		{"explode", "3d6!", "3d6!"},
		{"explode upper case", "3D6!", "3d6!"},
		{"explode on the highest face is bare", "3d6!=6", "3d6!"},
		{"explode condition", "3d6!>=5", "3d6!>=5"},
		{"explode condition with spaces", "3d6 ! > 4", "3d6!>4"},
		{"explode on 1", "1d6!=1", "1d6!=1"},
		{"compound", "5d6!!", "5d6!!"},
		{"compound condition", "5d6!!>5", "5d6!!>5"},
		{"percentile explodes on 100", "d%!", "1d100!"},
		// A bare "!" before a success condition would read as the
		// explosion's condition, so the normal form spells it out.
		{"explode then success", "3d6>=5!", "3d6!=6>=5"},
		{"explode, keep, success", "3d6!kh2>=5", "3d6!kh2>=5"},

		// Rerolls and clamps.
		{"reroll", "4d6r1", "4d6r1"},
		{"reroll equals", "4d6r=1", "4d6r1"},
		{"reroll below", "4d6 r < 3", "4d6r<3"},
		{"reroll at most", "4d6r<=2", "4d6r<=2"},
		{"reroll above", "4d6r>5", "4d6r>5"},
		{"reroll once", "4d6RO<3", "4d6ro<3"},
		{"reroll once bare", "4d6ro1", "4d6ro1"},
		{"clamp", "4d6mi2", "4d6mi2"},
		{"clamps in order", "4d6ma5mi2", "4d6mi2ma5"},

		// Success and failure counting.
		{"successes", "10d10>=8", "10d10>=8"},
		{"successes with spaces", "10d10 >= 8", "10d10>=8"},
		{"successes above", "10d10>7", "10d10>7"},
		{"successes equal", "10d10=10", "10d10=10"},
		{"successes below", "10d10<3", "10d10<3"},
		{"failures", "10d10>=8f1", "10d10>=8f1"},
		{"failures condition", "10d10>=8f<=2", "10d10>=8f<=2"},
		{"failures before successes", "10d10f=1>=8", "10d10>=8f1"},

		// Modifiers in any order print in the order they apply.
		{"order of modifiers", "8d6!r1kh3>=5", "8d6r1!kh3>=5"},
		{"every modifier", "8d6>=5f1kh3!!>5ma5mi2ro<2", "8d6ro<2mi2ma5!!>5kh3>=5f1"},

		// Fudge dice.
		{"fudge", "4dF", "4dF"},
		{"fudge lower case", "4df", "4dF"},
		{"fudge without count", "dF", "1dF"},
		{"fudge keep", "4dFkh2", "4dFkh2"},
		{"fudge negative condition", "4dF=-1", "4dF=-1"},
		{"fudge reroll negative", "4dFr=-1", "4dFr=-1"},
		{"fudge failures", "4dF>=1f=-1", "4dF>=1f=-1"},

		// The notations of the seeds.
		{"v: die", "v:20", "1v:20"},
		{"v: dice", "3v:6", "3v:6"},
		{"v: upper case", "3V:6", "3v:6"},
		{"v: fall damage", "(3v:6+4)", "3v:6 + 4"},
		{"v: check", "v:20 + 3", "1v:20 + 3"},
		{"v: tiles", "v:4-1", "1v:4 - 1"},
		{"advantage", "adv+5", "adv + 5"},
		{"advantage spelt out", "Advantage + 5", "adv + 5"},
		{"disadvantage", "dis + 3", "dis + 3"},
		{"disadvantage spelt out", "DISADVANTAGE", "dis"},
		{"detriment", "det", "det"},
		{"detriment spelt out", "detriment-1", "det - 1"},

		// Labels and parts.
		{"label", "1d8[fire]", "1d8 [fire]"},
		{"labels on terms", "2d6[slashing]+1d8[fire]", "2d6 [slashing] + 1d8 [fire]"},
		{"label trimmed", "1d8[  fire  ]", "1d8 [fire]"},
		{"label keeps case and text", "1d8 [Fire & Ice: 2*2]", "1d8 [Fire & Ice: 2*2]"},
		{"label unicode", "1d8 [🔥 feu]", "1d8 [🔥 feu]"},
		{"label on a number", "1d20 + 5 [str]", "1d20 + 5 [str]"},
		{"label on parentheses", "(1d6+2)[fire]*3", "(1d6 + 2) [fire] * 3"},
		{"label under minus", "-1d6[x]", "-1d6 [x]"},
		{"label over minus", "(-1d6)[x]", "(-1d6) [x]"},
		{"label on adv", "adv[stealth]+2", "adv [stealth] + 2"},
		{"two parts", "1d20+5 [to hit] 2d6+3 [slashing]", "1d20 + 5 [to hit] 2d6 + 3 [slashing]"},
		{"last part unlabelled", "1d20 [to hit]2d6", "1d20 [to hit] 2d6"},
		{"part after a label in parentheses", "(1d20+5)[hit] (2d6)[dmg]", "(1d20 + 5) [hit] 2d6 [dmg]"},

		// Repeats.
		{"repeat", "6#4d6kh3", "6#4d6kh3"},
		{"repeat with spaces", "6 # 4d6 k3", "6#4d6kh3"},
		{"repeat of a sum", "3#1d20+5", "3#1d20 + 5"},
		{"repeat once", "1#1d6", "1d6"},
		{"repeat and parts", "3#1d20+5 [attack] 1d8 [damage]", "3#1d20 + 5 [attack] 1d8 [damage]"},
		{"repeat after a label", "1d20 [init] 6#4d6kh3", "1d20 [init] 6#4d6kh3"},
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
		{"unknown rune", "1d20 $ 2", "unexpected '$' at column 6"},
		{"non-ASCII", "1d20×2", "unexpected '×' at column 5"},
		{"unary plus", "+5", "unexpected '+' at column 1"},
		{"missing sides", "2d", "unexpected end of expression, expected the sides of the die, as in 1d6 at column 3"},
		{"d0", "1d0", "d0: a die needs at least 1 side (try 1d6) at column 3"},
		{"d00", "d00", "d0: a die needs at least 1 side (try 1d6) at column 2"},
		{"unclosed", "(1+2", "unexpected end of expression, expected ')' at column 5"},
		{"unopened", "1+2)", "unexpected ')' at column 4"},
		{"two keeps", "4d6kh3dl1", "unexpected 'dl' at column 7"},
		{"two rerolls", "4d6r1ro2", "unexpected 'ro' at column 6"},
		{"two explosions", "4d6!!!", "unexpected '!' at column 6"},
		{"two successes", "4d6>=5<2", "unexpected '<' at column 7"},
		{"two failures", "4d6>=5f1f2", "unexpected 'f' at column 9"},
		{"two clamps", "4d6mi2mi3", "unexpected 'mi' at column 7"},
		{"control character", "1d20 \x01", `unexpected "\x01" at column 6`},
		{"broken UTF-8", "1d20 \xff", `unexpected "\xff" at column 6`},
		{"juxtaposed", "2(3)", "unexpected '(' at column 2"},
		{"d after modifier count", "4d6kh3d6", "unexpected 'd' at column 7"},
		{"number too large", "1+99999999999999999999", "number too large (at most " + strconv.Itoa(maxInt) + ") at column 3"},
		{"dice count too large", "99999999999999999999d6", "number too large (at most " + strconv.Itoa(maxInt) + ") at column 1"},

		// Modifiers.
		{"reroll without number", "1d6r", "unexpected end of expression, expected a number or a condition such as <3 at column 5"},
		{"reroll with a sign", "1d6r-1", "unexpected '-', expected a number or a condition such as <3 at column 5"},
		{"condition without number", "1d6>=", "unexpected end of expression, expected a number at column 6"},
		{"clamp without number", "1d6mi", "unexpected end of expression, expected a number at column 6"},
		{"explode with a bare number", "3d6!5", "unexpected '5' at column 5"},
		{"modifier number too large", "1d6r1000001", "number too large (at most 1000000) at column 5"},
		{"failures alone", "10d10f1", "'f1' counts failures only after a success condition, as in 10d10>=8f1 at column 6"},
		{"clamps crossed", "1d6mi4ma3", "'ma3' is below mi4 at column 7"},
		{"comparison after a number", "1d20+5 >= 15", "unexpected '>=' at column 8"},
		{"comparison after parentheses", "(1d20+5)>=15", "unexpected '>=' at column 9"},
		{"modifier on adv", "adv!", "unexpected '!' at column 4"},
		{"count on adv", "2adv", "unexpected 'adv' at column 2"},
		{"adv run on", "adv1", "unexpected '1' at column 4"},
		{"modifier alone", "kh3", "unexpected 'kh' at column 1"},
		{"v: without sides", "v:", "unexpected end of expression, expected the sides of the die, as in v:20 at column 3"},
		{"v without colon", "v20", "unexpected 'v' at column 1"},
		{"v: zero", "3v:0", "d0: a die needs at least 1 side (try 1d6) at column 4"},
		{"fudge with sides", "4dF6", "unexpected '6' at column 4"},

		// Reroll and explosion conditions that never stop.
		{"d1 explodes", "1d1!", "'!' explodes on every face of a d1: it would never stop at column 4"},
		{"d1 compounds", "1d1!!", "'!!' explodes on every face of a d1: it would never stop at column 4"},
		{"explode on every face", "d6!>=1", "'!>=1' explodes on every face of a d6: it would never stop at column 3"},
		{"explode on every fudge face", "4dF!>-2", "'!>-2' explodes on every face of a dF: it would never stop at column 4"},
		{"reroll every face", "1d6r<7", "'r<7' rerolls every face of a d6: it would never stop at column 4"},
		{"reroll every face of a d1", "1d1r1", "'r1' rerolls every face of a d1: it would never stop at column 4"},
		{"reroll every fudge face", "4dFr<=1", "'r<=1' rerolls every face of a dF: it would never stop at column 4"},
		{"explode on every face left by a reroll", "1d6r<6!", "'!' explodes on every face a d6 can show after 'r<6': it would never stop at column 7"},
		{"explode on the faces left by a reroll", "1d6!>4r<5", "'!>4' explodes on every face a d6 can show after 'r<5': it would never stop at column 4"},

		// Labels.
		{"unclosed label", "1d20 [to hit", "unclosed label, expected ']' at column 13"},
		{"empty label", "1d20 []", "empty label at column 6"},
		{"blank label", "1d20 [  ]", "empty label at column 6"},
		{"control character in label", "1d20 [a\tb]", "control character U+0009 in a label at column 8"},
		{"line break in label", "1d20 [a\nb]", "control character U+000A in a label at column 8"},
		{"broken UTF-8 in label", "1d20 [a\xffb]", "label is not valid UTF-8 at column 8"},
		{"label alone", "[hit]", "unexpected '[hit]' at column 1"},
		{"two labels", "1d6 [a] [b]", "unexpected '[b]' at column 9"},
		{"unchecked label shown escaped", "1d6 [a] [\x01]", `unexpected "[\x01]" at column 9`},
		{"label before operator", "[a] + 1", "unexpected '[a]' at column 1"},

		// Parts and repeats.
		{"juxtaposed without label", "1d20 5", "unexpected '5' at column 6"},
		{"juxtaposed in parentheses", "(1d20 [a] 5)", "unexpected '5', expected ')' at column 11"},
		{"repeat zero", "0#1d6", "0#: repeat at least once, as in 6#4d6kh3 at column 1"},
		{"repeat after a term", "1d6#2", "unexpected '#' at column 4"},
		{"repeat of a repeat", "2#3#1d6", "unexpected '#' at column 4"},
		{"repeat of nothing", "6#", "unexpected end of expression at column 3"},
		{"repeat inside", "1+2#1d6", "unexpected '#' at column 4"},
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
		// Parse counts the dice of every term, alias and repetition
		// before rerolls and explosions, which only Roll can count.
		{"MaxDice in terms", "500d6 + 500d6", ""},
		{"MaxDice+1 in terms", "600d6 + 600d6", "too many dice (at most 1000 in one roll) at column 9"},
		{"MaxDice+1 with an alias", "999d6 + adv", "too many dice (at most 1000 in one roll) at column 9"},
		{"MaxDice in repeats", "10#100d6", ""},
		{"MaxDice+1 in repeats", "11#100d6", "11#: too many dice (at most 1000 in one roll) at column 1"},
		{"MaxDice+1 over parts", "1d6 [a] 10#100d6", "10#: too many dice (at most 1000 in one roll) at column 9"},
		{"MaxRepeat", "100#1d6", ""},
		{"MaxRepeat+1", "101#1d6", "101#: too many repeats (at most 100) at column 1"},
		{"MaxRepeat much too large", "99999999999999999999#1", "99999999999999999999#: too many repeats (at most 100) at column 1"},
		{"MaxParts", strings.Repeat("1[a]", MaxParts), ""},
		{"MaxParts+1", strings.Repeat("1[a]", MaxParts+1), "too many parts (at most 100 in one roll) at column 401"},
		{"MaxParts+1 with a repeat", "1 [a] 100#1d6", "too many parts (at most 100 in one roll) at column 7"},
		{"MaxLabelLen", "1d6 [" + strings.Repeat("é", MaxLabelLen) + "]", ""},
		{"MaxLabelLen trimmed", "1d6 [ " + strings.Repeat("a", MaxLabelLen) + " ]", ""},
		{"MaxLabelLen+1", "1d6 [" + strings.Repeat("é", MaxLabelLen+1) + "]", "label too long (at most 64 characters) at column 5"},
		{"modifier number MaxSides", "1d6>=1000000", ""},
		{"modifier number MaxSides+1", "1d6>=1000001", "number too large (at most 1000000) at column 6"},
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
	tests := []struct{ input, want string }{
		{"4D6Kh3 + d% -(x)",
			"integer@0=4 d@1=D integer@2=6 kh@3=Kh integer@5=3 +@7=+ d@9=d %@10=% -@12=- (@13=( illegal@14=x )@15=) end of expression@16="},
		// A run of letters holds several keywords, the longest first.
		{"4dFkh2 8d6dl1ro<=2mi1MA6",
			"integer@0=4 dF@1=dF kh@3=kh integer@5=2 integer@7=8 d@8=d integer@9=6 dl@10=dl integer@12=1 ro@13=ro <=@15=<= integer@17=2 mi@18=mi integer@20=1 ma@21=MA integer@23=6 end of expression@24="},
		{"3d6!!>=5!<3=1>2f1",
			"integer@0=3 d@1=d integer@2=6 !!@3=!! >=@5=>= integer@7=5 !@8=! <@9=< integer@10=3 =@11== integer@12=1 >@13=> integer@14=2 f@15=f integer@16=1 end of expression@17="},
		{"adv DisAdvantage detriment dis det advantage",
			"adv@0=adv dis@4=DisAdvantage det@17=detriment dis@27=dis det@31=det adv@35=advantage end of expression@44="},
		{"3v:6 v:20 v 6#[to hit]",
			"integer@0=3 v:@1=v: integer@3=6 v:@5=v: integer@7=20 illegal@10=v integer@12=6 #@13=# label@14=[to hit] end of expression@22="},
		{"[unclosed", "label@0=[unclosed end of expression@9="},
		{"str kill", "illegal@0=str kh@4=k illegal@5=ill end of expression@8="},
	}
	for _, tt := range tests {
		s := scanner{src: tt.input}
		var got []string
		for {
			tok := s.scan()
			got = append(got, tok.kind.String()+"@"+strconv.Itoa(tok.pos)+"="+tok.text)
			if tok.kind == tokEOF {
				break
			}
		}
		if g := strings.Join(got, " "); g != tt.want {
			t.Errorf("tokens of %q:\n%s\nwant\n%s", tt.input, g, tt.want)
		}
	}
}
