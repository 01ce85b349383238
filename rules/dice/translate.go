package dice

import (
	"regexp"
	"strconv"
	"strings"
)

// Translate reads what players paste from other tools and the aliases of
// Dice Maiden, before Parse: Roll20's inline roll "[[1d20]]", a chat
// command in front of the roll ("/r 4d6kh3", "!r 1d20", "/roll",
// "!roll", "/gr", "/gmroll"), and, as the first word, Dice Maiden's
// aliases ("dndstats", "4cod", "+d20", "sr6"...), written in Dice
// Maiden's own notation, which Parse reads. It returns the text to parse
// and, when it changed src, a line saying how it was read ("" when src
// is left as it is). Translate is pure and cheap: a few string tests.
func Translate(src string) (text, note string) {
	text = strings.TrimSpace(src)
	var notes []string
	if inner, ok := strings.CutPrefix(text, "[["); ok {
		if inner, ok := strings.CutSuffix(inner, "]]"); ok && !strings.Contains(inner, "[[") {
			text = strings.TrimSpace(inner)
			notes = append(notes, "Roll20's `[[ ]]` left out")
		}
	}
	if word, rest, _ := strings.Cut(text, " "); chatCommands[strings.ToLower(word)] && strings.TrimSpace(rest) != "" {
		text = strings.TrimSpace(rest)
		notes = append(notes, "`"+word+"` left out: type the roll alone")
	}
	word, rest, _ := strings.Cut(text, " ")
	if alias, n := expandAlias(word); alias != "" {
		text = strings.TrimSpace(alias + word[n:] + " " + rest)
		notes = append(notes, "Dice Maiden's `"+word[:n]+"` is `"+alias+"`")
	}
	if len(notes) == 0 {
		return src, ""
	}
	return text, "read as `" + text + "`: " + strings.Join(notes, "; ")
}

// chatCommands are the commands players type in front of a roll in
// Roll20 ("/r", "/roll", "/gr", "/gmroll"), Avrae ("!r", "!roll") and
// Dice Maiden before its slash command ("!roll").
var chatCommands = map[string]bool{"/r": true, "/roll": true, "/gr": true, "/gmroll": true, "!r": true, "!roll": true}

// diceMaidenAliases are the aliases of Dice Maiden's README, each a
// pattern of the start of a word (the rest of the word, from a character
// that is no letter or digit, follows it: "+d20+5") and its expansion in Dice Maiden's notation
// ($1, $2 its numbers), in the order the README lists them.
var diceMaidenAliases = []struct {
	re     *regexp.Regexp
	expand string
}{
	{regexp.MustCompile(`^(\d+)cod([89])`), "${1}d10 t8 ie${2}"},  // Chronicles of Darkness, 8-again, 9-again
	{regexp.MustCompile(`^(\d+)cod`), "${1}d10 t8 ie10"},          // Chronicles of Darkness
	{regexp.MustCompile(`^(\d+)wod(\d+)`), "${1}d10 f1 ie10 t$2"}, // World of Darkness
	{regexp.MustCompile(`^(\d+)wh(\d+)\+`), "${1}d6 t$2"},         // Warhammer
	{regexp.MustCompile(`^dd(\d)(\d)`), "(1d$1 * 10) + 1d$2"},     // double digit, "d66"
	{regexp.MustCompile(`^age`), "2d6 + 1d6"},                     // the AGE system
	{regexp.MustCompile(`^\+d(\d+)`), "2d$1 d1"},                  // advantage
	{regexp.MustCompile(`^-d(\d+)`), "2d$1 kl1"},                  // disadvantage
	{regexp.MustCompile(`^snm(\d+)`), "${1}d6 ie6 t4"},            // Sunsails: New Millennium
	{regexp.MustCompile(`^d6s(\d+)`), "${1}d6 + 1d6 ie"},          // the D6 System
	{regexp.MustCompile(`^sr(\d+)`), "${1}d6 t5"},                 // Shadowrun
	{regexp.MustCompile(`^sp(\d+)`), "${1}d10 t8 ie10"},           // Storypath
	{regexp.MustCompile(`^(\d+)yz`), "${1}d6 t6"},                 // Year Zero
	{regexp.MustCompile(`^dndstats`), "6 4d6 k3"},                 // D&D ability scores
}

// expandAlias returns Dice Maiden's expansion of the alias word begins
// with, and the alias's length; "" when there is none.
func expandAlias(word string) (string, int) {
	lw := strings.ToLower(word)
	for _, a := range diceMaidenAliases {
		m := a.re.FindStringSubmatchIndex(lw)
		if m == nil || m[1] < len(lw) && isWord(lw[m[1]]) {
			continue
		}
		// Numbers too large for a die are left unread: Parse names the limit.
		for i := 2; i < len(m); i += 2 {
			if n, err := strconv.Atoi(lw[m[i]:m[i+1]]); err != nil || n > MaxSides {
				return "", 0
			}
		}
		return string(a.re.ExpandString(nil, a.expand, lw, m)), m[1]
	}
	return "", 0
}
