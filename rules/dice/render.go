package dice

import (
	"strconv"
	"strings"
)

// String renders the roll as a user sees it in a chat reply: the
// expression with each dice term followed by its dice in parentheses, then
// the total:
//
//	4d6kh3 (6, 5, ~~2~~, 4) + 2 = 17
//
// A roll of several parts takes one line a part, each with its label, if
// it has one, in front and its own total; the sum of the parts is not
// shown:
//
//	to hit: 1d20 (14) + 5 = 19
//	slashing: 2d6 (3, 4) + 3 = 10
//
// Dice use Discord markdown:
//
//   - a dropped die is struck through: ~~2~~;
//   - a kept d20 that rolled a natural 20 is bold as a critical (**20**)
//     and one that rolled a natural 1 underlined as a fumble (__1__),
//     unless its group counts successes;
//   - with success counting a success is bold (**9**), a failure
//     underlined (__1__), and the total reads "= 3 successes";
//   - a die that exploded is followed by "!": 6!, 4;
//   - a die a reroll replaced is struck through, followed by an arrow and
//     the die that replaced it, with no comma: ~~1~~→5;
//   - a die a clamp changed shows its face, an arrow up (mi) or down (ma)
//     and the value it counts: 1↑3, 6↓5;
//   - a die that compounds ("!!") shows its rolls joined by "+": 6!+6!+2,
//     one die that counts 14, struck through or bold as one;
//   - a Fudge die shows +1, 0 or -1.
//
// A roll with a reason shows it in front, like a label: on the line of a
// roll of one part, on a line of its own above the parts otherwise:
//
//	to hit: 1d20 (14) + 5 = 19
//
// Label text is escaped with backslashes so that it shows as written, not
// as markdown or a mention. (The expression in Result.Expr is not escaped:
// a caller that puts it in a code span must mind a backquote in a label.)
//
// It works from the exported fields alone, so a Result read back from
// storage renders the same: each group's dice go after the first
// occurrence of its Expr, outside labels, in what is left of the
// expression.
func (r *Result) String() string {
	// A short roll is built on the stack and copied out once: one
	// allocation, the string's.
	var buf [160]byte
	if size := r.sizeHint(); size > len(buf) {
		return r.stringLong(size)
	}
	return string(r.appendTo(buf[:0]))
}

// stringLong is String for a roll whose size hint is larger than String's
// buffer: in a larger one on the stack, which only such a roll pays for,
// up to 1,024 bytes (100d100 takes about 450), else in a buffer of its
// own, copied out.
func (r *Result) stringLong(size int) string {
	var buf [1024]byte
	b := buf[:0]
	if size > len(buf) {
		b = make([]byte, 0, size)
	}
	return string(r.appendTo(b))
}

// appendTo appends the roll as String renders it.
func (r *Result) appendTo(b []byte) []byte {
	expr, reason, labels := r.split()
	refs := r.Refs
	if reason != "" {
		b = appendEscaped(b, reason)
		b = append(b, ':')
	}
	if len(r.Parts) <= 1 {
		if reason != "" {
			b = append(b, ' ')
		}
		if len(refs) == 0 && !labels {
			// The common case: no names to look for, no labels to escape.
			return appendTotal(appendTermsPlain(b, expr, r.Groups), r.Total, counting(r.Groups))
		}
		return appendLine(b, expr, r.Groups, r.Total, &refs)
	}
	for i := range r.Parts {
		p := &r.Parts[i]
		if i > 0 || reason != "" {
			b = append(b, '\n')
		}
		if p.Label != "" {
			b = appendEscaped(b, p.Label)
			b = append(b, ": "...)
		}
		b = appendLine(b, p.Expr, p.Groups, p.Total, &refs)
	}
	return b
}

// Reason returns the roll's reason ("to hit" in "1d20+5 to hit"), or "".
// It is the end of Expr, after " # " (" ! " after a bare number): the Result needs no field of its own,
// so that it stays as small as without reasons.
func (r *Result) Reason() string {
	_, reason, _ := r.split()
	return reason
}

