package dice

import (
	"strconv"
	"strings"
)

// SyntaxError reports an expression that Parse rejects. Error gives the
// message and column, Detail the expression with a caret under the column.
type SyntaxError struct {
	Expr string // the expression as given to Parse
	Pos  int    // 0-based byte offset of the problem in Expr
	Msg  string
	// Limit is true when the text breaks one of the limits (MaxDice,
	// MaxSides, MaxExprLen...): Msg names the limit, and no one-edit
	// correction is offered, as none would roll what was meant.
	Limit bool
}

func (e *SyntaxError) Error() string { return atColumn(e.Msg, e.Pos) }

// Detail returns Expr and, on the line below, a caret under Pos: two lines
// for a code block.
func (e *SyntaxError) Detail() string { return caret(e.Expr, e.Pos) }

// Error reports a roll the user can fix: one that divides by zero,
// overflows, rolls too many dice or gets physical dice that do not fit.
type Error struct {
	Expr string // the expression or dice: text at fault; "" when Pos < 0
	Pos  int    // 0-based byte offset in Expr, or -1 when the error has no place
	Msg  string
	// Name is the name the roll could not read ("som" in "1d20+som")
	// when that is the error: unknown to the roll's Lookup, or read
	// without one. It is "" otherwise.
	Name string
}

func (e *Error) Error() string {
	if e.Pos < 0 {
		return e.Msg
	}
	return atColumn(e.Msg, e.Pos)
}

// Detail is like SyntaxError.Detail; it is "" when the error has no place.
func (e *Error) Detail() string {
	if e.Pos < 0 {
		return ""
	}
	return caret(e.Expr, e.Pos)
}

func atColumn(msg string, pos int) string {
	return msg + " at column " + strconv.Itoa(pos+1)
}

func caret(expr string, pos int) string {
	var b strings.Builder
	// A line break in the expression would break the caret's alignment.
	b.WriteString(strings.NewReplacer("\r", " ", "\n", " ").Replace(expr))
	b.WriteByte('\n')
	// Tabs stay tabs and a rune is one column, so the caret lines up.
	for _, r := range expr[:min(max(pos, 0), len(expr))] {
		if r == '\t' {
			b.WriteByte('\t')
		} else {
			b.WriteByte(' ')
		}
	}
	b.WriteByte('^')
	return b.String()
}
