package db

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
)

// The faction game keeps one campaign per guild: a campaign is the world
// around one group's story, so a server that runs two such games keeps
// them on two servers. The store keeps its tables and transactions, not
// its rules: the campaign's state, an order, the question an order waits
// on, a round's report and sheets are JSON documents that the game's slice
// (commands/faction) encodes and decodes, and the rules run in the
// closures it passes (UpdateCampaign, UpdateOrder, PlayCampaign), inside
// the transaction. The store reads one thing of a campaign's state: the
// names of its factions (the "name" of each object of its "factions"
// array), to file orders by faction. Queued orders, the history of played
// rounds and the schedule live beside it. Every public method is one
// transaction.

// Errors of the faction store.
var (
	// ErrCampaignExists: a guild has one campaign.
	ErrCampaignExists = errors.New("this server already has a faction campaign")
	// ErrFiringDone: the firing has been dealt with already (applied,
	// skipped or missed), here or by another process.
	ErrFiringDone = errors.New("this firing has been dealt with already")
	// ErrUnknownFaction: an order names no faction of the campaign's state.
	ErrUnknownFaction = errors.New("unknown faction")
)

// FactionCampaign is a guild's faction campaign.
type FactionCampaign struct {
	ID        int64
	GuildID   string
	ChannelID string
	// State is the game's state, a JSON document (see above).
	State []byte
	// Version counts the saves of the campaign.
	Version int64
	// Timezone is the guild's IANA zone, as last given to /schedule set;
	// "" for UTC.
	Timezone  string
	CreatedBy string
	CreatedAt time.Time
	UpdatedAt time.Time
}

// Order modes.
const (
	// OrderQueued waits for the next round.
	OrderQueued = "queued"
	// OrderAct is a /faction act held by a Question until it is answered.
	OrderAct = "act"
)

// FactionOrder is one stored order of a faction.
type FactionOrder struct {
	// ID is the row's identity, for the store and the slice: shown to no
	// one, since it counts every faction's orders.
	ID      int64
	Faction string
	// Number is the order's number within its faction, the one players
	// see and type: its faction's first order is 1, and a number is never
	// given twice within a faction (issue 20: it counts only what the
	// faction may see).
	Number int64
	// Seq is its place in the faction's queue.
	Seq  int
	Mode string
	// Body is the order, a JSON document.
	Body []byte
	// Question is what the order waits on, a JSON document; nil when
	// nothing.
	Question  []byte
	CreatedBy string
	CreatedAt time.Time
}

// FactionRound is one played round in the campaign's history.
type FactionRound struct {
	Round int
	// Report is the round's report and Sheets what the chart draws of
	// each faction after it, JSON documents.
	Report []byte
	Sheets []byte
	// ScheduleID and ScheduledAt name the firing that played it; 0 and
	// the zero time for /faction round.
	ScheduleID  int64
	ScheduledAt time.Time
	PlayedBy    string
	CreatedAt   time.Time
}

const campaignCols = `id, guild_id, channel_id, state, version, timezone, created_by, created_at, updated_at`

func scanCampaign(row interface{ Scan(...any) error }) (FactionCampaign, error) {
	var fc FactionCampaign
	var state []byte
	var created, updated string
	if err := row.Scan(&fc.ID, &fc.GuildID, &fc.ChannelID, &state, &fc.Version, &fc.Timezone, &fc.CreatedBy, &created, &updated); err != nil {
		return FactionCampaign{}, err
	}
	fc.State = state
	var err error
	if fc.CreatedAt, err = time.Parse(time.RFC3339Nano, created); err != nil {
		return FactionCampaign{}, fmt.Errorf("campaign %d: bad time: %w", fc.ID, err)
	}
	if fc.UpdatedAt, err = time.Parse(time.RFC3339Nano, updated); err != nil {
		return FactionCampaign{}, fmt.Errorf("campaign %d: bad time: %w", fc.ID, err)
	}
	return fc, nil
}

func loadCampaign(ctx context.Context, q querier, guildID string) (FactionCampaign, error) {
	fc, err := scanCampaign(q.QueryRowContext(ctx, `SELECT `+campaignCols+` FROM faction_campaigns WHERE guild_id = ?`, guildID))
	if errors.Is(err, sql.ErrNoRows) {
		return FactionCampaign{}, fmt.Errorf("faction campaign of guild %q: %w", guildID, ErrNotFound)
	}
	return fc, err
}