// split returns Expr without its reason, and the reason, and whether the
// expression may hold labels. The normal form has " # " or " ! " only
// before a reason, outside labels: the "#" of a repeat and the "!" of an
// explosion have no spaces, and labels are skipped.
func (r *Result) split() (expr, reason string, labels bool) {
	// No labels, the common case: one pass, looking at the spaces alone
	// until a '[' says there may be labels.
	s := r.Expr
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '[':
			expr, reason = splitSlow(s)
			return expr, reason, true
		case ' ':
			if i+2 < len(s) && (s[i+1] == '#' || s[i+1] == '!') && s[i+2] == ' ' {
				return s[:i], s[i+3:], false
			}
		}
	}
	return s, "", false
}

// splitSlow is split for an expression that may have labels, a byte at a
// time.
func splitSlow(s string) (expr, reason string) {
	label := false // a label may hold '[' and '#', never ']'
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '[':
			label = true
		case ']':
			label = false
		case '#', '!':
			if !label && i > 0 && s[i-1] == ' ' && i+1 < len(s) && s[i+1] == ' ' {
				return s[:i-1], s[i+2:]
			}
		}
	}
	return s, ""
}

// sizeHint estimates the length of r.String().
func (r *Result) sizeHint() int {
	n := len(r.Expr) + 32 + 8*len(r.Refs)
	for i := range r.Groups {
		n += 4 + len(r.Groups[i].Dice)*6
	}
	for i := range r.Parts {
		n += len(r.Parts[i].Expr) + len(r.Parts[i].Label) + 32
	}
	return n
}

// appendLine appends expr with each group's dice after its term and the
// value of each name after it, taken in order from refs, then the total.
func appendLine(b []byte, expr string, groups []Group, total int, refs *[]Ref) []byte {
	if len(*refs) == 0 && strings.IndexByte(expr, '[') < 0 {
		b = appendTermsPlain(b, expr, groups)
	} else {
		b = appendTerms(b, expr, groups, refs)
	}
	return appendTotal(b, total, counting(groups))
}

// counting reports whether any of groups counts successes.
func counting(groups []Group) bool {
	for i := range groups {
		if groups[i].Counting {
			return true
		}
	}
	return false
}

// appendTermsPlain is appendTerms for the common case, an expression
// without names or labels: each term is where it first appears, and
// nothing around it needs escaping.
func appendTermsPlain(b []byte, expr string, groups []Group) []byte {
	rest := expr
	for i := range groups {
		g := &groups[i]
		at := strings.Index(rest, g.Expr)
		if at < 0 || g.Expr == "" {
			break
		}
		end := at + len(g.Expr)
		b = append(b, rest[:end]...)
		b = appendDice(b, g)
		rest = rest[end:]
	}
	return append(b, rest...)
}

// appendTerms appends expr with each group's dice after its term and the
// value of each name after it, taken in order from refs.
func appendTerms(b []byte, expr string, groups []Group, refs *[]Ref) []byte {
	rest := expr
	for i := range groups {
		g := &groups[i]
		at := indexTerm(rest, g.Expr)
		if at < 0 || g.Expr == "" {
			break
		}
		end := at + len(g.Expr)
		b = appendExpr(b, rest[:at], refs)
		b = append(b, g.Expr...)
		b = appendDice(b, g)
		rest = rest[end:]
	}
	return appendExpr(b, rest, refs)
}

// appendTotal appends " = " and the total, in successes if counting.
func appendTotal(b []byte, total int, counting bool) []byte {
	b = append(b, " = "...)
	b = appendInt(b, total)
	if counting {
		if total == 1 {
			b = append(b, " success"...)
		} else {
			b = append(b, " successes"...)
		}
	}
	return b
}

