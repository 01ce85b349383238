package dice

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// kept renders which dice count, "+" kept and "-" dropped, for compact tables.
func kept(dice []Die) string {
	var b strings.Builder
	for _, d := range dice {
		if d.Kept {
			b.WriteByte('+')
		} else {
			b.WriteByte('-')
		}
	}
	return b.String()
}

func faces(groups []Group) []int {
	var vs []int
	for _, g := range groups {
		for _, d := range g.Dice {
			vs = append(vs, d.Value)
		}
	}
	return vs
}

func mustParse(t testing.TB, s string) *Expr {
	t.Helper()
	e, err := Parse(s)
	if err != nil {
		t.Fatalf("Parse(%q): %v", s, err)
	}
	return e
}

// rollWith rolls s with the physical dice values, which must be used
// exactly.
func rollWith(t testing.TB, s string, values []int) *Result {
	t.Helper()
	p := NewPhysical(values)
	res, err := mustParse(t, s).Roll(p)
	if err != nil {
		t.Fatalf("%s: Roll: %v", s, err)
	}
	if err := p.Done(); err != nil {
		t.Fatalf("%s: Done: %v", s, err)
	}
	return res
}

func TestRollPhysical(t *testing.T) {
	tests := []struct {
		input  string
		values []int
		total  int
		kept   []string // per group
	}{
		{"4d6kh3", []int{6, 5, 2, 4}, 15, []string{"++-+"}},
		{"4d6k3", []int{6, 5, 2, 4}, 15, []string{"++-+"}},
		{"4d6dl1", []int{6, 5, 2, 4}, 15, []string{"++-+"}},
		{"4d6dh1", []int{6, 5, 2, 4}, 11, []string{"-+++"}},
		{"4d6kl2", []int{6, 5, 2, 4}, 6, []string{"--++"}},
		{"2d6+3", []int{4, 5}, 12, []string{"++"}},
		{"2d20kl1", []int{17, 3}, 3, []string{"-+"}},
		{"2d20kh1 + 7", []int{17, 3}, 24, []string{"+-"}},
		{"2d20kh", []int{17, 3}, 17, []string{"+-"}},
		// Among equal faces the earlier die ranks first.
		{"2d20kh1", []int{7, 7}, 7, []string{"+-"}},
		{"2d20kl1", []int{7, 7}, 7, []string{"+-"}},
		{"3d6dl1", []int{2, 5, 2}, 7, []string{"++-"}},
		{"3d6dh1", []int{5, 2, 5}, 7, []string{"++-"}},
		// Counts beyond the dice clamp.
		{"2d20kh5", []int{4, 9}, 13, []string{"++"}},
		{"2d6dl5", []int{4, 6}, 0, []string{"--"}},
		{"2d6kh0", []int{4, 6}, 0, []string{"--"}},
		{"0d6 + 1", nil, 1, []string{""}},
		{"d%", []int{100}, 100, []string{"+"}},
		{"1d20 + 1d4 + 3 - 1d6", []int{11, 2, 6}, 10, []string{"+", "+", "+"}},
		{"(1d6 + 2) * 3", []int{4}, 18, []string{"+"}},
		{"-1d4", []int{3}, -3, []string{"+"}},
		{"2d6 * 1d4 - 2d6", []int{6, 2, 3, 4, 5}, 8*3 - 9, []string{"++", "+", "++"}},
	}
	for _, tt := range tests {
		t.Run(tt.input, func(t *testing.T) {
			res := rollWith(t, tt.input, tt.values)
			if res.Total != tt.total {
				t.Errorf("Total = %d, want %d", res.Total, tt.total)
			}
			var gotKept []string
			for _, g := range res.Groups {
				gotKept = append(gotKept, kept(g.Dice))
				sum := 0
				for _, d := range g.Dice {
					if !d.Physical {
						t.Errorf("die %+v not marked Physical", d)
					}
					if d.Kept {
						sum += d.Value
					}
				}
				if g.Total != sum {
					t.Errorf("group %s Total = %d, want %d", g.Expr, g.Total, sum)
				}
			}
			if !slices.Equal(gotKept, tt.kept) {
				t.Errorf("kept = %q, want %q", gotKept, tt.kept)
			}
			if got := faces(res.Groups); !slices.Equal(got, tt.values) {
				t.Errorf("faces = %v, want %v", got, tt.values)
			}
		})
	}
}