// campaignFaction finds the guild's campaign and the stored name of one of
// its factions (any case) without decoding the whole campaign: queueing an
// order is the busiest faction write, and the campaign's state carries the
// asset chart. The database's JSON functions list the factions' names
// (SQLite's json_each, PostgreSQL's jsonb_array_elements); Go compares
// them as Campaign.Faction does.
func (d *DB) campaignFaction(ctx context.Context, tx *sql.Tx, guildID, factionName string) (campaignID int64, name string, err error) {
	q := `SELECT c.id, json_extract(f.value, '$.name')
		FROM faction_campaigns c LEFT JOIN json_each(c.state, '$.factions') f
		WHERE c.guild_id = ?`
	if d.postgres {
		q = `SELECT c.id, f.value->>'name'
		FROM faction_campaigns c LEFT JOIN LATERAL jsonb_array_elements(c.state::jsonb->'factions') f ON true
		WHERE c.guild_id = ?`
	}
	rows, err := tx.QueryContext(ctx, q, guildID)
	if err != nil {
		return 0, "", err
	}
	defer rows.Close()
	found := false
	for rows.Next() {
		var n sql.NullString
		if err := rows.Scan(&campaignID, &n); err != nil {
			return 0, "", err
		}
		found = true
		if n.Valid && strings.EqualFold(n.String, factionName) {
			name = n.String
		}
	}
	if err := rows.Err(); err != nil {
		return 0, "", err
	}
	switch {
	case !found:
		return 0, "", fmt.Errorf("faction campaign of guild %q: %w", guildID, ErrNotFound)
	case name == "":
		return 0, "", fmt.Errorf("%w: %q", ErrUnknownFaction, factionName)
	}
	return campaignID, name, nil
}

// saveCampaign writes the campaign's state and bumps its version.
func saveCampaign(ctx context.Context, tx *sql.Tx, fc *FactionCampaign, now string) error {
	res, err := tx.ExecContext(ctx, `UPDATE faction_campaigns SET state = ?, version = version + 1, timezone = ?, updated_at = ?
		WHERE id = ? AND version = ?`, string(fc.State), fc.Timezone, now, fc.ID, fc.Version)
	if err != nil {
		return fmt.Errorf("save campaign %d: %w", fc.ID, err)
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return fmt.Errorf("save campaign %d: version %d is not the stored one", fc.ID, fc.Version)
	}
	fc.Version++
	return nil
}

// CreateCampaign starts the guild's campaign with its first state;
// reports go to channelID. A guild that has one gets ErrCampaignExists.
func (d *DB) CreateCampaign(ctx context.Context, guildID, channelID, actorID string, state []byte) (FactionCampaign, error) {
	var out FactionCampaign
	err := d.tx(ctx, func(tx *sql.Tx) error {
		if _, err := loadCampaign(ctx, tx, guildID); err == nil {
			return ErrCampaignExists
		} else if !errors.Is(err, ErrNotFound) {
			return err
		}
		var err error
		out, err = d.insertCampaign(ctx, tx, guildID, channelID, actorID, state)
		return err
	})
	if err != nil {
		return FactionCampaign{}, fmt.Errorf("create faction campaign: %w", err)
	}
	return out, nil
}

func (d *DB) insertCampaign(ctx context.Context, tx *sql.Tx, guildID, channelID, actorID string, state []byte) (FactionCampaign, error) {
	now := d.stamp()
	if _, err := tx.ExecContext(ctx, `INSERT INTO faction_campaigns (guild_id, channel_id, state, created_by, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?)`, guildID, channelID, string(state), actorID, now, now); err != nil {
		return FactionCampaign{}, err
	}
	return loadCampaign(ctx, tx, guildID)
}

// NewCampaign is how EnsureCampaign starts a guild's campaign when there
// is none: its report channel, who started it, and its first state.
type NewCampaign struct {
	ChannelID, ActorID string
	// State returns the first state; it is called only when the guild
	// has no campaign.
	State func() ([]byte, error)
}

// EnsureCampaign changes the guild's campaign as UpdateCampaign does,
// starting it from nc first when the guild has none, all in one
// transaction: when fn fails nothing is saved, not even the new campaign.
// created reports whether the campaign was started.
func (d *DB) EnsureCampaign(ctx context.Context, guildID string, nc NewCampaign, fn func(fc *FactionCampaign) error) (fc FactionCampaign, created bool, err error) {
	err = d.tx(ctx, func(tx *sql.Tx) error {
		if err := d.lockCampaign(ctx, tx, guildID); err != nil {
			return err
		}
		_, err := loadCampaign(ctx, tx, guildID)
		if errors.Is(err, ErrNotFound) {
			state, err := nc.State()
			if err != nil {
				return err
			}
			if _, err := d.insertCampaign(ctx, tx, guildID, nc.ChannelID, nc.ActorID, state); err != nil {
				return err
			}
			created = true
		} else if err != nil {
			return err
		}
		fc, err = d.updateCampaign(ctx, tx, guildID, fn)
		return err
	})
	if err != nil {
		return FactionCampaign{}, false, fmt.Errorf("update faction campaign: %w", err)
	}
	return fc, created, nil
}

