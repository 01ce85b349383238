package bot

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/db"
)

// The read-only web pages the slices add to the router (kit.Page: a
// faction campaign's, a running fight's), each for its players and for
// its GM, at kit.PagePath + token (the links /faction page and /init page
// give). bot looks up the token and serves the page whose scope it is,
// the files every page links (kit.PageAssets) and the event streams of
// the pages that follow what they show (webevents.go). Everything is in
// the binary: no inline script, no external asset, and a
// Content-Security-Policy that allows nothing else. A token opens a page
// or nothing: an unknown token and a revoked one get the same 404, and no
// token is ever logged.

// contentSecurityPolicy lets a page load only what Tablehand serves, and
// nothing frame it.
const contentSecurityPolicy = "default-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// WebStore is where the pages' tokens are kept.
type WebStore interface {
	PageByToken(ctx context.Context, token string) (db.Page, error)
}

// Web serves the pages.
type Web struct {
	store WebStore
	pages []kit.Page
	log   *slog.Logger
	mux   *http.ServeMux
	live  *liveHub
	// closing ends the event streams: a server's Shutdown waits for
	// every request, and a stream would never end by itself.
	closing   chan struct{}
	closeOnce sync.Once
}

// Shutdown ends the open event streams (http.Server.RegisterOnShutdown).
func (w *Web) Shutdown() { w.closeOnce.Do(func() { close(w.closing) }) }

// onShutdown registers web's Shutdown, if it has one, with srv.
func onShutdown(srv *http.Server, web http.Handler) {
	if s, ok := web.(interface{ Shutdown() }); ok {
		srv.RegisterOnShutdown(s.Shutdown)
	}
}

// WebOptions say how often an open live page's subject (a fight) is
// looked at for changes, and how many event streams may be open.
type WebOptions struct {
	// Poll is how often the store is asked whether a watched page
	// changed (0: DefaultFightPoll). One look per page serves every
	// reader who has it open.
	Poll time.Duration
	// MaxStreamsPerLink caps the event streams open on one link (0:
	// DefaultStreamsPerLink; past it, 429), MaxStreams those open in all
	// (0: DefaultStreams; past it, 503).
	MaxStreamsPerLink, MaxStreams int
}

// DefaultFightPoll is how often a watched page is looked at.
const DefaultFightPoll = 250 * time.Millisecond

// NewWeb returns the handler of pages (Router.Pages), whose tokens store
// keeps.
func NewWeb(store WebStore, pages []kit.Page, log *slog.Logger, o WebOptions) *Web {
	if o.Poll <= 0 {
		o.Poll = DefaultFightPoll
	}
	if o.MaxStreamsPerLink <= 0 {
		o.MaxStreamsPerLink = DefaultStreamsPerLink
	}
	if o.MaxStreams <= 0 {
		o.MaxStreams = DefaultStreams
	}
	w := &Web{store: store, pages: pages, log: log, mux: http.NewServeMux(), live: newLiveHub(o, store, log),
		closing: make(chan struct{})}
	w.mux.HandleFunc("GET "+kit.PagePath+"{token}", w.page)
	w.mux.HandleFunc("GET "+kit.PagePath+"{token}/events", w.events)
	for _, a := range kit.PageAssets {
		w.mux.HandleFunc("GET "+a.Path, w.static(a.Body, a.Type))
	}
	w.mux.HandleFunc("/", func(rw http.ResponseWriter, r *http.Request) { w.notFound(rw) })
	return w
}

// ServeHTTP serves a page, the stylesheet, or the 404.
func (w *Web) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	h := rw.Header()
	h.Set("Content-Security-Policy", contentSecurityPolicy)
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Content-Type-Options", "nosniff")
	// A link is for the table it was given to, not for a search engine.
	h.Set("X-Robots-Tag", "noindex, nofollow")
	w.mux.ServeHTTP(rw, r)
}

// IsWebPath reports whether the pages answer path: http serves them
// beside the interactions endpoint, which has every other path.
func IsWebPath(path string) bool {
	if len(path) > len(kit.PagePath) && strings.HasPrefix(path, kit.PagePath) {
		return true
	}
	for _, a := range kit.PageAssets {
		if path == a.Path {
			return true
		}
	}
	return false
}

