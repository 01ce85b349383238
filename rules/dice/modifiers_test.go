package dice

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// code writes a die compactly for the tables below: its face, then
// "=V" when it counts another value, "!" when it explodes, "e" for an
// extra roll, "c" for a compounded one, "r" when a reroll replaced it,
// "-" for a die of its own that is not kept, "m" when clamped, "s" for a
// success and "f" for a failure. "6! 6!e 2e 4 3" is 3d6! rolling 6, 6, 2,
// 4, 3: the first 6 exploded into a 6, which exploded into a 2.
func code(d Die) string {
	s := strconv.Itoa(d.Face)
	if d.Value != d.Face {
		s += "=" + strconv.Itoa(d.Value)
	}
	for _, f := range []struct {
		on   bool
		mark string
	}{
		{d.Explodes, "!"}, {d.Extra, "e"}, {d.Compounded, "c"}, {d.Rerolled, "r"},
		{d.unit() && !d.Kept, "-"}, {d.Clamped, "m"}, {d.Success, "s"}, {d.Failure, "f"},
	} {
		if f.on {
			s += f.mark
		}
	}
	return s
}

// codes writes the dice of each group, groups separated by " | ".
func codes(groups []Group) string {
	var gs []string
	for _, g := range groups {
		var ds []string
		for _, d := range g.Dice {
			ds = append(ds, code(d))
		}
		gs = append(gs, strings.Join(ds, " "))
	}
	return strings.Join(gs, " | ")
}

