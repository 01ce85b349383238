package xhalem

import (
	"github.com/tablehand/tablehand/commands/kit"
	rules "github.com/tablehand/tablehand/rules/xhalem"
)

// System is the xhalem rule system (seed 004): /xhalem, its [xhalem]
// section, its tracker policy and the stats its fights read.
var System = kit.Configured(kit.System{
	Name: rules.SystemName,
	Stats: []kit.Stat{
		{
			Option: kit.Option{Type: kit.String, Name: "kind", Description: "Xhalem: machine (1d20 + Engine) or creature (1d20 + Evasion)",
				Choices: kit.Choices(rules.Kinds.Choices()...)},
			Into:   rules.StatMachine,
			Values: map[string]int{"machine": 1, "creature": 0},
		},
		kit.IntStat(rules.StatEngine, "Xhalem: Engine (a machine's initiative bonus)"),
		kit.IntStat(rules.StatEvasion, "Xhalem: Evasion (a creature's initiative bonus)"),
	},
	Mount: Mount,
}, rules.DefaultConfig, rules.NewPolicy)

// pipeline is how every /xhalem subcommand opens its call (see serve):
// /xhalem has always named the options' mistakes before one in `dice:`.
var pipeline = kit.Pipeline[rules.Config]{System: rules.SystemName, DiceLast: true, OwnSheet: true}
