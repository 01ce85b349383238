package bot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
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

// sseHeartbeat is how often an idle stream gets a comment line, so that
// proxies keep it open.
const sseHeartbeat = 25 * time.Second

// The caps on open streams (WebOptions): past them a new stream is
// refused with a text saying why, and the page still works without it (a
// reload shows the fight as it is).
const (
	// DefaultStreamsPerLink is how many streams one link (one token) may
	// hold open: a table's players and a few spectators, each with a tab
	// or two.
	DefaultStreamsPerLink = 100
	// DefaultStreams is how many streams may be open in all: about 26
	// MB of memory (13 KB each, BenchmarkFightEventStreams1000).
	DefaultStreams = 2000
)

// errStreams are the refusals of a stream past a cap.
var (
	errLinkStreams = errors.New("too many streams on one link")
	errAllStreams  = errors.New("too many streams in all")
)

// liveHub watches the live pages that are open.
type liveHub struct {
	poll           time.Duration
	log            *slog.Logger
	store          WebStore
	perLink, total int

	mu      sync.Mutex
	watches map[liveKey]*liveWatch
	// open counts the streams open in all, links those of each token.
	open  int
	links map[string]int
}

// liveKey is one watched page: its guild and scope (a fight's names its
// channel and the fight), whichever audience reads it.
type liveKey struct{ guild, scope string }

// liveWatch is one watched page and the streams open on it.
type liveWatch struct {
	subs map[*liveSub]struct{}
	stop context.CancelFunc
}

// liveSub is one open stream: told of each change of its page (at most
// one pending), and, by gone closing, of its link's revocation.
type liveSub struct {
	token   string
	changes chan struct{}
	gone    chan struct{}
	revoked bool
}

func newLiveHub(o WebOptions, store WebStore, log *slog.Logger) *liveHub {
	return &liveHub{poll: o.Poll, log: log, store: store, perLink: o.MaxStreamsPerLink, total: o.MaxStreams,
		watches: map[liveKey]*liveWatch{}, links: map[string]int{}}
}

// subscribe opens a stream on the page p of page, opened by token, and
// returns it with the func that closes it; past a cap it is
// errLinkStreams or errAllStreams.
//
// seq is the page's Seq as read just before: a new watch of the page
// starts from it, so that a change made while the watch's goroutine is
// not yet running is still told.
func (h *liveHub) subscribe(page kit.LivePage, p db.Page, token string, seq int64) (*liveSub, func(), error) {
	sub := &liveSub{token: token, changes: make(chan struct{}, 1), gone: make(chan struct{})}
	key := liveKey{guild: p.GuildID, scope: p.Scope}
	h.mu.Lock()
	defer h.mu.Unlock()
	switch {
	case h.links[token] >= h.perLink:
		return nil, nil, errLinkStreams
	case h.open >= h.total:
		return nil, nil, errAllStreams
	}
	h.open++
	h.links[token]++
	lw := h.watches[key]
	if lw == nil {
		ctx, stop := context.WithCancel(context.Background())
		lw = &liveWatch{subs: map[*liveSub]struct{}{}, stop: stop}
		h.watches[key] = lw
		go h.watch(ctx, page, p, lw, seq)
	}
	lw.subs[sub] = struct{}{}
	return sub, func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		h.open--
		if h.links[token]--; h.links[token] == 0 {
			delete(h.links, token)
		}
		delete(lw.subs, sub)
		if len(lw.subs) == 0 {
			lw.stop()
			delete(h.watches, key)
		}
	}, nil
}

// watch looks at the page every poll until stopped, and tells the
// subscribers when its Seq moved (or its subject went), and those whose
// link was revoked that it was.
func (h *liveHub) watch(ctx context.Context, page kit.LivePage, p db.Page, lw *liveWatch, last int64) {
	t := time.NewTicker(h.poll)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		h.revoke(ctx, lw)
		seq, err := liveSeq(ctx, page, p)
		if err != nil || seq == last {
			continue
		}
		last = seq
		h.mu.Lock()
		for sub := range lw.subs {
			select {
			case sub.changes <- struct{}{}:
			default: // one change is pending already
			}
		}
		h.mu.Unlock()
	}
}

// revoke looks up the links the streams of lw were opened with, and
// closes gone for those of a link that opens nothing any more.
func (h *liveHub) revoke(ctx context.Context, lw *liveWatch) {
	h.mu.Lock()
	tokens := map[string]bool{}
	for sub := range lw.subs {
		if !sub.revoked {
			tokens[sub.token] = false
		}
	}
	h.mu.Unlock()
	for tok := range tokens {
		_, err := h.store.PageByToken(ctx, tok)
		tokens[tok] = errors.Is(err, db.ErrNotFound)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	for sub := range lw.subs {
		if tokens[sub.token] && !sub.revoked {
			sub.revoked = true
			close(sub.gone)
		}
	}
}

// unknownSeq stands for a Seq that could not be read: no page has it.
const unknownSeq = math.MinInt64

// liveSeq is the Seq of the page p of page, -1 once its subject has gone
// or is over (the page shows that): a change like any other.
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
	// The server's timeouts are for answers, not for a stream: the
	// endpoint's read timeout (tablehand http) would end it as well.
	for _, set := range []func(time.Time) error{rc.SetWriteDeadline, rc.SetReadDeadline} {
		if err := set(time.Time{}); err != nil && !errors.Is(err, http.ErrNotSupported) {
			w.log.Warn("fight page: stream deadline", "err", err)
		}
	}
	token := r.PathValue("token")
	seq, err := liveSeq(r.Context(), live, p)
	if err != nil {
		// The watch's first look then tells a change.
		w.log.Warn("live page: watch", "scope", p.Scope, "err", err)
		seq = unknownSeq
	}
	sub, done, err := w.live.subscribe(live, p, token, seq)
	if err != nil {
		w.tooMany(rw, err)
		return
	}
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
	// nginx buffers what it proxies unless told not to: the stream
	// would deliver nothing.
	h.Set("X-Accel-Buffering", "no")
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
		case <-sub.changes:
			fmt.Fprint(rw, "event: change\ndata: \n\n")
		case <-sub.gone:
			// The link was revoked (the watch looks every poll): the page
			// says so, and the stream ends; the page, fetched again, is
			// the 404, and so is the stream.
			fmt.Fprint(rw, "event: gone\ndata: \n\n")
			rc.Flush()
			return
		case <-beat.C:
			fmt.Fprint(rw, ": still here\n\n")
		}
		if err := rc.Flush(); err != nil {
			return
		}
	}
}

// tooMany refuses a stream past a cap (errLinkStreams: 429, errAllStreams:
// 503), saying why; the page works without it.
func (w *Web) tooMany(rw http.ResponseWriter, err error) {
	status, msg := http.StatusTooManyRequests,
		fmt.Sprintf("This link has %d pages following it, as many as Tablehand allows: close one. The page still works: reload it to see what changed.", w.live.perLink)
	if errors.Is(err, errAllStreams) {
		status, msg = http.StatusServiceUnavailable,
			fmt.Sprintf("Tablehand is following %d open pages, as many as it allows: try again later. The page still works: reload it to see what changed.", w.live.total)
	}
	rw.Header().Set("Content-Type", "text/plain; charset=utf-8")
	rw.Header().Set("Cache-Control", "no-store")
	rw.Header().Set("Retry-After", "60")
	rw.WriteHeader(status)
	fmt.Fprintln(rw, msg)
}