// Campaign returns the guild's campaign, or an error wrapping ErrNotFound.
func (d *DB) Campaign(ctx context.Context, guildID string) (FactionCampaign, error) {
	return loadCampaign(ctx, d.sql, guildID)
}

// CampaignStamp names one stored state of a campaign: which campaign
// (a deleted campaign's successor has another ID) and how many times it
// has been saved. Every change to the campaign's state, and every round
// played (saved with it), makes a new stamp; its queued orders and its
// schedule, stored beside it, do not.
type CampaignStamp struct {
	ID, Version int64
}

// CampaignStamp returns the stamp of the guild's campaign without reading
// its state, or an error wrapping ErrNotFound: what a page keeps of a
// campaign holds while its stamp is the stored one.
func (d *DB) CampaignStamp(ctx context.Context, guildID string) (CampaignStamp, error) {
	var s CampaignStamp
	err := d.sql.QueryRowContext(ctx, `SELECT id, version FROM faction_campaigns WHERE guild_id = ?`, guildID).Scan(&s.ID, &s.Version)
	if errors.Is(err, sql.ErrNoRows) {
		return CampaignStamp{}, fmt.Errorf("faction campaign of guild %q: %w", guildID, ErrNotFound)
	}
	if err != nil {
		return CampaignStamp{}, fmt.Errorf("faction campaign of guild %q: %w", guildID, err)
	}
	return s, nil
}

// UpdateCampaign changes the guild's campaign in one transaction: it loads
// it, runs fn on it and saves what fn leaves. When fn fails nothing is
// saved and its error comes back wrapped. Orders of factions no longer in
// the campaign are dropped with the save.
func (d *DB) UpdateCampaign(ctx context.Context, guildID string, fn func(fc *FactionCampaign) error) (FactionCampaign, error) {
	var out FactionCampaign
	err := d.lockedTx(ctx, func(tx *sql.Tx) error {
		if err := d.lockCampaign(ctx, tx, guildID); err != nil {
			return err
		}
		var err error
		out, err = d.updateCampaign(ctx, tx, guildID, fn)
		return err
	})
	if err != nil {
		return FactionCampaign{}, fmt.Errorf("update faction campaign: %w", err)
	}
	return out, nil
}

func (d *DB) updateCampaign(ctx context.Context, tx *sql.Tx, guildID string, fn func(fc *FactionCampaign) error) (FactionCampaign, error) {
	fc, err := loadCampaign(ctx, tx, guildID)
	if err != nil {
		return FactionCampaign{}, err
	}
	if err := fn(&fc); err != nil {
		return FactionCampaign{}, err
	}
	if err := saveCampaign(ctx, tx, &fc, d.stamp()); err != nil {
		return FactionCampaign{}, err
	}
	if err := dropOrphanOrders(ctx, tx, &fc); err != nil {
		return FactionCampaign{}, err
	}
	return fc, nil
}

// members are what the store reads of a campaign's state: the names of
// its factions.
type members struct {
	Factions []struct {
		Name string `json:"name"`
	} `json:"factions"`
}

func dropOrphanOrders(ctx context.Context, tx *sql.Tx, fc *FactionCampaign) error {
	var m members
	if err := json.Unmarshal(fc.State, &m); err != nil {
		return fmt.Errorf("campaign %d: bad state: %w", fc.ID, err)
	}
	names := make([]string, 0, len(m.Factions))
	for _, f := range m.Factions {
		names = append(names, strings.ToLower(f.Name))
	}
	if len(names) == 0 {
		_, err := tx.ExecContext(ctx, `DELETE FROM faction_orders WHERE campaign_id = ?`, fc.ID)
		return err
	}
	args := []any{fc.ID}
	for _, n := range names {
		args = append(args, n)
	}
	_, err := tx.ExecContext(ctx, `DELETE FROM faction_orders WHERE campaign_id = ?
		AND lower(faction) NOT IN (`+placeholders(len(names))+`)`, args...)
	return err
}

