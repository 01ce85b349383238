package kit

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestShorten(t *testing.T) {
	dice := func(n int, face string) string { return strings.TrimSuffix(strings.Repeat(face+", ", n), ", ") }
	for _, tt := range []struct {
		name, text string
		limit      int
		want       string
	}{
		{"fits", "4d6 (1, 2, 3, 4) = 10", 100, "4d6 (1, 2, 3, 4) = 10"},
		{"fewer dice", "20d6 (" + dice(20, "6") + ") = 120", 0, "20d6 (6, 6, 6, … and 17 more dice) = 120"},
		{"the same number in each list", "a: 12d6 (" + dice(12, "6") + ") = 72\nb: 20d6 (" + dice(20, "1") + ") = 20", 0,
			"a: 12d6 (6, 6, 6, 6, … and 8 more dice) = 72\nb: 20d6 (1, 1, 1, 1, … and 16 more dice) = 20"},
		{"counts alone", "2#8d6\n8d6 (" + dice(8, "3") + ") = 24\n8d6 (" + dice(8, "4") + ") = 32", 0, "2#8d6\n8d6 (8 dice) = 24\n8d6 (8 dice) = 32"},
		{"no dice", "3#8d6\n8d6 (" + dice(8, "3") + ") = 24\n8d6 (" + dice(8, "4") + ") = 32\n8d6 (" + dice(8, "5") + ") = 40", 0,
			"3#8d6\n8d6 = 24\n8d6 = 32\n8d6 = 40"},
		{"marks", "13d20 (**20**, ~~1~~→5, " + dice(11, "6!+6!+2") + ") = 39", 0, "13d20 (**20**, ~~1~~→5, … and 11 more dice) = 39"},
		{"not dice: cut", strings.Repeat("x", 300), 100, Truncate(strings.Repeat("x", 300), 100, TruncNote)},
		{"words in parentheses are not dice", "Goblin (hp 7 -> 0) took a hit (12 really)" + strings.Repeat(" and", 30), 100, Truncate("Goblin (hp 7 -> 0) took a hit (12 really)"+strings.Repeat(" and", 30), 100, TruncNote)},
	} {
		if tt.limit == 0 {
			tt.limit = utf8.RuneCountInString(tt.want) // the most dice that fit
		}
		got, cut := Shorten(tt.text, tt.limit)
		if got != tt.want || cut != (tt.text != tt.want) || utf8.RuneCountInString(got) > tt.limit {
			t.Errorf("%s:\n got %q (%v)\nwant %q", tt.name, got, cut, tt.want)
		}
	}
}
