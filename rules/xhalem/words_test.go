package xhalem

import "testing"

// Every word a table offers reads back as its value, and a word it does
// not know is a mistake naming the words to use.
func TestWordsReadWhatTheyOffer(t *testing.T) {
	check := func(name string, choices []string, parse func(string) error) {
		t.Helper()
		if len(choices) == 0 {
			t.Errorf("%s offers no words", name)
		}
		for _, c := range choices {
			if err := parse(c); err != nil {
				t.Errorf("%s: its own word %q: %v", name, c, err)
			}
		}
	}
	check("kinds", Kinds.Choices(), func(s string) error { _, err := Kinds.Parse(s); return err })
	check("modes", Modes.Choices(), func(s string) error { _, err := Modes.Parse(s); return err })
	check("targets", TargetWords.Choices(), func(s string) error { _, err := TargetWords.Parse(s); return err })
	check("sizes", SizeWords.Choices(), func(s string) error { _, err := SizeWords.Parse(s); return err })
	check("positions", PositionWords.Choices(), func(s string) error { _, err := PositionWords.Parse(s); return err })
	if got := SizeWords.Choices(); len(got) != len(Sizes) || got[0] != "small" {
		t.Errorf("SizeWords.Choices() = %v: the unknown size \"\" is read, not offered", got)
	}
	for _, tc := range []struct {
		err  error
		want string
	}{
		{second(ParseMode(" Double ")), `mode " Double ": use normal, advantage, disadvantage or detriment`},
		{second(ParseDamageType("acid")), `damage type "acid": use fire, electrical or other`},
		{second(ParseWater("wet")), `underwater "wet": use no, yes or adapted`},
		{second(ParseKind("robot")), `kind "robot": use machine or creature`},
	} {
		if tc.err == nil || tc.err.Error() != tc.want {
			t.Errorf("err = %v, want %s", tc.err, tc.want)
		}
	}
}

func second[T any](_ T, err error) error { return err }
