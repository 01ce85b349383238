package tracker

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/db"
	"github.com/tablehand/tablehand/rules/encounter"
)

// mayEndTurn reports, as the user's mistake, a player ending a turn that
// is not theirs: only the GM and the player of the combatant whose turn it
// is may.
func mayEndTurn(req *kit.Request, e *encounter.Encounter) error {
	c := e.Current()
	if req.GM || c == nil || (c.Owner != "" && c.Owner == req.User.ID) {
		return nil
	}
	if c.Hidden {
		return kit.Errorf("it is not your turn: only the GM or the player whose turn it is can end it")
	}
	return kit.Errorf("it is %s's turn, not yours: only its player or the GM can end it", c.Name)
}

func (h *Tracker) initNext(ctx context.Context, req *kit.Request) (kit.Response, error) {
	enc, ev, moved, err := h.Change(ctx, req, func(e *db.Encounter, p encounter.Policy) (encounter.Event, error) {
		if err := mayEndTurn(req, e.State); err != nil {
			return encounter.Event{}, err
		}
		return e.State.Next(p, req.User.ID)
	})
	if err != nil {
		return kit.Response{}, err
	}
	return h.reply(req, enc, ev, true, moved), nil
}

// initClick answers the tracker's buttons: init:next (the GM) and
// init:endturn (the GM or the player whose turn it is), each naming the
// encounter and the turn it was shown for. The answer edits the tracker
// in place.
func (h *Tracker) initClick(ctx context.Context, req *kit.Request) (kit.Response, error) {
	parts := strings.Split(req.CustomID, ":")
	if len(parts) != 4 || (parts[1] != "next" && parts[1] != "endturn") {
		return kit.Response{}, kit.Errorf("this button no longer works: use /init list")
	}
	id, err1 := strconv.ParseInt(parts[2], 10, 64)
	r, c, _ := strings.Cut(parts[3], ".")
	round, err2 := strconv.Atoi(r)
	cid, err3 := strconv.Atoi(c)
	if err := errors.Join(err1, err2, err3); err != nil {
		return kit.Response{}, kit.Errorf("this button no longer works: use /init list")
	}
	enc, ev, moved, err := h.Change(ctx, req, func(e *db.Encounter, p encounter.Policy) (encounter.Event, error) {
		cur := e.State.Current()
		switch {
		case e.ID != id:
			return encounter.Event{}, kit.Errorf("this tracker is of a fight that is over: see /init list")
		case cur == nil || e.State.Round != round || cur.ID != cid:
			return encounter.Event{}, kit.Errorf("this tracker is out of date: the turn has moved on since, so nothing was done. See /init list")
		case parts[1] == "next" && !req.GM:
			return encounter.Event{}, kit.Errorf("only the GM moves the fight on with Next turn: use End turn on your own turn")
		}
		if err := mayEndTurn(req, e.State); err != nil {
			return encounter.Event{}, err
		}
		return e.State.Next(p, req.User.ID)
	})
	if errors.Is(err, db.ErrNotFound) {
		return kit.Response{}, kit.Errorf("this tracker is of a fight that is over: see /init list")
	}
	if err != nil {
		return kit.Response{}, err
	}
	resp := h.reply(req, enc, ev, true, moved)
	if !resp.Ephemeral {
		resp.Type = kit.UpdateMessage
	}
	return resp, nil
}

func (h *Tracker) initPrev(ctx context.Context, req *kit.Request) (kit.Response, error) {
	enc, ev, moved, err := h.Change(ctx, req, func(e *db.Encounter, p encounter.Policy) (encounter.Event, error) {
		return e.State.Prev(req.User.ID)
	})
	if err != nil {
		return kit.Response{}, err
	}
	return h.reply(req, enc, ev, true, moved), nil
}

func (h *Tracker) initSkip(ctx context.Context, req *kit.Request) (kit.Response, error) {
	enc, ev, moved, err := h.Change(ctx, req, func(e *db.Encounter, p encounter.Policy) (encounter.Event, error) {
		name := req.Options.String("name")
		if name == "" {
			c := e.State.Current()
			if c == nil {
				return encounter.Event{}, kit.Errorf("no one has the turn yet: name whose first turn to skip with name:<combatant>")
			}
			name = c.Name
		}
		return e.State.Skip(p, req.User.ID, name)
	})
	if err != nil {
		return kit.Response{}, err
	}
	return h.reply(req, enc, ev, true, moved), nil
}

func (h *Tracker) initMove(ctx context.Context, req *kit.Request) (kit.Response, error) {
	pos, _ := req.Options.Int("position")
	enc, ev, moved, err := h.Change(ctx, req, func(e *db.Encounter, p encounter.Policy) (encounter.Event, error) {
		return e.State.Move(req.User.ID, req.Options.String("name"), int(pos))
	})
	if err != nil {
		return kit.Response{}, err
	}
	return h.reply(req, enc, ev, true, moved), nil
}

func (h *Tracker) initDelay(ctx context.Context, req *kit.Request) (kit.Response, error) {
	after := req.Options.String("after")
	enc, ev, moved, err := h.Change(ctx, req, func(e *db.Encounter, p encounter.Policy) (encounter.Event, error) {
		c := e.State.Current()
		if c == nil {
			return encounter.Event{}, kit.Errorf("no one has the turn: the fight has not begun or is over")
		}
		if err := mayEndTurn(req, e.State); err != nil {
			return encounter.Event{}, err
		}
		if err := CheckVisible(req, e.State, after); err != nil {
			return encounter.Event{}, err
		}
		return e.State.Delay(p, req.User.ID, c.Name, after)
	})
	if err != nil {
		return kit.Response{}, err
	}
	return h.reply(req, enc, ev, true, moved), nil
}

func (h *Tracker) initEnd(ctx context.Context, req *kit.Request) (kit.Response, error) {
	enc, ev, _, err := h.Change(ctx, req, func(e *db.Encounter, p encounter.Policy) (encounter.Event, error) {
		return e.State.End(req.User.ID)
	})
	if err != nil {
		return kit.Response{}, err
	}
	return h.reply(req, enc, ev, false, false), nil
}
