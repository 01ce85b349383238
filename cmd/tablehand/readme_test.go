package main

import (
	"os"
	"regexp"
	"slices"
	"testing"

	"github.com/tablehand/tablehand/commands"
	"github.com/tablehand/tablehand/commands/kit"
)

// TestReadmeListsEveryCommand holds the README's table of commands to the
// router: every command has a row, and every rule system of the registry
// a page in docs/ listing its rules.
func TestReadmeListsEveryCommand(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	// A row names its commands in backquotes at its start: "| `/roll ...`"
	// or "| `/arc`, `/ulm`".
	var listed []string
	for _, row := range regexp.MustCompile("(?m)^\\| (`/[a-z].*?) \\|").FindAllStringSubmatch(string(readme), -1) {
		for _, m := range regexp.MustCompile("`/([a-z]+)").FindAllStringSubmatch(row[1], -1) {
			listed = append(listed, m[1])
		}
	}
	router := commands.New(kit.NewDeps(nil, nil))
	for _, c := range router.Commands() {
		if !slices.Contains(listed, c.Name) {
			t.Errorf("README.md's table of commands has no row for /%s", c.Name)
		}
	}
	for _, s := range commands.Systems {
		if _, err := os.Stat("../../docs/" + s.Name + ".md"); err != nil {
			t.Errorf("the %s system has no page in docs/: %v", s.Name, err)
		}
	}
}
