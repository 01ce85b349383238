package dice

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// parser is a recursive-descent parser with one token of lookahead. On an
// error it panics with a *SyntaxError, which parseRoll recovers: each rule
// then reads as the grammar, without an error check after every call.
//
// The parser lives on the stack of parse and builds the tree in arrays of
// its own (spilling into slices for a long expression), so that parse then
// allocates the Expr once, at its final size.
type parser struct {
	src     string
	sc      scanner
	tok     token     // the lookahead
	prev    tokenKind // the token before it, the last one consumed
	prevEnd int       // where that token ends in src
	depth   int       // open parentheses and unary operators, against MaxDepth
	label   [2]int32  // where the last label consumed lies in src
	minDice int       // dice rolled before rerolls and explosions, against MaxDice
	parts   int       // parts so far, each repetition counting, against MaxParts
	groups  int       // groups one roll makes
	names   int       // names read, each once however often its part repeats
	noNames bool      // read every word as dice, as readsAsDice does
	quiet   bool      // fail with errQuiet, unformatted: only success matters
	notes   readings  // notations read that other bots read otherwise

	nodes      [8]node
	diceSpecs  [3]diceSpec
	partSpecs  [1]partSpec
	nn, nd, np int // nodes, dice and parts so far
	moreNodes  []node
	moreDice   []diceSpec
	moreParts  []partSpec
}

// errQuiet is the error of a quiet parser (parser.quiet), which tries a
// text only to learn whether it parses: Suggest's candidates, the places
// a reason may begin. Formatting a message for each would cost more than
// the parse.
var errQuiet = &SyntaxError{Msg: "does not parse"}

// parse is Parse without the length limit, which the normal form of an
// accepted expression may exceed.
func parse(src string) (*Expr, error) { return parseWith(src, false) }

// parseWith is parse; a quiet one fails with errQuiet (see parser.quiet).
func parseWith(src string, quiet bool) (*Expr, error) {
	p := parser{src: src, sc: scanner{src: src}, quiet: quiet}
	var reason [2]int32
	if err := p.parseRoll(); err != nil {
		var ok bool
		if p, reason, ok = splitReason(src, MaxReasonLen); !ok {
			if _, long, ok := splitReason(src, MaxExprLen); ok {
				n := utf8.RuneCountInString(src[long[0]:long[1]])
				return nil, &SyntaxError{Expr: src, Pos: int(long[0]), Limit: true,
					Msg: fmt.Sprintf("reason too long: a reason holds at most %d characters, and this one has %d (shorten it, as in 1d20+5 to hit)", MaxReasonLen, n)}
			}
			return nil, err
		}
	}
	e := newExpr(p.nn, p.nd, p.np)
	e.src = src
	e.reason = reason
	e.groups = int32(p.groups)
	e.minDice = int32(p.minDice)
	e.notes = p.notes
	e.nodes = append(append(e.nodes, p.nodes[:min(p.nn, len(p.nodes))]...), p.moreNodes...)
	e.dice = append(append(e.dice, p.diceSpecs[:min(p.nd, len(p.diceSpecs))]...), p.moreDice...)
	e.parts = append(append(e.parts, p.partSpecs[:min(p.np, len(p.partSpecs))]...), p.moreParts...)
	e.measure()
	var buf [256]byte
	text := e.print(buf[:0])
	if string(text) == src {
		e.text = src // already in normal form: nothing to allocate
	} else {
		e.text = string(text)
	}
	return e, nil
}

// An Expr and its tree in one allocation, for the common sizes.
type (
	exprRoom1 struct {
		e     Expr
		nodes [1]node
		dice  [1]diceSpec
		parts [1]partSpec
	}
	exprRoom3 struct {
		e     Expr
		nodes [3]node
		dice  [1]diceSpec
		parts [1]partSpec
	}
	exprRoom7 struct {
		e     Expr
		nodes [7]node
		dice  [3]diceSpec
		parts [1]partSpec
	}
)

