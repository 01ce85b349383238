package commands

import (
	"github.com/tablehand/tablehand/commands/arc"
	"github.com/tablehand/tablehand/commands/burst"
	"github.com/tablehand/tablehand/commands/faction"
	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/commands/ulm"
	"github.com/tablehand/tablehand/commands/xhalem"
)

// Systems are the rule systems Tablehand speaks, in the order the system:
// choices list them. This is the one list of them: the choices of
// /system set, /character and /init start, the stat options of /init add,
// the config file's sections, the tracker's policies and /help all derive
// from it. Adding a system is its folder, commands/<name>, and a line
// here (docs/ARCHITECTURE.md).
var Systems = []kit.System{
	faction.System,
	arc.System,
	ulm.System,
	burst.System,
	xhalem.System,
}
