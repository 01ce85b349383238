package dice

import "strconv"

// The syntax tree is flat: an Expr holds its nodes in one slice and a node
// names its operands by index. Parsing then allocates the slice, not a
// node at a time, and the set of node kinds is closed, as the evaluator's
// switch needs.
type nodeKind uint8

const (
	nodeNumber nodeKind = iota // val
	nodeDice                   // val indexes Expr.dice
	nodeUnary                  // op x
	nodeBinary                 // x op y; pos is the operator's
	nodeLabel                  // x [label]
	nodeName                   // a name: x and y are where it lies in the source, val where in the normal form
)

type node struct {
	kind nodeKind
	op   tokenKind // of a unary or binary node
	pos  int32     // byte offset in the source: of the first token, or of a binary operator
	x, y int32     // operands, by index; for a label node, y and val are where its text lies in the source
	val  int
}

// diceKind tells the notations of a dice term apart, so that each prints
// back as written.
type diceKind uint8

const (
	diceD     diceKind = iota // NdS, d%
	diceFudge                 // NdF
	diceV                     // Nv:S
	diceAdv                   // adv
	diceDis                   // dis
	diceDet                   // det
)

// cond is a condition on a die: the die meets it when its face or value
// compares to n as op says. An op of tokEOF is no condition; tokMin and
// tokMax are the clamps mi and ma.
type cond struct {
	op tokenKind
	n  int32
}

func (c cond) ok() bool { return c.op != tokEOF }

// holds reports whether v meets c.
func (c cond) holds(v int) bool {
	n := int(c.n)
	switch c.op {
	case tokEq:
		return v == n
	case tokLess:
		return v < n
	case tokLessEq:
		return v <= n
	case tokGreater:
		return v > n
	case tokGreaterEq:
		return v >= n
	}
	return false
}

// diceSpec is a dice term: how many dice, of what, and its modifiers.
type diceSpec struct {
	pos      int32 // of the term's first token
	count    int32
	sides    int32 // 3 for Fudge dice
	kind     diceKind
	keep     tokenKind // tokEOF for none
	once     bool      // the reroll is "ro"
	compound bool      // the explosion is "!!"
	keepN    int32
	reroll   cond
	explode  cond // tokEq and the highest face for a bare "!"
	success  cond
	failure  cond
	mi, ma   cond
	// plain is true without reroll, clamp and explosion: one roll a die.
	plain bool
	// text is where the term's normal form lies in Expr.text, for Group.Expr.
	text [2]int32
}

// faces returns the lowest and highest face of the term's dice.
func (d *diceSpec) faces() (lo, hi int) {
	if d.kind == diceFudge {
		return -1, 1
	}
	return 1, int(d.sides)
}

// partSpec is a part of a roll: one expression, rolled repeat times.
type partSpec struct {
	root   int32
	pos    int32 // of the part's first token
	repeat int32
	groups int32    // dice terms in the expression
	label  [2]int32 // where the label that ends the part, if any, lies in the source
	// text is where the part's expression, without the repeat count and
	// the label that ends it, lies in Expr.text, for Part.Expr.
	text [2]int32
}

// unaryPrec binds tighter than any binary operator, operandPrec tighter still.
const (
	unaryPrec   = 3
	operandPrec = 4
)

// print appends the normal form of e to b: every part, separated by
// spaces. It notes where each dice term and part lies in it, for
// Group.Expr and Part.Expr.
func (e *Expr) print(b []byte) []byte {
	for i := range e.parts {
		ps := &e.parts[i]
		if i > 0 {
			b = append(b, ' ')
		}
		// After a label, a part that begins with a name keeps its "1#":
		// "1d6 [x] a" reads a as the roll's reason.
		if ps.repeat > 1 || i > 0 && e.startsWithName(ps.root) {
			b = strconv.AppendInt(b, int64(ps.repeat), 10)
			b = append(b, '#')
		}
		start := len(b)
		var lastLabel int
		b = e.printNode(b, ps.root, 0, &lastLabel)
		if ps.label[1] == 0 && b[len(b)-1] == ']' {
			// A label that ends a part names the part, so one that
			// ended a parenthesised expression ("(1 + 2 [a])") keeps
			// its parentheses.
			b = append(b[:start], '(')
			b = e.printNode(b, ps.root, 0, &lastLabel)
			b = append(b, ')')
		}
		end := len(b)
		if ps.label[1] > 0 {
			end = lastLabel
		}
		ps.text = [2]int32{int32(start), int32(end)}
	}
	if e.reason[1] > e.reason[0] {
		// After a bare number, " # " would read as a repeat: "1 # 0"
		// is 1#0, so the reason "0" of 1 is written "1 ! 0".
		last := &e.parts[len(e.parts)-1]
		if last.repeat == 1 && e.nodes[last.root].kind == nodeNumber {
			b = append(b, " ! "...)
		} else {
			b = append(b, " # "...)
		}
		b = append(b, e.src[e.reason[0]:e.reason[1]]...)
	}
	return b
}

