package xhalem

import (
	"testing"

	"github.com/tablehand/tablehand/commands/kit"
	rules "github.com/tablehand/tablehand/rules/xhalem"
)

// call is a Call of opts without a sheet or dice: enough to read options.
func call(opts kit.Options) *kit.Call {
	return &kit.Call{Req: &kit.Request{Path: "xhalem/engage", Options: opts}}
}

// errText is the message of c's first mistake, "" without one.
func errText(c *kit.Call) string {
	if err := c.Err(); err != nil {
		if _, ok := kit.AsUserError(err); !ok {
			return "not a user error: " + err.Error()
		}
		return err.Error()
	}
	return ""
}

// Of two numbers out of range, the first by name is told, every time.
func TestCheckRanges(t *testing.T) {
	for range 20 {
		c := call(kit.Options{"resist": int64(-2_000_000), "evasion": int64(3_000_000), "bonus": int64(1_000_000)})
		checkRanges(c, "EX")
		want := "evasion:3000000 is out of range: numbers go from -1000000 to 1000000 (example: EX)"
		if got := errText(c); got != want {
			t.Fatalf("checkRanges: %q, want %q", got, want)
		}
	}
	c := call(kit.Options{"bonus": int64(-1_000_000), "kind": "machine"})
	if checkRanges(c, "EX"); c.Err() != nil {
		t.Errorf("checkRanges of numbers in range: %v", c.Err())
	}
}

// pick lower-cases and trims the word for the rules, and their mistake
// quotes it so; mode: is read as given, so its mistake quotes the user's
// text; a mistake in target_mode: names the option.
func TestPickAndModes(t *testing.T) {
	c := call(kit.Options{"underwater": " YES "})
	if w := pick(c, "underwater", rules.ParseWater, "EX"); w != rules.Underwater || c.Err() != nil {
		t.Errorf("pick underwater: %q, %v", w, c.Err())
	}
	tests := []struct {
		name string
		opts kit.Options
		want string
	}{
		{"pick quotes the lowered word", kit.Options{"underwater": " Deep "}, `underwater "deep": use no, yes or adapted (example: EX)`},
		{"mode as given", kit.Options{"mode": " Double "}, `mode " Double ": use normal, advantage, disadvantage or detriment (example: EX)`},
		{"target_mode named", kit.Options{"target_mode": "x"}, `target_mode: mode "x": use normal, advantage, disadvantage or detriment (example: EX)`},
		{"the first mistake is kept", kit.Options{"mode": "x", "target_mode": "y"}, `mode "x": use normal, advantage, disadvantage or detriment (example: EX)`},
		{"sizes add their example", kit.Options{"size": "tiny"}, `size "tiny": use small, medium, large, extra_large, giant, gargantuan or behemoth (example: EX size:medium target_size:large)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := call(tt.opts)
			pick(c, "underwater", rules.ParseWater, "EX")
			modes(c, "EX")
			sizes(c, "EX")
			if got := errText(c); got != tt.want {
				t.Errorf("got %q\nwant %q", got, tt.want)
			}
		})
	}
}
