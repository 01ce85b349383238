package core

import (
	"testing"

	"github.com/tablehand/tablehand/db"
)

// A roll names a saved roll when it begins with a word that could be a
// macro's name, alone or after a repeat; dice, numbers and words that
// read as dice name none.
func TestReadMacroCall(t *testing.T) {
	for _, tc := range []struct {
		text               string
		ok                 bool
		prefix, name, rest string
	}{
		{"atk", true, "", "atk", ""},
		{"ATK+2", true, "", "atk", "+2"},
		{"atk +2", true, "", "atk", " +2"},
		{"2#atk", true, "2#", "atk", ""},
		{" 2 # atk*2", true, "2#", "atk", "*2"},
		{"atk to hit", true, "", "atk", " to hit"},
		{"atk[to hit]", true, "", "atk", "[to hit]"},
		{"fire_bolt", true, "", "fire_bolt", ""},
		{"1d20+5", false, "", "", ""},
		{"d20", false, "", "", ""},
		{"adv+5", false, "", "", ""},
		{"2 atk", false, "", "", ""}, // a number with the reason "atk"
		{"(atk)", false, "", "", ""},
		{"-atk", false, "", "", ""},
		{"_atk", false, "", "", ""},
		{"", false, "", "", ""},
		{"abcdefghijabcdefghijabcdefghijabc", false, "", "", ""}, // 33: longer than any name
	} {
		c, ok := readMacroCall(tc.text)
		if ok != tc.ok || c.prefix != tc.prefix || c.name != tc.name || c.rest != tc.rest {
			t.Errorf("readMacroCall(%q) = %+v, %v; want prefix %q name %q rest %q, %v", tc.text, c, ok, tc.prefix, tc.name, tc.rest, tc.ok)
		}
	}
}

// A saved roll goes in as saved when alone, in parentheses with anything
// around it, its reason after the whole unless one is typed.
func TestExpand(t *testing.T) {
	for _, tc := range []struct {
		text, roll, want string
	}{
		{"atk", "1d20+5 to hit", "1d20+5 to hit"},
		{"atk+2", "1d20+5", "(1d20+5)+2"},
		{"atk*2", "1d20+5", "(1d20+5)*2"},
		{"2#atk", "1d20+5", "2#(1d20+5)"},
		{"atk+2", "1d20+5 to hit", "(1d20+5)+2 # to hit"},
		{"atk+2", "1d20+5 # to hit", "(1d20+5)+2 # to hit"},
		{"atk+2", "3d6! fire", "(3d6!)+2 # fire"},
		{"atk+2 with bless", "1d20+5 to hit", "(1d20+5)+2 with bless"},
		{"atk+1", "2d6 [fire]", "(2d6 [fire])+1"},
		{"atk+som", "1d20+som", "(1d20+som)+som"},
	} {
		c, ok := readMacroCall(tc.text)
		if !ok {
			t.Fatalf("%q names no macro", tc.text)
		}
		got, err := c.expand(db.Macro{Name: c.name, Roll: tc.roll})
		if err != nil || got != tc.want {
			t.Errorf("%q with %q = %q, %v; want %q", tc.text, tc.roll, got, err, tc.want)
		}
	}
	for _, roll := range []string{"1d20+5 [to hit] 2d6 [slashing]", "6#4d6kh3"} {
		c, _ := readMacroCall("atk+2")
		if got, err := c.expand(db.Macro{Name: "atk", Roll: roll}); err == nil {
			t.Errorf("atk+2 with %q = %q; want the mistake of a roll of several parts", roll, got)
		}
		c, _ = readMacroCall("atk")
		if got, err := c.expand(db.Macro{Name: "atk", Roll: roll}); err != nil || got != roll {
			t.Errorf("atk alone with %q = %q, %v; want it as saved", roll, got, err)
		}
	}
}

func TestMacroName(t *testing.T) {
	for _, tc := range []struct{ raw, want string }{
		{"atk", "atk"}, {" Fire_Bolt ", "fire_bolt"}, {"abcdefghijabcdefghijabcdefghijab", "abcdefghijabcdefghijabcdefghijab"},
	} {
		if got, err := macroName(tc.raw); err != nil || got != tc.want {
			t.Errorf("macroName(%q) = %q, %v; want %q", tc.raw, got, err, tc.want)
		}
	}
	for _, raw := range []string{"", "d20", "adv", "kh", "big hit", "@everyone", "<@123>", "a`b", "a\u200bb", "**bold**", "~x~", "1st", "abcdefghijabcdefghijabcdefghijabc"} {
		if got, err := macroName(raw); err == nil {
			t.Errorf("macroName(%q) = %q; want a mistake", raw, got)
		}
	}
}