// DeleteCampaign removes the guild's campaign with its orders, history and
// schedule.
func (d *DB) DeleteCampaign(ctx context.Context, guildID string) error {
	return d.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM faction_campaigns WHERE guild_id = ?`, guildID)
		if err != nil {
			return fmt.Errorf("delete faction campaign: %w", err)
		}
		n, err := res.RowsAffected()
		if err != nil {
			return fmt.Errorf("delete faction campaign: %w", err)
		}
		if n == 0 {
			return fmt.Errorf("delete faction campaign of guild %q: %w", guildID, ErrNotFound)
		}
		return nil
	})
}

const orderCols = `id, faction, number, seq, mode, body, question, created_by, created_at`

func scanOrder(row interface{ Scan(...any) error }) (FactionOrder, error) {
	var o FactionOrder
	var body, question, created string
	if err := row.Scan(&o.ID, &o.Faction, &o.Number, &o.Seq, &o.Mode, &body, &question, &o.CreatedBy, &created); err != nil {
		return FactionOrder{}, err
	}
	o.Body = []byte(body)
	if question != "" {
		o.Question = []byte(question)
	}
	var err error
	if o.CreatedAt, err = time.Parse(time.RFC3339Nano, created); err != nil {
		return FactionOrder{}, fmt.Errorf("order %d: bad time: %w", o.ID, err)
	}
	return o, nil
}

func listOrders(ctx context.Context, q querier, campaignID int64, factionName, mode string) ([]FactionOrder, error) {
	return queryAll(ctx, q, scanOrder, `SELECT `+orderCols+` FROM faction_orders
		WHERE campaign_id = ? AND (? = '' OR faction = ? COLLATE NOCASE) AND (? = '' OR mode = ?)
		ORDER BY faction COLLATE NOCASE, seq, id`, campaignID, factionName, factionName, mode, mode)
}

// encodeOrder is an order's columns: its body, and its question ("" when
// it waits on nothing).
func encodeOrder(o FactionOrder) (body, question string) {
	return string(o.Body), string(o.Question)
}

// QueueOrder adds an order at the end of its faction's queue (mode
// OrderQueued when empty) and returns it as stored.
func (d *DB) QueueOrder(ctx context.Context, guildID string, o FactionOrder) (FactionOrder, error) {
	if o.Mode == "" {
		o.Mode = OrderQueued
	}
	body, question := encodeOrder(o)
	var out FactionOrder
	// READ COMMITTED on PostgreSQL, with the campaign's row lock: the
	// queue is the campaign's, and each statement reads what the
	// transactions before it committed. The ID is the database's (an
	// identity column, AUTOINCREMENT on SQLite), given once and never
	// again, so no lock wider than the campaign's is needed.
	err := d.lockedTx(ctx, func(tx *sql.Tx) error {
		if err := d.lockCampaign(ctx, tx, guildID); err != nil {
			return err
		}
		campaignID, name, err := d.campaignFaction(ctx, tx, guildID, o.Faction)
		if err != nil {
			return err
		}
		number, err := nextOrderNumber(ctx, tx, campaignID, name)
		if err != nil {
			return err
		}
		out, err = scanOrder(tx.QueryRowContext(ctx, `INSERT INTO faction_orders (campaign_id, faction, number, seq, mode, body, question, created_by, created_at)
			VALUES (?, ?, ?, (SELECT coalesce(max(seq), 0) + 1 FROM faction_orders WHERE campaign_id = ? AND faction = ? COLLATE NOCASE), ?, ?, ?, ?, ?)
			RETURNING `+orderCols,
			campaignID, name, number, campaignID, o.Faction, o.Mode, body, question, o.CreatedBy, d.stamp()))
		return err
	})
	if err != nil {
		return FactionOrder{}, fmt.Errorf("queue order of %s: %w", o.Faction, err)
	}
	return out, nil
}

// nextOrderNumber gives the next number of the faction's orders (its
// stored name), in tx, which holds the campaign's lock: one more than
// the last it was given, which faction_order_numbers keeps since the
// orders carried out are deleted.
func nextOrderNumber(ctx context.Context, tx *sql.Tx, campaignID int64, faction string) (int64, error) {
	var n int64
	err := tx.QueryRowContext(ctx, `UPDATE faction_order_numbers SET last = last + 1
		WHERE campaign_id = ? AND faction = ? COLLATE NOCASE RETURNING last`, campaignID, faction).Scan(&n)
	if errors.Is(err, sql.ErrNoRows) {
		n = 1
		_, err = tx.ExecContext(ctx, `INSERT INTO faction_order_numbers (campaign_id, faction, last) VALUES (?, ?, ?)`, campaignID, faction, n)
	}
	if err != nil {
		return 0, fmt.Errorf("number the order of %s: %w", faction, err)
	}
	return n, nil
}

// FactionOrders lists the campaign's orders of one faction ("" for every
// faction) and mode ("" for both), by faction and place in the queue.
func (d *DB) FactionOrders(ctx context.Context, guildID, factionName, mode string) ([]FactionOrder, error) {
	// The campaign's stamp alone: its state (the asset chart and every
	// faction) need not be decoded to list its orders.
	stamp, err := d.CampaignStamp(ctx, guildID)
	if err != nil {
		return nil, err
	}
	out, err := listOrders(ctx, d.sql, stamp.ID, factionName, mode)
	if err != nil {
		return nil, fmt.Errorf("list orders: %w", err)
	}
	return out, nil
}

// FactionOrder returns one order of the guild's campaign, or an error
// wrapping ErrNotFound.
func (d *DB) FactionOrder(ctx context.Context, guildID string, id int64) (FactionOrder, error) {
	o, err := scanOrder(d.sql.QueryRowContext(ctx, `SELECT `+orderCols+` FROM faction_orders
		WHERE id = ? AND campaign_id = (SELECT id FROM faction_campaigns WHERE guild_id = ?)`, id, guildID))
	if errors.Is(err, sql.ErrNoRows) {
		return FactionOrder{}, fmt.Errorf("order %d: %w", id, ErrNotFound)
	}
	return o, err
}

// UpdateOrder changes one order of the guild's campaign in one
// transaction: fn gets the order and the campaign, and its OrderChange says
// whether the order is then stored as fn left it or removed, and whether
// the campaign is saved as fn left it (a held /faction act, once answered,
// is resolved and removed this way).
func (d *DB) UpdateOrder(ctx context.Context, guildID string, id int64, fn func(o *FactionOrder, fc *FactionCampaign) (OrderChange, error)) (FactionOrder, FactionCampaign, error) {
	var out FactionOrder
	var camp FactionCampaign
	err := d.lockedTx(ctx, func(tx *sql.Tx) error {
		if err := d.lockCampaign(ctx, tx, guildID); err != nil {
			return err
		}
		fc, err := loadCampaign(ctx, tx, guildID)
		if err != nil {
			return err
		}
		o, err := scanOrder(tx.QueryRowContext(ctx, `SELECT `+orderCols+` FROM faction_orders WHERE id = ? AND campaign_id = ?`, id, fc.ID))
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("order %d: %w", id, ErrNotFound)
		}
		if err != nil {
			return err
		}
		ch, err := fn(&o, &fc)
		if err != nil {
			return err
		}
		if ch.SaveCampaign {
			if err := saveCampaign(ctx, tx, &fc, d.stamp()); err != nil {
				return err
			}
		}
		if ch.Remove {
			if _, err := tx.ExecContext(ctx, `DELETE FROM faction_orders WHERE id = ?`, o.ID); err != nil {
				return err
			}
		} else {
			body, question := encodeOrder(o)
			if _, err := tx.ExecContext(ctx, `UPDATE faction_orders SET body = ?, question = ? WHERE id = ?`, body, question, o.ID); err != nil {
				return err
			}
		}
		out, camp = o, fc
		return nil
	})
	if err != nil {
		return FactionOrder{}, FactionCampaign{}, fmt.Errorf("update order %d: %w", id, err)
	}
	return out, camp, nil
}

// OrderChange says what UpdateOrder stores besides the order.
type OrderChange struct {
	// Remove deletes the order.
	Remove bool
	// SaveCampaign saves the campaign as fn left it.
	SaveCampaign bool
}

// DeleteOrders removes orders of the guild's campaign: those with the IDs
// given, or with none given every order of factionName. It returns
// how many went.
func (d *DB) DeleteOrders(ctx context.Context, guildID, factionName string, ids ...int64) (int, error) {
	var n int64
	err := d.lockedTx(ctx, func(tx *sql.Tx) error {
		if err := d.lockCampaign(ctx, tx, guildID); err != nil {
			return err
		}
		fc, err := loadCampaign(ctx, tx, guildID)
		if err != nil {
			return err
		}
		var res sql.Result
		if len(ids) == 0 {
			res, err = tx.ExecContext(ctx, `DELETE FROM faction_orders WHERE campaign_id = ? AND faction = ? COLLATE NOCASE`, fc.ID, factionName)
		} else {
			args := []any{fc.ID, factionName, factionName}
			for _, id := range ids {
				args = append(args, id)
			}
			res, err = tx.ExecContext(ctx, `DELETE FROM faction_orders WHERE campaign_id = ? AND (? = '' OR faction = ? COLLATE NOCASE)
				AND id IN (`+placeholders(len(ids))+`)`, args...)
		}
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("delete orders: %w", err)
	}
	return int(n), nil
}

// RoundPhase names a step of PlayCampaign, for PlayOptions.Hook.
type RoundPhase string

// The steps of a round, in order.
const (
	PhaseLoaded        RoundPhase = "loaded"         // campaign and orders read
	PhaseResolved      RoundPhase = "resolved"       // the rounds played (on the copy in memory)
	PhaseSaved         RoundPhase = "saved"          // campaign written
	PhaseOrdersCleared RoundPhase = "orders-cleared" // carried-out orders deleted
	PhaseReported      RoundPhase = "reported"       // the report appended to the history
	PhaseFiring        RoundPhase = "firing"         // the firing recorded
)

// RoundPhases are the steps of a round, in order (PhaseFiring only for a
// schedule's firing).
var RoundPhases = []RoundPhase{PhaseLoaded, PhaseResolved, PhaseSaved, PhaseOrdersCleared, PhaseReported, PhaseFiring}

// Firing is the identity of a schedule's firing: the schedule and the
// time it was scheduled for.
type Firing struct {
	ScheduleID int64
	At         time.Time
}

// PlayOptions configures PlayCampaign.
type PlayOptions struct {
	// ActorID is who played the rounds (a user, or "schedule").
	ActorID string
	// Firing, when set, is the schedule's firing that plays the rounds: it
	// is recorded as applied in the same transaction, and a firing dealt
	// with already fails with ErrFiringDone. With Pending, the firing must
	// be awaiting the GM's approval.
	Firing  *Firing
	Pending bool
	// Note is kept with the firing (the firings it caught up, say).
	Note string
	// Hook, when set, is called after each step; an error from it aborts
	// the whole transaction. For tests that prove a round is all or
	// nothing.
	Hook func(RoundPhase) error
	// Outbox, when set, is given what was stored and the guild's newest
	// rounds (up to OutboxHistory, these included), inside the
	// transaction, and returns the messages that report them: they are
	// written to the outbox (ClaimOutbox) with the rounds, so that they
	// are posted even if the process stops right after the commit.
	Outbox func(res PlayResult, history []FactionRound) ([]OutboxMessage, error)
}

// OutboxHistory is how many of the newest rounds PlayOptions.Outbox is
// given.
const OutboxHistory = 20

// Played is what the game's closure passed to PlayCampaign leaves to
// store: the campaign's new state (in the FactionCampaign it was given),
// the rounds played, and the queued orders it holds.
type Played struct {
	// Rounds are the rounds played, each with its Round, Report and
	// Sheets; the store fills in the rest.
	Rounds []FactionRound
	// Held are the queued orders that stay in the queue, by ID, each
	// with the question it now waits on; every other queued order was
	// carried out (or found impossible) and is deleted.
	Held map[int64][]byte
}

// PlayResult is what PlayCampaign did.
type PlayResult struct {
	Campaign FactionCampaign
	Rounds   []FactionRound
	// Held are the orders kept in the queue: each waits on a Question.
	Held []FactionOrder
}

// PlayCampaign plays whole rounds of the guild's campaign in one
// transaction: it locks and loads the campaign and its queued orders
// (and, for a schedule's firing, checks it is not dealt with), calls play,
// which runs the rules on them, then saves the state play leaves, deletes
// the orders carried out (those held stay, with their question), appends
// each round to the history and, for a firing, records it. Any failure,
// play's included, leaves everything as it was.
func (d *DB) PlayCampaign(ctx context.Context, guildID string, p PlayOptions, play func(fc *FactionCampaign, queued []FactionOrder) (Played, error)) (PlayResult, error) {
	hook := func(ph RoundPhase) error {
		if p.Hook == nil {
			return nil
		}
		if err := p.Hook(ph); err != nil {
			return fmt.Errorf("after %s: %w", ph, err)
		}
		return nil
	}
	var out PlayResult
	// Locked, at READ COMMITTED on PostgreSQL: a round is never run again
	// for a collision, so the dice it was given (dice:) are used once.
	err := d.lockedTx(ctx, func(tx *sql.Tx) error {
		fc, queued, err := d.loadRound(ctx, tx, guildID, p)
		if err != nil {
			return err
		}
		if err := hook(PhaseLoaded); err != nil {
			return err
		}
		pl, err := play(&fc, queued)
		if err != nil {
			return err
		}
		if len(pl.Rounds) == 0 {
			return errors.New("no round was played")
		}
		if err := hook(PhaseResolved); err != nil {
			return err
		}
		now := d.stamp()
		if err := saveCampaign(ctx, tx, &fc, now); err != nil {
			return err
		}
		if err := hook(PhaseSaved); err != nil {
			return err
		}
		keep, err := clearOrders(ctx, tx, queued, pl.Held)
		if err != nil {
			return err
		}
		if err := hook(PhaseOrdersCleared); err != nil {
			return err
		}
		rounds, err := appendRounds(ctx, tx, fc.ID, pl.Rounds, p, now)
		if err != nil {
			return err
		}
		if err := hook(PhaseReported); err != nil {
			return err
		}
		if p.Firing != nil {
			if err := markFiring(ctx, tx, *p.Firing, p.Pending, FiringApplied, rounds[0].Round, rounds[len(rounds)-1].Round, p.Note, now); err != nil {
				return err
			}
			if err := hook(PhaseFiring); err != nil {
				return err
			}
		}
		out = PlayResult{Campaign: fc, Rounds: rounds, Held: keep}
		if p.Outbox != nil {
			hist, err := roundHistory(ctx, tx, guildID, OutboxHistory)
			if err != nil {
				return err
			}
			msgs, err := p.Outbox(out, hist)
			if err != nil {
				return fmt.Errorf("report: %w", err)
			}
			if err := addOutbox(ctx, tx, msgs, d.now()); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return PlayResult{}, fmt.Errorf("play faction rounds: %w", err)
	}
	return out, nil
}

// loadRound locks and loads what a round starts from, the campaign and its
// queued orders, and checks a firing is still to be dealt with.
func (d *DB) loadRound(ctx context.Context, tx *sql.Tx, guildID string, p PlayOptions) (FactionCampaign, []FactionOrder, error) {
	if err := d.lockCampaign(ctx, tx, guildID); err != nil {
		return FactionCampaign{}, nil, err
	}
	fc, err := loadCampaign(ctx, tx, guildID)
	if err != nil {
		return FactionCampaign{}, nil, err
	}
	queued, err := listOrders(ctx, tx, fc.ID, "", OrderQueued)
	if err != nil {
		return FactionCampaign{}, nil, err
	}
	if p.Firing == nil {
		return fc, queued, nil
	}
	// Cheap first: another process may have played it already. The
	// firing's row, written last, is what guarantees it.
	var status string
	err = tx.QueryRowContext(ctx, `SELECT status FROM faction_firings WHERE schedule_id = ? AND scheduled_at = ?`,
		p.Firing.ScheduleID, firingStamp(p.Firing.At)).Scan(&status)
	switch {
	case errors.Is(err, sql.ErrNoRows) && !p.Pending:
	case err == nil && p.Pending && status == FiringPending:
	case err == nil || errors.Is(err, sql.ErrNoRows):
		return FactionCampaign{}, nil, fmt.Errorf("firing %d at %s: %w", p.Firing.ScheduleID, firingStamp(p.Firing.At), ErrFiringDone)
	default:
		return FactionCampaign{}, nil, err
	}
	return fc, queued, nil
}

// clearOrders deletes the queued orders a round carried out and stores
// the question each held one now waits on; it returns those kept.
func clearOrders(ctx context.Context, tx *sql.Tx, queued []FactionOrder, held map[int64][]byte) ([]FactionOrder, error) {
	var keep []FactionOrder
	for _, o := range queued {
		q, isHeld := held[o.ID]
		if !isHeld {
			if _, err := tx.ExecContext(ctx, `DELETE FROM faction_orders WHERE id = ?`, o.ID); err != nil {
				return nil, err
			}
			continue
		}
		o.Question = q
		body, question := encodeOrder(o)
		if _, err := tx.ExecContext(ctx, `UPDATE faction_orders SET body = ?, question = ? WHERE id = ?`, body, question, o.ID); err != nil {
			return nil, err
		}
		keep = append(keep, o)
	}
	return keep, nil
}

// appendRounds adds the rounds played to the campaign's history, with the
// firing that played them, if any.
func appendRounds(ctx context.Context, tx *sql.Tx, campaignID int64, rounds []FactionRound, p PlayOptions, now string) ([]FactionRound, error) {
	var schedID int64
	var at string
	if p.Firing != nil {
		schedID, at = p.Firing.ScheduleID, firingStamp(p.Firing.At)
	}
	created, err := time.Parse(time.RFC3339Nano, now)
	if err != nil {
		return nil, err
	}
	out := slices.Clone(rounds)
	for i := range out {
		r := &out[i]
		r.ScheduleID, r.PlayedBy, r.CreatedAt = schedID, p.ActorID, created
		if p.Firing != nil {
			r.ScheduledAt = p.Firing.At.UTC().Truncate(time.Second)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO faction_rounds (campaign_id, round, report, sheets, schedule_id, scheduled_at, played_by, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, campaignID, r.Round, string(r.Report), string(r.Sheets), schedID, at, p.ActorID, now); err != nil {
			return nil, fmt.Errorf("append round %d: %w", r.Round, err)
		}
	}
	return out, nil
}

// RoundPlan is what a round would start from: the campaign and its queued
// orders, read in one transaction.
func (d *DB) RoundPlan(ctx context.Context, guildID string) (FactionCampaign, []FactionOrder, error) {
	var fc FactionCampaign
	var queued []FactionOrder
	err := d.tx(ctx, func(tx *sql.Tx) error {
		var err error
		if fc, err = loadCampaign(ctx, tx, guildID); err != nil {
			return err
		}
		queued, err = listOrders(ctx, tx, fc.ID, "", OrderQueued)
		return err
	})
	if err != nil {
		return FactionCampaign{}, nil, fmt.Errorf("read the next round: %w", err)
	}
	return fc, queued, nil
}

const roundCols = `round, report, sheets, schedule_id, scheduled_at, played_by, created_at`

func scanRound(row interface{ Scan(...any) error }) (FactionRound, error) {
	var r FactionRound
	var report, sheets, at, created string
	if err := row.Scan(&r.Round, &report, &sheets, &r.ScheduleID, &at, &r.PlayedBy, &created); err != nil {
		return FactionRound{}, err
	}
	r.Report, r.Sheets = []byte(report), []byte(sheets)
	var err error
	if at != "" {
		if r.ScheduledAt, err = time.Parse(time.RFC3339, at); err != nil {
			return FactionRound{}, fmt.Errorf("round %d: bad time: %w", r.Round, err)
		}
	}
	if r.CreatedAt, err = time.Parse(time.RFC3339Nano, created); err != nil {
		return FactionRound{}, fmt.Errorf("round %d: bad time: %w", r.Round, err)
	}
	return r, nil
}

// RoundHistory returns up to limit of the campaign's newest rounds, oldest
// first.
func (d *DB) RoundHistory(ctx context.Context, guildID string, limit int) ([]FactionRound, error) {
	return roundHistory(ctx, d.sql, guildID, limit)
}

// roundHistory is RoundHistory through q, a transaction or the pool.
func roundHistory(ctx context.Context, q querier, guildID string, limit int) ([]FactionRound, error) {
	out, err := queryAll(ctx, q, scanRound, `SELECT `+roundCols+` FROM (
		SELECT r.* FROM faction_rounds r JOIN faction_campaigns c ON c.id = r.campaign_id
		WHERE c.guild_id = ? ORDER BY r.round DESC LIMIT ?) AS newest ORDER BY round`, guildID, limit)
	if err != nil {
		return nil, fmt.Errorf("round history: %w", err)
	}
	return out, nil
}

// PlayedRound returns one round of the history, or an error wrapping
// ErrNotFound.
func (d *DB) PlayedRound(ctx context.Context, guildID string, round int) (FactionRound, error) {
	r, err := scanRound(d.sql.QueryRowContext(ctx, `SELECT r.round, r.report, r.sheets, r.schedule_id, r.scheduled_at, r.played_by, r.created_at
		FROM faction_rounds r JOIN faction_campaigns c ON c.id = r.campaign_id WHERE c.guild_id = ? AND r.round = ?`, guildID, round))
	if errors.Is(err, sql.ErrNoRows) {
		return FactionRound{}, fmt.Errorf("round %d: %w", round, ErrNotFound)
	}
	if err != nil {
		return FactionRound{}, fmt.Errorf("round %d: %w", round, err)
	}
	return r, nil
}

// placeholders returns n comma-separated placeholders, n > 0, for a list
// of values: both stores take it (SQLite's json_each has no portable twin).
func placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?, ", n), ", ")
}

// valuesRows is n rows of VALUES, each row ("(?, ?)"), for a statement
// that inserts many at once.
func valuesRows(n int, row string) string {
	return strings.TrimSuffix(strings.Repeat(row+", ", n), ", ")
}
