package xhalem

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/tablehand/tablehand/commands/kit"
	rules "github.com/tablehand/tablehand/rules/xhalem"
)

// What every /xhalem subcommand shares beyond kit's Pipeline: what it
// reads first, and reading the options the rules name.

// handler answers a /xhalem subcommand on its opened call, with the
// configuration, the kind: option when given ("" when not: the
// subcommands that may go without one choose), and the subcommand's
// example ex for its mistakes.
type handler func(ctx context.Context, c *kit.Call, cfg rules.Config, kind rules.Kind, ex string) (kit.Response, error)

// serve is the kit.Handler of a subcommand: kit opens the call (see
// pipeline), then serve reads what every subcommand reads first, whose
// mistakes are the call's first ones: the numbers' ranges and the kind.
func (h *handlers) serve(ex string, fn handler) kit.Handler {
	return pipeline.Handle(h.Env, func(ctx context.Context, c *kit.Call, cfg rules.Config) (kit.Response, error) {
		checkRanges(c, ex)
		kind := kit.Pick(c, "kind", func(s string) (rules.Kind, error) {
			if s == "" {
				return "", nil
			}
			return rules.ParseKind(s)
		}, ex)
		return fn(ctx, c, cfg, kind, ex)
	})
}

// checkRanges keeps every integer option as large as a sheet may hold, so
// no sum or product of the rules can overflow. The options are looked at
// in the order of their names, so that of two numbers out of range the
// same one is named every time.
func checkRanges(c *kit.Call, example string) {
	for _, name := range slices.Sorted(maps.Keys(c.Req.Options)) {
		if n, ok := c.Req.Options[name].(int64); ok && (n > kit.MaxStatAbs || n < -kit.MaxStatAbs) {
			c.Failf("%s:%d is out of range: numbers go from -%d to %d (example: %s)", name, n, kit.MaxStatAbs, kit.MaxStatAbs, example)
			return
		}
	}
}

// who names the actor in bold: the character when one is given, else the
// user.
func who(c *kit.Call) string { return "**" + c.Who() + "**" }

// opt returns an integer option that is never read from the sheet (it is
// the target's, not the actor's); required options are checked by the
// router's parser and by Discord, so a missing one is 0 only in tests.
func opt(c *kit.Call, name string) int {
	v, _ := c.Req.Options.Int(name)
	return int(v)
}

// pick is kit.Pick of the option's text lower-cased and trimmed, as
// /xhalem always read its words: a word the rules refuse is then quoted
// as they saw it ("stealth \"x\"" for " X "). mode: and kind:, whose
// parsers lower-case and trim alone, are read as given instead (see
// modes), so their mistakes quote the user's text.
func pick[T any](c *kit.Call, name string, parse func(string) (T, error), example string) T {
	return kit.Pick(c, name, func(s string) (T, error) {
		return parse(strings.ToLower(strings.TrimSpace(s)))
	}, example)
}

// mode reads the roller's mode:.
func mode(c *kit.Call, example string) rules.Mode {
	return kit.Pick(c, "mode", rules.ParseMode, example)
}

// modes reads the roller's mode: and the target's target_mode:, as an
// opposed roll takes them. A mistake in target_mode: names the option,
// since the rules' message names only a mode.
func modes(c *kit.Call, example string) (actor, target rules.Mode) {
	actor = mode(c, example)
	target = kit.Pick(c, "target_mode", func(s string) (rules.Mode, error) {
		m, err := rules.ParseMode(s)
		if err != nil {
			return m, fmt.Errorf("target_mode: %w", err)
		}
		return m, nil
	}, example)
	return actor, target
}

// sizes reads the size: and target_size: of a grapple or a shove.
func sizes(c *kit.Call, example string) (actor, target rules.Size) {
	example += " size:medium target_size:large"
	actor = pick(c, "size", rules.ParseSize, example)
	target = pick(c, "target_size", rules.ParseSize, example)
	return actor, target
}
