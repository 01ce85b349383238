package core

// A roll that names a saved roll (/macro): /roll atk, atk+2, 2#atk. The
// macro is expanded here, before the dice language sees the text, so the
// grammar of rules/dice knows nothing of macros.

import (
	"errors"
	"fmt"
	"strings"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/db"
	"github.com/tablehand/tablehand/rules/dice"
)

// macroCall is a roll's text read as a use of a macro: prefix (a repeat,
// "2#", or ""), the macro's name (in lower case) and the rest of the
// text after it ("+2", " to hit", "").
type macroCall struct {
	typed, prefix, name, rest string
}

// readMacroCall reads text as a use of a macro: an optional repeat count
// and '#', then a word that could name a macro (macroNameOK), then the end,
// white space or anything that is no letter, digit or '_'. ok is false when
// the text begins otherwise (with dice, a number, '(' or '-'): such a roll
// names no macro, and /roll reads no macros for it.
func readMacroCall(text string) (c macroCall, ok bool) {
	c.typed = text
	s := strings.TrimLeft(text, " ")
	if i := strings.IndexFunc(s, func(r rune) bool { return r < '0' || r > '9' }); i > 0 {
		j := i + len(s[i:]) - len(strings.TrimLeft(s[i:], " "))
		if j >= len(s) || s[j] != '#' {
			return macroCall{}, false
		}
		k := j + 1 + len(s[j+1:]) - len(strings.TrimLeft(s[j+1:], " "))
		c.prefix, s = s[:i]+"#", s[k:]
	}
	end := 0
	for end < len(s) && isWordByte(s[end]) {
		end++
	}
	word := strings.ToLower(s[:end])
	if !macroNameOK(word) {
		return macroCall{}, false
	}
	c.name, c.rest = word, s[end:]
	return c, true
}

func isWordByte(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

// macroNameOK reports whether word (in lower case) can name a macro: a
// word of letters, digits and '_' that begins with a letter, at most
// maxMacroName long, and that the dice language does not read as dice
// (d20, adv, kh: /roll would roll those, not a macro).
func macroNameOK(word string) bool {
	return word != "" && len(word) <= maxMacroName && word[0] >= 'a' && word[0] <= 'z' && !dice.Reserved(word)
}

// expand returns the text to roll: the macro's roll in place of its name.
// Alone (/roll atk) it is the macro's roll as saved; with a repeat or
// more after it, it goes in parentheses ((1d20+5)+2, 2#(1d20+5)), its
// reason after the whole roll unless the text gives its own. A mistake
// (a roll of several parts inside another) is the user's, with an example.
func (c macroCall) expand(m db.Macro) (string, error) {
	if c.prefix == "" && strings.TrimSpace(c.rest) == "" {
		return m.Roll, nil
	}
	core, reason := splitReason(m.Roll)
	if _, err := dice.Parse("(" + core + ")"); err != nil {
		// 1d20+5 [to hit] 2d6 [slashing], 6#4d6kh3: no parentheses hold it.
		return "", kit.Errorf("%s is %s, a roll of several parts or repeats: roll it alone (example: /roll %s), or type out in full the roll you mean",
			c.name, describe(m), c.name)
	}
	text := c.prefix + "(" + core + ")" + c.rest
	if reason != "" {
		if e, err := dice.Parse(text); err == nil && e.Reason() == "" {
			text += " # " + reason
		}
	}
	return text, nil
}

// splitReason splits a saved roll into its expression and its reason
// ("1d20+5 to hit": "1d20+5", "to hit"); roll whole and "" when it has
// none, or when the two cannot be told apart safely.
func splitReason(roll string) (core, reason string) {
	roll = strings.TrimSpace(roll)
	e, err := dice.Parse(roll)
	if err != nil || e.Reason() == "" {
		return roll, ""
	}
	reason = e.Reason()
	s := strings.TrimSpace(strings.TrimSuffix(roll, reason))
	switch {
	case strings.HasSuffix(s, "#"):
		s = strings.TrimSpace(strings.TrimSuffix(s, "#"))
	case strings.HasSuffix(s, " !"):
		s = strings.TrimSpace(strings.TrimSuffix(s, "!"))
	}
	if c, err := dice.Parse(s); err != nil || c.Reason() != "" {
		return roll, ""
	}
	return s, reason
}

// describe names a macro's roll and whose it is, for messages.
func describe(m db.Macro) string {
	whose := "your saved roll"
	if m.Server() {
		whose = "the server's saved roll"
	}
	return fmt.Sprintf("%s `%s`", whose, kit.CodeSafe(m.Roll))
}

// usedMacro is the macro a roll used, for its reply and result.
type usedMacro struct {
	call  macroCall
	macro db.Macro
	text  string // what was rolled
}

// line is the reply's line that says what the roll expanded to.
func (u *usedMacro) line() string {
	if strings.TrimSpace(u.call.typed) == u.macro.Name {
		return fmt.Sprintf("-# %s is %s (/macro list)", u.macro.Name, describe(u.macro))
	}
	return fmt.Sprintf("-# `%s` is `%s`: %s is %s (/macro list)",
		kit.CodeSafe(strings.TrimSpace(u.call.typed)), kit.CodeSafe(u.text), u.macro.Name, describe(u.macro))
}

// result is the console's record of the macro (kit.RollResult.Macro).
func (u *usedMacro) result() *kit.RollMacro {
	scope := scopeMe
	if u.macro.Server() {
		scope = scopeServer
	}
	return &kit.RollMacro{Typed: strings.TrimSpace(u.call.typed), Name: u.macro.Name, Roll: u.macro.Roll, Scope: scope, Expanded: u.text}
}

// explain puts what the roll expanded to in front of a mistake of the
// roll's (a *UserError), so that a mistake of the macro's roll is not
// taken for one of the text typed. A nil u (no macro) or another error
// passes unchanged.
func (u *usedMacro) explain(err error) error {
	var ue *kit.UserError
	if u == nil || !errors.As(err, &ue) {
		return err
	}
	out := *ue
	out.Msg = fmt.Sprintf("`%s` is `%s` (%s is %s): %s", kit.CodeSafe(strings.TrimSpace(u.call.typed)), kit.CodeSafe(u.text), u.macro.Name, describe(u.macro), ue.Msg)
	return &out
}
