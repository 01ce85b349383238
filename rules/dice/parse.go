package dice

import (
	"fmt"
	"math"
	"strconv"
)

// parser is a recursive-descent parser with one token of lookahead. On an
// error it panics with a *SyntaxError, which parse recovers: each rule
// then reads as the grammar, without an error check after every call.
type parser struct {
	src   string
	sc    scanner
	tok   token // the lookahead
	depth int   // open parentheses and unary operators, against MaxDepth
}

// parse is Parse without the length limit, which the normal form of an
// accepted expression may exceed.
func parse(src string) (e *Expr, err error) {
	p := &parser{src: src, sc: scanner{src: src}}
	defer p.recover(&err)
	p.next()
	if p.tok.kind == tokEOF {
		p.errorf(p.tok.pos, "empty expression")
	}
	root := p.parseExpr()
	if p.tok.kind != tokEOF {
		p.unexpected()
	}
	return &Expr{src: src, text: root.String(), root: root}, nil
}

func (p *parser) next() { p.tok = p.sc.scan() }

func (p *parser) errorf(pos int, format string, args ...any) {
	panic(&SyntaxError{Expr: p.src, Pos: pos, Msg: fmt.Sprintf(format, args...)})
}

func (p *parser) unexpected() { p.errorf(p.tok.pos, "unexpected %s", p.tok) }

// recover turns the parser's own panic into the returned error. Any other
// panic is a bug and goes on.
func (p *parser) recover(errp *error) {
	if r := recover(); r != nil {
		se, ok := r.(*SyntaxError)
		if !ok {
			panic(r)
		}
		*errp = se
	}
}

func (p *parser) enter() {
	p.depth++
	if p.depth > MaxDepth {
		p.errorf(p.tok.pos, "too deeply nested (at most %d levels)", MaxDepth)
	}
}

func (p *parser) leave() { p.depth-- }

// expr: unary (binop unary)*
func (p *parser) parseExpr() node { return p.parseBinary(1) }

// parseBinary parses operators of precedence prec1 or higher by
// precedence climbing, as go/parser does: the loop folds operators of one
// level to the left, the recursion takes the tighter ones on the right.
func (p *parser) parseBinary(prec1 int) node {
	x := p.parseUnary()
	for {
		op := p.tok
		prec := op.kind.precedence()
		if prec < prec1 {
			return x
		}
		p.next()
		y := p.parseBinary(prec + 1)
		x = &binaryNode{opPos: op.pos, op: op.kind, x: x, y: y}
	}
}

// unary: '-' unary | primary
func (p *parser) parseUnary() node {
	if p.tok.kind != tokMinus {
		return p.parsePrimary()
	}
	op := p.tok
	p.enter()
	p.next()
	x := p.parseUnary()
	p.leave()
	return &unaryNode{pos: op.pos, op: op.kind, x: x}
}

// primary: INT | INT? dice | '(' expr ')'
func (p *parser) parsePrimary() node {
	switch p.tok.kind {
	case tokInt:
		start := p.tok
		n := p.number()
		if p.tok.kind == tokDice {
			return p.parseDice(start, n)
		}
		return &numberNode{pos: start.pos, val: n}
	case tokDice:
		return p.parseDice(p.tok, 1)
	case tokLParen:
		p.enter()
		p.next()
		x := p.parseExpr()
		if p.tok.kind != tokRParen {
			p.errorf(p.tok.pos, "unexpected %s, expected ')'", p.tok)
		}
		p.next()
		p.leave()
		return x
	}
	p.unexpected()
	panic("unreachable")
}

// dice: 'd' (INT | '%') modifier?
//
// start is the term's first token, its count or the 'd'.
func (p *parser) parseDice(start token, count int) node {
	p.next() // 'd'
	var sides int
	switch p.tok.kind {
	case tokInt:
		tok := p.tok
		sides = p.number()
		if sides < 1 {
			p.errorf(tok.pos, "d%d: a die needs at least 1 side (try 1d6)", sides)
		}
		if sides > MaxSides {
			p.errorf(tok.pos, "d%d: a die has at most %d sides", sides, MaxSides)
		}
	case tokPercent:
		sides = 100
		p.next()
	default:
		p.errorf(p.tok.pos, "unexpected %s, expected the sides of the die, as in 1d6", p.tok)
	}
	if count > MaxDice {
		p.errorf(start.pos, "%dd%d: too many dice (at most %d in one roll)", count, sides, MaxDice)
	}
	n := &diceNode{pos: start.pos, count: count, sides: sides}
	n.mod, n.keep = p.parseModifier()
	n.text = diceText(n.count, n.sides, n.mod, n.keep)
	return n
}

// modifier: ('kh' | 'k' | 'kl' | 'dh' | 'dl') INT?
//
// It returns tokEOF when there is no modifier.
func (p *parser) parseModifier() (tokenKind, int) {
	if !p.tok.kind.isModifier() {
		return tokEOF, 0
	}
	mod := p.tok.kind
	p.next()
	if p.tok.kind != tokInt {
		return mod, 1
	}
	return mod, p.number()
}

// number consumes an integer token and returns its value.
func (p *parser) number() int {
	n, err := strconv.Atoi(p.tok.text)
	if err != nil {
		p.errorf(p.tok.pos, "number too large (at most %d)", math.MaxInt)
	}
	p.next()
	return n
}