// startsWithName reports whether node i prints beginning with a name.
func (e *Expr) startsWithName(i int32) bool {
	for {
		switch n := &e.nodes[i]; n.kind {
		case nodeName:
			return true
		case nodeBinary, nodeLabel:
			i = n.x
		default:
			return false
		}
	}
}

// printNode appends node i, in parentheses if it binds more loosely than
// prec, and sets *lastLabel to where the last label it wrote begins.
// Operands of a left-associative operator: the right one needs
// parentheses already at equal precedence, so 1 - (2 - 3) keeps them and
// (1 - 2) - 3 prints as 1 - 2 - 3.
func (e *Expr) printNode(b []byte, i int32, prec int, lastLabel *int) []byte {
	n := &e.nodes[i]
	np := operandPrec
	switch n.kind {
	case nodeBinary:
		np = n.op.precedence()
	case nodeUnary:
		np = unaryPrec
	}
	if np < prec {
		b = append(b, '(')
		b = e.printNode(b, i, 0, lastLabel)
		return append(b, ')')
	}
	switch n.kind {
	case nodeNumber:
		b = strconv.AppendInt(b, int64(n.val), 10)
	case nodeDice:
		b = e.dice[n.val].print(b)
	case nodeUnary:
		b = append(b, n.op.String()...)
		b = e.printNode(b, n.x, unaryPrec, lastLabel)
	case nodeBinary:
		b = e.printNode(b, n.x, np, lastLabel)
		b = append(b, ' ')
		b = append(b, n.op.String()...)
		b = append(b, ' ')
		b = e.printNode(b, n.y, np+1, lastLabel)
	case nodeName:
		n.val = len(b)
		for i := n.x; i < n.y; i++ {
			c := e.src[i]
			if isLetter(c) {
				c |= 0x20
			}
			b = append(b, c)
		}
	case nodeLabel:
		b = e.printNode(b, n.x, operandPrec, lastLabel)
		*lastLabel = len(b)
		b = append(b, " ["...)
		b = append(b, e.src[n.y:n.val]...)
		b = append(b, ']')
	}
	return b
}

// print appends the normal form of d to b and notes where it lies.
func (d *diceSpec) print(b []byte) []byte {
	start := len(b)
	switch d.kind {
	case diceAdv, diceDis, diceDet:
		b = append(b, aliasNames[d.kind-diceAdv]...)
		d.text = [2]int32{int32(start), int32(len(b))}
		return b
	}
	b = strconv.AppendInt(b, int64(d.count), 10)
	switch d.kind {
	case diceD:
		b = append(b, 'd')
		b = strconv.AppendInt(b, int64(d.sides), 10)
	case diceFudge:
		b = append(b, "dF"...)
	case diceV:
		b = append(b, "v:"...)
		b = strconv.AppendInt(b, int64(d.sides), 10)
	}
	if d.reroll.ok() {
		op := tokReroll
		if d.once {
			op = tokRerollOnce
		}
		b = appendCondition(b, op, d.reroll)
	}
	if d.mi.ok() {
		b = append(b, "mi"...)
		b = strconv.AppendInt(b, int64(d.mi.n), 10)
	}
	if d.ma.ok() {
		b = append(b, "ma"...)
		b = strconv.AppendInt(b, int64(d.ma.n), 10)
	}
	if d.explode.ok() {
		op := tokExplode
		if d.compound {
			op = tokCompound
		}
		b = append(b, op.String()...)
		_, hi := d.faces()
		// A bare "!" followed by a success condition would read as
		// the explosion's condition, so then the default is written.
		if d.explode != (cond{tokEq, int32(hi)}) || d.success.ok() && !d.keep.isKeep() {
			b = appendCond(b, d.explode)
		}
	}
	if d.keep.isKeep() {
		b = append(b, d.keep.String()...)
		b = strconv.AppendInt(b, int64(d.keepN), 10)
	}
	if d.success.ok() {
		b = appendCond(b, d.success)
	}
	if d.failure.ok() {
		b = appendCondition(b, tokFail, d.failure)
	}
	d.text = [2]int32{int32(start), int32(len(b))}
	return b
}

var aliasNames = [...]string{"adv", "dis", "det"}

// appendCondition appends a modifier whose condition defaults to "=":
// "r1", "f1", "r<3". A negative number keeps its "=", as "r-1" would not
// parse.
func appendCondition(b []byte, op tokenKind, c cond) []byte {
	b = append(b, op.String()...)
	if c.op == tokEq && c.n >= 0 {
		return strconv.AppendInt(b, int64(c.n), 10)
	}
	return appendCond(b, c)
}

func appendCond(b []byte, c cond) []byte {
	b = append(b, c.op.String()...)
	return strconv.AppendInt(b, int64(c.n), 10)
}
