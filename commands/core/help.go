package core

import (
	"context"
	"fmt"
	"strings"

	"github.com/tablehand/tablehand/commands/kit"
)

// help lists the commands from the router's own definitions, so it can never
// fall out of step with what is registered: one line a command, or every
// subcommand and option of the one asked about.
func (h *handlers) help(ctx context.Context, req *kit.Request) (kit.Response, error) {
	var b strings.Builder
	if name := strings.TrimPrefix(strings.TrimSpace(req.Options.String("command")), "/"); name != "" {
		c, ok := h.Router.Command(strings.ToLower(name))
		if !ok {
			return kit.Response{}, kit.Errorf("there is no command /%s: /help lists them all", name)
		}
		fmt.Fprintf(&b, "**/%s**: %s\n", c.Name, c.Description)
		writeHelp(&b, "/"+c.Name, c.Description, c.Options, c.GMOnly)
		b.WriteString(commandGuides[c.Name])
		return kit.Response{Content: b.String(), Ephemeral: true}, nil
	}
	b.WriteString("**Tablehand commands** (`/help command:<name>` explains one)\n")
	for _, c := range h.Router.Commands() {
		fmt.Fprintf(&b, "`/%s` %s", c.Name, c.Description)
		if kit.HasSubcommands(c.Options) {
			b.WriteString(": " + strings.Join(leafNames(c.Options, ""), ", "))
		}
		b.WriteString("\n")
	}
	b.WriteString("Every roll takes `dice:` to use dice you rolled at the table, e.g. `/roll 2d6+3 dice:4,5`.")
	return kit.Response{Content: b.String(), Ephemeral: true}, nil
}

// leafNames lists the invocable subcommands under opts, groups included.
func leafNames(opts []kit.Option, prefix string) []string {
	var out []string
	for _, o := range opts {
		switch o.Type {
		case kit.SubCommandGroup:
			out = append(out, leafNames(o.Options, prefix+o.Name+" ")...)
		case kit.SubCommand:
			out = append(out, prefix+o.Name)
		}
	}
	return out
}

func writeHelp(b *strings.Builder, path, desc string, opts []kit.Option, gm bool) {
	if kit.HasSubcommands(opts) {
		for _, o := range opts {
			writeHelp(b, path+" "+o.Name, o.Description, o.Options, gm)
		}
		return
	}
	b.WriteString("`" + path)
	for _, o := range opts {
		if o.Required {
			fmt.Fprintf(b, " %s:", o.Name)
		} else {
			fmt.Fprintf(b, " [%s:]", o.Name)
		}
	}
	b.WriteString("` " + desc)
	if gm {
		b.WriteString(" (GM)")
	}
	b.WriteString("\n")
}

// suggestCommands autocompletes a command name for /help.
func (h *handlers) suggestCommands(ctx context.Context, req *kit.Request) (kit.Response, error) {
	typed := strings.ToLower(strings.TrimPrefix(strings.TrimSpace(req.Options.String("command")), "/"))
	var choices []kit.Choice
	for _, c := range h.Router.Commands() {
		if strings.HasPrefix(c.Name, typed) {
			choices = append(choices, kit.Choice{Name: "/" + c.Name + ": " + c.Description, Value: c.Name})
		}
	}
	return kit.Response{Choices: choices}, nil
}
