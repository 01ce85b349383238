package tracker

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/db"
	"github.com/tablehand/tablehand/rules/encounter"
)

// The turns: /init next, prev, skip, move, delay and end, and the
// tracker's buttons. Each answers with the tracker.

// mayEndTurn reports, as the user's mistake, a player ending a turn that
// is not theirs: only the GM and the player of the combatant whose turn it
// is may.
func mayEndTurn(req *kit.Request, e *encounter.Encounter) error {
	c := e.Current()
	if req.GM || c == nil || Controls(req, c) {
		return nil
	}
	if c.Hidden {
		return kit.Errorf("it is not your turn: only the GM or the player whose turn it is can end it")
	}
	return kit.Errorf("it is %s's turn, not yours: only its player or the GM can end it", c.Name)
}

// endTurn ends the current turn and starts the next, for the GM or the
// turn's player.
func endTurn(req *kit.Request, e *encounter.Encounter, p encounter.Policy) (encounter.Event, error) {
	if err := mayEndTurn(req, e); err != nil {
		return encounter.Event{}, err
	}
	return e.Next(p, req.User.ID)
}

// initNext ends the current turn, for the GM or the turn's player, but
// never a turn the asker may not have seen start (two /init next a moment
// apart must not skip a turn): with turn:, only the turn of the combatant
// named; without it, a turn someone else started less than
// encounter.DefaultNextWindow milliseconds ago is not ended, and the
// asker is asked instead (askNext), with a button that ends that turn.
// A request whose user had read every answer before it (the console's
// lines: kit.Request.SeenAll) has seen the turn.
func (h *Tracker) initNext(ctx context.Context, req *kit.Request) (kit.Response, error) {
	named := strings.TrimSpace(req.Options.String("turn"))
	var ask *unseenTurn
	enc, ev, moved, err := h.Change(ctx, req, func(e *db.Encounter, p encounter.Policy) (encounter.Event, error) {
		ask = nil
		if err := mayEndTurn(req, e.State); err != nil {
			return encounter.Event{}, err
		}
		if c := e.State.Current(); c != nil {
			now := h.Clock().UnixMilli()
			switch {
			case named != "" && !strings.EqualFold(strings.TrimSpace(c.Name), named):
				return encounter.Event{}, kit.Errorf("it is %s's turn now, not %s's: the turn has moved on, so nothing was done (to end %s's turn: /init next turn:%s)",
					c.Name, named, c.Name, kit.OptionValue(c.Name))
			case named == "" && !req.SeenAll && e.State.Unseen(req.User.ID, now, encounter.DefaultNextWindow):
				ask = &unseenTurn{name: c.Name, ago: time.Duration(now-e.State.Moved.At) * time.Millisecond,
					turn: buttonTurn(*e), view: h.InitResult(e.State.Clone(), req.GM)}
				return encounter.Event{}, errAsked
			}
		}
		return endTurn(req, e.State, p)
	})
	if ask != nil && errors.Is(err, errAsked) {
		return askNext(req, ask), nil
	}
	if err != nil {
		return kit.Response{}, err
	}
	return h.reply(req, enc, ev, true, moved), nil
}

// errAsked ends initNext's transaction without a change when it asks
// instead (askNext).
var errAsked = errors.New("the turn moved a moment ago: asked first")

// unseenTurn is a turn someone else started a moment before /init next:
// whose it is, how long ago it started, and the tracker's buttons for it.
type unseenTurn struct {
	name string
	ago  time.Duration
	// turn is the turn as buttons name it ("12:3.4", see parseButton);
	// "" for none. view is the fight as the asker may see it.
	turn string
	view InitResult
}

// askNext is the private answer to an /init next that would have ended a
// turn the asker may not have seen start: whose turn it is now, and a
// button that ends it (askedKind), which a later move of the turn makes
// refuse, as the tracker's buttons do.
func askNext(req *kit.Request, u *unseenTurn) kit.Response {
	ago := "a moment ago"
	if secs := int(u.ago.Round(time.Second) / time.Second); secs >= 1 {
		ago = kit.Plural(secs, "second") + " ago"
	}
	text := fmt.Sprintf("The turn moved %s, by someone else: it is now **%s**'s turn, so your /init next did nothing. End %s's turn too? Click below, or type /init next turn:%s",
		ago, kit.EscapeMarkdown(u.name), kit.EscapeMarkdown(u.name), kit.OptionValue(u.name))
	resp := kit.Response{Content: text, Ephemeral: true, Result: u.view}
	if u.turn != "" {
		resp.Rows = []kit.Row{{{Label: "End " + u.name + "'s turn", Style: kit.Primary, CustomID: "init:" + askedKind + ":" + u.turn}}}
	}
	return resp
}

// askedKind is the kind of an ask's button (askNext): it ends the turn it
// names for the GM or the turn's player, as End turn does, and answers in
// the channel as /init next does.
const askedKind = "nextasked"