func TestRollModifiers(t *testing.T) {
	tests := []struct {
		input  string
		values []int
		total  int
		dice   string // codes
	}{
		// Explosions: the extra die follows the die that exploded.
		{"3d6!", []int{6, 6, 2, 4, 3}, 21, "6! 6!e 2e 4 3"},
		{"3d6!", []int{1, 2, 3}, 6, "1 2 3"},
		{"3d6!>=5", []int{5, 6, 1, 2, 3}, 17, "5! 6!e 1e 2 3"},
		{"2d6!=1", []int{1, 1, 4, 6}, 12, "1! 1!e 4e 6"},
		{"2d6!<2", []int{1, 5, 3}, 9, "1! 5e 3"},
		{"2d6!>5", []int{6, 5, 3}, 14, "6! 5e 3"},
		{"2d6!<=2", []int{2, 5, 3}, 10, "2! 5e 3"},
		{"1d100!", []int{100, 37}, 137, "100! 37e"},
		{"2d20!kh1", []int{20, 3, 15}, 20, "20! 3e- 15-"},
		// Compounding: the extra rolls add into the die that exploded.
		{"3d6!!", []int{6, 6, 2, 4, 3}, 21, "6=14! 6!ec 2ec 4 3"},
		{"2d6!!kh1", []int{6, 1, 5}, 7, "6=7! 1ec 5-"},
		{"2d6!!kl1", []int{6, 1, 5}, 5, "6=7!- 1ec 5"},
		{"2d6!!>=5", []int{5, 6, 2, 1}, 14, "5=13! 6!ec 2ec 1"},

		// Rerolls: the replaced die is followed by the one that replaced it.
		{"4d6r1", []int{1, 5, 6, 2, 4}, 17, "1r 5 6 2 4"},
		{"4d6r1", []int{1, 1, 5, 6, 2, 4}, 17, "1r 1r 5 6 2 4"},
		{"4d6r<3", []int{1, 2, 5, 6, 2, 4, 3}, 18, "1r 2r 5 6 2r 4 3"},
		{"4d6r<=2", []int{1, 2, 5, 6, 2, 4, 3}, 18, "1r 2r 5 6 2r 4 3"},
		{"2d6r>4", []int{6, 5, 1, 2}, 3, "6r 5r 1 2"},
		{"2d6r=6", []int{6, 3, 2}, 5, "6r 3 2"},
		// "ro" rerolls once, whatever the second roll shows.
		{"4d6ro<3", []int{1, 2, 6, 2, 4, 3}, 15, "1r 2 6 2r 4 3"},
		{"2d6ro1", []int{1, 1, 1, 6}, 7, "1r 1 1r 6"},
		{"4d6r1kh3", []int{1, 5, 6, 2, 4}, 15, "1r 5 6 2- 4"},

		// Clamps change the value a die counts, not its face.
		{"1d6mi3", []int{1}, 3, "1=3m"},
		{"1d6mi3", []int{5}, 5, "5"},
		{"2d6ma4", []int{6, 2}, 6, "6=4m 2"},
		{"3d6mi2ma5", []int{1, 6, 3}, 10, "1=2m 6=5m 3"},
		{"2d6mi3kh1", []int{1, 2}, 3, "1=3m 2=3-m"},
		// A clamp applies to each roll: rerolls test the face first.
		{"1d6r1mi3", []int{1, 2}, 3, "1r 2=3m"},
		// Explosions test the face: a clamped 6 still explodes.
		{"1d6!ma4", []int{6, 6, 2}, 10, "6=4!m 6=4!em 2e"},

		// Success counting counts the kept dice that meet the condition.
		{"10d10>=8", []int{8, 1, 9, 10, 3, 4, 5, 6, 7, 1}, 3, "8s 1 9s 10s 3 4 5 6 7 1"},
		{"10d10>7", []int{8, 1, 9, 10, 3, 4, 5, 6, 7, 1}, 3, "8s 1 9s 10s 3 4 5 6 7 1"},
		{"4d10=10", []int{10, 1, 10, 9}, 2, "10s 1 10s 9"},
		{"4d10<3", []int{10, 1, 2, 9}, 2, "10 1s 2s 9"},
		{"4d10<=3", []int{10, 1, 3, 9}, 2, "10 1s 3s 9"},
		{"3d10>=8", []int{1, 2, 3}, 0, "1 2 3"},
		// Each failure subtracts one.
		{"10d10>=8f1", []int{8, 1, 9, 10, 3, 4, 5, 6, 7, 1}, 1, "8s 1f 9s 10s 3 4 5 6 7 1f"},
		{"4d10>=8f<=2", []int{1, 2, 3, 8}, -1, "1f 2f 3 8s"},
		// A die may be both: +1 and -1.
		{"2d10>=1f1", []int{1, 5}, 1, "1sf 5s"},
		// Dropped dice count neither.
		{"4d10kh2>=8f1", []int{9, 1, 1, 8}, 2, "9s 1- 1- 8s"},
		// Clamped values count.
		{"2d10mi8>=8", []int{1, 9}, 2, "1=8ms 9s"},
		// Extra dice of an explosion are dice of the group. A
		// condition right after "!" is the explosion's.
		{"2d10!=10>=8", []int{10, 9, 3}, 2, "10!s 9es 3"},
		{"2d10>=8!", []int{10, 9, 3}, 2, "10!s 9es 3"},
		{"2d10!>=8", []int{10, 9, 3, 2}, 24, "10! 9!e 3e 2"},
		// And a compounded die counts once, by its sum.
		{"2d6!!=6>=10", []int{6, 5, 6, 2}, 1, "6=11!s 5ec 6=8! 2ec"},

		// Combinations, in the order of the package comment: rerolls
		// and clamps as each die is rolled, then explosions, keep or
		// drop, success counting.
		{"8d6!r1kh3>=5", []int{1, 6, 3, 2, 2, 2, 2, 2, 2, 5}, 2, "1r 6!s 3e 2- 2- 2- 2- 2- 2- 5s"},
		{"1d6r1!!", []int{6, 1, 4}, 10, "6=10! 1ecr 4ec"},
		{"2d6r1!", []int{6, 1, 1, 3, 4}, 13, "6! 1er 1er 3e 4"},

		// Fudge dice from the dice: option are 1 (-1), 2 (0) or 3 (+1).
		{"4dF", []int{1, 2, 3, 3}, 1, "-1 0 1 1"},
		{"4dF+1", []int{1, 1, 1, 1}, -3, "-1 -1 -1 -1"},
		{"4dFkh2", []int{1, 2, 3, 3}, 2, "-1- 0- 1 1"},
		{"4dF=-1", []int{1, 1, 2, 3}, 2, "-1s -1s 0 1"},
		{"4dF>=1f=-1", []int{1, 1, 2, 3}, -1, "-1f -1f 0 1s"},
		{"2dF!", []int{3, 3, 2, 1}, 1, "1! 1!e 0e -1"},
		{"2dFr=-1", []int{1, 2, 3}, 1, "-1r 0 1"},
		{"2dFmi0", []int{1, 3}, 1, "-1=0m 1"},

		// The aliases.
		{"adv", []int{17, 3}, 17, "17 3-"},
		{"dis", []int{17, 3}, 3, "17- 3"},
		{"det", []int{17, 3, 20, 9}, 3, "17- 3 20- 9-"},
		{"Advantage + 5", []int{7, 7}, 12, "7 7-"},
		{"v:20 + 3", []int{12}, 15, "12"},
		{"3v:6 + 4", []int{1, 2, 3}, 10, "1 2 3"},
	}
	for _, tt := range tests {
		t.Run(tt.input, func(t *testing.T) {
			res := rollWith(t, tt.input, tt.values)
			if res.Total != tt.total {
				t.Errorf("Total = %d, want %d", res.Total, tt.total)
			}
			if got := codes(res.Groups); got != tt.dice {
				t.Errorf("dice = %q, want %q", got, tt.dice)
			}
			checkResult(t, res)
			for _, g := range res.Groups {
				for _, d := range g.Dice {
					if !d.Physical {
						t.Errorf("die %+v not marked Physical", d)
					}
				}
			}
		})
	}
}

