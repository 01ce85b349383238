package commands

import (
	"context"
	"fmt"
	"strings"
)

var helpCommand = Command{
	Name:        "help",
	Description: "List Tablehand's commands",
}

// help lists the commands from the router's own definitions, so it can never
// fall out of step with what is registered.
func (h *handlers) help(ctx context.Context, req *Request) (Response, error) {
	var b strings.Builder
	b.WriteString("**Tablehand commands**\n")
	for _, c := range h.router.Commands() {
		writeHelp(&b, "/"+c.Name, c.Description, c.Options, c.GMOnly)
	}
	b.WriteString("Every roll takes `dice:` to use dice you rolled at the table, e.g. `/roll 2d6+3 dice:4,5`.")
	return Response{Content: b.String(), Ephemeral: true}, nil
}

func writeHelp(b *strings.Builder, path, desc string, opts []Option, gm bool) {
	if HasSubcommands(opts) {
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
