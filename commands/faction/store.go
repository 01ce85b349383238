package faction

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	jsonv1 "github.com/go-json-experiment/json/v1"

	"github.com/tablehand/tablehand/db"
	rules "github.com/tablehand/tablehand/rules/faction"
)

// The faction game's store. The store (db) keeps a campaign's tables and
// transactions, and the game's documents as JSON it does not read: the
// campaign's state, each order and the question it waits on, each round's
// report and sheets. This file is where those documents become the
// rules' types and back, and where the rules run inside the store's
// transactions (the closures of UpdateCampaign, UpdateOrder and
// PlayCampaign), so the store imports no rule system.

// Store is what the faction game needs of the store: its campaigns,
// orders, rounds and schedules. *db.DB is one; the game finds it in
// kit.Deps.Store.
type Store interface {
	EnsureCampaign(ctx context.Context, guildID string, nc db.NewCampaign, fn func(fc *db.FactionCampaign) error) (db.FactionCampaign, bool, error)
	Campaign(ctx context.Context, guildID string) (db.FactionCampaign, error)
	CampaignStamp(ctx context.Context, guildID string) (db.CampaignStamp, error)
	UpdateCampaign(ctx context.Context, guildID string, fn func(fc *db.FactionCampaign) error) (db.FactionCampaign, error)
	QueueOrder(ctx context.Context, guildID string, o db.FactionOrder) (db.FactionOrder, error)
	FactionOrders(ctx context.Context, guildID, factionName, mode string) ([]db.FactionOrder, error)
	FactionOrder(ctx context.Context, guildID string, id int64) (db.FactionOrder, error)
	UpdateOrder(ctx context.Context, guildID string, id int64, fn func(o *db.FactionOrder, fc *db.FactionCampaign) (db.OrderChange, error)) (db.FactionOrder, db.FactionCampaign, error)
	DeleteOrders(ctx context.Context, guildID, factionName string, ids ...int64) (int, error)
	PlayCampaign(ctx context.Context, guildID string, p db.PlayOptions, play func(fc *db.FactionCampaign, queued []db.FactionOrder) (db.Played, error)) (db.PlayResult, error)
	RoundPlan(ctx context.Context, guildID string) (db.FactionCampaign, []db.FactionOrder, error)
	RoundHistory(ctx context.Context, guildID string, limit int) ([]db.FactionRound, error)
	PlayedRound(ctx context.Context, guildID string, round int) (db.FactionRound, error)
	// DisplayNames are the names the players show on the server, for the
	// page (kit.NameStore writes them).
	DisplayNames(ctx context.Context, guildID string, userIDs []string) (map[string]string, error)
	ScheduleStore
}

// ScheduleStore keeps each campaign's schedule and its firings.
type ScheduleStore interface {
	SetSchedule(ctx context.Context, guildID string, s db.Schedule) (db.Schedule, error)
	Schedule(ctx context.Context, guildID string) (db.Schedule, error)
	ScheduleByID(ctx context.Context, id int64) (db.Schedule, error)
	PauseSchedule(ctx context.Context, guildID string, paused bool) (db.Schedule, error)
	DeleteSchedule(ctx context.Context, guildID string) (db.Schedule, error)
	SkipFiring(ctx context.Context, f db.Firing, note string) error
	AddPendingFiring(ctx context.Context, f db.Firing, note string, posts ...db.OutboxMessage) error
}

// Campaign is a guild's faction campaign: the stored row, with its state
// as the rules' campaign.
type Campaign struct {
	ID        int64
	GuildID   string
	ChannelID string
	Campaign  *rules.Campaign
	// Version counts the saves of the campaign.
	Version int64
	// Timezone is the guild's IANA zone, as last given to /schedule set;
	// "" for UTC.
	Timezone  string
	CreatedBy string
	CreatedAt time.Time
	UpdatedAt time.Time
}

