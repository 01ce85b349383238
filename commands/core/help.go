package core

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/tablehand/tablehand/commands/kit"
)

// help lists the commands from the router's own definitions, so it can never
// fall out of step with what is registered: one line a command, or every
// subcommand and option of the one asked about.
func (h *handlers) help(ctx context.Context, req *kit.Request) (kit.Response, error) {
	var b strings.Builder
	if name := strings.TrimPrefix(strings.TrimSpace(req.Options.String("command")), "/"); name != "" {
		path := strings.Fields(strings.ToLower(name))
		c, ok := h.Router.Command(path[0])
		if !ok {
			return kit.Response{}, kit.Errorf("there is no command /%s: /help lists them all", path[0])
		}
		fmt.Fprintf(&b, "**/%s**: %s\n", c.Name, c.Description)
		note, err := h.Router.HelpNoteFor(ctx, req, c.Name)
		if err != nil {
			return kit.Response{}, err
		}
		if note != "" {
			b.WriteString(note + "\n")
		}
		if len(path) > 1 {
			if err := writeOne(&b, c, path[1:]); err != nil {
				return kit.Response{}, err
			}
			return kit.Paged(b.String()), nil
		}
		writeHelp(&b, "/"+c.Name, c.Description, c.Options, c.GMOnly)
		b.WriteString(commandGuides[c.Name])
		if kit.HasSubcommands(c.Options) {
			fmt.Fprintf(&b, "Each in full, with its options: `/help command:\"%s %s\"`.\n", c.Name, kit.LeafNames(c.Options, "")[0])
		}
		return kit.Paged(b.String()), nil
	}
	b.WriteString("**Tablehand commands** (`/help command:<name>` explains one)\n")
	for _, c := range h.Router.Commands() {
		fmt.Fprintf(&b, "`/%s` %s", c.Name, c.Description)
		if kit.HasSubcommands(c.Options) {
			b.WriteString(": " + strings.Join(kit.LeafNames(c.Options, ""), ", "))
		}
		b.WriteString("\n")
	}
	b.WriteString("Every roll takes `dice:` to use dice you rolled at the table, e.g. `/roll 2d6+3 dice:4,5`.")
	return kit.Paged(b.String()), nil
}

// writeOne writes the help of one subcommand (or group) of c, named by
// path ("attack", or "asset add"): its usage, then each option with its
// description.
func writeOne(b *strings.Builder, c kit.Command, path []string) error {
	opts, full := c.Options, "/"+c.Name
	for _, name := range path {
		i := slices.IndexFunc(opts, func(o kit.Option) bool {
			return o.Name == name && (o.Type == kit.SubCommand || o.Type == kit.SubCommandGroup)
		})
		if i < 0 {
			return kit.Errorf("/%s has no subcommand %s: /help command:%s lists them", strings.TrimPrefix(full, "/"), name, c.Name)
		}
		full += " " + opts[i].Name
		if opts[i].Type == kit.SubCommandGroup {
			opts = opts[i].Options
			continue
		}
		sub := opts[i]
		writeHelp(b, full, sub.Description, sub.Options, c.GMOnly)
		for _, o := range sub.Options {
			req := ""
			if o.Required {
				req = " (required)"
			}
			fmt.Fprintf(b, "- `%s:` %s%s\n", o.Name, o.Description, req)
		}
		return nil
	}
	writeHelp(b, full, "", opts, c.GMOnly)
	return nil
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
		if !strings.Contains(typed, " ") || !strings.HasPrefix(typed, c.Name+" ") {
			continue
		}
		// One subcommand, in full: "burst attack".
		for _, leaf := range kit.LeafNames(c.Options, "") {
			if full := c.Name + " " + leaf; strings.HasPrefix(full, typed) {
				choices = append(choices, kit.Choice{Name: "/" + full, Value: full})
			}
		}
	}
	return kit.Response{Choices: choices}, nil
}
