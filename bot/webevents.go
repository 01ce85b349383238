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
	"github.com/tablehand/tablehand/db"
)

// A live page open in a browser (kit.LivePage: a fight's) follows what
// it shows: it holds a Server-Sent Events stream (GET /p/<token>/events)
// that says "change" whenever the page's Seq moves, and page.js then
// fetches the page again. The store is the source of the changes, so a
// change made by any process on the database reaches every page: one
// goroutine per watched page looks at its Seq every poll, for all the
// readers who have it open, and stops when the last one closes.

// pageRecheck is how often an open stream asks whether its token still
// opens its page: a revoked link's readers are told ("gone") within it,
// and their page says so.
const pageRecheck = time.Second

// sseHeartbeat is how often an idle stream gets a comment line, so that
// proxies keep it open.
const sseHeartbeat = 25 * time.Second

// liveHub watches the live pages that are open.
type liveHub struct {
	poll time.Duration
	log  *slog.Logger

	mu      sync.Mutex
	watches map[liveKey]*liveWatch
}

// liveKey is one watched page: its guild and scope (a fight's names its
// channel), whichever audience reads it.
type liveKey struct{ guild, scope string }

// liveWatch is one watched page and the streams open on it.
type liveWatch struct {
	subs map[chan struct{}]struct{}
	stop context.CancelFunc
}

func newLiveHub(poll time.Duration, log *slog.Logger) *liveHub {
	return &liveHub{poll: poll, log: log, watches: map[liveKey]*liveWatch{}}
}

// subscribe returns a channel told of each change of the page p of page
// (at most one pending), and the func that ends the subscription.
func (h *liveHub) subscribe(page kit.LivePage, p db.Page) (<-chan struct{}, func()) {
	ch := make(chan struct{}, 1)
	key := liveKey{guild: p.GuildID, scope: p.Scope}
	h.mu.Lock()
	defer h.mu.Unlock()
	lw := h.watches[key]
	if lw == nil {
		ctx, stop := context.WithCancel(context.Background())
		lw = &liveWatch{subs: map[chan struct{}]struct{}{}, stop: stop}
		h.watches[key] = lw
		go h.watch(ctx, page, p, lw)
	}
	lw.subs[ch] = struct{}{}
	return ch, func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		delete(lw.subs, ch)
		if len(lw.subs) == 0 {
			lw.stop()
			delete(h.watches, key)
		}
	}
}

// watch looks at the page every poll until stopped, and tells the
// subscribers when its Seq moved (or its subject went).
func (h *liveHub) watch(ctx context.Context, page kit.LivePage, p db.Page, lw *liveWatch) {
	last, err := page.Seq(ctx, p)
	if err != nil && !errors.Is(err, db.ErrNotFound) {
		h.log.Warn("live page: watch", "scope", p.Scope, "err", err)
	}
	t := time.NewTicker(h.poll)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		seq, err := liveSeq(ctx, page, p)
		if err != nil || seq == last {
			continue
		}
		last = seq
		h.mu.Lock()
		for ch := range lw.subs {
			select {
			case ch <- struct{}{}:
			default: // one change is pending already
			}
		}
		h.mu.Unlock()
	}
}

// liveSeq is the Seq of the page p of page, -1 once its subject has gone
// (the page shows that): a change like any other.
func liveSeq(ctx context.Context, page kit.LivePage, p db.Page) (int64, error) {
	seq, err := page.Seq(ctx, p)
	if errors.Is(err, db.ErrNotFound) {
		return -1, nil
	}
	return seq, err
}

// events is the stream of a live page's changes.
func (w *Web) events(rw http.ResponseWriter, r *http.Request) {
	p, page, err := w.open(r.Context(), r.PathValue("token"))
	live, isLive := page.(kit.LivePage)
	if err == nil && !isLive {
		err = fmt.Errorf("events of scope %q: %w", p.Scope, db.ErrNotFound)
	}
	if err != nil {
		w.answer(rw, err)
		return
	}
	rc := http.NewResponseController(rw)
	// The server's write timeout is for answers, not for a stream.
	if err := rc.SetWriteDeadline(time.Time{}); err != nil && !errors.Is(err, http.ErrNotSupported) {
		w.log.Warn("fight page: stream deadline", "err", err)
	}
	changes, done := w.live.subscribe(live, p)
	defer done()
	// A change between the page's load and this subscription: the page
	// says which entry of the journal it shows (since).
	missed := false
	if since := r.URL.Query().Get("since"); since != "" {
		seq, err := liveSeq(r.Context(), live, p)
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
	recheck := time.NewTicker(pageRecheck)
	defer recheck.Stop()
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
		case <-recheck.C:
			// The link revoked: the page says so, and the stream ends.
			if _, err := w.store.PageByToken(r.Context(), r.PathValue("token")); errors.Is(err, db.ErrNotFound) {
				fmt.Fprint(rw, "event: gone\ndata: \n\n")
				rc.Flush()
				return
			}
			continue
		}
		if err := rc.Flush(); err != nil {
			return
		}
	}
}
