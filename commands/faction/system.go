package faction

import (
	"github.com/tablehand/tablehand/commands/kit"
	rules "github.com/tablehand/tablehand/rules/faction"
)

// System is the faction game (seed 000): /faction and /schedule, and the
// [faction] section a new campaign starts from. It has no fights.
var System = kit.Configured(kit.System{
	Name:  rules.SystemName,
	Mount: Mount,
}, rules.DefaultConfig, nil)

// config is what a new faction campaign starts with.
func (h *handlers) config() rules.Config { return kit.RulesOf[rules.Config](h.Rules, rules.SystemName) }