// checkResult checks what every Result must satisfy.
func checkResult(t *testing.T, res *Result) {
	t.Helper()
	if len(res.Parts) == 0 {
		t.Fatalf("no parts")
	}
	sum, groups := 0, 0
	for _, p := range res.Parts {
		sum += p.Total
		for i := range p.Groups {
			if groups+i >= len(res.Groups) || &p.Groups[i] != &res.Groups[groups+i] {
				t.Errorf("part %q group %d is not a slice of Result.Groups", p.Expr, i)
			}
		}
		groups += len(p.Groups)
	}
	if sum != res.Total {
		t.Errorf("parts total %d, Result.Total %d", sum, res.Total)
	}
	if groups != len(res.Groups) {
		t.Errorf("parts hold %d groups, Result %d", groups, len(res.Groups))
	}
	dice := 0
	for _, g := range res.Groups {
		dice += len(g.Dice)
		total, succ, fail := 0, 0, 0
		for i, d := range g.Dice {
			lo, hi := 1, d.Sides
			if d.Fudge {
				lo, hi = -1, 1
			}
			if d.Face < lo || d.Face > hi {
				t.Errorf("%s: die %d face %d outside %d..%d", g.Expr, i, d.Face, lo, hi)
			}
			if !d.unit() && (d.Kept || d.Success || d.Failure) {
				t.Errorf("%s: rerolled or compounded die %d kept or counted: %+v", g.Expr, i, d)
			}
			if d.Kept {
				total += d.Value
			}
			if d.Success {
				succ++
			}
			if d.Failure {
				fail++
			}
			if (d.Success || d.Failure) && !d.Kept {
				t.Errorf("%s: dropped die %d counted: %+v", g.Expr, i, d)
			}
		}
		if g.Counting {
			if g.Successes != succ || g.Failures != fail || g.Total != succ-fail {
				t.Errorf("%s: Total %d, Successes %d, Failures %d; dice say %d, %d", g.Expr, g.Total, g.Successes, g.Failures, succ, fail)
			}
		} else if g.Total != total {
			t.Errorf("%s: Total %d, kept dice sum to %d", g.Expr, g.Total, total)
		}
	}
	if dice > MaxDice {
		t.Errorf("rolled %d dice, more than MaxDice", dice)
	}
}

