// Package dice parses and rolls dice expressions such as "4d6kh3 + 2",
// "10d10>=8f1", "3d6!" or "1d20+5 [to hit] 2d6+3 [slashing]".
//
// # Grammar
//
// In the EBNF of the Go specification; white space may separate any two
// tokens and keywords may be upper or lower case:
//
//	roll     = part { part } [ reason ] . // a part after the first must follow a label
//	part     = [ int ( "#" | " " ) ] expr . // "6#4d6kh3" and "6 4d6kh3" roll 4d6kh3 six times, each a part
//	reason   = ( "#" | " ! " | " " word ) { character } . // the rest of the text; see Reasons
//	expr     = unary { binop unary } .   // "*" and "/" bind tighter than "+" and "-"; all left to right
//	binop    = "+" | "-" | "*" | "/" .
//	unary    = "-" unary | primary [ label ] .
//	primary  = int | dice | alias | name | "(" expr ")" .
//	name     = letter { letter | digit | "_" } .  // a word that does not read as dice: see Names
//	dice     = [ int ] ( "d" ( int | "%" | "F" ) | "v:" int ) { modifier } .  // count defaults to 1
//	alias    = "adv" | "dis" | "det" .   // also spelt out: "advantage", "disadvantage", "detriment"
//	modifier = reroll | clamp | explode | keep | success | failure .
//	reroll   = ( "r" | "ro" ) ( int | cond ) .       // "r1" is "r=1"
//	clamp    = ( "mi" | "ma" ) int .
//	explode  = ( "!" | "!!" ) [ cond ] | ( "e" | "ie" ) [ int ] . // on the highest face unless a cond is given; "e6" is "!>=6"
//	keep     = ( "kh" | "k" | "kl" | "dh" | "dl" ) [ int ] .  // count defaults to 1
//	success  = cond .
//	failure  = "f" ( int | cond ) .                  // "f1" is "f=1"
//	cond     = ( "=" | "<" | "<=" | ">" | ">=" ) [ "-" ] int .
//	label    = "[" { character } "]" .  // any character but "]" and control characters
//
// # Dice
//
// "NdS" rolls N dice of S sides; "d%" is "d100"; "dF" is a Fudge die,
// showing -1, 0 or +1. "v:S" is the notation of the Midnight in Vaia rules
// (seed 002) for one die of S sides, "3v:6" for three. "adv" is advantage,
// 2d20kh1; "dis" disadvantage, 2d20kl1; "det" detriment, "roll 4D20 and use
// the lowest number" (seed 004): 4d20kl1. The aliases take no modifiers.
//
// # Modifiers
//
// A dice term takes each kind of modifier at most once, written in any
// order. They apply in this order, which is also the order of the normal
// form:
//
//  1. As each die is rolled: reroll, then clamp. "r<3" rolls the die again
//     while its face is below 3, at most MaxRerolls times (the last face
//     then stands); "ro<3" rerolls it at most once. "mi3" makes a die
//     showing less than 3 count as 3, "ma5" one showing more than 5 count
//     as 5: the face stays what was rolled, the value it counts changes.
//  2. Explode. "!" rolls an extra die each time a die shows its highest
//     face ("!>=5", "!=1" and so on for another condition); the extra die
//     joins the group and may explode in turn. "!!" compounds: the extra
//     rolls add into the die that exploded, which stays one die. A die
//     explodes at most MaxExplosions times in a row; the extra die rolled
//     last then does not explode, whatever it shows. Rerolls and clamps
//     apply to extra rolls too.
//  3. Keep or drop: "kh" keeps the highest dice, "kl" the lowest, "dh"
//     drops the highest and "dl" the lowest. A count larger than the
//     number of dice clamps: "2d20kh5" keeps both dice and "2d6dl5" none.
//     Among equal values the earlier die ranks first, so "2d20kh1" rolling
//     7 and 7 keeps the first 7. Extra dice of "!" count as dice.
//  4. Success counting. A condition after a dice term counts the kept dice
//     that meet it instead of summing them: "10d10>=8" is the number of
//     dice showing 8 or more. There is no comparison operator in the
//     language, so ">=" after a dice term always means success counting.
//     "f1" then counts failures, each subtracting 1: "10d10>=8f1". A die
//     may be both, counting +1 and -1.
//
// Reroll and explosion conditions test the face rolled; keep, drop and
// success counting test the value the die counts (after a clamp, and for
// "!!" the sum of its rolls). A reroll condition that every face meets, or
// an explosion condition that every face left by the reroll meets ("1d1!",
// "d6!>=1", "d6r<6!"), is an error at parse time, as it would never stop.
//
// # Labels and parts
//
// A label in brackets right after a term annotates it: in
// "2d6[slashing] + 1d8[fire]" the 2d6 is slashing and the 1d8 fire, and
// each [Group] carries its label. A new expression right after a label,
// with no operator between, starts a new part: "1d20+5 [to hit] 2d6+3
// [slashing]" is two parts, each with its own total, labelled by the label
// that ends it. "N#expr" rolls expr N times, each a part. Labels are
// trimmed of surrounding spaces and at most MaxLabelLen characters long.
//
// # Reasons
//
// After a complete roll, the rest of the text is the roll's reason,
// shown with the result and kept with it: "1d20+5 to hit", "1d20+5 #
// attack" (Avrae), "1d20+5 ! attack" (Dice Maiden). A "#" introduces one
// with white space on a side of it ("1+2#1d6" stays an error), a "!" with
// white space on both sides ("3d6!" still explodes), and white space one
// whose first word begins with a letter, has no digit and is not itself
// an expression ("1d20 adv" is a forgotten operator and "10d10 t8" another
// bot's modifier: errors, not reasons). A reason is at most
// MaxReasonLen characters, without control characters; it never changes
// the total. The normal form writes it after " # ", or after " ! " when
// the roll ends with a bare number ("5 # x" would read as the repeat 5#x).
//
// # Names
//
// Where an operand is expected, a word of letters, digits and "_" that
// begins with a letter is a name, whose value the roll reads from the
// Lookup given to [Expr.RollWith]: a character's stat, as in
// "1d20+som". The breakdown shows the value after the name, "1d20 (14) +
// som (3) = 17", and [Result.Refs] lists them. A word that reads as dice
// syntax is dice, not a name: one with a number before any character
// that is no keyword ("d6", "e6", "d6x", a mistyped die), one keyword
// ("d", "kh", "e", "r"), or keywords that are dice alone or after a die
// ("adv", "dF", "khe" as in "4d6khe"). "dex" is a name, as "x" is no
// keyword; so are "def" and "fed", dice neither alone nor after a die.
// [Reserved] tells such words apart, for a character sheet to refuse them
// as stat names. A name needs an operator before it:
// "1d20 som" is 1d20 with the reason "som", and a part after a label
// begins with dice, a number, "(" or "-", never a name. Names are
// case-insensitive and written in lower case in the normal form. The
// parse does not depend on the values, so [Parse]'s cache keeps the parse
// and each roll reads the values afresh; a name takes no dice, so
// physical dice go to the dice in order whatever the names are.
//
// # Notations of other bots
//
// "6 4d6kh3", a count, white space and an expression that begins with a
// number, is Dice Maiden's "6#4d6kh3". "e6" and "ie6" after a dice term
// explode on 6 and above, "!>=6"; "e" alone on the highest face. (Dice
// Maiden's "e" explodes each die once; here every explosion chains, as
// its "ie" does, up to MaxExplosions.)
//
// Arithmetic is on integers; division rounds down (toward negative
// infinity): -7/2 is -4.
//
// # Normal form
//
// [Expr.String] prints an expression in one normal form, which parses back
// to the same expression: keywords in lower case except "dF"; every dice
// term with its count ("d6" is "1d6", "v:4" is "1v:4") and "d%" as
// "1d100"; "k" as "kh" and a keep or drop with its count ("kh" is "kh1");
// modifiers in the order they apply, "r=1" as "r1", "f=1" as "f1" and an
// explosion on the highest face as a bare "!" (written "!=6" on a d6 when
// a success condition follows, which would otherwise read as the
// explosion's); "advantage" as "adv" and so on; numbers without leading
// zeros; one space on each side of a binary operator and none after a
// unary minus; one space before a label and between parts; parentheses
// only where the tree needs them, so "((1d6+2))*3" is "(1d6 + 2) * 3" and
// "1-(2-3)" keeps its parentheses. The spaces also keep Discord from
// reading "*" as emphasis.
//
// # Errors
//
// Every error from [Parse] is a *[SyntaxError]; [Suggest] finds an
// expression one edit away from a text that does not parse, for a "did
// you mean" message. An error from [Expr.Roll] is
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
// user's expression can cause. Breaking one is an error, never a panic,
// except MaxExplosions and MaxRerolls, which end a chain of rolls that
// could otherwise go on for long (see the package comment).
const (
	MaxDice    = 1000      // dice rolled in one evaluation: all terms, parts, rerolls and explosions together
	MaxSides   = 1_000_000 // sides of one die; also the largest number a modifier takes
	MaxExprLen = 500       // bytes of expression text given to Parse
	MaxDepth   = 32        // parentheses and unary minus nested in each other

	MaxExplosions = 100 // extra rolls one die may explode into, in a chain
	MaxRerolls    = 100 // times "r" rerolls one die
	MaxRepeat     = 100 // N of "N#expr"
	MaxParts      = 100 // parts of one roll, each repetition of "N#" counting as one
	MaxLabelLen   = 64  // characters (runes) of a label, after trimming
	MaxReasonLen  = 100 // characters (runes) of a roll's reason, after trimming
)

