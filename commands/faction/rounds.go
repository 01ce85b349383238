package faction

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/db"
	"github.com/tablehand/tablehand/rules/dice"
	rules "github.com/tablehand/tablehand/rules/faction"
)

// The rounds service: the one place that plays whole rounds of a
// campaign and says what to post. /faction round, the Approve button of
// a firing and the scheduler's firings all come here: the store plays
// them in one transaction (db.PlayCampaign) around the rules
// (rules.ResolveRound), and RoundMessages makes the report.

// Play is one request to play rounds.
type Play struct {
	// Rounds to play, 1 to rules.MaxRounds.
	Rounds int
	Roller dice.Roller
	// DiceGiven: Roller gives dice typed in (dice:); the report of each
	// faction that rolled says so.
	DiceGiven bool
	// Store is what the store records beside the rounds: who played them
	// and, for a schedule's firing, the firing.
	Store db.PlayOptions
	// Header opens the first message; Paged runs the reports over as
	// many messages as they need (a schedule posts them all), else they
	// fit one message and those that do not are summarised.
	Header string
	Paged  bool
	// Outbox, when not "", writes the messages to the store's outbox, to
	// this channel, in the transaction that plays the rounds.
	Outbox string
	// GMChannel, when not "" with Outbox, is where the outbox also takes
	// the GMs the secret Questions of held orders (secretQuestions).
	GMChannel string
}

// Played is what Play did: the rounds, and the messages to post.
type Played struct {
	Result   PlayResult
	Messages []kit.Response
}

// play plays p.Rounds whole rounds of the guild's campaign in one
// transaction and builds their report.
//
// The queued orders are the first round's; later rounds play every
// faction's standing policy (an order held by a Question is not tried
// again before it is answered).
func (cs campaigns) play(ctx context.Context, guildID string, p Play) (Played, error) {
	res, err := cs.playRounds(ctx, guildID, p)
	if err != nil {
		return Played{}, err
	}
	if p.Outbox != "" {
		return Played{Result: res}, nil // the messages are in the outbox
	}
	hist, err := cs.history(ctx, guildID, chartRounds)
	if err != nil {
		return Played{}, err
	}
	msgs, err := RoundMessages(res, hist, p.Header, p.Paged)
	if err != nil {
		return Played{}, err
	}
	return Played{Result: res, Messages: msgs}, nil
}

// playRounds is play without the report: the rounds, played and stored.
func (cs campaigns) playRounds(ctx context.Context, guildID string, p Play) (PlayResult, error) {
	if p.Rounds < 1 || p.Rounds > rules.MaxRounds {
		return PlayResult{}, fmt.Errorf("play rounds: %d rounds: play 1 to %d", p.Rounds, rules.MaxRounds)
	}
	var res PlayResult
	if p.Outbox != "" {
		p.Store.Outbox = func(stored db.PlayResult, rows []db.FactionRound) ([]db.OutboxMessage, error) {
			r := res
			r.Rounds = slices.Clone(res.Rounds)
			if err := r.stored(stored); err != nil {
				return nil, err
			}
			hist, err := roundsOf(rows)
			if err != nil {
				return nil, err
			}
			msgs, err := RoundMessages(r, hist, p.Header, p.Paged)
			if err != nil {
				return nil, err
			}
			out := make([]db.OutboxMessage, len(msgs))
			for i, m := range msgs {
				if out[i].Body, err = kit.EncodePost(m); err != nil {
					return nil, err
				}
				out[i].ChannelID = p.Outbox
			}
			if m, ok := secretQuestions(r.Held); ok && p.GMChannel != "" {
				body, err := kit.EncodePost(m)
				if err != nil {
					return nil, err
				}
				out = append(out, db.OutboxMessage{ChannelID: p.GMChannel, Body: body})
			}
			return out, nil
		}
	}
	stored, err := cs.s.PlayCampaign(ctx, guildID, p.Store, func(row *db.FactionCampaign, queued []db.FactionOrder) (db.Played, error) {
		return resolveRounds(row, queued, p, &res)
	})
	if err != nil {
		return PlayResult{}, err
	}
	if err := res.stored(stored); err != nil {
		return PlayResult{}, err
	}
	return res, nil
}

// stored fills in what the store recorded of the rounds res played.
func (res *PlayResult) stored(stored db.PlayResult) error {
	res.Campaign.Version, res.Campaign.UpdatedAt = stored.Campaign.Version, stored.Campaign.UpdatedAt
	for i, r := range stored.Rounds {
		res.Rounds[i].ScheduleID, res.Rounds[i].ScheduledAt = r.ScheduleID, r.ScheduledAt
		res.Rounds[i].PlayedBy, res.Rounds[i].CreatedAt = r.PlayedBy, r.CreatedAt
	}
	var err error
	res.Held, err = ordersOf(stored.Held)
	return err
}