// A Physical hands out further values to rerolls and explosions, in the
// order of the dice in the result, and Done still says what is missing.
// A die it makes up once its values have run out neither rerolls nor
// explodes, so what is missing is what the given values call for.
func TestPhysicalModifiers(t *testing.T) {
	tests := []struct {
		input  string
		values []int
		done   string
	}{
		{"3d6!", []int{6, 6, 2, 4}, "dice: 4 values given, 1 more needed: 1d6"},
		{"1d6!", []int{6}, "dice: 1 value given, 1 more needed: 1d6"},
		{"1d6!", []int{6, 6}, "dice: 2 values given, 1 more needed: 1d6"},
		{"2d6!=1", nil, "dice: 0 values given, 2 more needed: 2d6"},
		{"2d6r<6", []int{1}, "dice: 1 value given, 2 more needed: 2d6"},
		{"1d6ro1", []int{1}, "dice: 1 value given, 1 more needed: 1d6"},
		{"3d6!!", []int{6, 6}, "dice: 2 values given, 3 more needed: 3d6"},
		{"1d6r1", []int{2, 1}, "dice: 2 values given but only 1 die rolled"},
		{"2#1d20 [a] 1d8 [b]", []int{5}, "dice: 1 value given, 2 more needed: 1d20, 1d8"},
		{"4dF", []int{1, 2}, "dice: 2 values given, 2 more needed: 2d3"},
	}
	for _, tt := range tests {
		p := NewPhysical(tt.values)
		if _, err := mustParse(t, tt.input).Roll(p); err != nil {
			t.Errorf("%s: Roll: %v", tt.input, err)
			continue
		}
		var de *Error
		if err := p.Done(); !errors.As(err, &de) || err.Error() != tt.done {
			t.Errorf("%s with %v: Done = %v, want %q", tt.input, tt.values, err, tt.done)
		}
	}
	// A value that does not fit: a Fudge die takes 1 to 3.
	_, err := mustParse(t, "2dF").Roll(NewPhysical([]int{1, 4}))
	if want := "dice: value 4 at position 2 does not fit a d3 (1-3)"; err == nil || err.Error() != want {
		t.Errorf("2dF with 1, 4: error %v, want %q", err, want)
	}
}

