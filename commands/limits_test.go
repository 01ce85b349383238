package commands

import (
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/commands/kit/kittest"
)

// Discord rejects a bulk overwrite if any command breaks one of its limits,
// and then no command works at all: hold every definition to them here.
var nameRE = regexp.MustCompile(`^[-_\p{Ll}\p{N}]{1,32}$`)

// fileRE finds a rule text's file where a user would read it: user-facing
// text names the games ("EPIC faction rules (Eclipse Phase)"), not the
// seed files they came from.
var fileRE = regexp.MustCompile(`(?i)\bseed \d|\.txt\b`)

func TestCommandDefinitionsWithinDiscordLimits(t *testing.T) {
	cmds := New(kit.NewDeps(nil, nil)).Commands()
	if len(cmds) == 0 || len(cmds) > 100 {
		t.Fatalf("%d commands; Discord allows 1 to 100 slash commands", len(cmds))
	}
	seen := map[string]bool{}
	for _, c := range cmds {
		if seen[c.Name] {
			t.Errorf("command %q defined twice", c.Name)
		}
		seen[c.Name] = true
		checkName(t, "/"+c.Name, c.Name, c.Description)
		checkOptions(t, "/"+c.Name, c.Options, 0)
		if n := commandSize(c); n > 8000 {
			t.Errorf("/%s: %d characters in all; Discord allows 8000", c.Name, n)
		}
	}
}

func checkName(t *testing.T, where, name, desc string) {
	t.Helper()
	if !nameRE.MatchString(name) {
		t.Errorf("%s: name %q does not match %s", where, name, nameRE)
	}
	if n := utf8.RuneCountInString(desc); n < 1 || n > 100 {
		t.Errorf("%s: description is %d characters; Discord wants 1-100", where, n)
	}
	if f := fileRE.FindString(desc); f != "" {
		t.Errorf("%s: description %q names a rule file (%q), not the game", where, desc, f)
	}
}

// checkOptions checks one level of options; depth counts subcommand levels.
func checkOptions(t *testing.T, where string, opts []kit.Option, depth int) {
	t.Helper()
	if len(opts) > 25 {
		t.Errorf("%s: %d options; Discord allows 25", where, len(opts))
	}
	names := map[string]bool{}
	optional := false
	subs := kit.HasSubcommands(opts)
	for _, o := range opts {
		at := where + " " + o.Name
		checkName(t, at, o.Name, o.Description)
		if names[o.Name] {
			t.Errorf("%s: option name used twice", at)
		}
		names[o.Name] = true
		isSub := o.Type == kit.SubCommand || o.Type == kit.SubCommandGroup
		if isSub != subs {
			t.Errorf("%s: subcommands and value options mixed at one level", at)
		}
		switch o.Type {
		case kit.SubCommandGroup:
			if depth > 0 {
				t.Errorf("%s: a subcommand group may only sit directly under a command", at)
			}
			if !kit.HasSubcommands(o.Options) || hasType(o.Options, kit.SubCommandGroup) {
				t.Errorf("%s: a group must hold subcommands only", at)
			}
			checkOptions(t, at, o.Options, depth+1)
		case kit.SubCommand:
			if kit.HasSubcommands(o.Options) {
				t.Errorf("%s: a subcommand cannot hold subcommands", at)
			}
			checkOptions(t, at, o.Options, depth+1)
		default:
			if o.Required && optional {
				t.Errorf("%s: required option after an optional one", at)
			}
			optional = optional || !o.Required
			if len(o.Options) > 0 {
				t.Errorf("%s: a value option cannot have options", at)
			}
		}
		if len(o.Choices) > 25 {
			t.Errorf("%s: %d choices; Discord allows 25", at, len(o.Choices))
		}
		if len(o.Choices) > 0 && o.Autocomplete {
			t.Errorf("%s: choices and autocomplete together", at)
		}
		if o.Autocomplete && o.Type != kit.String && o.Type != kit.Integer && o.Type != kit.Number {
			t.Errorf("%s: autocomplete on a %s option", at, o.Type)
		}
		for _, ch := range o.Choices {
			if n := utf8.RuneCountInString(ch.Name); n < 1 || n > 100 {
				t.Errorf("%s: choice name %q is %d characters; 1-100 allowed", at, ch.Name, n)
			}
			if s, ok := ch.Value.(string); ok && utf8.RuneCountInString(s) > 100 {
				t.Errorf("%s: choice value %q over 100 characters", at, s)
			}
		}
		if o.MaxLength > 6000 {
			t.Errorf("%s: max_length %d over Discord's 6000", at, o.MaxLength)
		}
	}
}

func hasType(opts []kit.Option, t kit.OptionType) bool {
	for _, o := range opts {
		if o.Type == t {
			return true
		}
	}
	return false
}

// commandSize counts what Discord counts toward a command's 8000
// characters: names, descriptions, choice names and values, at every level.
func commandSize(c kit.Command) int {
	n := utf8.RuneCountInString(c.Name) + utf8.RuneCountInString(c.Description)
	var walk func([]kit.Option)
	walk = func(opts []kit.Option) {
		for _, o := range opts {
			n += utf8.RuneCountInString(o.Name) + utf8.RuneCountInString(o.Description)
			for _, ch := range o.Choices {
				n += utf8.RuneCountInString(ch.Name)
				if s, ok := ch.Value.(string); ok {
					n += utf8.RuneCountInString(s)
				}
			}
			walk(o.Options)
		}
	}
	walk(c.Options)
	return n
}

func TestFitHoldsResponsesToMessageLimits(t *testing.T) {
	long := strings.Repeat("é", 5000)
	var fields []kit.Field
	for i := 0; i < 40; i++ {
		fields = append(fields, kit.Field{Name: long, Value: long})
	}
	var embeds []kit.Embed
	for i := 0; i < 12; i++ {
		embeds = append(embeds, kit.Embed{Title: long, Description: long, Footer: long, Fields: fields})
	}
	var rows []kit.Row
	for i := 0; i < 7; i++ {
		rows = append(rows, kit.Row{{Label: long}, {}, {}, {}, {}, {}, {}})
	}
	var choices []kit.Choice
	for i := 0; i < 30; i++ {
		choices = append(choices, kit.Choice{Name: long, Value: "x"})
	}
	r := kit.Response{Content: long, Embeds: embeds, Rows: rows, Choices: choices}.Fit()
	kittest.CheckLimits(t, r)
	if !strings.HasSuffix(r.Content, kit.TruncNote) {
		t.Errorf("cut content does not say it was cut: ...%q", r.Content[len(r.Content)-40:])
	}
	if len(r.Embeds) == 0 {
		t.Error("Fit dropped every embed; it should keep what fits")
	}

	// A string choice value over 100 characters would make Discord refuse
	// the whole answer: such a choice is dropped.
	long100 := kit.Response{Type: kit.Autocomplete, Choices: []kit.Choice{{Name: "ok", Value: "1d20"}, {Name: "long", Value: strings.Repeat("a", 101)}}}.Fit()
	if len(long100.Choices) != 1 || long100.Choices[0].Value != "1d20" {
		t.Errorf("choices after Fit: %+v; want only the short one", long100.Choices)
	}

	short := kit.Response{Content: "🎲 4d6kh3 (6, 5, ~~2~~, 4) = 15"}
	if got := short.Fit(); got.Content != short.Content {
		t.Errorf("Fit changed a short message: %q", got.Content)
	}
}
