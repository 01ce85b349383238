package xhalem

import (
	"strings"
)

// Position is where an attacker in melee stands around its target, 0 to 10
// feet or hexes away.
type Position string

// Positions around a target: four on its plane, one above and one below.
const (
	Front Position = "front"
	Back  Position = "back"
	Left  Position = "left"
	Right Position = "right"
	Above Position = "above"
	Below Position = "below"
)

// PositionWords are the words of a Position.
var PositionWords = Words[Position]{What: "position", Fold: true, List: []Word[Position]{
	{[]string{"front"}, Front},
	{[]string{"back"}, Back},
	{[]string{"left"}, Left},
	{[]string{"right"}, Right},
	{[]string{"above"}, Above},
	{[]string{"below"}, Below},
}}

// Positions lists every position, for choices and messages.
var Positions = PositionWords.Values()

// Opposite is the position directly across the target from p.
func (p Position) Opposite() Position {
	switch p {
	case Front:
		return Back
	case Back:
		return Front
	case Left:
		return Right
	case Right:
		return Left
	case Above:
		return Below
	case Below:
		return Above
	}
	return ""
}

func (p Position) vertical() bool { return p == Above || p == Below }

// ParsePosition reads one position (PositionWords).
func ParsePosition(s string) (Position, error) { return PositionWords.Parse(s) }

// ParsePositions reads positions separated by commas or spaces: "back,
// left".
func ParsePositions(s string) ([]Position, error) {
	var out []Position
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == ';' }) {
		p, err := ParsePosition(f)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// Flanks reports whether an attacker at me, with allies in melee with the
// same target at allies, has the advantage of flanking:
//
//   - "a flanked combatant must have an enemy in front and behind them":
//     an attacker whose opposite position holds an ally flanks ("each pair
//     is directly across from each other on the same plane"; above and
//     below are across from each other too).
//   - "If another ally joins the fight, the third attacker does not get an
//     advantage. If the third attacker is striking from directly above or
//     directly below the flanked character ..., then the third attacker has
//     an advantage": once a pair flanks the target, an attacker above or
//     below has advantage too.
//   - "An ally that stands directly beside another ally to attack an
//     opponent will never receive an advantage unless another ally joins
//     the fight directly across."
func Flanks(me Position, allies []Position) bool {
	at := map[Position]bool{me: true}
	for _, a := range allies {
		at[a] = true
	}
	if at[me.Opposite()] {
		return true
	}
	if !me.vertical() {
		return false
	}
	for _, p := range Positions {
		if p != me && p != me.Opposite() && at[p] && at[p.Opposite()] {
			return true
		}
	}
	return false
}
