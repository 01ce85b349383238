package ulm

import (
	"github.com/tablehand/tablehand/commands/kit"
	rules "github.com/tablehand/tablehand/rules/ulm"
)

// System is the ulm rule system (seed 002): /ulm, its [ulm] section, its
// tracker policy and the stats its fights read.
var System = kit.Configured(kit.System{
	Name: rules.SystemName,
	Stats: []kit.Stat{
		kit.IntStat("agility", "Ulm: Agility (Action Slots = 5 + Agility)"),
	},
	Mount: Mount,
}, rules.DefaultConfig, rules.NewPolicy)

// config is the configuration of /ulm.
func (h *handlers) config() rules.Config { return kit.RulesOf[rules.Config](h.Rules, rules.SystemName) }