// MaxRerolls and MaxExplosions end a chain of rolls: the last roll then
// stands.
func TestRollChainLimits(t *testing.T) {
	ones := slices.Repeat([]int{1}, MaxRerolls+1)
	res, err := mustParse(t, "1d20r<20").Roll(NewPhysical(ones))
	if err != nil {
		t.Fatal(err)
	}
	dice := res.Groups[0].Dice
	if len(dice) != MaxRerolls+1 || res.Total != 1 {
		t.Fatalf("1d20r<20 rolling ones: %d dice, total %d; want %d dice, total 1", len(dice), res.Total, MaxRerolls+1)
	}
	for i, d := range dice {
		if d.Rerolled != (i < MaxRerolls) || d.Kept != (i == MaxRerolls) {
			t.Errorf("die %d: %s", i, code(d))
		}
	}

	twos := slices.Repeat([]int{2}, MaxExplosions+1)
	for _, input := range []string{"1d2!", "1d2!!"} {
		p := NewPhysical(twos)
		res, err = mustParse(t, input).Roll(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Done(); err != nil {
			t.Errorf("%s: Done: %v", input, err)
		}
		dice = res.Groups[0].Dice
		if len(dice) != MaxExplosions+1 || res.Total != 2*(MaxExplosions+1) {
			t.Fatalf("%s rolling twos: %d dice, total %d; want %d dice, total %d", input, len(dice), res.Total, MaxExplosions+1, 2*(MaxExplosions+1))
		}
		for i, d := range dice {
			if d.Explodes != (i < MaxExplosions) || d.Extra != (i > 0) {
				t.Errorf("%s die %d: %s", input, i, code(d))
			}
		}
	}
}

// A condition that holds for almost every face still ends, at random.
func TestRollLongChains(t *testing.T) {
	r := NewRandom(rand.New(rand.NewPCG(7, 8)))
	for _, input := range []string{"1d20r<20", "1d1000000r<1000000", "1d2!", "10d20!<20", "1d6!!>1", "1d1000000!<1000000"} {
		e := mustParse(t, input)
		for range 20 {
			res, err := e.Roll(r)
			var de *Error
			if err != nil && !(errors.As(err, &de) && strings.HasPrefix(de.Msg, "too many dice")) {
				t.Fatalf("%s: %v", input, err)
			}
			if err == nil {
				checkResult(t, res)
			}
		}
	}
}

func TestRollParts(t *testing.T) {
	type part struct {
		label, expr string
		total       int
		groups      []string // Expr of each group
	}
	tests := []struct {
		input  string
		values []int
		total  int
		parts  []part
		labels []string // of every group
	}{
		{"1d20+5 [to hit] 2d6+3 [slashing]", []int{14, 3, 4}, 29,
			[]part{{"to hit", "1d20 + 5", 19, []string{"1d20"}}, {"slashing", "2d6 + 3", 10, []string{"2d6"}}},
			[]string{"", ""}},
		// A label on a dice term labels its group; the label that ends
		// a part also names the part.
		{"2d6[slashing] + 1d8[fire]", []int{3, 4, 5}, 12,
			[]part{{"fire", "2d6 [slashing] + 1d8", 12, []string{"2d6", "1d8"}}},
			[]string{"slashing", "fire"}},
		{"1d20 [to hit] 1d8", []int{14, 5}, 19,
			[]part{{"to hit", "1d20", 14, []string{"1d20"}}, {"", "1d8", 5, []string{"1d8"}}},
			[]string{"to hit", ""}},
		{"7", nil, 7, []part{{"", "7", 7, nil}}, nil},
		{"6#4d6kh3", []int{6, 5, 2, 4, 1, 1, 1, 1, 6, 6, 6, 6, 3, 3, 3, 3, 2, 2, 2, 2, 5, 4, 3, 2}, 15 + 3 + 18 + 9 + 6 + 12,
			[]part{
				{"", "4d6kh3", 15, []string{"4d6kh3"}}, {"", "4d6kh3", 3, []string{"4d6kh3"}}, {"", "4d6kh3", 18, []string{"4d6kh3"}},
				{"", "4d6kh3", 9, []string{"4d6kh3"}}, {"", "4d6kh3", 6, []string{"4d6kh3"}}, {"", "4d6kh3", 12, []string{"4d6kh3"}},
			},
			[]string{"", "", "", "", "", ""}},
		{"2#1d20+5 [attack] 1d8+2 [damage]", []int{11, 19, 4}, 16 + 24 + 6,
			[]part{{"attack", "1d20 + 5", 16, []string{"1d20"}}, {"attack", "1d20 + 5", 24, []string{"1d20"}}, {"damage", "1d8 + 2", 6, []string{"1d8"}}},
			[]string{"", "", ""}},
		{"(1d20+5)[hit] 2d6[dmg]", []int{10, 1, 2}, 18,
			[]part{{"hit", "(1d20 + 5)", 15, []string{"1d20"}}, {"dmg", "2d6", 3, []string{"2d6"}}},
			[]string{"", "dmg"}},
	}
	for _, tt := range tests {
		t.Run(tt.input, func(t *testing.T) {
			res := rollWith(t, tt.input, tt.values)
			checkResult(t, res)
			if res.Total != tt.total {
				t.Errorf("Total = %d, want %d", res.Total, tt.total)
			}
			var got []part
			for _, p := range res.Parts {
				var gs []string
				for _, g := range p.Groups {
					gs = append(gs, g.Expr)
				}
				got = append(got, part{p.Label, p.Expr, p.Total, gs})
			}
			if !slices.EqualFunc(got, tt.parts, func(a, b part) bool {
				return a.label == b.label && a.expr == b.expr && a.total == b.total && slices.Equal(a.groups, b.groups)
			}) {
				t.Errorf("Parts = %+v\nwant %+v", got, tt.parts)
			}
			var labels []string
			for _, g := range res.Groups {
				labels = append(labels, g.Label)
			}
			if !slices.Equal(labels, tt.labels) {
				t.Errorf("group labels = %q, want %q", labels, tt.labels)
			}
		})
	}
}

// A repeat counts its dice against MaxDice together, and each
// repetition is rolled afresh.
func TestRollRepeat(t *testing.T) {
	res, err := mustParse(t, "100#10d6").Roll(NewRandom(rand.New(rand.NewPCG(1, 2))))
	if err != nil {
		t.Fatal(err)
	}
	checkResult(t, res)
	if len(res.Parts) != 100 || len(faces(res.Groups)) != MaxDice {
		t.Errorf("100#10d6: %d parts, %d dice", len(res.Parts), len(faces(res.Groups)))
	}
	distinct := map[int]bool{}
	for _, p := range res.Parts {
		distinct[p.Total] = true
	}
	if len(distinct) < 5 {
		t.Errorf("100#10d6 totals: only %d distinct values", len(distinct))
	}
}
