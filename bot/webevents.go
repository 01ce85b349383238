package bot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/commands/tracker"
	"github.com/tablehand/tablehand/db"
)

// A fight page open in a browser follows the fight: it holds a
// Server-Sent Events stream (GET /p/<token>/events) that says "change"
// whenever the fight's journal moves, and page.js then fetches the page
// again. The store is the source of the changes, so a change made by any
// process on the database reaches every page: one goroutine per watched
// fight looks at its journal's newest entry every poll, for all the
// pages open on it, and stops when the last one closes.

// sseHeartbeat is how often an idle stream gets a comment line, so that
// proxies keep it open.
const sseHeartbeat = 25 * time.Second

// fightHub watches the fights that pages are open on.
type fightHub struct {
	store kit.EncounterStore
	poll  time.Duration
	log   *slog.Logger

	mu      sync.Mutex
	watches map[string]*fightWatch // by channel
}

// fightWatch is one watched fight and the streams open on it.
type fightWatch struct {
	subs map[chan struct{}]struct{}
	stop context.CancelFunc
}

func newFightHub(store kit.EncounterStore, poll time.Duration, log *slog.Logger) *fightHub {
	return &fightHub{store: store, poll: poll, log: log, watches: map[string]*fightWatch{}}
}

// subscribe returns a channel told of each change of the fight in
// channel (at most one pending), and the func that ends the subscription.
func (h *fightHub) subscribe(channel string) (<-chan struct{}, func()) {
	ch := make(chan struct{}, 1)
	h.mu.Lock()
	defer h.mu.Unlock()
	fw := h.watches[channel]
	if fw == nil {
		ctx, stop := context.WithCancel(context.Background())
		fw = &fightWatch{subs: map[chan struct{}]struct{}{}, stop: stop}
		h.watches[channel] = fw
		go h.watch(ctx, channel, fw)
	}
	fw.subs[ch] = struct{}{}
	return ch, func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		delete(fw.subs, ch)
		if len(fw.subs) == 0 {
			fw.stop()
			delete(h.watches, channel)
		}
	}
}

// watch looks at the fight every poll until stopped, and tells the
// subscribers when its journal moved (or the fight ended).
func (h *fightHub) watch(ctx context.Context, channel string, fw *fightWatch) {
	last, err := tracker.FightSeq(ctx, h.store, channel)
	if err != nil && !errors.Is(err, db.ErrNotFound) {
		h.log.Warn("fight page: watch", "channel", channel, "err", err)
	}
	t := time.NewTicker(h.poll)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		seq, err := fightSeq(ctx, h.store, channel)
		if err != nil || seq == last {
			continue
		}
		last = seq
		h.mu.Lock()
		for ch := range fw.subs {
			select {
			case ch <- struct{}{}:
			default: // one change is pending already
			}
		}
		h.mu.Unlock()
	}
}

// fightSeq is tracker.FightSeq of the fight in channel, -1 once the fight
// has ended (the page shows that): a change like any other.
func fightSeq(ctx context.Context, store kit.EncounterStore, channel string) (int64, error) {
	seq, err := tracker.FightSeq(ctx, store, channel)
	if errors.Is(err, db.ErrNotFound) {
		return -1, nil
	}
	return seq, err
}

// events is the stream of a fight page's changes.
func (w *Web) events(rw http.ResponseWriter, r *http.Request) {
	p, err := w.store.PageByToken(r.Context(), r.PathValue("token"))
	channel, isFight := db.FightChannel(p.Scope)
	if errors.Is(err, db.ErrNotFound) || err == nil && !isFight {
		w.notFound(rw)
		return
	}
	if err != nil {
		w.unavailable(rw, err)
		return
	}
	rc := http.NewResponseController(rw)
	// The server's write timeout is for answers, not for a stream.
	if err := rc.SetWriteDeadline(time.Time{}); err != nil && !errors.Is(err, http.ErrNotSupported) {
		w.log.Warn("fight page: stream deadline", "err", err)
	}
	changes, done := w.fights.subscribe(channel)
	defer done()
	// A change between the page's load and this subscription: the page
	// says which entry of the journal it shows (since).
	missed := false
	if since := r.URL.Query().Get("since"); since != "" {
		seq, err := fightSeq(r.Context(), w.store, channel)
		missed = err == nil && strconv.FormatInt(seq, 10) != since
	}
	h := rw.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	rw.WriteHeader(http.StatusOK)
	fmt.Fprint(rw, "retry: 2000\n\n")
	if missed {
		fmt.Fprint(rw, "event: change\ndata: \n\n")
	}
	if err := rc.Flush(); err != nil {
		return
	}
	beat := time.NewTicker(sseHeartbeat)
	defer beat.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-w.closing:
			return
		case <-changes:
			fmt.Fprint(rw, "event: change\ndata: \n\n")
		case <-beat.C:
			fmt.Fprint(rw, ": still here\n\n")
		}
		if err := rc.Flush(); err != nil {
			return
		}
	}
}
