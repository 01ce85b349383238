// Package dice parses and rolls dice expressions such as "4d6kh3 + 2".
//
// The language, in the EBNF of the Go specification; white space may
// separate any two tokens and letters may be upper or lower case:
//
//	expr     = unary { binop unary } .  // "*" and "/" bind tighter than "+" and "-"; all left to right
//	binop    = "+" | "-" | "*" | "/" .
//	unary    = "-" unary | primary .
//	primary  = int | [ int ] dice | "(" expr ")" .
//	dice     = "d" ( int | "%" ) [ modifier ] .  // count defaults to 1; "d%" is d100
//	modifier = ( "kh" | "k" | "kl" | "dh" | "dl" ) [ int ] .  // count defaults to 1
//
// "kh" keeps the highest dice, "kl" the lowest, "dh" drops the highest and
// "dl" the lowest. A count larger than the number of dice clamps: "2d20kh5"
// keeps both dice and "2d6dl5" keeps none. Among equal faces the earlier
// die ranks first, so "2d20kh1" rolling 7 and 7 keeps the first 7.
// Division rounds down (toward negative infinity): -7/2 is -4.
//
// # Normal form
//
// [Expr.String] prints an expression in one normal form, which parses back
// to the same expression: lower case; every dice term with its count
// ("d6" is "1d6") and "d%" as "1d100"; "k" as "kh" and a modifier with its
// count ("kh" is "kh1"); numbers without leading zeros; one space on each
// side of a binary operator and none after a unary minus; parentheses only
// where the tree needs them, so "((1d6+2))*3" is "(1d6 + 2) * 3" and
// "1-(2-3)" keeps its parentheses. The spaces also keep Discord from reading
// "*" as emphasis.
//
// # Errors
//
// Every error from [Parse] is a *[SyntaxError]. An error from [Expr.Roll] is
// an *[Error] when the roll is at fault (division by zero, overflow, too
// many dice, a physical die that does not fit) and otherwise wraps, with %w,
// the error of the [Roller]. *SyntaxError and *Error are mistakes the user
// can fix and carry the column where the expression went wrong, when there
// is one; a wrapped Roller error is not the user's doing.
//
// The package is pure: randomness comes only from the Roller passed in.
package dice

import "strconv"

// Limits keep a roll small enough for a chat reply and bound the work a
// user's expression can cause. Breaking one is an error, never a panic.
const (
	MaxDice    = 1000      // dice rolled in one evaluation, all terms together
	MaxSides   = 1_000_000 // sides of one die
	MaxExprLen = 500       // bytes of expression text given to Parse
	MaxDepth   = 32        // parentheses and unary minus nested in each other
)

// Expr is a parsed dice expression. It is immutable, so one Expr may be
// rolled from several goroutines at once, each with its own Roller.
type Expr struct {
	src  string // as typed: error positions point into it
	text string // normal form
	root node
}

// Parse parses a dice expression. Its errors are *SyntaxError. Parse also
// rejects what it can see breaks a limit: a die with 0 sides or more than
// MaxSides, a term of more than MaxDice dice, nesting deeper than
// MaxDepth, text longer than MaxExprLen.
func Parse(expr string) (*Expr, error) {
	if len(expr) > MaxExprLen {
		return nil, &SyntaxError{Expr: expr, Pos: MaxExprLen,
			Msg: "expression too long (at most " + strconv.Itoa(MaxExprLen) + " characters)"}
	}
	return parse(expr)
}

// String returns the expression in normal form (see the package comment).
// It may be longer than the text given to Parse.
func (e *Expr) String() string { return e.text }
