package burst

import (
	"github.com/tablehand/tablehand/commands/kit"
	rules "github.com/tablehand/tablehand/rules/burst"
	"github.com/tablehand/tablehand/rules/encounter"
)

// System is the burst rule system (seed 003): /burst, its [burst] section,
// its tracker policy and the stats its fights read.
var System = kit.System{
	Name:     rules.SystemName,
	Defaults: func() any { return rules.DefaultConfig() },
	Policy:   func(cfg any) encounter.Policy { return rules.NewPolicy(cfg.(rules.Config)) },
	Stats: []kit.Stat{
		kit.IntStat("stamina", "Burst: Stamina (Vigor recovery, rounds in Shock)"),
		kit.IntStat("durability", "Burst: Durability"),
		kit.IntStat("health", "Burst: Health"),
		kit.IntStat("armor", "Burst: Armor Rank"),
	},
	Resources: []string{rules.ResourceHealth, rules.ResourceDurability, rules.ResourceVigor, rules.ResourceMana},
	Mount:     Mount,
}

// config is the configuration of /burst.
func (h *handlers) config() rules.Config { return kit.RulesOf[rules.Config](h.Rules, rules.SystemName) }