// Order is one stored order of a faction.
type Order struct {
	// ID is the store's, shown to no one; Number is the one players see
	// and type, within the faction (db.FactionOrder).
	ID      int64
	Number  int64
	Faction string
	// Seq is its place in the faction's queue.
	Seq   int
	Mode  string
	Order rules.Order
	// Question is what the order waits on, nil when nothing.
	Question  *rules.Question
	CreatedBy string
	CreatedAt time.Time
}

// Sheet is what the chart draws of a faction after a round.
type Sheet struct {
	Faction    string           `json:"faction"`
	Attributes rules.Attributes `json:"attributes"`
	Stats      rules.Stats      `json:"stats"`
	AP         int              `json:"ap"`
	Assets     int              `json:"assets"`
	Habitats   int              `json:"habitats"`
}

// Round is one played round in the campaign's history.
type Round struct {
	Round  int
	Report rules.RoundReport
	Sheets []Sheet
	// ScheduleID and ScheduledAt name the firing that played it; 0 and
	// the zero time for /faction round.
	ScheduleID  int64
	ScheduledAt time.Time
	PlayedBy    string
	CreatedAt   time.Time
}

// PlayResult is what played rounds did.
type PlayResult struct {
	Campaign Campaign
	Rounds   []Round
	// Held are the orders kept in the queue: each waits on a Question.
	Held []Order
}

