package kit

import (
	"context"
	"log/slog"
	"math/rand/v2"
	"time"

	"github.com/tablehand/tablehand/db"
	"github.com/tablehand/tablehand/rules/dice"
	"github.com/tablehand/tablehand/rules/encounter"
)

// CharacterStore keeps character sheets.
type CharacterStore interface {
	// CharactersNamed returns the sheets of a name: none, one, or a
	// visible and a hidden one (see PickCharacter).
	CharactersNamed(ctx context.Context, guildID, name string) ([]db.Character, error)
	SaveCharacter(ctx context.Context, c db.Character) (db.Character, error)
	Characters(ctx context.Context, guildID, ownerID, system, prefix string, limit int) ([]db.Character, error)
	DeleteCharacter(ctx context.Context, guildID string, id int64) error
}

// RollLog stores every roll, so a table can settle "what did you roll?".
type RollLog interface {
	// LogRoll saves a roll and reads its guild's GM channel with it.
	LogRoll(ctx context.Context, r db.Roll) (db.SavedRoll, error)
	RecentRolls(ctx context.Context, channelID, userID string, viewer db.Viewer, limit int) ([]db.Roll, error)
	RollByCode(ctx context.Context, channelID, code string) (db.Roll, bool, error)
	RecentExprs(ctx context.Context, userID string, limit int) ([]string, error)
}

// MacroStore keeps saved rolls (/macro): a player's own, and the
// server's (OwnerID ""), which serve every player of the guild.
type MacroStore interface {
	// SetMacro saves m, replacing its owner's macro of the name; a new one
	// beyond max of its owner is db.ErrLimit.
	SetMacro(ctx context.Context, m db.Macro, max int) (replaced bool, err error)
	// Macros lists the macros userID may roll: their own and the server's.
	Macros(ctx context.Context, guildID, userID string) ([]db.Macro, error)
	DeleteMacro(ctx context.Context, guildID, ownerID, name string) error
	// RollSources reads, in one round trip, the macros named name that
	// userID may roll and the sheets a roll reads (see OwnSheet): the
	// character named character, else userID's own.
	RollSources(ctx context.Context, guildID, userID, name, character string) (db.RollSources, error)
}

// Deps is what the handlers need from outside.
type Deps struct {
	Rolls      RollLog
	Characters CharacterStore
	// Macros keeps saved rolls; nil: /roll knows none, and /macro says
	// that this Tablehand keeps none.
	Macros MacroStore
	// Roller returns the source of random dice for one request. The console
	// hands out one seeded roller for deterministic runs; serve hands out a
	// fresh one per request, since a roller is not safe for concurrent use.
	Roller func() dice.Roller
	// GMRoles are role IDs (or, in the console, names) whose members are GMs
	// besides those with Manage Channels.
	GMRoles []string
	// Systems are the rule systems the commands speak (commands.Systems
	// unless a test brings its own); Rules their configuration, by name.
	Systems []System
	Rules   Rules
	// Codes returns the short ID of a new roll; NewCodes makes one.
	Codes func() string
	Log   *slog.Logger
	// Database names the store in use (a SQLite path, or a PostgreSQL URL
	// without its password: db.Redact) in the operator's log
	// when it cannot be written.
	Database string
	// Encounters keeps each channel's fight (/init); Channels the rule
	// system chosen per channel or guild (/system).
	Encounters EncounterStore
	Channels   ChannelStore
	// Policies are the encounter rules of each system, by name; nil is
	// the generic one alone.
	Policies encounter.Policies

	// Store is the store whole (*db.DB): a slice that keeps tables of its
	// own (the faction game's campaigns and schedules) finds there the
	// interface it declares for them (commands/faction.Store), so the
	// toolkit names no game's store.
	Store any
	// Calendar reads schedules and follows their changes (nil: none);
	// Now is the commands' clock (nil: time.Now; see Clock).
	Calendar Calendar
	Now      func() time.Time

	// Pages keeps the tokens of the read-only web pages (/faction page);
	// PublicURL is the address users reach them at (public_url), "" when
	// the operator has not set one.
	Pages     PageStore
	PublicURL string

	// Names keeps the name each person shows on a server, which the
	// router records as people act (names.go); nil: the Store, if it
	// keeps them, else none.
	Names NameStore
}