// resolveRounds runs the rules on the campaign the store loaded: each
// round by rules.ResolveRound, the first with the queued orders. It
// leaves the new state in row and the rounds in res, and tells the store
// which orders stay held, with their question.
func resolveRounds(row *db.FactionCampaign, queuedRows []db.FactionOrder, p Play, res *PlayResult) (db.Played, error) {
	fc, err := campaignOf(*row)
	if err != nil {
		return db.Played{}, err
	}
	queued, err := ordersOf(queuedRows)
	if err != nil {
		return db.Played{}, err
	}
	orders, byIndex := roundOrders(fc.Campaign, queued)
	held := map[int64]rules.Question{}
	var out db.Played
	for i := range p.Rounds {
		if i > 0 {
			orders = nil
		}
		rep, err := rules.ResolveRound(fc.Campaign, orders, p.Roller)
		if err != nil {
			return db.Played{}, err
		}
		if i == 0 {
			holdQuestions(rep, byIndex, held)
		}
		for j, fr := range rep.Factions {
			rep.Factions[j].DiceGiven = p.DiceGiven && len(fr.Tests()) > 0
		}
		r := Round{Round: rep.Round, Report: rep, Sheets: Sheets(fc.Campaign)}
		stored, err := r.row()
		if err != nil {
			return db.Played{}, err
		}
		res.Rounds = append(res.Rounds, r)
		out.Rounds = append(out.Rounds, stored)
	}
	if out.Held, err = heldQuestions(held); err != nil {
		return db.Played{}, err
	}
	if err := fc.encode(row); err != nil {
		return db.Played{}, err
	}
	res.Campaign = fc
	return out, nil
}

// holdQuestions finds the stored order each of the round's Questions
// asks about: that order stays queued, waiting on its first Question.
func holdQuestions(rep rules.RoundReport, byIndex map[string]map[int]Order, held map[int64]rules.Question) {
	for _, q := range rep.Questions {
		if o, ok := byIndex[strings.ToLower(q.Faction)][q.Index]; ok {
			if _, dup := held[o.ID]; !dup {
				held[o.ID] = q.Held
			}
		}
	}
}

func heldQuestions(held map[int64]rules.Question) (map[int64][]byte, error) {
	out := make(map[int64][]byte, len(held))
	for id, q := range held {
		b, err := json.Marshal(q)
		if err != nil {
			return nil, fmt.Errorf("encode question: %w", err)
		}
		out[id] = b
	}
	return out, nil
}

// row is the round as the store keeps it.
func (r Round) row() (db.FactionRound, error) {
	rep, err := json.Marshal(r.Report)
	if err != nil {
		return db.FactionRound{}, fmt.Errorf("encode report: %w", err)
	}
	sheets, err := json.Marshal(r.Sheets)
	if err != nil {
		return db.FactionRound{}, fmt.Errorf("encode sheets: %w", err)
	}
	return db.FactionRound{Round: r.Round, Report: rep, Sheets: sheets}, nil
}

// roundOrders turns the stored queue into ResolveRound's orders, by
// faction in queue order, and remembers which stored order each index is.
// Orders of factions the campaign no longer has are left out.
func roundOrders(c *rules.Campaign, queued []Order) (map[string][]rules.Order, map[string]map[int]Order) {
	orders := map[string][]rules.Order{}
	byIndex := map[string]map[int]Order{}
	sorted := slices.Clone(queued)
	slices.SortStableFunc(sorted, func(a, b Order) int { return a.Seq - b.Seq })
	for _, o := range sorted {
		f := c.Faction(o.Faction)
		if f == nil {
			continue
		}
		k := strings.ToLower(f.Name)
		if byIndex[k] == nil {
			byIndex[k] = map[int]Order{}
		}
		byIndex[k][len(orders[f.Name])] = o
		orders[f.Name] = append(orders[f.Name], o.Order)
	}
	return orders, byIndex
}

// PlayRounds plays n rounds of the guild's campaign now, as /faction
// round does, by actorID: for tests and benchmarks that need a history.
func PlayRounds(ctx context.Context, s Store, guildID string, n int, roller dice.Roller, actorID string) (PlayResult, error) {
	return campaigns{s}.playRounds(ctx, guildID, Play{Rounds: n, Roller: roller, Store: db.PlayOptions{ActorID: actorID}})
}
