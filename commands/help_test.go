package commands

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tablehand/tablehand/commands/kit"
)

// TestHelpFitsDiscord asks /help for every command and every subcommand
// and holds each message of the answer to Discord's 2000 characters, with
// nothing cut: every subcommand of a command is in its help, and no
// message carries the truncation note.
func TestHelpFitsDiscord(t *testing.T) {
	it := newInitTable(t)
	messages := func(line string) string {
		t.Helper()
		resp := it.Must("player", line)
		var all strings.Builder
		for _, m := range append([]kit.Response{resp}, resp.Followups...) {
			if n := utf8.RuneCountInString(m.Content); n > kit.MaxContent {
				t.Errorf("%s: a message of %d characters; Discord allows %d", line, n, kit.MaxContent)
			}
			if strings.Contains(m.Fit().Content, "truncated") {
				t.Errorf("%s: a message is cut: %q", line, m.Fit().Content)
			}
			all.WriteString(m.Content + "\n")
		}
		return all.String()
	}
	for _, c := range it.R.Commands() {
		text := messages("/help command:" + c.Name)
		for _, leaf := range kit.LeafNames(c.Options, "") {
			path := "/" + c.Name + " " + leaf
			if !strings.Contains(text, "`"+path) {
				t.Errorf("/help command:%s leaves out %s", c.Name, path)
			}
			one := messages(`/help command:"` + c.Name + " " + leaf + `"`)
			if !strings.Contains(one, "`"+path) {
				t.Errorf("/help command:%q does not explain it: %s", c.Name+" "+leaf, one)
			}
		}
	}
	all := messages("/help")
	for _, c := range it.R.Commands() {
		if !strings.Contains(all, "`/"+c.Name+"`") {
			t.Errorf("/help leaves out /%s", c.Name)
		}
	}
}
