package kit

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

// CharacterStore keeps character sheets.
type CharacterStore interface {
	Character(ctx context.Context, guildID, name string) (db.Character, error)
	SaveCharacter(ctx context.Context, c db.Character) (db.Character, error)
	Characters(ctx context.Context, guildID, ownerID, system, prefix string, limit int) ([]db.Character, error)
	DeleteCharacter(ctx context.Context, guildID, name string) error
}

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
func (r Rules) WithDefaults() Rules {
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

type Env struct {
	Deps
	Router *Router
}

// /faction plays the faction game of seed 000 (rules/faction): the
// strategic layer around the player characters, a round between sessions.
//
// A guild has one campaign (db.FactionCampaign), created by the GM's first
// /faction create. The GM creates factions and gives each to a player or
// keeps it as an NPC with a standing policy; adds habitats and assets;
// plays rounds (/faction round) or lets a schedule play them (/schedule).
// Players act for their own faction only: /faction act resolves an action
// now, /faction order queues one for the next round, and they see and
// change only their own queue. The GM may act and order for any faction.
//
// What the text leaves to the GM ("per GM's discretion") comes back as a
// Question: the order is held and answered with a button (custom_id
// fans:<order>:<option>), by the GM or by the faction asked for consent.
// The parameters that carry those answers (gm_produce, gm_repair, consent)
// cannot be typed by players.

// FactionStore keeps each guild's faction campaign, its queued orders and
// its history. Every method is one transaction.
type FactionStore interface {
	// EnsureCampaign is UpdateCampaign that first starts the guild's
	// campaign when it has none, in the same transaction.
	EnsureCampaign(ctx context.Context, guildID string, nc db.NewCampaign, fn func(fc *db.FactionCampaign) error) (db.FactionCampaign, bool, error)
	Campaign(ctx context.Context, guildID string) (db.FactionCampaign, error)
	UpdateCampaign(ctx context.Context, guildID string, fn func(fc *db.FactionCampaign) error) (db.FactionCampaign, error)
	QueueOrder(ctx context.Context, guildID string, o db.FactionOrder) (db.FactionOrder, error)
	FactionOrders(ctx context.Context, guildID, factionName, mode string) ([]db.FactionOrder, error)
	FactionOrder(ctx context.Context, guildID string, id int64) (db.FactionOrder, error)
	UpdateOrder(ctx context.Context, guildID string, id int64, fn func(o *db.FactionOrder, fc *db.FactionCampaign) (db.OrderChange, error)) (db.FactionOrder, db.FactionCampaign, error)
	DeleteOrders(ctx context.Context, guildID, factionName string, ids ...int64) (int, error)
	// PlayRounds plays whole rounds in one transaction; see db.PlayRounds.
	PlayRounds(ctx context.Context, guildID string, p db.PlayOptions) (db.PlayResult, error)
	RoundPlan(ctx context.Context, guildID string) (db.FactionCampaign, map[string][]faction.Order, []db.FactionOrder, error)
	RoundHistory(ctx context.Context, guildID string, limit int) ([]db.FactionRound, error)
	PlayedRound(ctx context.Context, guildID string, round int) (db.FactionRound, error)
}

// /init is the initiative tracker: one fight per channel, kept by
// rules/encounter and stored by EncounterStore, each command one
// transaction. The rule system's encounter.Policy decides the order, the
// turn budget, the end of a round and the damage track.
//
// Who may do what: the GM runs the fight (start, add, begin, prev, skip,
// move, remove, reveal, defeat, end, undo, redo; the router refuses the
// others). Players join with their characters, end their own turn (next,
// delay, the End turn button), and apply damage, healing, conditions and
// counts to the combatants they can see. A hidden combatant does not
// exist for a player: naming it is "no such combatant".
//
// Every /init answer's Result is an InitResult: the encounter.View as the
// asker may see it (the GM's view for a GM), with the system and the
// current combatant's budget. Messages in the channel always show the
// players' view; what only the GM may read (a hidden combatant's numbers)
// goes to the GM alone, in an ephemeral reply.

// EncounterStore keeps each channel's encounter and its journal. Every
// method is one transaction.
type EncounterStore interface {
	StartEncounter(ctx context.Context, guildID, channelID, system, actorID string) (db.Encounter, error)
	Encounter(ctx context.Context, channelID string) (db.Encounter, error)
	// UpdateEncounter loads the channel's active encounter, runs fn on it
	// and stores the state fn leaves with the event it returns, in one
	// transaction; when fn fails nothing changes.
	UpdateEncounter(ctx context.Context, channelID string, fn func(e *db.Encounter) (encounter.Event, error)) (db.Encounter, encounter.Event, error)
	UndoEncounter(ctx context.Context, channelID, actorID string) (db.Encounter, db.EncounterEvent, error)
	RedoEncounter(ctx context.Context, channelID, actorID string) (db.Encounter, db.EncounterEvent, error)
	EncounterLog(ctx context.Context, channelID string, limit int) ([]db.EncounterEvent, error)
	// SetTrackerMessage records the message that shows the encounter's
	// tracker, so later changes edit it instead of posting it again.
	SetTrackerMessage(ctx context.Context, id int64, messageID string) error
}

// /schedule plays the guild's faction rounds by themselves between
// sessions: "0 to 3 Rounds should take place between RP sessions". The
// schedule lives in SQLite; the bot's scheduler (bot/scheduler.go) runs it
// and is told of every change here, so nothing waits for a restart.

// ScheduleStore keeps each campaign's schedule and its firings.
type ScheduleStore interface {
	SetSchedule(ctx context.Context, guildID string, s db.Schedule) (db.Schedule, error)
	Schedule(ctx context.Context, guildID string) (db.Schedule, error)
	ScheduleByID(ctx context.Context, id int64) (db.Schedule, error)
	PauseSchedule(ctx context.Context, guildID string, paused bool) (db.Schedule, error)
	DeleteSchedule(ctx context.Context, guildID string) (db.Schedule, error)
	SkipFiring(ctx context.Context, f db.Firing, note string) error
}

// CronParser reads schedules as the GM types them. bot implements it with
// robfig/cron, the one package that imports it.
type CronParser interface {
	// ParseSchedule reads when (a preset: "daily 18:00", "weekly fri
	// 18:00", "every 3 days 09:00"; or a five-field cron spec) in the IANA
	// zone and returns the five-field spec it stands for and its next n
	// firings after t. A mistake is a *UserError with an example.
	ParseSchedule(when, zone string, after time.Time, n int) (spec string, next []time.Time, err error)
}

// ScheduleNotifier is told when a guild's schedule is set, paused,
// resumed or deleted, so the running scheduler follows at once.
type ScheduleNotifier interface {
	ScheduleChanged(ctx context.Context, guildID string) error
}

// ChannelStore keeps the rule system chosen for each channel, and for each
// guild as the default of its channels.
type ChannelStore interface {
	// ChannelSystem returns the channel's setting, else its guild's, else
	// an error wrapping db.ErrNotFound.
	ChannelSystem(ctx context.Context, guildID, channelID string) (db.SystemSetting, error)
	SetSystem(ctx context.Context, s db.SystemSetting) error
}