// Expr is a parsed dice expression. It is immutable, so one Expr may be
// rolled from several goroutines at once, each with its own Roller.
type Expr struct {
	src   string     // as typed: error positions point into it
	text  string     // normal form; Group.Expr and Part.Expr are slices of it
	nodes []node     // the syntax trees of the parts; children by index
	dice  []diceSpec // the dice terms, in the order they are rolled
	parts []partSpec
	// reason is where the roll's reason ("1d20+5 # to hit") lies in
	// src; empty without one.
	reason [2]int32
	// groups is the number of groups one roll makes (dice terms times
	// repeats); minDice the dice it rolls before rerolls and explosions.
	groups, minDice int32
	notes           readings
	// names is the number of names in the tree, each once however often
	// its part repeats; room the dice a roll makes room for (newResult).
	// They take the bytes the fields above leave free of the Expr's 128,
	// so that an Expr of the common sizes still fits its size class (see
	// newExpr).
	names uint16
	room  int32
}

// Parse parses a dice expression. Its errors are *SyntaxError. Parse also
// rejects what it can see breaks a limit: a die with 0 sides or more than
// MaxSides, more than MaxDice dice before any reroll or explosion, nesting
// deeper than MaxDepth, text longer than MaxExprLen, a label longer than
// MaxLabelLen, more than MaxRepeat repetitions or MaxParts parts, and a
// reroll or explosion that would never stop.
//
// Parse keeps the Exprs of short texts it parsed lately and may return the
// same *Expr for the same text again: an Expr is immutable, so this is
// safe for any caller.
func Parse(expr string) (*Expr, error) {
	if len(expr) > MaxExprLen {
		return nil, &SyntaxError{Expr: expr, Pos: MaxExprLen,
			Msg: "expression too long (at most " + strconv.Itoa(MaxExprLen) + " characters)", Limit: true}
	}
	return parseCached(expr)
}

// Reason returns the roll's reason, the text after a complete expression
// ("to hit" in "1d20+5 to hit"), or "".
func (e *Expr) Reason() string { return e.src[e.reason[0]:e.reason[1]] }

// String returns the expression in normal form (see the package comment).
// It may be longer than the text given to Parse.
func (e *Expr) String() string { return e.text }