func TestRollGroups(t *testing.T) {
	res, err := mustParse(t, "2d20KH + D4 - 3").Roll(NewPhysical([]int{3, 17, 2}))
	if err != nil {
		t.Fatal(err)
	}
	if res.Expr != "2d20kh1 + 1d4 - 3" || res.Total != 16 {
		t.Errorf("Result = %q, %d; want %q, 16", res.Expr, res.Total, "2d20kh1 + 1d4 - 3")
	}
	want := []Group{
		{Expr: "2d20kh1", Total: 17, Dice: []Die{
			{Sides: 20, Value: 3, Face: 3, Physical: true},
			{Sides: 20, Value: 17, Face: 17, Kept: true, Physical: true},
		}},
		{Expr: "1d4", Total: 2, Dice: []Die{{Sides: 4, Value: 2, Face: 2, Kept: true, Physical: true}}},
	}
	if !slices.EqualFunc(res.Groups, want, func(a, b Group) bool {
		return a.Expr == b.Expr && a.Total == b.Total && slices.Equal(a.Dice, b.Dice)
	}) {
		t.Errorf("Groups = %+v\nwant %+v", res.Groups, want)
	}
}

// The numbers are what rand.New(rand.NewPCG(1, 2)) gives: its first d6
// faces are 5, 4, 5, 5, 2, 1, 3, 3 and its first d20 faces 16, 13.
func TestRollSeeded(t *testing.T) {
	tests := []struct {
		input string
		faces []int
		kept  string // of the first group
		total int
	}{
		{"4d6kh3", []int{5, 4, 5, 5}, "+-++", 15},
		{"8d6", []int{5, 4, 5, 5, 2, 1, 3, 3}, "++++++++", 28},
		{"2d20kh1 + 7", []int{16, 13}, "+-", 23},
		{"2d20kl1", []int{16, 13}, "-+", 13},
		{"1d20 + 1d4 + 3 - 1d6", []int{16, 1, 5}, "+", 15},
		{"d%", []int{77}, "+", 77},
	}
	for _, tt := range tests {
		t.Run(tt.input, func(t *testing.T) {
			res, err := mustParse(t, tt.input).Roll(NewRandom(rand.New(rand.NewPCG(1, 2))))
			if err != nil {
				t.Fatal(err)
			}
			if got := faces(res.Groups); !slices.Equal(got, tt.faces) {
				t.Errorf("faces = %v, want %v", got, tt.faces)
			}
			if got := kept(res.Groups[0].Dice); got != tt.kept {
				t.Errorf("kept = %s, want %s", got, tt.kept)
			}
			if res.Total != tt.total {
				t.Errorf("Total = %d, want %d", res.Total, tt.total)
			}
			for _, g := range res.Groups {
				for _, d := range g.Dice {
					if d.Physical {
						t.Errorf("random die %+v marked Physical", d)
					}
				}
			}
		})
	}
}

func TestRollArithmetic(t *testing.T) {
	tests := []struct {
		input string
		want  int
	}{
		{"1 + 2 * 3", 7},
		{"(1 + 2) * 3", 9},
		{"10 - 2 - 3", 5},
		{"10 - (2 - 3)", 11},
		{"7 / 2", 3},
		{"-7 / 2", -4},
		{"7 / -2", -4},
		{"-7 / -2", 3},
		{"6 / -3", -2},
		{"-6 / 3", -2},
		{"100 / 7 / 2", 7},
		{"2 - -3", 5},
		{"--2", 2},
		{strconv.Itoa(maxInt) + " + 0", maxInt},
		{"-" + strconv.Itoa(maxInt) + " - 1", -maxInt - 1},
		{"(-" + strconv.Itoa(maxInt) + " - 1) / 1", -maxInt - 1},
		{"(-" + strconv.Itoa(maxInt) + " - 1) * 1", -maxInt - 1},
		{"0 * (-" + strconv.Itoa(maxInt) + " - 1)", 0},
	}
	for _, tt := range tests {
		res, err := mustParse(t, tt.input).Roll(NewPhysical(nil))
		if err != nil {
			t.Errorf("%s: %v", tt.input, err)
			continue
		}
		if res.Total != tt.want {
			t.Errorf("%s = %d, want %d", tt.input, res.Total, tt.want)
		}
	}
}

