package kit

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/tablehand/tablehand/rules/words"
)

// Article is "an" before a vowel sound, "a" otherwise: "an arc
// character" (words.Article).
func Article(word string) string { return words.Article(word) }

// inlineEscaper escapes the markdown that works inside a line (emphasis,
// strike, spoiler, code), leaving what only counts at a line's start.
var inlineEscaper = strings.NewReplacer(`\`, `\\`, `*`, `\*`, `_`, `\_`, `~`, `\~`, `|`, `\|`, "`", "\\`")

// EscapeInline keeps text from users (names in an event, an expression in
// a title) from turning into formatting.
func EscapeInline(s string) string { return inlineEscaper.Replace(s) }

// Decimal formats x with at most two decimals: 10.5, 2.96.
func Decimal(x float64) string {
	s := strconv.FormatFloat(math.Round(x*100)/100, 'f', -1, 64)
	if s == "-0" {
		s = "0"
	}
	return s
}

// Percent formats a probability as a percentage with at most two
// decimals, never rounding a possible outcome to 0% or a doubtful one to
// 100%.
func Percent(p float64) string {
	switch {
	case p <= 0:
		return "0%"
	case p >= 1:
		return "100%"
	case p < 0.0001:
		return "<0.01%"
	case p > 0.9999:
		return ">99.99%"
	}
	return strconv.FormatFloat(math.Round(p*10000)/100, 'f', -1, 64) + "%"
}

// Thousands formats n with commas between thousands: 100,000.
func Thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// DisplayName is the name to show for u, with Discord markdown escaped so a
// name like "*bob*" shows as written.
func DisplayName(u User) string {
	name := u.Name
	if name == "" {
		name = u.ID
	}
	return EscapeMarkdown(name)
}

var markdownEscaper = strings.NewReplacer(`\`, `\\`, `*`, `\*`, `_`, `\_`, "`", "\\`", `~`, `\~`, `|`, `\|`, `>`, `\>`, `#`, `\#`, `-`, `\-`)

func EscapeMarkdown(s string) string { return markdownEscaper.Replace(s) }

// CodeSafe keeps s inside a `code span`: a backtick (from a label) would
// end it, so it becomes a look-alike.
func CodeSafe(s string) string { return strings.ReplaceAll(s, "`", "ˋ") }

// Timestamp renders t as Discord's timestamp markup in style ("F": the
// full date and time, "R": how long ago), which each reader's client
// shows in their own zone.
func Timestamp(t time.Time, style string) string {
	return "<t:" + strconv.FormatInt(t.Unix(), 10) + ":" + style + ">"
}