// initClick answers the tracker's buttons: init:next (the GM) and
// init:endturn (the GM or the player whose turn it is), each naming the
// encounter and the turn it was shown for. The answer edits the tracker
// in place.
func (h *Tracker) initClick(ctx context.Context, req *kit.Request) (kit.Response, error) {
	b, err := parseButton(req.CustomID)
	if err != nil {
		return kit.Response{}, err
	}
	enc, ev, moved, err := h.Change(ctx, req, func(e *db.Encounter, p encounter.Policy) (encounter.Event, error) {
		if err := b.check(req, e); err != nil {
			return encounter.Event{}, err
		}
		return endTurn(req, e.State, p)
	})
	if errors.Is(err, db.ErrNotFound) {
		return kit.Response{}, fightOver()
	}
	if err != nil {
		return kit.Response{}, err
	}
	if b.kind == askedKind {
		// The button of a private ask (askNext): the answer is the
		// channel's news, as a typed /init next's, and the tracker
		// message is edited, not the ask.
		typed := *req
		typed.Kind = kit.KindCommand
		return h.reply(&typed, enc, ev, true, moved), nil
	}
	resp := h.reply(req, enc, ev, true, moved)
	if !resp.Ephemeral {
		resp.Type = kit.UpdateMessage
	}
	return resp, nil
}

// button is a click on a tracker's button (see trackerButtons): next or
// endturn, or on the button of an ask (askedKind), and the turn the
// tracker or the ask showed.
type button struct {
	kind             string
	encounter        int64
	round, combatant int
}

// parseButton reads a button's custom ID, "init:next:12:3.4": encounter
// 12, round 3, the turn of combatant 4.
func parseButton(customID string) (button, error) {
	parts := strings.Split(customID, ":")
	if len(parts) == 4 && (parts[1] == "next" || parts[1] == "endturn" || parts[1] == askedKind) {
		id, err1 := strconv.ParseInt(parts[2], 10, 64)
		r, c, _ := strings.Cut(parts[3], ".")
		round, err2 := strconv.Atoi(r)
		cid, err3 := strconv.Atoi(c)
		if errors.Join(err1, err2, err3) == nil {
			return button{kind: parts[1], encounter: id, round: round, combatant: cid}, nil
		}
	}
	return button{}, kit.Errorf("this button no longer works: use /init list")
}

// check refuses a click on a tracker the fight has moved on from, so
// that it never ends another turn than the one shown, and Next turn from
// a player.
func (b button) check(req *kit.Request, e *db.Encounter) error {
	round, n := shownTurn(e.State)
	switch {
	case e.ID != b.encounter:
		return fightOver()
	case n == 0 || round != b.round || n != b.combatant:
		return kit.Errorf("this tracker is out of date: the turn has moved on since, so nothing was done. See /init list")
	case b.kind == "next" && !req.GM:
		return kit.Errorf("only the GM moves the fight on with Next turn: use End turn on your own turn")
	}
	return nil
}

// fightOver refuses a click on the tracker of a fight that has ended.
func fightOver() error {
	return kit.Errorf("this tracker is of a fight that is over: see /init list")
}

func (h *Tracker) initPrev(ctx context.Context, req *kit.Request) (kit.Response, error) {
	return h.turn(ctx, req, func(e *encounter.Encounter, p encounter.Policy) (encounter.Event, error) {
		return e.Prev(req.User.ID)
	})
}

// initSkip skips the next turn of the combatant named, or the rest of the
// current one.
func (h *Tracker) initSkip(ctx context.Context, req *kit.Request) (kit.Response, error) {
	name := req.Options.String("name")
	return h.turn(ctx, req, func(e *encounter.Encounter, p encounter.Policy) (encounter.Event, error) {
		who := name
		if who == "" {
			c := e.Current()
			if c == nil {
				return encounter.Event{}, kit.Errorf("no one has the turn yet: name whose first turn to skip with name:<combatant>")
			}
			who = c.Name
		}
		return e.Skip(p, req.User.ID, who)
	})
}

func (h *Tracker) initMove(ctx context.Context, req *kit.Request) (kit.Response, error) {
	name := req.Options.String("name")
	pos, _ := req.Options.Int("position")
	return h.turn(ctx, req, func(e *encounter.Encounter, p encounter.Policy) (encounter.Event, error) {
		return e.Move(req.User.ID, name, int(pos))
	})
}

// initDelay puts off the current turn until after the combatant named
// (who the asker must be able to see), or to the end of the round.
func (h *Tracker) initDelay(ctx context.Context, req *kit.Request) (kit.Response, error) {
	after := req.Options.String("after")
	return h.turn(ctx, req, func(e *encounter.Encounter, p encounter.Policy) (encounter.Event, error) {
		c := e.Current()
		if c == nil {
			return encounter.Event{}, kit.Errorf("no one has the turn: the fight has not begun or is over")
		}
		if err := mayEndTurn(req, e); err != nil {
			return encounter.Event{}, err
		}
		if err := CheckVisible(req, e, after); err != nil {
			return encounter.Event{}, err
		}
		return e.Delay(p, req.User.ID, c.Name, after)
	})
}

// initEnd ends the fight; its summary comes without the tracker.
func (h *Tracker) initEnd(ctx context.Context, req *kit.Request) (kit.Response, error) {
	return h.edit(ctx, req, func(e *encounter.Encounter, p encounter.Policy) (encounter.Event, error) {
		return e.End(p, req.User.ID)
	})
}