// static serves a file of the binary.
func (w *Web) static(body []byte, ctype string) http.HandlerFunc {
	return func(rw http.ResponseWriter, r *http.Request) {
		rw.Header().Set("Content-Type", ctype)
		rw.Header().Set("Cache-Control", "public, max-age=3600")
		rw.Write(body)
	}
}

func (w *Web) page(rw http.ResponseWriter, r *http.Request) {
	p, page, err := w.open(r.Context(), r.PathValue("token"))
	if err != nil {
		w.answer(rw, err)
		return
	}
	b := kit.PageBuffer()
	defer kit.PutPageBuffer(b)
	if err := page.Render(r.Context(), b, p); errors.Is(err, kit.ErrGone) {
		// A fight that has ended: its page says so, with 410 Gone.
		w.write(rw, http.StatusGone, b)
		return
	} else if err != nil {
		w.answer(rw, err)
		return
	}
	w.write(rw, http.StatusOK, b)
}

// open finds the page token opens: its row, and the page that serves its
// scope (none: db.ErrNotFound).
func (w *Web) open(ctx context.Context, token string) (db.Page, kit.Page, error) {
	p, err := w.store.PageByToken(ctx, token)
	if err != nil {
		return db.Page{}, nil, err
	}
	for _, page := range w.pages {
		if page.Serves(p.Scope) {
			return p, page, nil
		}
	}
	return db.Page{}, nil, fmt.Errorf("page of scope %q: %w", p.Scope, db.ErrNotFound)
}

// answer answers err: what is not found (an unknown or revoked token, a
// campaign that is gone, a fight that has ended) is the one 404;
// anything else, a 503.
func (w *Web) answer(rw http.ResponseWriter, err error) {
	if errors.Is(err, db.ErrNotFound) {
		w.notFound(rw)
		return
	}
	w.unavailable(rw, err)
}

// notFound is the one answer to every link that opens nothing.
func (w *Web) notFound(rw http.ResponseWriter) {
	b := kit.PageBuffer()
	defer kit.PutPageBuffer(b)
	if err := kit.RenderNotFound(b); err != nil {
		w.unavailable(rw, fmt.Errorf("render notfound: %w", err))
		return
	}
	w.write(rw, http.StatusNotFound, b)
}

// unavailable answers a store that cannot be read, and logs why (the
// error names the guild, never the token).
func (w *Web) unavailable(rw http.ResponseWriter, err error) {
	w.log.Error("web page", "err", err)
	rw.Header().Set("Content-Type", "text/plain; charset=utf-8")
	rw.WriteHeader(http.StatusServiceUnavailable)
	fmt.Fprintln(rw, "Tablehand cannot read its database right now: try again in a minute.")
}

// write sends a page rendered whole in b.
func (w *Web) write(rw http.ResponseWriter, status int, b *bytes.Buffer) {
	rw.Header().Set("Content-Type", "text/html; charset=utf-8")
	rw.Header().Set("Cache-Control", "no-store")
	rw.WriteHeader(status)
	rw.Write(b.Bytes())
}

// WithPages serves the pages' paths with web and every other with next.
func WithPages(next, web http.Handler) http.Handler {
	if web == nil {
		return next
	}
	return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		if (r.Method == http.MethodGet || r.Method == http.MethodHead) && IsWebPath(r.URL.Path) {
			web.ServeHTTP(rw, r)
			return
		}
		next.ServeHTTP(rw, r)
	})
}

// StartWeb listens on addr (failing at once when it cannot) and serves the
// pages alone there until ctx is done (serve --web); wait returns once
// they have stopped, with the error that stopped them if any.
func StartWeb(ctx context.Context, addr string, web http.Handler, log *slog.Logger) (wait func() error, err error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("web: listen on %s: %w", addr, err)
	}
	srv := &http.Server{Handler: web, ReadHeaderTimeout: 5 * time.Second, WriteTimeout: 30 * time.Second, MaxHeaderBytes: 16 << 10}
	onShutdown(srv, web)
	log.Info("serving web pages", "addr", ln.Addr().String())
	errc := make(chan error, 1)
	go func() {
		if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
			errc <- fmt.Errorf("web: %w", err)
		}
		close(errc)
	}()
	stopped := make(chan error, 1)
	go func() {
		<-ctx.Done()
		shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		err := srv.Shutdown(shutdownCtx)
		if serveErr := <-errc; serveErr != nil {
			err = serveErr
		}
		stopped <- err
	}()
	return func() error { return <-stopped }, nil
}