// newExpr returns an Expr with room for nn nodes, nd dice terms and np parts.
func newExpr(nn, nd, np int) *Expr {
	switch {
	case nn <= 1 && nd <= 1 && np <= 1:
		r := new(exprRoom1)
		r.e.nodes, r.e.dice, r.e.parts = r.nodes[:0], r.dice[:0], r.parts[:0]
		return &r.e
	case nn <= 3 && nd <= 1 && np <= 1:
		r := new(exprRoom3)
		r.e.nodes, r.e.dice, r.e.parts = r.nodes[:0], r.dice[:0], r.parts[:0]
		return &r.e
	case nn <= 7 && nd <= 3 && np <= 1:
		r := new(exprRoom7)
		r.e.nodes, r.e.dice, r.e.parts = r.nodes[:0], r.dice[:0], r.parts[:0]
		return &r.e
	}
	return &Expr{nodes: make([]node, 0, nn), dice: make([]diceSpec, 0, nd), parts: make([]partSpec, 0, np)}
}

// roll: part part*
//
// A part after the first must follow a label.
func (p *parser) parseRoll() (err error) {
	defer p.recover(&err)
	p.next()
	if p.tok.kind == tokEOF {
		p.errorf(p.tok.pos, "empty expression")
	}
	for {
		p.parsePart()
		if p.tok.kind == tokEOF {
			return nil
		}
		if p.prev != tokLabel || !p.tok.kind.startsOperand() {
			p.unexpected()
		}
	}
}

func (p *parser) next() {
	p.prev = p.tok.kind
	p.prevEnd = p.tok.pos + len(p.tok.text)
	p.tok = p.sc.scan()
}

func (p *parser) errorf(pos int, format string, args ...any) {
	if p.quiet {
		panic(errQuiet)
	}
	panic(&SyntaxError{Expr: p.src, Pos: pos, Msg: fmt.Sprintf(format, args...)})
}

// limitf is errorf for a text that breaks one of the limits: its error
// says so (SyntaxError.Limit), and no correction is offered for it.
func (p *parser) limitf(pos int, format string, args ...any) {
	if p.quiet {
		panic(errQuiet)
	}
	panic(&SyntaxError{Expr: p.src, Pos: pos, Msg: fmt.Sprintf(format, args...), Limit: true})
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
		p.limitf(p.tok.pos, "too deeply nested (at most %d levels)", MaxDepth)
	}
}

func (p *parser) leave() { p.depth-- }

func (p *parser) add(n node) int32 {
	if p.nn < len(p.nodes) {
		p.nodes[p.nn] = n
	} else {
		p.moreNodes = append(p.moreNodes, n)
	}
	p.nn++
	return int32(p.nn - 1)
}

func (p *parser) addDice(d diceSpec) int32 {
	if p.nd < len(p.diceSpecs) {
		p.diceSpecs[p.nd] = d
	} else {
		p.moreDice = append(p.moreDice, d)
	}
	p.nd++
	return p.add(node{kind: nodeDice, pos: d.pos, val: p.nd - 1})
}

func (p *parser) addPart(ps partSpec) {
	if p.np < len(p.partSpecs) {
		p.partSpecs[p.np] = ps
	} else {
		p.moreParts = append(p.moreParts, ps)
	}
	p.np++
}

// part: (INT ('#' | ' '))? expr
//
// "6 4d6kh3" is Dice Maiden's spelling of "6#4d6kh3": a count, white
// space, and an expression that begins with a number.
func (p *parser) parsePart() {
	start := p.tok
	repeat := 1
	if p.tok.kind == tokInt && (p.sc.peek() == '#' || p.spacedRepeat()) {
		tok := p.tok
		n, err := strconv.Atoi(tok.text)
		switch {
		case err != nil || n > MaxRepeat:
			p.limitf(tok.pos, "%s#: too many repeats (at most %d)", tok.text, MaxRepeat)
		case n < 1:
			p.errorf(tok.pos, "%d#: repeat at least once, as in 6#4d6kh3", n)
		}
		repeat = n
		p.next()
		if hash := p.tok; hash.kind == tokHash {
			p.next()
			// "5 # to hit" is 5 with a reason, not to repeated: a "#"
			// beside white space introduces a reason (see splitReason),
			// which a name after it is.
			if p.atName() && (isSpace(p.src[hash.pos-1]) || isSpace(p.src[hash.pos+1])) {
				p.errorf(hash.pos, "unexpected %s", hash)
			}
		}
	}
	if p.parts+repeat > MaxParts {
		p.limitf(start.pos, "too many parts (at most %d in one roll)", MaxParts)
	}
	p.parts += repeat
	dice0, minDice0 := p.nd, p.minDice
	root := p.parseExpr()
	if partDice := p.minDice - minDice0; repeat > 1 && partDice > 0 {
		if (repeat-1)*partDice > MaxDice-p.minDice {
			p.limitf(start.pos, "%d#: too many dice (at most %d in one roll)", repeat, MaxDice)
		}
		p.minDice += (repeat - 1) * partDice
	}
	ps := partSpec{root: root, pos: int32(start.pos), repeat: int32(repeat), groups: int32(p.nd - dice0)}
	if p.prev == tokLabel {
		ps.label = p.label
	}
	p.addPart(ps)
	p.groups += repeat * int(ps.groups)
}