func TestRollErrors(t *testing.T) {
	max := strconv.Itoa(maxInt)
	min := "(-" + max + " - 1)"
	tests := []struct {
		input string
		want  string
	}{
		{"1d6 / 0", "division by zero at column 5"},
		{"1 / (2 - 2)", "division by zero at column 3"},
		{max + " + 1", "result of '+' is too large at column 21"},
		{"-" + max + " - 2", "result of '-' is too large at column 22"},
		{max + " * 2", "result of '*' is too large at column 21"},
		{"-1 * " + min, "result of '*' is too large at column 4"},
		{min + " * -1", "result of '*' is too large at column 28"},
		{min + " / -1", "result of '/' is too large at column 28"},
		{"-" + min, "result of '-' is too large at column 1"},
		{"3037000500 * 3037000500", "result of '*' is too large at column 12"},
		{"1 [a] " + max + " [b]", "total of the parts is too large at column 7"},
		{"2#" + max, "total of the parts is too large at column 1"},
	}
	for _, tt := range tests {
		_, err := mustParse(t, tt.input).Roll(NewRandom(rand.New(rand.NewPCG(1, 2))))
		var de *Error
		if !errors.As(err, &de) {
			t.Errorf("%s: error = %v, want an *Error", tt.input, err)
			continue
		}
		if err.Error() != tt.want {
			t.Errorf("%s: error = %q, want %q", tt.input, err, tt.want)
		}
		if de.Expr != tt.input {
			t.Errorf("%s: Error.Expr = %q", tt.input, de.Expr)
		}
	}
}

// MaxDice counts every die of one evaluation: Parse counts the dice it
// can see (see TestParseLimits) and Roll those that rerolls and
// explosions add.
func TestRollMaxDice(t *testing.T) {
	res, err := mustParse(t, "500d6 + 500d6").Roll(NewRandom(rand.New(rand.NewPCG(1, 2))))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(faces(res.Groups)); n != MaxDice {
		t.Errorf("rolled %d dice, want %d", n, MaxDice)
	}
	sixes := func(n int) []int { return slices.Repeat([]int{6}, n) }
	ones := func(n int) []int { return slices.Repeat([]int{1}, n) }
	tests := []struct {
		input  string
		values []int
		want   string // "" for no error
	}{
		{"999d6!", append([]int{6}, ones(999)...), ""},
		{"1000d6!", append([]int{6}, ones(1000)...), "too many dice (at most 1000 in one roll, counting the dice explosions and rerolls add) at column 1"},
		{"500d6 + 500d6!", append(ones(500), append([]int{6}, ones(500)...)...), "too many dice (at most 1000 in one roll, counting the dice explosions and rerolls add) at column 9"},
		{"999d6r1", append([]int{1}, sixes(999)...), ""},
		{"1000d6r1", append([]int{1}, sixes(1000)...), "too many dice (at most 1000 in one roll, counting the dice explosions and rerolls add) at column 1"},
		{"2#500d6!", append([]int{6}, ones(1000)...), "too many dice (at most 1000 in one roll, counting the dice explosions and rerolls add) at column 3"},
		{"1000d6!!", append([]int{6}, ones(1000)...), "too many dice (at most 1000 in one roll, counting the dice explosions and rerolls add) at column 1"},
	}
	for _, tt := range tests {
		p := NewPhysical(tt.values)
		res, err := mustParse(t, tt.input).Roll(p)
		if tt.want == "" {
			if err != nil {
				t.Errorf("%s: %v", tt.input, err)
			} else if n := len(faces(res.Groups)); n != MaxDice {
				t.Errorf("%s: rolled %d dice, want %d", tt.input, n, MaxDice)
			}
			continue
		}
		var de *Error
		if !errors.As(err, &de) || err.Error() != tt.want {
			t.Errorf("%s: error = %v, want *Error %q", tt.input, err, tt.want)
		}
	}
}

func TestMaxSidesRolls(t *testing.T) {
	res, err := mustParse(t, "1d1000000").Roll(NewPhysical([]int{MaxSides}))
	if err != nil || res.Total != MaxSides {
		t.Errorf("1d1000000 with %d = %v, %v", MaxSides, res, err)
	}
}

type failingRoller struct{ err error }

func (f failingRoller) Roll(int) (int, error) { return 0, f.err }

type badRoller struct{}

func (badRoller) Roll(sides int) (int, error) { return sides + 1, nil }

