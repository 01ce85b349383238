package dice

import "testing"

// TestReasonDoubt: the examples of ReasonDoubt's comment, and reasons
// that hold nothing to roll.
func TestReasonDoubt(t *testing.T) {
	isStat := func(w string) bool { return w == "str" }
	for _, tt := range []struct {
		src  string
		want Doubt
		ok   bool
	}{
		{"1d20+5 to hit, with bless +1d4", Doubt{Word: "+1d4", Rolled: "1d20 + 5 + 1d4 # to hit, with bless", Words: "1d20 + 5 # to hit, with bless +1d4"}, true},
		{"1d20+5 to hit -1d4 bane", Doubt{Word: "-1d4", Rolled: "1d20 + 5 - 1d4 # to hit bane", Words: "1d20 + 5 # to hit -1d4 bane"}, true},
		{"1d20+5 to hit adv", Doubt{Word: "adv", Rolled: "2d20kh1 + 5 # to hit", Words: "1d20 + 5 # to hit adv"}, true},
		{"1d20 str to hit", Doubt{Word: "str", Rolled: "1d20 + str # to hit", Words: "1d20 # str to hit"}, true},
		{"1d20+5 # to hit adv", Doubt{}, false},
		{"2d6 for fun", Doubt{}, false},
	} {
		e, err := Parse(tt.src)
		if err != nil {
			t.Fatalf("%q: %v", tt.src, err)
		}
		if got, ok := e.ReasonDoubt(isStat); got != tt.want || ok != tt.ok {
			t.Errorf("%q: %+v %v, want %+v %v", tt.src, got, ok, tt.want, tt.ok)
		}
	}
}
