package encounter

import "fmt"

// StatGiven is the initiative score given at the table (the initiative:
// option of /init add and /init join): the score as the system's text
// defines it, for which the policy rolls no die. It is a stat of its own,
// apart from any system's "initiative" stat (burst's is bonus dice).
const StatGiven = "initiative_given"

// Given returns c's initiative score given at the table, if it has one.
func Given(c *Combatant) (int, bool) {
	v, ok := c.Stats[StatGiven]
	return v, ok
}

// NoScorer is a Policy whose system has no initiative score to give (its
// order comes from other stats). Add refuses a combatant with StatGiven
// under it, with the rule NoScore returns, one line.
type NoScorer interface {
	NoScore() string
}

// GivenRoll is the roll of an initiative score given at the table: no die,
// its total the score, its text saying so and what the score is
// ("the action roll with bonus dice"; "" for no such note).
func GivenRoll(c *Combatant, what string, score int, is string) Roll {
	text := fmt.Sprintf("%d, as rolled at the table", score)
	if is != "" {
		text += " (" + is + ")"
	}
	return Roll{Combatant: c.ID, Name: c.Name, For: what, Total: score, Text: text, Secret: c.Hidden, Given: true}
}
