package arc

import (
	"strconv"
	"strings"

	"github.com/tablehand/tablehand/commands/kit"
	rules "github.com/tablehand/tablehand/rules/arc"
)

// who names who acted, in bold: the user, or the character and the user
// who plays it. (kit.Call.Who names the character alone, unbolded.)
func who(c *kit.Call) string {
	if c.Sheet.Name() == "" {
		return "**" + kit.DisplayName(c.Req.User) + "**"
	}
	return "**" + kit.EscapeMarkdown(c.Sheet.Name()) + "** (" + kit.DisplayName(c.Req.User) + ")"
}

// sheetStat reads the stat called name from the sheet itself, whatever
// the options hold (an option of that name may be text, or mean something
// else).
func sheetStat(s kit.Sheet, name string) (int, bool) {
	return s.Stat(&kit.Request{}, name)
}

// score reads a KS, US or ES: the option opt as a number or as the name
// of a stat of the sheet s; without the option, the sheet's stat def.
func score(req *kit.Request, s kit.Sheet, opt, def, example string) (int, error) {
	text := strings.TrimSpace(req.Options.String(opt))
	if text == "" {
		if v, ok := sheetStat(s, def); ok {
			return v, nil
		}
		if s.Name() != "" {
			return 0, kit.Errorf("/%s needs %s: give %s:<number or stat name>, or add %s to %s's sheet (example: %s)",
				req.Typed(), opt, opt, def, s.Name(), example)
		}
		return 0, kit.Errorf("/%s needs %s: give %s:<number>, or character:<name> to read it from a sheet (example: %s)",
			req.Typed(), opt, opt, example)
	}
	if n, err := strconv.Atoi(strings.TrimPrefix(text, "+")); err == nil {
		return n, nil
	}
	stat := strings.ToLower(text)
	if s.Name() == "" {
		return 0, kit.Errorf("%s:%s names a stat, but no sheet was given: add character:<name>, or give a number (example: %s)", opt, text, example)
	}
	v, ok := sheetStat(s, stat)
	if !ok {
		return 0, kit.Errorf("%s has no stat %q for %s: see /character show name:%s (example: %s)", s.Name(), stat, opt, s.Name(), example)
	}
	return v, nil
}

// readSize reads the size option opt (a name or -3..3), else the "size"
// stat of the sheet s, else medium.
func readSize(c *kit.Call, cfg rules.Config, s kit.Sheet, opt, example string) int {
	if text := c.Req.Options.String(opt); text != "" {
		size, err := cfg.Size(text)
		if err != nil {
			c.Failf("%s: %v (example: %s)", opt, err, example)
		}
		return size
	}
	v, ok := sheetStat(s, "size")
	if !ok {
		return rules.Medium
	}
	if v < rules.MinSize || v > rules.MaxSize {
		c.Failf("%s's size stat is %d; sizes go from %d to %d, medium 0", s.Name(), v, rules.MinSize, rules.MaxSize)
		return 0
	}
	return v
}
