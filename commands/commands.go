package commands

import (
	"context"
	"log/slog"
	"time"

	"github.com/tablehand/tablehand/db"
	"github.com/tablehand/tablehand/rules/arc"
	"github.com/tablehand/tablehand/rules/burst"
	"github.com/tablehand/tablehand/rules/dice"
	"github.com/tablehand/tablehand/rules/encounter"
	"github.com/tablehand/tablehand/rules/faction"
	"github.com/tablehand/tablehand/rules/ulm"
	"github.com/tablehand/tablehand/rules/xhalem"
)

// RollLog stores every roll, so a table can settle "what did you roll?".
type RollLog interface {
	SaveRoll(ctx context.Context, r db.Roll) (int64, error)
	RecentRolls(ctx context.Context, channelID, userID, viewerID string, limit int) ([]db.Roll, error)
	RollByCode(ctx context.Context, channelID, code string) (db.Roll, bool, error)
	RecentExprs(ctx context.Context, userID string, limit int) ([]string, error)
}

// Deps is what the handlers need from outside.
type Deps struct {
	Rolls      RollLog
	Characters CharacterStore
	// Roller returns the source of random dice for one request. The console
	// hands out one seeded roller for deterministic runs; serve hands out a
	// fresh one per request, since a roller is not safe for concurrent use.
	Roller func() dice.Roller
	// GMRoles are role IDs (or, in the console, names) whose members are GMs
	// besides those with Manage Channels.
	GMRoles []string
	// Rules holds each rule system's defaults for what its text leaves open.
	Rules Rules
	// Codes returns the short ID of a new roll; NewCodes makes one.
	Codes func() string
	Log   *slog.Logger
	// Encounters keeps each channel's fight (/init); Channels the rule
	// system chosen per channel or guild (/system).
	Encounters EncounterStore
	Channels   ChannelStore
	// Policies are the encounter rules of each system, by name; nil is
	// the generic one alone.
	Policies encounter.Policies

	// Factions keeps each guild's faction campaign (/faction); Schedules
	// its schedule (/schedule). Cron reads schedule specs; Scheduler, when
	// set, is told of every schedule change (the console has none); Now
	// is the clock of /schedule (nil: time.Now).
	Factions  FactionStore
	Schedules ScheduleStore
	Cron      CronParser
	Scheduler ScheduleNotifier
	Now       func() time.Time
}

// Rules is the configuration of every rule system.
type Rules struct {
	Arc    arc.Config
	Ulm    ulm.Config
	Burst  burst.Config
	Xhalem xhalem.Config
	// Faction is what a new faction campaign starts with.
	Faction faction.Config
}

// withDefaults gives each system that has no configuration (its zero
// value: Deps built without Rules, as tests do) its documented defaults.
// A configured system is kept as it is, to be validated where it is used:
// a configuration the rules cannot use is the operator's mistake.
func (r Rules) withDefaults() Rules {
	d := DefaultRules()
	if r.Arc.IsZero() {
		r.Arc = d.Arc
	}
	if r.Ulm == (ulm.Config{}) {
		r.Ulm = d.Ulm
	}
	if r.Burst.IsZero() {
		r.Burst = d.Burst
	}
	if r.Xhalem.Stacking == "" && r.Xhalem.SizeRanks == nil && r.Xhalem.CheckSides == 0 {
		r.Xhalem = d.Xhalem
	}
	if r.Faction.Sequence == "" {
		r.Faction = d.Faction
	}
	return r
}

// DefaultRules returns every system's documented defaults.
func DefaultRules() Rules {
	return Rules{Arc: arc.DefaultConfig(), Ulm: ulm.DefaultConfig(), Burst: burst.DefaultConfig(), Xhalem: xhalem.DefaultConfig(),
		Faction: faction.DefaultConfig()}
}

type handlers struct {
	Deps
	router *Router
}

// New returns the router with every Tablehand command registered.
func New(deps Deps) *Router {
	if deps.Codes == nil {
		deps.Codes = NewCodes(0, false)
	}
	deps.Rules = deps.Rules.withDefaults()
	r := newRouter(deps.Log, deps.GMRoles)
	h := &handlers{Deps: deps, router: r}

	r.define(rollCommand)
	r.handle("roll", h.roll, false)
	r.handleAutocomplete("roll", "expression", h.suggestRolls)
	r.handleComponent("reroll", h.rollAgain, false)

	r.define(characterCommand)
	r.handle("character/create", h.characterCreate, false)
	r.handle("character/set", h.characterSet, false)
	r.handle("character/show", h.characterShow, false)
	r.handle("character/list", h.characterList, false)
	r.handle("character/delete", h.characterDelete, false)
	for _, sub := range []string{"set", "show", "delete"} {
		r.handleAutocomplete("character/"+sub, "name", h.suggestCharacters)
	}

	// The rule systems, each in its own file.
	h.registerArc(r)
	h.registerUlm(r)
	h.registerBurst(r)
	h.registerXhalem(r)

	h.registerOdds(r)
	h.registerInit(r)
	h.registerSystem(r)

	h.registerFaction(r)
	h.registerSchedule(r)

	r.define(historyCommand)
	r.handle("history", h.history, false)

	r.define(helpCommand)
	r.handle("help", h.help, false)
	r.handleAutocomplete("help", "command", h.suggestCommands)
	return r
}
