package ulm

import (
	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/rules/encounter"
	rules "github.com/tablehand/tablehand/rules/ulm"
)

// System is the ulm rule system (seed 002): /ulm, its [ulm] section, its
// tracker policy and the stats its fights read.
var System = kit.System{
	Name:     rules.SystemName,
	Defaults: func() any { return rules.DefaultConfig() },
	Policy:   func(cfg any) encounter.Policy { return rules.NewPolicy(cfg.(rules.Config)) },
	Stats: []kit.Stat{
		kit.IntStat("agility", "Ulm: Agility (Action Slots = 5 + Agility)"),
	},
	Mount: Mount,
}

// config is the configuration of /ulm.
func (h *handlers) config() rules.Config { return kit.RulesOf[rules.Config](h.Rules, rules.SystemName) }