// indexTerm returns the index of the first term in s outside a label and
// not within a name ("x1d6", "adva"), or -1.
func indexTerm(s, term string) int {
	off := 0
	for {
		seg := s[off:]
		open := strings.IndexByte(seg, '[')
		if open >= 0 {
			seg = seg[:open]
		}
		for from := 0; ; {
			i := strings.Index(seg[from:], term)
			if i < 0 {
				break
			}
			at, end := from+i, from+i+len(term)
			if (at == 0 || !isWord(seg[at-1])) && (end == len(seg) || !isWord(seg[end])) {
				return off + at
			}
			from += i + 1
		}
		if open < 0 {
			return -1
		}
		end := strings.IndexByte(s[off+open:], ']')
		if end < 0 {
			return -1
		}
		off += open + end + 1
	}
}

// appendExpr appends expression text without dice terms, escaping the
// labels in it and following each name outside them with its value, taken
// in order from refs.
func appendExpr(b []byte, s string, refs *[]Ref) []byte {
	for {
		open := strings.IndexByte(s, '[')
		if open < 0 {
			return appendNames(b, s, refs)
		}
		b = appendNames(b, s[:open+1], refs)
		s = s[open+1:]
		end := strings.IndexByte(s, ']')
		if end < 0 {
			end = len(s)
		}
		b = appendEscaped(b, s[:end])
		s = s[end:]
	}
}

// appendNames appends s, expression text without dice terms or labels,
// with the value of each name after it: "som (3)". The names are the
// words that begin with a letter, as dice terms are not in s; each takes
// the next of refs if it is of its name (a Result from before names has
// none).
func appendNames(b []byte, s string, refs *[]Ref) []byte {
	if len(*refs) == 0 {
		return append(b, s...)
	}
	for i := 0; i < len(s); {
		if !isWord(s[i]) {
			b = append(b, s[i])
			i++
			continue
		}
		end := wordEnd(s, i)
		b = append(b, s[i:end]...)
		if r := *refs; isLetter(s[i]) && len(r) > 0 && r[0].Name == s[i:end] {
			b = append(b, " ("...)
			b = appendInt(b, r[0].Value)
			b = append(b, ')')
			*refs = r[1:]
		}
		i = end
	}
	return b
}

