package arc

import (
	"github.com/tablehand/tablehand/commands/kit"
	rules "github.com/tablehand/tablehand/rules/arc"
)

// System is the arc rule system (seed 001): /arc, its [arc] section, its
// tracker policy and the stats its fights read.
var System = kit.Configured(kit.System{
	Name: rules.SystemName,
	Stats: []kit.Stat{
		kit.IntStat("som", "Arc: State of Mind (declares in ascending SOM)"),
		kit.IntStat("empathy", "Arc: Empathy (breaks SOM ties)"),
		kit.IntStat("perception", "Arc: Perception (breaks Empathy ties)"),
		kit.IntStat("es", "Arc: ES score (actions per turn)"),
	},
	// "the declarations are in ascending order of State of Mind"
	OrderNeeds: []string{"som"},
	Mount:      Mount,
}, rules.DefaultConfig, rules.NewPolicy)

// pipeline is how every /arc subcommand opens its kit.Call. /arc has
// always named the options' mistakes first and looked at `dice:` last,
// just before the dice roll, so a `dice:` it cannot read waits behind
// them (kit's BeginDiceLast).
var pipeline = kit.Pipeline[rules.Config]{System: rules.SystemName, DiceLast: true, OwnSheet: true}

// config is the configuration of /arc, for its suggestions.
func (h *handlers) config() rules.Config { return kit.RulesOf[rules.Config](h.Rules, rules.SystemName) }