// spacedRepeat reports whether the lookahead, an INT, is the count of
// Dice Maiden's "N expr": white space follows it, then a number. ("4 d6"
// stays 4d6: white space may separate any two tokens.)
func (p *parser) spacedRepeat() bool {
	end := p.tok.pos + len(p.tok.text)
	if end >= len(p.src) || !isSpace(p.src[end]) {
		return false
	}
	sc := p.sc
	return sc.scan().kind == tokInt
}

// expr: unary (binop unary)*
//
// Like each rule below, it returns the index of the node it parsed.
func (p *parser) parseExpr() int32 { return p.parseBinary(1) }

// parseBinary parses operators of precedence prec1 or higher by
// precedence climbing, as go/parser does: the loop folds operators of one
// level to the left, the recursion takes the tighter ones on the right.
func (p *parser) parseBinary(prec1 int) int32 {
	x := p.parseUnary()
	for {
		op := p.tok
		prec := op.kind.precedence()
		if prec < prec1 {
			return x
		}
		p.next()
		y := p.parseBinary(prec + 1)
		x = p.add(node{kind: nodeBinary, op: op.kind, pos: int32(op.pos), x: x, y: y})
	}
}

// unary: '-' unary | primary label?
func (p *parser) parseUnary() int32 {
	if p.tok.kind != tokMinus {
		x := p.parsePrimary()
		if p.tok.kind != tokLabel {
			return x
		}
		pos := p.tok.pos
		p.parseLabel()
		return p.add(node{kind: nodeLabel, pos: int32(pos), x: x, y: p.label[0], val: int(p.label[1])})
	}
	op := p.tok
	p.enter()
	p.next()
	x := p.parseUnary()
	p.leave()
	return p.add(node{kind: nodeUnary, op: op.kind, pos: int32(op.pos), x: x})
}

// label: '[' text ']'
//
// It sets p.label to where the text, trimmed, lies in src.
func (p *parser) parseLabel() {
	tok := p.tok
	if !strings.HasSuffix(tok.text, "]") {
		p.errorf(len(p.src), "unclosed label, expected ']'")
	}
	text := tok.text[1 : len(tok.text)-1]
	for i, r := range text {
		pos := tok.pos + 1 + i
		switch {
		case r == utf8.RuneError:
			if _, w := utf8.DecodeRuneInString(text[i:]); w == 1 {
				p.errorf(pos, "label is not valid UTF-8")
			}
		case unicode.IsControl(r) || unicode.In(r, unicode.Zl, unicode.Zp):
			p.errorf(pos, "control character %U in a label", r)
		}
	}
	start := tok.pos + 1 + len(text) - len(strings.TrimLeftFunc(text, unicode.IsSpace))
	text = strings.TrimSpace(text)
	if text == "" {
		p.errorf(tok.pos, "empty label")
	}
	if utf8.RuneCountInString(text) > MaxLabelLen {
		p.limitf(tok.pos, "label too long (at most %d characters)", MaxLabelLen)
	}
	p.label = [2]int32{int32(start), int32(start + len(text))}
	p.next()
}

