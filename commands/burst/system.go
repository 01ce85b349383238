package burst

import (
	"github.com/tablehand/tablehand/commands/kit"
	rules "github.com/tablehand/tablehand/rules/burst"
)

// System is the burst rule system (seed 003): /burst, its [burst] section,
// its tracker policy and the stats its fights read.
var System = kit.Configured(kit.System{
	Name: rules.SystemName,
	Stats: []kit.Stat{
		kit.IntStat("stamina", "Burst: Stamina (Vigor recovery, rounds in Shock)"),
		kit.IntStat("durability", "Burst: Durability"),
		kit.IntStat("health", "Burst: Health"),
		kit.IntStat("armor", "Burst: Armor Rank"),
	},
	Resources: []string{rules.ResourceHealth, rules.ResourceDurability, rules.ResourceVigor, rules.ResourceMana},
	Mount:     Mount,
}, rules.DefaultConfig, rules.NewPolicy)

// pipeline is how every /burst subcommand opens its call, applies the
// rules and answers (see serve): an error of the rules is shown as
// BurstErr shows it.
var pipeline = kit.Pipeline[rules.Config]{
	System:     rules.SystemName,
	OwnSheet:   true,
	RulesError: func(_ *kit.Call, err error, example string) error { return BurstErr(err, example) },
}
