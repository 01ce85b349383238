package commands

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tablehand/tablehand/commands/kit"
)

// TestLongRollsKeepTheirTotals rolls the largest expressions the limits
// allow (1000 dice, 100 repeats) through /roll, as Discord would receive
// the reply: each fits one message, and every line of the whole roll (in
// the full.txt attachment) keeps its expression and its total; only dice
// are left out, and it says how many.
func TestLongRollsKeepTheirTotals(t *testing.T) {
	it := newInitTable(t)
	for _, expr := range []string{
		"1000d6", "1000d1000000!", "1000d20kh500", "1000d10>=8", "100#10d6", "4#250d6", "10#100d100",
		"1d20+5 [to hit] 990d6 [slashing damage]", "500d6 + 500d8 - 12",
	} {
		resp := it.Must("player", "/roll "+expr)
		if n := utf8.RuneCountInString(resp.Content); n > kit.MaxContent {
			t.Errorf("/roll %s: %d characters", expr, n)
		}
		if strings.Contains(resp.Content, "truncated") {
			t.Errorf("/roll %s: cut: %s", expr, resp.Content)
		}
		var full string
		for _, f := range resp.Files {
			if f.Name == "full.txt" {
				full = string(f.Data)
			}
		}
		if full == "" {
			t.Errorf("/roll %s: shortened without the whole roll attached", expr)
			continue
		}
		got, want := strings.Split(resp.Content, "\n"), strings.Split(full, "\n")
		if len(got) != len(want) {
			t.Errorf("/roll %s: %d lines, the whole roll has %d", expr, len(got), len(want))
			continue
		}
		for i := range want {
			head, _, _ := strings.Cut(want[i], " (")
			_, total, hasTotal := strings.Cut(want[i], ") = ")
			if !strings.HasPrefix(got[i], head) || (hasTotal && !strings.HasSuffix(got[i], " = "+total)) {
				t.Errorf("/roll %s: line %d is %q, of %q", expr, i, got[i], want[i])
			}
		}
		if !strings.Contains(resp.Content, "more dice)") && !strings.Contains(resp.Content, " dice)") && expr != "100#10d6" {
			t.Errorf("/roll %s: does not say how many dice it leaves out: %s", expr, resp.Content)
		}
	}
}

// TestShortReplyIsUntouched: a reply that fits is sent as it is, with no
// attachment.
func TestShortReplyIsUntouched(t *testing.T) {
	it := newInitTable(t)
	resp := it.Must("player", "/roll 4d6kh3 dice:6,5,2,4")
	if !strings.Contains(resp.Content, "4d6kh3 (6, 5, ~~2~~, 4) = 15") || len(resp.Files) != 0 {
		t.Errorf("%q, %d files", resp.Content, len(resp.Files))
	}
}
