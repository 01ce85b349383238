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

// pipeline is how every /ulm subcommand opens its call (the sheet of
// `character:`, the tray of `dice:`) with the rules configuration. The
// rules roll through c.Tray; their errors show as rulesError says.
var pipeline = kit.Pipeline[rules.Config]{System: rules.SystemName, RulesError: rulesError}
