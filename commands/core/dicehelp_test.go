package core

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/tablehand/tablehand/rules/dice"
)

// The dice language is documented in one place: /help command:roll shows
// diceGuide, and docs/dice.md holds the same lines.
func TestDiceGuideInDocs(t *testing.T) {
	doc, err := os.ReadFile("../../docs/dice.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(diceGuide), "\n") {
		if !strings.Contains(string(doc), line+"\n") {
			t.Errorf("docs/dice.md lacks /help's line %q", line)
		}
	}
}

var codeRE = regexp.MustCompile("`([^`]+)`")

// Every example the guide gives parses, and so does every Tablehand
// notation in the table of other bots' notations.
func TestDiceExamplesParse(t *testing.T) {
	var examples []string
	for _, m := range codeRE.FindAllStringSubmatch(diceGuide, -1) {
		examples = append(examples, m[1])
	}
	doc, err := os.ReadFile("../../docs/dice.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := 0
	for _, line := range strings.Split(string(doc), "\n") {
		cells := strings.Split(line, "|")
		if len(cells) != 7 || strings.HasPrefix(cells[1], "---") || strings.TrimSpace(cells[1]) == "roll" {
			continue
		}
		rows++
		for _, m := range codeRE.FindAllStringSubmatch(cells[5], -1) {
			examples = append(examples, m[1])
		}
		if strings.Contains(cells[5], "as is") {
			// "as is" vouches for the other bots' spellings of the row.
			for _, cell := range cells[2:5] {
				if strings.Contains(cells[5], "all three") || strings.Contains(cells[5], strings.TrimSpace(cell)) {
					for _, m := range codeRE.FindAllStringSubmatch(cell, -1) {
						examples = append(examples, m[1])
					}
				}
			}
		}
	}
	if rows < 10 {
		t.Fatalf("found %d rows in docs/dice.md's table of other bots' notations", rows)
	}
	for _, ex := range examples {
		switch ex {
		case "+ - * /", "( )":
			continue
		}
		text, _ := dice.Translate(ex) // as /roll reads it: "+d20+5" is Dice Maiden's alias
		if _, err := dice.Parse(text); err != nil {
			t.Errorf("example %q does not parse: %v", ex, err)
		}
	}
}

// What docs/dice.md says is an error in Tablehand, rather than silently
// something else, is one.
func TestDiceOtherBotsErrors(t *testing.T) {
	for _, s := range []string{"1d20+5 adv", "4d6ra1", "5d6!p", "{5d6!!}>8", "3d6!3", "2d6d6"} {
		if _, err := dice.Parse(s); err == nil {
			t.Errorf("%q parses; docs/dice.md says it is an error", s)
		}
	}
}
