package commands

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tablehand/tablehand/commands/kit"
)

// TestLargestInputsFitDiscord runs every command, by every subcommand,
// with each of its options at the largest value its definition allows
// (text at its most characters, numbers at their bound, the first
// choice), as a GM and as a player, and holds every reply, edit and
// follow-up to Discord's limits with nothing cut: whatever a handler
// answers, it reaches the user whole.
func TestLargestInputsFitDiscord(t *testing.T) {
	it := newInitTable(t)
	it.Must("gm", "/init start")
	it.Must("gm", "/init add name:Orc hp:10")
	paths, answered := 0, 0
	for _, c := range it.R.Commands() {
		for _, leaf := range leafOptions(c.Options, "") {
			paths++
			opts := kit.Options{}
			for _, o := range leaf.opts {
				opts[o.Name] = largest(o)
			}
			for _, user := range []string{"gm", "player"} {
				req := &kit.Request{Kind: kit.KindCommand, Path: strings.TrimSuffix(c.Name+"/"+leaf.path, "/"), Options: opts,
					User: kit.User{ID: user, Name: user}, GuildID: "guild", ChannelID: "table"}
				if user == "gm" {
					req.Permissions = kit.ManageChannels
				}
				resp, err := it.R.Handle(context.Background(), req)
				if err == nil {
					answered++
				}
				checkFits(t, req.Path+" as "+user, resp)
			}
		}
	}
	// Most of the largest inputs are refused as mistakes, with the valid
	// range; the test is only worth something if commands ran.
	if paths < 60 || answered < 10 {
		t.Errorf("%d subcommands, %d answers that were not a mistake", paths, answered)
	}
	t.Logf("%d subcommands, %d answers that were not a mistake", paths, answered)
}

type leafOpts struct {
	path string
	opts []kit.Option
}

func leafOptions(opts []kit.Option, prefix string) []leafOpts {
	if !kit.HasSubcommands(opts) {
		return []leafOpts{{path: strings.TrimSuffix(prefix, "/"), opts: opts}}
	}
	var out []leafOpts
	for _, o := range opts {
		out = append(out, leafOptions(o.Options, prefix+o.Name+"/")...)
	}
	return out
}

// largest is the largest value o's definition allows.
func largest(o kit.Option) any {
	if len(o.Choices) > 0 {
		return o.Choices[0].Value
	}
	switch o.Type {
	case kit.Integer, kit.Number:
		if o.MaxValue != nil {
			if o.Type == kit.Integer {
				return int64(*o.MaxValue)
			}
			return *o.MaxValue
		}
		return int64(1_000_000)
	case kit.Boolean:
		return true
	case kit.UserOption:
		return "someone"
	}
	n := o.MaxLength
	if n == 0 {
		n = 100
	}
	return strings.Repeat("x", n)
}

func checkFits(t *testing.T, what string, r kit.Response) {
	t.Helper()
	texts := []string{r.Content}
	for _, e := range r.Embeds {
		texts = append(texts, e.Description)
	}
	if n := utf8.RuneCountInString(r.Content); n > kit.MaxContent {
		t.Errorf("%s: %d characters", what, n)
	}
	for _, s := range texts {
		if strings.Contains(s, "truncated: too long") {
			t.Errorf("%s: cut: %.300s", what, s)
		}
	}
	for _, f := range r.Followups {
		checkFits(t, what+" (follow-up)", f)
	}
}