// Store is the store whole, as the commands use it: every store interface
// of Deps in one. *db.DB satisfies it, on SQLite and PostgreSQL alike.
type Store interface {
	RollLog
	CharacterStore
	MacroStore
	EncounterStore
	ChannelStore
	PageStore
	NameStore
}

var _ Store = (*db.DB)(nil)

// NewDeps returns the dependencies of the commands over store, with the
// rule systems configured by rules (a system it leaves out has its
// defaults). store keeps the rolls, the characters, the saved rolls, the
// fights, the channels' settings, the pages' tokens and the names people
// show, and is the store whole (Deps.Store) for a slice with tables of
// its own; a nil store (the definitions alone, `tablehand commands`)
// leaves them all nil. The dice are random, a fresh generator per
// request; roll IDs are random; the log discards. A caller sets what
// differs: Roller, Codes, GMRoles, Log, Policies, Calendar, Now,
// PublicURL, Database, Systems.
func NewDeps(store Store, rules Rules) Deps {
	d := Deps{
		Rules:  rules,
		Roller: func() dice.Roller { return dice.NewRandom(rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))) },
		Codes:  NewCodes(0, false),
		Log:    slog.New(slog.DiscardHandler),
	}
	if store != nil {
		d.Rolls, d.Characters, d.Macros, d.Encounters, d.Channels, d.Pages, d.Names = store, store, store, store, store, store, store
		d.Store = store
	}
	return d
}

// Clock is the time now by the commands' clock: Now, else the system's.
func (d Deps) Clock() time.Time {
	if d.Now != nil {
		return d.Now()
	}
	return time.Now()
}

// PageStore keeps the tokens of the read-only web pages.
type PageStore interface {
	// PageLinks returns the guild's tokens of the page of scope, made the
	// first time; renew replaces them, and the old ones open nothing.
	PageLinks(ctx context.Context, guildID, scope string, renew bool) (db.PageLinks, error)
}

// Env is what every handler works with: the dependencies, and the router
// (for /help, which lists the commands). Each package of commands embeds
// it in its own handlers type.
type Env struct {
	Deps
	Router *Router
}

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

// Calendar is what the edge that keeps time lends the commands:
// robfig/cron stays in bot, so bot reads a schedule as the GM types it,
// and, where a scheduler runs, follows a changed one at once.
type Calendar interface {
	// ParseSchedule reads when (a preset: "daily 18:00", "weekly fri
	// 18:00", "every 3 days 09:00"; or a five-field cron spec) in the IANA
	// zone and returns the five-field spec it stands for and its next n
	// firings after t. A mistake is a *UserError with an example.
	ParseSchedule(when, zone string, after time.Time, n int) (spec string, next []time.Time, err error)
	// ScheduleChanged is told when a guild's schedule is set, paused,
	// resumed or deleted, so the running scheduler follows at once (a
	// process without one does nothing).
	ScheduleChanged(ctx context.Context, guildID string) error
}

// ChannelStore keeps the rule system chosen for each channel, and for each
// guild as the default of its channels, and each channel's play mode.
type ChannelStore interface {
	// ChannelSystem returns the channel's setting, else its guild's, else
	// an error wrapping db.ErrNotFound.
	ChannelSystem(ctx context.Context, guildID, channelID string) (db.SystemSetting, error)
	SetSystem(ctx context.Context, s db.SystemSetting) error
	// PlayMode returns how freely players change others' combatants in
	// the channel's fights (/init play), else an error wrapping
	// db.ErrNotFound.
	PlayMode(ctx context.Context, guildID, channelID string) (db.PlaySetting, error)
	SetPlayMode(ctx context.Context, s db.PlaySetting) error
	// GMChannel returns the guild's channel for the GMs' secret rolls,
	// else an error wrapping db.ErrNotFound; SetGMChannel sets it.
	GMChannel(ctx context.Context, guildID string) (string, error)
	SetGMChannel(ctx context.Context, guildID, channelID, setBy string) error
	// DiceRule returns whether players may type in dice in the channel
	// (its setting, else its guild's), else an error wrapping
	// db.ErrNotFound; SetDiceRule sets it (/system dice).
	DiceRules
	SetDiceRule(ctx context.Context, s db.DiceSetting) error
}