// appendEscaped appends a label with a backslash before each character
// Discord markdown would read: emphasis, strikethrough, spoilers, code and
// mentions anywhere, and a quote, heading or list at the start, where a
// part's label goes.
func appendEscaped(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\\', '*', '_', '~', '|', '`', '<', '@':
			b = append(b, '\\', c)
		case '>', '#', '-':
			if i == 0 {
				b = append(b, '\\')
			}
			b = append(b, c)
		default:
			b = append(b, c)
		}
	}
	return b
}

// appendDice appends " (" and g's dice, a unit at a time, then ")".
func appendDice(b []byte, g *Group) []byte {
	b = append(b, " ("...)
	if g.plain {
		return append(appendPlainDice(b, g), ')')
	}
	dice := g.Dice
	for i := 0; i < len(dice); {
		if i > 0 {
			b = append(b, ", "...)
		}
		// Most dice are a face alone.
		if d := &dice[i]; !d.Rerolled && !d.Explodes && !d.Clamped && !d.Fudge && !d.Compounded &&
			(i+1 == len(dice) || !dice[i+1].Compounded) {
			mark := unitMark(d, g.Counting)
			if mark != "" {
				b = append(b, mark...)
			}
			switch v := uint(d.Value); {
			case v < 10:
				b = append(b, byte('0'+v))
			case v < 100:
				b = append(b, digits2[2*v:2*v+2]...)
			default:
				b = strconv.AppendInt(b, int64(d.Value), 10)
			}
			if mark != "" {
				b = append(b, mark...)
			}
			i++
			continue
		}
		b, i = appendUnit(b, g, i)
	}
	return append(b, ')')
}

// appendPlainDice appends the dice of a plain group (Group.plain), each a
// face alone, marked as unitMark marks it, which it does without looking
// at what no die of such a group can be.
func appendPlainDice(b []byte, g *Group) []byte {
	crit := !g.Counting && len(g.Dice) > 0 && g.Dice[0].Sides == 20
	for i := range g.Dice {
		d := &g.Dice[i]
		if i > 0 {
			b = append(b, ", "...)
		}
		mark := ""
		switch {
		case !d.Kept:
			mark = "~~"
		case g.Counting:
			if d.Success {
				mark = "**"
			} else if d.Failure {
				mark = "__"
			}
		case crit:
			if d.Face == 20 {
				mark = "**"
			} else if d.Face == 1 {
				mark = "__"
			}
		}
		if mark == "" {
			b = appendInt(b, d.Value)
			continue
		}
		b = append(b, mark...)
		b = appendInt(b, d.Value)
		b = append(b, mark...)
	}
	return b
}

// digits2 holds 0 to 99 as two digits each.
const digits2 = "00010203040506070809" +
	"10111213141516171819" +
	"20212223242526272829" +
	"30313233343536373839" +
	"40414243444546474849" +
	"50515253545556575859" +
	"60616263646566676869" +
	"70717273747576777879" +
	"80818283848586878889" +
	"90919293949596979899"

// appendInt is strconv.AppendInt, quicker for the faces of common dice.
func appendInt(b []byte, v int) []byte {
	if 0 <= v && v < 100 {
		if v < 10 {
			return append(b, byte('0'+v))
		}
		return append(b, digits2[2*v:2*v+2]...)
	}
	return strconv.AppendInt(b, int64(v), 10)
}

// appendUnit appends the die that starts at dice[i] as one item: the dice
// rerolls replaced, the die, and the rolls it compounded. It returns the
// index after them.
func appendUnit(b []byte, g *Group, i int) ([]byte, int) {
	dice := g.Dice
	for ; i < len(dice) && dice[i].Rerolled && !dice[i].Compounded; i++ {
		b = appendReplaced(b, &dice[i], true)
	}
	if i == len(dice) {
		return b, i
	}
	head := &dice[i]
	i++
	end, added := i, 0
	for ; end < len(dice) && dice[end].Compounded; end++ {
		if !dice[end].Rerolled {
			added += dice[end].Value
		}
	}
	mark := unitMark(head, g.Counting)
	b = append(b, mark...)
	b = appendRoll(b, head, head.Value-added)
	replaced := false
	for ; i < end; i++ {
		d := &dice[i]
		if !replaced {
			b = append(b, '+')
		}
		if replaced = d.Rerolled; replaced {
			b = appendReplaced(b, d, mark != "~~")
			continue
		}
		b = appendRoll(b, d, d.Value)
	}
	return append(b, mark...), end
}

// unitMark returns the markdown around a unit whose first die is d.
func unitMark(d *Die, counting bool) string {
	natural := d.Face
	if natural == 0 && !d.Fudge {
		natural = d.Value // a Result stored before Face existed
	}
	switch {
	case !d.Kept:
		return "~~"
	case counting && d.Success:
		return "**"
	case counting && d.Failure:
		return "__"
	case counting || d.Fudge || d.Sides != 20:
		return ""
	case natural == 20:
		return "**"
	case natural == 1:
		return "__"
	}
	return ""
}

// appendReplaced appends a die a reroll replaced, and the arrow.
func appendReplaced(b []byte, d *Die, strike bool) []byte {
	if strike {
		b = append(b, "~~"...)
	}
	b = appendFace(b, d, d.Face)
	if strike {
		b = append(b, "~~"...)
	}
	return append(b, "→"...)
}

// appendRoll appends one roll that counts v: its face and clamp, and "!"
// if it exploded.
func appendRoll(b []byte, d *Die, v int) []byte {
	if d.Clamped {
		b = appendFace(b, d, d.Face)
		if v > d.Face {
			b = append(b, "↑"...)
		} else {
			b = append(b, "↓"...)
		}
	}
	b = appendFace(b, d, v)
	if d.Explodes {
		b = append(b, '!')
	}
	return b
}

func appendFace(b []byte, d *Die, v int) []byte {
	if d.Fudge && v > 0 {
		b = append(b, '+')
	}
	return appendInt(b, v)
}
