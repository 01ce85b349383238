package commands

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/db"
)

// TestPlayersDiceRefusedWhereRolled: where the GM has Tablehand roll the
// players' dice (/system dice players:rolled), every command that takes
// `dice:` refuses a player's, before it runs, and takes a GM's (issue 20).
func TestPlayersDiceRefusedWhereRolled(t *testing.T) {
	it := newInitTable(t)
	ctx := context.Background()
	if err := it.Store.SetDiceRule(ctx, db.DiceSetting{GuildID: "guild", Players: kit.DiceRolled, SetBy: "gm"}); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, c := range it.R.Commands() {
		for path, opts := range commandPaths(c.Name, c.Options) {
			if !hasOption(opts, "dice") {
				continue
			}
			n++
			line := "/" + strings.ReplaceAll(path, "/", " ") + requiredOptions(opts) + " dice:3"
			_, err := it.Do("alice", line)
			if errors.Is(err, kit.ErrNotGM) {
				continue // the GM's alone: a player runs it not at all
			}
			if err == nil || !strings.Contains(err.Error(), "dice: is refused: the GM has Tablehand roll the players' dice in this server") {
				t.Errorf("alice %s: %v; want her dice: refused", line, err)
			}
			if _, err := it.Do("gm", line); err != nil && strings.Contains(err.Error(), "dice: is refused") {
				t.Errorf("gm %s: %v; a GM may give dice", line, err)
			}
		}
	}
	if n < 20 {
		t.Errorf("only %d commands take dice:", n)
	}
}

// commandPaths are the runnable paths under a command ("init/add") with
// their options.
func commandPaths(prefix string, opts []kit.Option) map[string][]kit.Option {
	out := map[string][]kit.Option{}
	sub := false
	for _, o := range opts {
		if o.Type == kit.SubCommand || o.Type == kit.SubCommandGroup {
			sub = true
			for p, os := range commandPaths(prefix+"/"+o.Name, o.Options) {
				out[p] = os
			}
		}
	}
	if !sub {
		out[prefix] = opts
	}
	return out
}

func hasOption(opts []kit.Option, name string) bool {
	for _, o := range opts {
		if o.Name == name {
			return true
		}
	}
	return false
}

// requiredOptions gives each required option a value of its type (its
// first choice, its least value), as a console line.
func requiredOptions(opts []kit.Option) string {
	var b strings.Builder
	for _, o := range opts {
		if !o.Required {
			continue
		}
		v := "1"
		switch {
		case len(o.Choices) > 0:
			v = fmt.Sprint(o.Choices[0].Value)
		case o.Type == kit.Boolean:
			v = "true"
		case o.MinValue != nil:
			v = strconv.FormatFloat(*o.MinValue, 'f', -1, 64)
		}
		if strings.Contains(v, " ") {
			v = strconv.Quote(v)
		}
		b.WriteString(" " + o.Name + ":" + v)
	}
	return b.String()
}