// Sheets returns each faction's sheet as the chart draws it.
func Sheets(c *rules.Campaign) []Sheet {
	out := make([]Sheet, 0, len(c.Factions))
	for _, f := range c.Factions {
		s := Sheet{Faction: f.Name, Stats: f.Stats, AP: c.APMax(f), Assets: len(f.Assets)}
		for _, a := range rules.AllAttrs {
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

// decodeState decodes a campaign's stored JSON (its state, a round's
// report and sheets) with encoding/json's own rules, by the decoder of
// encoding/json/v2 (github.com/go-json-experiment/json/v1, the v1 API
// over it, until Go ships v2 without an experiment): it decodes a
// campaign of 100 factions in less than half the time, and every command
// and page of the faction game loads one.
func decodeState(data []byte, v any) error { return jsonv1.Unmarshal(data, v) }

func campaignOf(row db.FactionCampaign) (Campaign, error) {
	c := new(rules.Campaign)
	if err := decodeState(row.State, c); err != nil {
		return Campaign{}, fmt.Errorf("campaign %d: bad state: %w", row.ID, err)
	}
	return Campaign{ID: row.ID, GuildID: row.GuildID, ChannelID: row.ChannelID, Campaign: c, Version: row.Version,
		Timezone: row.Timezone, CreatedBy: row.CreatedBy, CreatedAt: row.CreatedAt, UpdatedAt: row.UpdatedAt}, nil
}

// encode writes what fc's change leaves in the row: the state and the
// zone.
func (fc *Campaign) encode(row *db.FactionCampaign) error {
	// A GM's change (a meme taken away, an asset no longer Covert) may
	// show an asset born Covert: it is kept under its public number.
	fc.Campaign.NumberSeen()
	state, err := json.Marshal(fc.Campaign)
	if err != nil {
		return fmt.Errorf("encode campaign %d: %w", fc.ID, err)
	}
	row.State, row.Timezone = state, fc.Timezone
	return nil
}

func orderOf(row db.FactionOrder) (Order, error) {
	o := Order{ID: row.ID, Number: row.Number, Faction: row.Faction, Seq: row.Seq, Mode: row.Mode, CreatedBy: row.CreatedBy, CreatedAt: row.CreatedAt}
	if err := json.Unmarshal(row.Body, &o.Order); err != nil {
		return Order{}, fmt.Errorf("order %d: bad body: %w", row.ID, err)
	}
	if row.Question != nil {
		o.Question = new(rules.Question)
		if err := json.Unmarshal(row.Question, o.Question); err != nil {
			return Order{}, fmt.Errorf("order %d: bad question: %w", row.ID, err)
		}
	}
	return o, nil
}

func ordersOf(rows []db.FactionOrder) ([]Order, error) { return decodeAll(rows, orderOf) }

// decodeAll decodes each stored row with decode, stopping at the first
// that fails.
func decodeAll[R, T any](rows []R, decode func(R) (T, error)) ([]T, error) {
	out := make([]T, 0, len(rows))
	for _, r := range rows {
		t, err := decode(r)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

// row is the order as the store keeps it.
func (o Order) row() (db.FactionOrder, error) {
	body, err := json.Marshal(o.Order)
	if err != nil {
		return db.FactionOrder{}, fmt.Errorf("encode order: %w", err)
	}
	r := db.FactionOrder{ID: o.ID, Number: o.Number, Faction: o.Faction, Seq: o.Seq, Mode: o.Mode, Body: body, CreatedBy: o.CreatedBy, CreatedAt: o.CreatedAt}
	if o.Question != nil {
		if r.Question, err = json.Marshal(o.Question); err != nil {
			return db.FactionOrder{}, fmt.Errorf("encode question: %w", err)
		}
	}
	return r, nil
}

func roundOf(row db.FactionRound) (Round, error) {
	r := Round{Round: row.Round, ScheduleID: row.ScheduleID, ScheduledAt: row.ScheduledAt, PlayedBy: row.PlayedBy, CreatedAt: row.CreatedAt}
	if err := decodeState(row.Report, &r.Report); err != nil {
		return Round{}, fmt.Errorf("round %d: bad report: %w", r.Round, err)
	}
	if err := decodeState(row.Sheets, &r.Sheets); err != nil {
		return Round{}, fmt.Errorf("round %d: bad sheets: %w", r.Round, err)
	}
	return r, nil
}

func roundsOf(rows []db.FactionRound) ([]Round, error) { return decodeAll(rows, roundOf) }

// unknownFaction is the store's db.ErrUnknownFaction as the rules' own
// mistake, with the store's words.
type unknownFaction struct{ error }

func (unknownFaction) Is(target error) bool { return target == rules.ErrUnknownFaction }

// campaigns is the store as the game sees it: the rules' types in and
// out.
type campaigns struct{ s Store }

// newCampaign is a new campaign's first state under cfg.
func newCampaign(cfg rules.Config) ([]byte, error) {
	c, err := rules.NewCampaign(cfg.Clone())
	if err != nil {
		return nil, err
	}
	state, err := json.Marshal(c)
	if err != nil {
		return nil, fmt.Errorf("encode campaign: %w", err)
	}
	return state, nil
}

// ensure changes the guild's campaign as update does, starting it under
// cfg first when the guild has none, in one transaction.
func (cs campaigns) ensure(ctx context.Context, guildID, channelID, actorID string, cfg rules.Config, fn func(fc *Campaign) error) (Campaign, bool, error) {
	nc := db.NewCampaign{ChannelID: channelID, ActorID: actorID, State: func() ([]byte, error) { return newCampaign(cfg) }}
	var out Campaign
	_, created, err := cs.s.EnsureCampaign(ctx, guildID, nc, changed(fn, &out))
	return out, created, err
}

// changed is the store's closure for a change fn of the campaign: decode,
// change, check and encode; out is the campaign as fn left it.
func changed(fn func(fc *Campaign) error, out *Campaign) func(row *db.FactionCampaign) error {
	return func(row *db.FactionCampaign) error {
		fc, err := campaignOf(*row)
		if err != nil {
			return err
		}
		if err := fn(&fc); err != nil {
			return err
		}
		if err := fc.Campaign.Config.Validate(); err != nil {
			return err
		}
		if err := fc.encode(row); err != nil {
			return err
		}
		fc.Version = row.Version + 1 // as the save leaves it
		*out = fc
		return nil
	}
}

func (cs campaigns) campaign(ctx context.Context, guildID string) (Campaign, error) {
	row, err := cs.s.Campaign(ctx, guildID)
	if err != nil {
		return Campaign{}, err
	}
	return campaignOf(row)
}

// update changes the guild's campaign in one transaction: fn runs on it
// and what it leaves is saved; when fn fails nothing is.
func (cs campaigns) update(ctx context.Context, guildID string, fn func(fc *Campaign) error) (Campaign, error) {
	var out Campaign
	if _, err := cs.s.UpdateCampaign(ctx, guildID, changed(fn, &out)); err != nil {
		return Campaign{}, err
	}
	return out, nil
}

func (cs campaigns) queue(ctx context.Context, guildID string, o Order) (Order, error) {
	r, err := o.row()
	if err != nil {
		return Order{}, err
	}
	stored, err := cs.s.QueueOrder(ctx, guildID, r)
	if errors.Is(err, db.ErrUnknownFaction) {
		return Order{}, unknownFaction{err}
	}
	if err != nil {
		return Order{}, err
	}
	return orderOf(stored)
}

func (cs campaigns) orders(ctx context.Context, guildID, factionName, mode string) ([]Order, error) {
	rows, err := cs.s.FactionOrders(ctx, guildID, factionName, mode)
	if err != nil {
		return nil, err
	}
	return ordersOf(rows)
}

func (cs campaigns) order(ctx context.Context, guildID string, id int64) (Order, error) {
	row, err := cs.s.FactionOrder(ctx, guildID, id)
	if err != nil {
		return Order{}, err
	}
	return orderOf(row)
}

// updateOrder changes one order of the guild's campaign in one
// transaction: fn gets the order and the campaign, and its OrderChange says
// what is stored.
func (cs campaigns) updateOrder(ctx context.Context, guildID string, id int64, fn func(o *Order, fc *Campaign) (db.OrderChange, error)) (Order, Campaign, error) {
	var o Order
	var fc Campaign
	_, _, err := cs.s.UpdateOrder(ctx, guildID, id, func(orow *db.FactionOrder, crow *db.FactionCampaign) (db.OrderChange, error) {
		var err error
		if o, err = orderOf(*orow); err != nil {
			return db.OrderChange{}, err
		}
		if fc, err = campaignOf(*crow); err != nil {
			return db.OrderChange{}, err
		}
		ch, err := fn(&o, &fc)
		if err != nil {
			return db.OrderChange{}, err
		}
		if ch.SaveCampaign {
			if err := fc.encode(crow); err != nil {
				return db.OrderChange{}, err
			}
			fc.Version = crow.Version + 1
		}
		if !ch.Remove {
			if *orow, err = o.row(); err != nil {
				return db.OrderChange{}, err
			}
		}
		return ch, nil
	})
	if err != nil {
		return Order{}, Campaign{}, err
	}
	return o, fc, nil
}

// plan is what a round would start from: the campaign, its queued orders
// as the rules take them, and the stored queue.
func (cs campaigns) plan(ctx context.Context, guildID string) (Campaign, map[string][]rules.Order, []Order, error) {
	row, rows, err := cs.s.RoundPlan(ctx, guildID)
	if err != nil {
		return Campaign{}, nil, nil, err
	}
	fc, err := campaignOf(row)
	if err != nil {
		return Campaign{}, nil, nil, err
	}
	queued, err := ordersOf(rows)
	if err != nil {
		return Campaign{}, nil, nil, err
	}
	orders, _ := roundOrders(fc.Campaign, queued)
	return fc, orders, queued, nil
}

func (cs campaigns) history(ctx context.Context, guildID string, limit int) ([]Round, error) {
	rows, err := cs.s.RoundHistory(ctx, guildID, limit)
	if err != nil {
		return nil, err
	}
	return roundsOf(rows)
}

func (cs campaigns) playedRound(ctx context.Context, guildID string, round int) (Round, error) {
	row, err := cs.s.PlayedRound(ctx, guildID, round)
	if err != nil {
		return Round{}, err
	}
	return roundOf(row)
}

// LoadCampaign returns the guild's campaign as the game sees it, or an
// error wrapping db.ErrNotFound: for the page and for tests that look at
// what the commands stored.
func LoadCampaign(ctx context.Context, s Store, guildID string) (Campaign, error) {
	return campaigns{s}.campaign(ctx, guildID)
}