// primary: INT | INT? dice | alias | name | '(' expr ')'
func (p *parser) parsePrimary() int32 {
	if p.atName() {
		return p.parseName()
	}
	start := p.tok
	switch p.tok.kind {
	case tokInt:
		n := p.number()
		switch p.tok.kind {
		case tokDice, tokFudge, tokV:
			return p.parseDice(start, n)
		}
		return p.add(node{kind: nodeNumber, pos: int32(start.pos), val: n})
	case tokDice, tokFudge, tokV:
		return p.parseDice(start, 1)
	case tokAdv, tokDis, tokDet:
		return p.parseAlias()
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

// atName reports whether the lookahead, where an operand is expected,
// begins a name: a word (letters, digits and '_') that begins with a
// letter and does not read as dice syntax (see readsAsDice), which the
// scanner, reading keywords, may have cut short ("dex" scans as 'd'). The
// ':' of "v:20" is no word character, so "v:" is dice whatever follows.
func (p *parser) atName() bool {
	t := p.tok
	if p.noNames || t.kind == tokV || t.text == "" || !isLetter(t.text[0]) {
		return false
	}
	return !readsAsDice(p.src[t.pos:wordEnd(p.src, t.pos)])
}

// name: letter { letter | digit | '_' }
//
// The scanner goes on after the word, which the lookahead becomes.
func (p *parser) parseName() int32 {
	start := p.tok.pos
	end := wordEnd(p.src, start)
	p.sc.pos = end
	p.tok = token{kind: tokName, pos: start, text: p.src[start:end]}
	p.names++
	p.next()
	return p.add(node{kind: nodeName, pos: int32(start), x: int32(start), y: int32(end)})
}

// alias: 'adv' | 'dis' | 'det'
//
// Advantage and disadvantage roll 2d20 and keep the higher or the lower;
// a detriment is, in seed 004's words, "when you must roll 4D20 and use
// the lowest number".
func (p *parser) parseAlias() int32 {
	d := diceSpec{pos: int32(p.tok.pos), sides: 20, keepN: 1, plain: true}
	switch p.tok.kind {
	case tokAdv:
		d.kind, d.count, d.keep = diceAdv, 2, tokKeepHigh
	case tokDis:
		d.kind, d.count, d.keep = diceDis, 2, tokKeepLow
	case tokDet:
		d.kind, d.count, d.keep = diceDet, 4, tokKeepLow
	}
	p.countDice(p.tok, int(d.count))
	p.next()
	return p.addDice(d)
}

// countDice counts n dice of the term starting at start against MaxDice.
func (p *parser) countDice(start token, n int) {
	if n > MaxDice-p.minDice {
		p.limitf(start.pos, "too many dice (at most %d in one roll)", MaxDice)
	}
	p.minDice += n
}

// dice: ('d' (INT | '%') | 'dF' | 'v:' INT) modifier*
//
// start is the term's first token, its count or the 'd'.
func (p *parser) parseDice(start token, count int) int32 {
	d := diceSpec{pos: int32(start.pos)}
	switch p.tok.kind {
	case tokDice:
		p.next()
		switch p.tok.kind {
		case tokInt:
			d.sides = p.sides()
		case tokPercent:
			d.sides = 100
			p.next()
		default:
			p.errorf(p.tok.pos, "unexpected %s, expected the sides of the die, as in 1d6", p.tok)
		}
	case tokFudge:
		d.kind, d.sides = diceFudge, 3
		p.next()
	case tokV:
		d.kind = diceV
		p.next()
		if p.tok.kind != tokInt {
			p.errorf(p.tok.pos, "unexpected %s, expected the sides of the die, as in v:20", p.tok)
		}
		d.sides = p.sides()
	}
	if count > MaxDice {
		p.limitf(start.pos, "%d%s: too many dice (at most %d in one roll)", count, d.name(), MaxDice)
	}
	d.count = int32(count)
	p.countDice(start, count)
	p.parseModifiers(&d)
	return p.addDice(d)
}

// sides consumes the sides of a die and returns them.
func (p *parser) sides() int32 {
	tok := p.tok
	sides := p.number()
	if sides < 1 {
		p.errorf(tok.pos, "d%d: a die needs at least 1 side (try 1d6)", sides)
	}
	if sides > MaxSides {
		p.limitf(tok.pos, "d%d: a die has at most %d sides", sides, MaxSides)
	}
	return int32(sides)
}

// name returns how the error messages name a die of d: "d6", "dF".
func (d *diceSpec) name() string {
	switch d.kind {
	case diceFudge:
		return "dF"
	case diceV:
		return "v:" + strconv.Itoa(int(d.sides))
	}
	return "d" + strconv.Itoa(int(d.sides))
}

// modifier: ('r' | 'ro') (INT | cond) | ('mi' | 'ma') INT | ('!' | '!!') cond?
//
//	| ('kh' | 'k' | 'kl' | 'dh' | 'dl') INT? | cond | 'f' (INT | cond)
//
// Each kind at most once, in any order. A condition right after '!' or
// '!!' is the explosion's; anywhere else it counts successes.
func (p *parser) parseModifiers(d *diceSpec) {
	lo, hi := d.faces()
	var rerollAt, explodeAt, failAt, maAt token
	for {
		t := p.tok
		switch t.kind {
		case tokReroll, tokRerollOnce:
			if d.reroll.ok() {
				p.unexpected()
			}
			p.next()
			d.once = t.kind == tokRerollOnce
			if t.kind == tokReroll && len(t.text) == 1 && p.tok.kind == tokInt {
				p.notes |= readRerollEq
			}
			d.reroll = p.parseCond(true)
			p.noteStrict(d.reroll)
			rerollAt = p.modifierText(t)
		case tokMin, tokMax:
			c := &d.mi
			if t.kind == tokMax {
				c = &d.ma
			}
			if c.ok() {
				p.unexpected()
			}
			p.next()
			*c = cond{t.kind, p.modNumber()}
			if t.kind == tokMax {
				maAt = p.modifierText(t)
			}
		case tokExplode, tokCompound:
			if d.explode.ok() {
				p.unexpected()
			}
			p.next()
			d.compound = t.kind == tokCompound
			d.explode = cond{tokEq, int32(hi)}
			if p.tok.kind.isComparison() {
				d.explode = p.parseCond(false)
				p.noteStrict(d.explode)
			}
			explodeAt = p.modifierText(t)
		case tokExplodeAt:
			if d.explode.ok() {
				p.unexpected()
			}
			p.parseExplodeAt(d, t, hi)
			explodeAt = p.modifierText(t)
		case tokRerollUpTo:
			// Dice Maiden's "ir2": reroll 2 and below, again and again.
			if d.reroll.ok() {
				p.unexpected()
			}
			p.next()
			d.once = false
			d.reroll = p.parseCondOr(tokLessEq)
			rerollAt = p.modifierText(t)
		case tokTarget:
			// Dice Maiden's "t8": count the dice showing 8 and above.
			if d.success.ok() {
				p.unexpected()
			}
			p.next()
			d.success = p.parseCondOr(tokGreaterEq)
		case tokDice:
			p.parseDrop(d, t)
		case tokKeepHigh, tokKeepLow, tokDropHigh, tokDropLow:
			if d.keep.isKeep() {
				p.unexpected()
			}
			p.next()
			d.keep, d.keepN = t.kind, 1
			if p.tok.kind == tokInt {
				d.keepN = p.modNumber()
			}
		case tokEq, tokLess, tokLessEq, tokGreater, tokGreaterEq:
			if d.success.ok() {
				p.unexpected()
			}
			d.success = p.parseCond(false)
			p.noteStrict(d.success)
		case tokFail:
			if d.failure.ok() {
				p.unexpected()
			}
			p.next()
			d.failure = p.parseCond(true)
			failAt = p.modifierText(t)
		default:
			p.checkModifiers(d, lo, hi, rerollAt, explodeAt, failAt, maAt)
			return
		}
	}
}

// checkModifiers ends a dice term's modifiers: it refuses those that
// cannot go together, at the modifier to blame (each token spans one).
func (p *parser) checkModifiers(d *diceSpec, lo, hi int, rerollAt, explodeAt, failAt, maAt token) {
	d.plain = !d.reroll.ok() && !d.mi.ok() && !d.ma.ok() && !d.explode.ok()
	switch {
	case d.failure.ok() && !d.success.ok():
		p.errorf(failAt.pos, "'%s' counts failures only after a success condition, as in 10d10>=8f1", failAt.text)
	case d.mi.ok() && d.ma.ok() && d.ma.n < d.mi.n:
		p.errorf(maAt.pos, "'%s' is below mi%d", maAt.text, d.mi.n)
	case d.reroll.ok() && !d.once && !someFace(lo, hi, d.reroll, cond{}):
		p.errorf(rerollAt.pos, "'%s' rerolls every face of a %s: it would never stop", rerollAt.text, d.name())
	case d.explode.ok() && !someFace(lo, hi, d.explode, cond{}):
		p.errorf(explodeAt.pos, "'%s' explodes on every face of a %s: it would never stop", explodeAt.text, d.name())
	case d.explode.ok() && d.reroll.ok() && !d.once && !someFace(lo, hi, d.explode, d.reroll):
		p.errorf(explodeAt.pos, "'%s' explodes on every face a %s can show after '%s': it would never stop",
			explodeAt.text, d.name(), rerollAt.text)
	}
}

// modifierText returns a token spanning the modifier that began with t and
// ends with the last token consumed, for an error message.
func (p *parser) modifierText(t token) token {
	t.text = p.src[t.pos:p.prevEnd]
	return t
}

// cond: ('=' | '<' | '<=' | '>' | '>=') '-'? INT
//
// With bare, an INT alone is a condition too: '=' INT.
func (p *parser) parseCond(bare bool) cond {
	switch {
	case p.tok.kind.isComparison():
		op := p.tok.kind
		p.next()
		neg := p.tok.kind == tokMinus
		if neg {
			p.next()
		}
		n := p.modNumber()
		if neg {
			n = -n
		}
		return cond{op, n}
	case bare && p.tok.kind == tokInt:
		return cond{tokEq, p.modNumber()}
	}
	p.errorf(p.tok.pos, "unexpected %s, expected a number or a condition such as <3", p.tok)
	panic("unreachable")
}

// noteStrict notes a condition of "<" or ">", which Roll20 reads as "<="
// or ">=".
func (p *parser) noteStrict(c cond) {
	if c.op == tokLess || c.op == tokGreater {
		p.notes |= readStrict
	}
}

// parseExplodeAt parses Dice Maiden's "e6" and "ie6": explode on 6 and
// above; "e" alone on the highest face; Avrae's "e>4" on what meets the
// condition. t is the "e", the lookahead.
func (p *parser) parseExplodeAt(d *diceSpec, t token, hi int) {
	p.next()
	d.explode = cond{tokEq, int32(hi)}
	switch {
	case p.tok.kind == tokInt:
		d.explode = cond{tokGreaterEq, p.modNumber()}
		if len(t.text) == 1 {
			p.notes |= readExplodeAt
		}
	case p.tok.kind.isComparison():
		d.explode = p.parseCond(false)
		p.noteStrict(d.explode)
	}
}

// parseDrop parses Roll20's "4d6d1" and Dice Maiden's "4d6 d1": drop
// the lowest, when fewer than the term's dice ("1d20 d6" is a forgotten
// operator). t is the "d", the lookahead.
func (p *parser) parseDrop(d *diceSpec, t token) {
	sc := p.sc
	n := sc.scan()
	if d.keep.isKeep() || n.kind != tokInt || n.pos != t.pos+1 || len(n.text) > 6 || atoi(n.text) >= int(d.count) {
		p.unexpected()
	}
	p.next()
	d.keep, d.keepN = tokDropLow, p.modNumber()
}

// parseCondOr is parseCond for a modifier whose bare number means op:
// Dice Maiden's "t8" is ">=8", its "ir2" "<=2".
func (p *parser) parseCondOr(op tokenKind) cond {
	if p.tok.kind == tokInt {
		return cond{op, p.modNumber()}
	}
	return p.parseCond(false)
}

// atoi returns the value of s, digits that fit an int.
func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// modNumber consumes the number of a modifier, at most MaxSides.
func (p *parser) modNumber() int32 {
	if p.tok.kind != tokInt {
		p.errorf(p.tok.pos, "unexpected %s, expected a number", p.tok)
	}
	pos := p.tok.pos
	n, err := strconv.Atoi(p.tok.text)
	if err != nil || n > MaxSides {
		p.limitf(pos, "number too large (at most %d)", MaxSides)
	}
	p.next()
	return int32(n)
}

// number consumes an integer token and returns its value.
func (p *parser) number() int {
	n, err := strconv.Atoi(p.tok.text)
	if err != nil {
		p.limitf(p.tok.pos, "number too large (at most %d)", math.MaxInt)
	}
	p.next()
	return n
}

// someFace reports whether some face in lo..hi meets neither a nor b; a
// missing condition (op tokEOF) is met by none. Each condition met by none
// leaves an interval, or all faces but one for '='.
func someFace(lo, hi int, a, b cond) bool {
	var but [2]int // faces left out by '='
	nbut := 0
	for _, c := range [2]cond{a, b} {
		n := int(c.n)
		switch c.op {
		case tokEq:
			but[nbut] = n
			nbut++
		case tokLess:
			lo = max(lo, n)
		case tokLessEq:
			lo = max(lo, n+1)
		case tokGreater:
			hi = min(hi, n)
		case tokGreaterEq:
			hi = min(hi, n-1)
		}
	}
	if lo > hi {
		return false
	}
	left := hi - lo + 1
	for i, f := range but[:nbut] {
		if lo <= f && f <= hi && (i == 0 || f != but[0]) {
			left--
		}
	}
	return left > 0
}

// splitReason finds where a roll's reason begins in src, which does not
// parse as a whole: after a complete expression, the
// rest of the text is the roll's reason when it is introduced by "#"
// beside white space, by
// a "!" with white space on both sides (Dice Maiden's "1d20+5 ! attack"),
// or by white space and a word that begins with a letter, has no digit
// and is not itself dice syntax ("1d20+5 to hit", but not "1d20 adv", a
// forgotten operator, nor Dice Maiden's "10d10 t8", a modifier). The
// latest such place whose expression parses wins, a spaced "!" first; it
// returns the parser of that expression and where the reason, trimmed,
// lies in src.
//
// Places after the parse error count too: in "0 # A" the error is the
// repeat count 0 at column 1, but "0" with the reason "A" parses.
//
// A reason holds at most maxLen characters: MaxReasonLen, or more to
// find a reason that is too long.
func splitReason(src string, maxLen int) (parser, [2]int32, bool) {
	for _, bangOnly := range [2]bool{true, false} {
		for i := len(src) - 1; i > 0; i-- {
			start, ok := reasonStart(src, i, bangOnly)
			if !ok {
				continue
			}
			text := strings.TrimRightFunc(src[start:], unicode.IsSpace)
			from := len(text) - len(strings.TrimLeftFunc(text, unicode.IsSpace))
			if !validReason(text[from:], maxLen) {
				continue
			}
			q := parser{src: src[:i], sc: scanner{src: src[:i]}, quiet: true}
			if q.parseRoll() == nil {
				return q, [2]int32{int32(start + from), int32(start + len(text))}, true
			}
		}
	}
	return parser{}, [2]int32{}, false
}

// reasonStart reports whether a reason may be introduced at src[i], and
// where its text begins.
func reasonStart(src string, i int, bangOnly bool) (int, bool) {
	c := src[i]
	switch {
	case c == '!':
		return i + 1, isSpace(src[i-1]) && i+1 < len(src) && isSpace(src[i+1])
	case bangOnly:
		return 0, false
	case c == '#':
		// "1+2#1d6" is a misplaced repeat, not a reason: a "#"
		// introduces one with white space on a side of it.
		return i + 1, isSpace(src[i-1]) || i+1 < len(src) && isSpace(src[i+1])
	case isSpace(c) && i+1 < len(src) && !isSpace(src[i+1]):
		word := src[i+1:]
		if end := strings.IndexFunc(word, unicode.IsSpace); end >= 0 {
			word = word[:end]
		}
		// A word with a digit reads as another bot's modifier ("t8",
		// "ir2"), which rolling without would misread: an error.
		r, _ := utf8.DecodeRuneInString(word)
		if !unicode.IsLetter(r) || strings.IndexFunc(word, unicode.IsDigit) >= 0 {
			return 0, false
		}
		// A word that is a name is a reason ("1d20 som"): a name needs
		// an operator before it.
		q := parser{src: word, sc: scanner{src: word}, quiet: true}
		return i + 1, q.parseRoll() != nil || q.names > 0
	}
	return 0, false
}

// validReason reports whether text, trimmed, may be a roll's reason: not
// empty, at most MaxReasonLen characters of valid UTF-8, and no control
// characters or line breaks.
func validReason(text string, maxLen int) bool {
	if text == "" || !utf8.ValidString(text) || utf8.RuneCountInString(text) > maxLen {
		return false
	}
	for _, r := range text {
		if unicode.IsControl(r) || unicode.In(r, unicode.Zl, unicode.Zp) {
			return false
		}
	}
	return true
}
