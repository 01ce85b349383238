package dice

import (
	"strconv"
	"strings"
)

// node is an element of the syntax tree. The set is closed (writeTo is
// unexported) so the evaluator's type switch sees every kind.
type node interface {
	Pos() int       // byte offset of the node's first token
	String() string // the node in normal form
	writeTo(*strings.Builder)
}

// numberNode is an integer constant.
type numberNode struct {
	pos int
	val int
}

// diceNode is a dice term such as 4d6kh3.
type diceNode struct {
	pos   int
	count int
	sides int
	mod   tokenKind // tokEOF when there is none
	keep  int       // the modifier's count
	text  string    // normal form, kept for Group.Expr so rolling does not build it
}

// unaryNode is a unary operator applied to an operand: for now only "-".
type unaryNode struct {
	pos int
	op  tokenKind
	x   node
}

// binaryNode is x op y.
type binaryNode struct {
	opPos int
	op    tokenKind
	x, y  node
}

func (n *numberNode) Pos() int { return n.pos }
func (n *diceNode) Pos() int   { return n.pos }
func (n *unaryNode) Pos() int  { return n.pos }
func (n *binaryNode) Pos() int { return n.x.Pos() }

func (n *numberNode) String() string { return strconv.Itoa(n.val) }
func (n *diceNode) String() string   { return n.text }
func (n *unaryNode) String() string  { return nodeString(n) }
func (n *binaryNode) String() string { return nodeString(n) }

func nodeString(n node) string {
	var b strings.Builder
	n.writeTo(&b)
	return b.String()
}

func (n *numberNode) writeTo(b *strings.Builder) { b.WriteString(strconv.Itoa(n.val)) }
func (n *diceNode) writeTo(b *strings.Builder)   { b.WriteString(n.text) }

func (n *unaryNode) writeTo(b *strings.Builder) {
	b.WriteString(n.op.String())
	writeOperand(b, n.x, unaryPrec)
}

// writeTo prints the operands of a left-associative operator: the right
// one needs parentheses already at equal precedence, so 1 - (2 - 3) keeps
// them and (1 - 2) - 3 prints as 1 - 2 - 3.
func (n *binaryNode) writeTo(b *strings.Builder) {
	prec := n.op.precedence()
	writeOperand(b, n.x, prec)
	b.WriteString(" " + n.op.String() + " ")
	writeOperand(b, n.y, prec+1)
}

// unaryPrec binds tighter than any binary operator, operandPrec tighter still.
const (
	unaryPrec   = 3
	operandPrec = 4
)

// writeOperand prints n, in parentheses if it binds more loosely than prec.
func writeOperand(b *strings.Builder, n node, prec int) {
	p := operandPrec
	switch n := n.(type) {
	case *binaryNode:
		p = n.op.precedence()
	case *unaryNode:
		p = unaryPrec
	}
	if p < prec {
		b.WriteByte('(')
		n.writeTo(b)
		b.WriteByte(')')
		return
	}
	n.writeTo(b)
}

func diceText(count, sides int, mod tokenKind, keep int) string {
	s := strconv.Itoa(count) + "d" + strconv.Itoa(sides)
	if mod.isModifier() {
		s += mod.String() + strconv.Itoa(keep)
	}
	return s
}
