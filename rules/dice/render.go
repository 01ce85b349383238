package dice

import (
	"strconv"
	"strings"
)

// String renders the roll as a user sees it in a chat reply: the
// expression with each dice term followed by its faces in parentheses,
// then the total:
//
//	4d6kh3 (6, 5, ~~2~~, 4) + 2 = 17
//
// The faces use Discord markdown: a dropped die is struck through
// (~~2~~); a kept d20 showing 20 is bold as a critical (**20**) and a kept
// d20 showing 1 is underlined as a fumble (__1__). Dropped dice are never
// crits or fumbles.
//
// It works from the exported fields alone, so a Result read back from
// storage renders the same: each group's faces go after the first
// occurrence of its Expr in what is left of r.Expr.
func (r *Result) String() string {
	var b strings.Builder
	size := len(r.Expr) + 24
	for _, g := range r.Groups {
		size += 4 + len(g.Dice)*8
	}
	b.Grow(size)
	rest := r.Expr
	for _, g := range r.Groups {
		at := strings.Index(rest, g.Expr)
		if at < 0 {
			break
		}
		end := at + len(g.Expr)
		b.WriteString(rest[:end])
		writeDice(&b, g.Dice)
		rest = rest[end:]
	}
	b.WriteString(rest)
	b.WriteString(" = ")
	writeInt(&b, r.Total)
	return b.String()
}

func writeDice(b *strings.Builder, dice []Die) {
	b.WriteString(" (")
	for i, d := range dice {
		if i > 0 {
			b.WriteString(", ")
		}
		mark := ""
		switch {
		case !d.Kept:
			mark = "~~"
		case d.Sides == 20 && d.Value == 20:
			mark = "**"
		case d.Sides == 20 && d.Value == 1:
			mark = "__"
		}
		b.WriteString(mark)
		writeInt(b, d.Value)
		b.WriteString(mark)
	}
	b.WriteByte(')')
}

func writeInt(b *strings.Builder, v int) {
	var buf [20]byte
	b.Write(strconv.AppendInt(buf[:0], int64(v), 10))
}
