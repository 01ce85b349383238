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

	jsonv1 "github.com/go-json-experiment/json/v1"
	"github.com/tablehand/tablehand/rules/dice"
	"github.com/tablehand/tablehand/rules/faction"
)

// The faction game keeps one campaign per guild: a campaign is the world
// around one group's story, so a server that runs two such games keeps
// them on two servers. Its state is faction.Campaign, stored whole as JSON;
// queued orders, the history of played rounds and the schedule live beside
// it. Every public method is one transaction.

// Errors of the faction store.
var (
	// ErrCampaignExists: a guild has one campaign.
	ErrCampaignExists = errors.New("this server already has a faction campaign")
	// ErrFiringDone: the firing has been dealt with already (applied,
	// skipped or missed), here or by another process.
	ErrFiringDone = errors.New("this firing has been dealt with already")
)

// FactionCampaign is a guild's faction campaign.
type FactionCampaign struct {
	ID        int64
	GuildID   string
	ChannelID string
	Campaign  *faction.Campaign
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
	ID      int64
	Faction string
	// Seq is its place in the faction's queue.
	Seq   int
	Mode  string
	Order faction.Order
	// Question is what the order waits on, nil when nothing.
	Question  *faction.Question
	CreatedBy string
	CreatedAt time.Time
}

// FactionSheet is what the chart draws of a faction after a round.
type FactionSheet struct {
	Faction    string             `json:"faction"`
	Attributes faction.Attributes `json:"attributes"`
	Stats      faction.Stats      `json:"stats"`
	AP         int                `json:"ap"`
	Assets     int                `json:"assets"`
	Habitats   int                `json:"habitats"`
}

// FactionRound is one played round in the campaign's history.
type FactionRound struct {
	Round  int
	Report faction.RoundReport
	Sheets []FactionSheet
	// ScheduleID and ScheduledAt name the firing that played it; 0 and
	// the zero time for /faction round.
	ScheduleID  int64
	ScheduledAt time.Time
	PlayedBy    string
	CreatedAt   time.Time
}

// Sheets returns each faction's sheet as the chart draws it.
func Sheets(c *faction.Campaign) []FactionSheet {
	out := make([]FactionSheet, 0, len(c.Factions))
	for _, f := range c.Factions {
		s := FactionSheet{Faction: f.Name, Stats: f.Stats, AP: c.APMax(f), Assets: len(f.Assets)}
		for _, a := range faction.AllAttrs {
			s.Attributes.Set(a, c.Attribute(f, a))
		}
		for _, h := range c.Habitats {
			if h.Owner == f.Name {
				s.Habitats++
			}
		}
		out = append(out, s)
	}
	return out
}

const campaignCols = `id, guild_id, channel_id, state, version, timezone, created_by, created_at, updated_at`

func scanCampaign(row interface{ Scan(...any) error }) (FactionCampaign, error) {
	var fc FactionCampaign
	var state []byte
	var created, updated string
	if err := row.Scan(&fc.ID, &fc.GuildID, &fc.ChannelID, &state, &fc.Version, &fc.Timezone, &fc.CreatedBy, &created, &updated); err != nil {
		return FactionCampaign{}, err
	}
	fc.Campaign = new(faction.Campaign)
	if err := decodeState(state, fc.Campaign); err != nil {
		return FactionCampaign{}, fmt.Errorf("campaign %d: bad state: %w", fc.ID, err)
	}
	var err error
	if fc.CreatedAt, err = time.Parse(time.RFC3339Nano, created); err != nil {
		return FactionCampaign{}, fmt.Errorf("campaign %d: bad time: %w", fc.ID, err)
	}
	if fc.UpdatedAt, err = time.Parse(time.RFC3339Nano, updated); err != nil {
		return FactionCampaign{}, fmt.Errorf("campaign %d: bad time: %w", fc.ID, err)
	}
	return fc, nil
}

// decodeState decodes a campaign's stored JSON (its state, a round's
// report and sheets) with encoding/json's own rules, by the decoder of
// encoding/json/v2 (github.com/go-json-experiment/json/v1, the v1 API
// over it, until Go ships v2 without an experiment): it decodes a
// campaign of 100 factions in less than half the time, and every command
// and page of the faction game loads one.
func decodeState(data []byte, v any) error { return jsonv1.Unmarshal(data, v) }

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
		return 0, "", fmt.Errorf("%w: %q", faction.ErrUnknownFaction, factionName)
	}
	return campaignID, name, nil
}