func TestRollerErrors(t *testing.T) {
	errBroken := errors.New("entropy ran dry")
	_, err := mustParse(t, "1 + 1d20").Roll(failingRoller{errBroken})
	if !errors.Is(err, errBroken) {
		t.Errorf("error = %v, want it to wrap %v", err, errBroken)
	}
	var de *Error
	if errors.As(err, &de) {
		t.Errorf("a Roller's own failure is reported as a user error: %v", err)
	}
	_, err = mustParse(t, "1d20").Roll(badRoller{})
	if err == nil || errors.As(err, &de) {
		t.Errorf("a Roller giving 21 on a d20: error = %v, want a non-user error", err)
	}
}

// TestKeepFirst checks both ways keepFirst selects (picking the kept
// dice, or dropping the others) against a stable sort.
func TestKeepFirst(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 500 {
		n := r.IntN(12)
		dice := make([]Die, n)
		for i := range dice {
			dice[i] = Die{Sides: 4, Value: r.IntN(4) + 1}
		}
		for _, dir := range []int{highest, lowest} {
			for k := -1; k <= n+1; k++ {
				order := make([]int, n)
				for i := range order {
					order[i] = i
				}
				slices.SortStableFunc(order, func(a, b int) int { return dir * (dice[b].Value - dice[a].Value) })
				want := make([]bool, n)
				for _, i := range order[:max(0, min(k, n))] {
					want[i] = true
				}
				keepFirst(dice, k, dir)
				for i, d := range dice {
					if d.Kept != want[i] {
						t.Fatalf("keepFirst(%v, %d, %d): die %d kept %v, want %v", dice, k, dir, i, d.Kept, want[i])
					}
				}
			}
		}
	}
}

func TestRollIntoAllocs(t *testing.T) {
	for _, input := range []string{
		"2d20kh1 + 1d4 + 4d6dl1 + 7",
		"3d6!", "5d6!!", "4d6r1kh3", "4d6ro<3", "1d6mi2ma5", "10d10>=8f1", "8d6!r1kh3>=5",
		"4dF", "adv + 5", "dis", "det", "3v:6 + 4",
		"1d20+5 [to hit] 2d6+3 [slashing]", "2d6[slashing] + 1d8[fire]", "6#4d6kh3",
		"1d20 + som", "3#1d20+str [hit] 2d6+str [dmg]",
	} {
		e := mustParse(t, input)
		// A name is its length: a Lookup that allocates nothing.
		look := func(name string) (int, bool) { return len(name), true }
		roller := NewRandom(rand.New(rand.NewPCG(1, 2)))
		var res Result
		// Explosions and rerolls vary the dice from roll to roll: warm
		// up so that res has room for the most these rolls need. The
		// generator is seeded, so the rolls are the same every run.
		for range 1000 {
			if err := e.RollIntoWith(roller, look, &res); err != nil {
				t.Fatal(err)
			}
		}
		allocs := testing.AllocsPerRun(100, func() {
			if err := e.RollIntoWith(roller, look, &res); err != nil {
				t.Fatal(err)
			}
		})
		if allocs != 0 {
			t.Errorf("%s: RollInto: %v allocs per roll, want 0", input, allocs)
		}
	}
}

func TestRollIntoReuse(t *testing.T) {
	var res Result
	if err := mustParse(t, "3d6 + 1d8").RollInto(NewPhysical([]int{1, 2, 3, 4}), &res); err != nil {
		t.Fatal(err)
	}
	if err := mustParse(t, "1d20").RollInto(NewPhysical([]int{9}), &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Groups) != 1 || res.Groups[0].Expr != "1d20" || !slices.Equal(faces(res.Groups), []int{9}) || res.Total != 9 {
		t.Errorf("reused Result = %+v", res)
	}
}

func TestRollConcurrent(t *testing.T) {
	e := mustParse(t, "4d6kh3 + 1d20")
	var wg sync.WaitGroup
	totals := make([]int, 8)
	for i := range totals {
		wg.Go(func() {
			res, err := e.Roll(NewRandom(rand.New(rand.NewPCG(1, 2))))
			if err != nil {
				t.Error(err)
				return
			}
			totals[i] = res.Total
		})
	}
	wg.Wait()
	for _, got := range totals {
		if got != totals[0] {
			t.Errorf("same seed, different totals: %v", totals)
			break
		}
	}
}