// saveCampaign writes the campaign's state and bumps its version.
func saveCampaign(ctx context.Context, tx *sql.Tx, fc *FactionCampaign, now string) error {
	state, err := json.Marshal(fc.Campaign)
	if err != nil {
		return fmt.Errorf("encode campaign %d: %w", fc.ID, err)
	}
	res, err := tx.ExecContext(ctx, `UPDATE faction_campaigns SET state = ?, version = version + 1, timezone = ?, updated_at = ?
		WHERE id = ? AND version = ?`, string(state), fc.Timezone, now, fc.ID, fc.Version)
	if err != nil {
		return fmt.Errorf("save campaign %d: %w", fc.ID, err)
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return fmt.Errorf("save campaign %d: version %d is not the stored one", fc.ID, fc.Version)
	}
	fc.Version++
	return nil
}

// CreateCampaign starts the guild's campaign under cfg; reports go to
// channelID. A guild that has one gets ErrCampaignExists.
func (d *DB) CreateCampaign(ctx context.Context, guildID, channelID, actorID string, cfg faction.Config) (FactionCampaign, error) {
	c, err := faction.NewCampaign(cfg.Clone())
	if err != nil {
		return FactionCampaign{}, err
	}
	state, err := json.Marshal(c)
	if err != nil {
		return FactionCampaign{}, fmt.Errorf("encode campaign: %w", err)
	}
	var out FactionCampaign
	err = d.tx(ctx, func(tx *sql.Tx) error {
		if _, err := loadCampaign(ctx, tx, guildID); err == nil {
			return ErrCampaignExists
		} else if !errors.Is(err, ErrNotFound) {
			return err
		}
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
// is none: its report channel, who started it, and the rules.
type NewCampaign struct {
	ChannelID, ActorID string
	Config             faction.Config
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
			c, err := faction.NewCampaign(nc.Config.Clone())
			if err != nil {
				return err
			}
			state, err := json.Marshal(c)
			if err != nil {
				return fmt.Errorf("encode campaign: %w", err)
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
	if err := fc.Campaign.Config.Validate(); err != nil {
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

func dropOrphanOrders(ctx context.Context, tx *sql.Tx, fc *FactionCampaign) error {
	names := make([]string, 0, len(fc.Campaign.Factions))
	for _, f := range fc.Campaign.Factions {
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

const orderCols = `id, faction, seq, mode, body, question, created_by, created_at`

func scanOrder(row interface{ Scan(...any) error }) (FactionOrder, error) {
	var o FactionOrder
	var body, question, created string
	if err := row.Scan(&o.ID, &o.Faction, &o.Seq, &o.Mode, &body, &question, &o.CreatedBy, &created); err != nil {
		return FactionOrder{}, err
	}
	if err := json.Unmarshal([]byte(body), &o.Order); err != nil {
		return FactionOrder{}, fmt.Errorf("order %d: bad body: %w", o.ID, err)
	}
	if question != "" {
		o.Question = new(faction.Question)
		if err := json.Unmarshal([]byte(question), o.Question); err != nil {
			return FactionOrder{}, fmt.Errorf("order %d: bad question: %w", o.ID, err)
		}
	}
	var err error
	if o.CreatedAt, err = time.Parse(time.RFC3339Nano, created); err != nil {
		return FactionOrder{}, fmt.Errorf("order %d: bad time: %w", o.ID, err)
	}
	return o, nil
}

func listOrders(ctx context.Context, q querier, campaignID int64, factionName, mode string) ([]FactionOrder, error) {
	rows, err := q.QueryContext(ctx, `SELECT `+orderCols+` FROM faction_orders
		WHERE campaign_id = ? AND (? = '' OR faction = ? COLLATE NOCASE) AND (? = '' OR mode = ?)
		ORDER BY faction COLLATE NOCASE, seq, id`, campaignID, factionName, factionName, mode, mode)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []FactionOrder
	for rows.Next() {
		o, err := scanOrder(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	return out, rows.Err()
}

func encodeOrder(o FactionOrder) (body, question string, err error) {
	b, err := json.Marshal(o.Order)
	if err != nil {
		return "", "", fmt.Errorf("encode order: %w", err)
	}
	if o.Question != nil {
		q, err := json.Marshal(o.Question)
		if err != nil {
			return "", "", fmt.Errorf("encode question: %w", err)
		}
		question = string(q)
	}
	return string(b), question, nil
}

// QueueOrder adds an order at the end of its faction's queue (mode
// OrderQueued when empty) and returns it as stored.
func (d *DB) QueueOrder(ctx context.Context, guildID string, o FactionOrder) (FactionOrder, error) {
	if o.Mode == "" {
		o.Mode = OrderQueued
	}
	body, question, err := encodeOrder(o)
	if err != nil {
		return FactionOrder{}, err
	}
	var out FactionOrder
	// READ COMMITTED on PostgreSQL, with the campaign's row lock: the
	// queue is the campaign's, and each statement reads what the
	// transactions before it committed. The ID is the database's (an
	// identity column, AUTOINCREMENT on SQLite), given once and never
	// again, so no lock wider than the campaign's is needed.
	err = d.lockedTx(ctx, func(tx *sql.Tx) error {
		if err := d.lockCampaign(ctx, tx, guildID); err != nil {
			return err
		}
		campaignID, name, err := d.campaignFaction(ctx, tx, guildID, o.Faction)
		if err != nil {
			return err
		}
		out, err = scanOrder(tx.QueryRowContext(ctx, `INSERT INTO faction_orders (campaign_id, faction, seq, mode, body, question, created_by, created_at)
			VALUES (?, ?, (SELECT coalesce(max(seq), 0) + 1 FROM faction_orders WHERE campaign_id = ? AND faction = ? COLLATE NOCASE), ?, ?, ?, ?, ?)
			RETURNING `+orderCols,
			campaignID, name, campaignID, o.Faction, o.Mode, body, question, o.CreatedBy, d.stamp()))
		return err
	})
	if err != nil {
		return FactionOrder{}, fmt.Errorf("queue order of %s: %w", o.Faction, err)
	}
	return out, nil
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
			body, question, err := encodeOrder(o)
			if err != nil {
				return err
			}
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

// RoundPhase names a step of PlayRounds, for PlayOptions.Hook.
type RoundPhase string

// The steps of a round, in order.
const (
	PhaseLoaded        RoundPhase = "loaded"         // campaign and orders read
	PhaseResolved      RoundPhase = "resolved"       // faction.ResolveRound done (on the copy in memory)
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

// PlayOptions configures PlayRounds.
type PlayOptions struct {
	// Rounds to play, 1 to faction.MaxRounds.
	Rounds int
	Roller dice.Roller
	// ActorID is who played them (a user, or "schedule").
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
}

// PlayResult is what PlayRounds did.
type PlayResult struct {
	Campaign FactionCampaign
	Rounds   []FactionRound
	// Held are the orders kept in the queue: each waits on a Question.
	Held []FactionOrder
}

// PlayRounds plays whole rounds of the guild's campaign in one
// transaction: it loads the campaign and its queued orders, resolves each
// round with faction.ResolveRound, saves the campaign, deletes the orders
// carried out or found impossible (those waiting on a Question stay, with
// it), appends each round's report to the history and, for a schedule's
// firing, records the firing. Any failure leaves everything as it was.
//
// The queued orders are the first round's; later rounds play every
// faction's standing policy (an order held by a Question is not tried
// again before it is answered).
func (d *DB) PlayRounds(ctx context.Context, guildID string, p PlayOptions) (PlayResult, error) {
	if p.Rounds < 1 || p.Rounds > faction.MaxRounds {
		return PlayResult{}, fmt.Errorf("play rounds: %d rounds: play 1 to %d", p.Rounds, faction.MaxRounds)
	}
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
		if err := d.lockCampaign(ctx, tx, guildID); err != nil {
			return err
		}
		fc, err := loadCampaign(ctx, tx, guildID)
		if err != nil {
			return err
		}
		queued, err := listOrders(ctx, tx, fc.ID, "", OrderQueued)
		if err != nil {
			return err
		}
		if p.Firing != nil {
			// Cheap first: another process may have played it already. The
			// firing's row, written last, is what guarantees it.
			var status string
			err := tx.QueryRowContext(ctx, `SELECT status FROM faction_firings WHERE schedule_id = ? AND scheduled_at = ?`,
				p.Firing.ScheduleID, firingStamp(p.Firing.At)).Scan(&status)
			switch {
			case errors.Is(err, sql.ErrNoRows) && !p.Pending:
			case err == nil && p.Pending && status == FiringPending:
			case err == nil || errors.Is(err, sql.ErrNoRows):
				return fmt.Errorf("firing %d at %s: %w", p.Firing.ScheduleID, firingStamp(p.Firing.At), ErrFiringDone)
			default:
				return err
			}
		}
		if err := hook(PhaseLoaded); err != nil {
			return err
		}
		orders, byIndex := roundOrders(fc.Campaign, queued)
		var rounds []FactionRound
		held := map[int64]faction.Question{}
		for i := range p.Rounds {
			if i > 0 {
				orders = nil
			}
			rep, err := faction.ResolveRound(fc.Campaign, orders, p.Roller)
			if err != nil {
				return err
			}
			if i == 0 {
				for _, q := range rep.Questions {
					if o, ok := byIndex[strings.ToLower(q.Faction)][q.Index]; ok {
						if _, dup := held[o.ID]; !dup {
							held[o.ID] = q.Question
						}
					}
				}
			}
			rounds = append(rounds, FactionRound{Round: rep.Round, Report: rep, Sheets: Sheets(fc.Campaign), PlayedBy: p.ActorID})
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
		var keep []FactionOrder
		for _, o := range queued {
			q, isHeld := held[o.ID]
			switch {
			case isHeld:
				o.Question = &q
				body, question, err := encodeOrder(o)
				if err != nil {
					return err
				}
				if _, err := tx.ExecContext(ctx, `UPDATE faction_orders SET body = ?, question = ? WHERE id = ?`, body, question, o.ID); err != nil {
					return err
				}
				keep = append(keep, o)
			default:
				if _, err := tx.ExecContext(ctx, `DELETE FROM faction_orders WHERE id = ?`, o.ID); err != nil {
					return err
				}
			}
		}
		if err := hook(PhaseOrdersCleared); err != nil {
			return err
		}
		var schedID int64
		var at string
		if p.Firing != nil {
			schedID, at = p.Firing.ScheduleID, firingStamp(p.Firing.At)
		}
		for i := range rounds {
			rounds[i].ScheduleID = schedID
			if p.Firing != nil {
				rounds[i].ScheduledAt = p.Firing.At.UTC().Truncate(time.Second)
			}
			rep, err := json.Marshal(rounds[i].Report)
			if err != nil {
				return fmt.Errorf("encode report: %w", err)
			}
			sheets, err := json.Marshal(rounds[i].Sheets)
			if err != nil {
				return fmt.Errorf("encode sheets: %w", err)
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO faction_rounds (campaign_id, round, report, sheets, schedule_id, scheduled_at, played_by, created_at)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, fc.ID, rounds[i].Round, string(rep), string(sheets), schedID, at, p.ActorID, now); err != nil {
				return fmt.Errorf("append round %d: %w", rounds[i].Round, err)
			}
			if rounds[i].CreatedAt, err = time.Parse(time.RFC3339Nano, now); err != nil {
				return err
			}
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
		return nil
	})
	if err != nil {
		return PlayResult{}, fmt.Errorf("play faction rounds: %w", err)
	}
	return out, nil
}

// roundOrders turns the stored queue into ResolveRound's orders, by
// faction in queue order, and remembers which stored order each index is.
// Orders of factions the campaign no longer has are left out.
func roundOrders(c *faction.Campaign, queued []FactionOrder) (map[string][]faction.Order, map[string]map[int]FactionOrder) {
	orders := map[string][]faction.Order{}
	byIndex := map[string]map[int]FactionOrder{}
	sorted := slices.Clone(queued)
	slices.SortStableFunc(sorted, func(a, b FactionOrder) int { return a.Seq - b.Seq })
	for _, o := range sorted {
		f := c.Faction(o.Faction)
		if f == nil {
			continue
		}
		k := strings.ToLower(f.Name)
		if byIndex[k] == nil {
			byIndex[k] = map[int]FactionOrder{}
		}
		byIndex[k][len(orders[f.Name])] = o
		orders[f.Name] = append(orders[f.Name], o.Order)
	}
	return orders, byIndex
}

// RoundPlan is what a round would start from: the campaign and its queued
// orders, read in one transaction.
func (d *DB) RoundPlan(ctx context.Context, guildID string) (FactionCampaign, map[string][]faction.Order, []FactionOrder, error) {
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
		return FactionCampaign{}, nil, nil, fmt.Errorf("read the next round: %w", err)
	}
	orders, _ := roundOrders(fc.Campaign, queued)
	return fc, orders, queued, nil
}

const roundCols = `round, report, sheets, schedule_id, scheduled_at, played_by, created_at`

func scanRound(row interface{ Scan(...any) error }) (FactionRound, error) {
	var r FactionRound
	var report, sheets, at, created string
	if err := row.Scan(&r.Round, &report, &sheets, &r.ScheduleID, &at, &r.PlayedBy, &created); err != nil {
		return FactionRound{}, err
	}
	if err := decodeState([]byte(report), &r.Report); err != nil {
		return FactionRound{}, fmt.Errorf("round %d: bad report: %w", r.Round, err)
	}
	if err := decodeState([]byte(sheets), &r.Sheets); err != nil {
		return FactionRound{}, fmt.Errorf("round %d: bad sheets: %w", r.Round, err)
	}
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
	rows, err := d.sql.QueryContext(ctx, `SELECT `+roundCols+` FROM (
		SELECT r.* FROM faction_rounds r JOIN faction_campaigns c ON c.id = r.campaign_id
		WHERE c.guild_id = ? ORDER BY r.round DESC LIMIT ?) AS newest ORDER BY round`, guildID, limit)
	if err != nil {
		return nil, fmt.Errorf("round history: %w", err)
	}
	defer rows.Close()
	var out []FactionRound
	for rows.Next() {
		r, err := scanRound(rows)
		if err != nil {
			return nil, fmt.Errorf("round history: %w", err)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
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
