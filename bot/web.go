package bot

import (
	"bytes"
	"context"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/tablehand/tablehand/commands/faction"
	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/commands/tracker"
	"github.com/tablehand/tablehand/db"
)

// The read-only web pages: a faction campaign's and a running fight's,
// each for its players and for its GM, at kit.PagePath + token (the
// links /faction page and /init page give). They read the store through
// the same views as the commands. Everything is in the binary
// (html/template, the stylesheet, page.js): no inline script, no
// external asset, and a Content-Security-Policy that allows nothing
// else. A token opens a page or nothing: an unknown token and a revoked
// one get the same 404, and no token is ever logged.

//go:embed web
var webFiles embed.FS

var webTemplates = template.Must(template.New("web").Funcs(template.FuncMap{
	"deref": func(b *bool) bool { return b != nil && *b },
	"int": func(n *int) int {
		if n == nil {
			return 0
		}
		return *n
	},
	"str": func(s *string) string {
		if s == nil {
			return ""
		}
		return *s
	},
	"factionCards": factionCards,
	"habitatRows":  habitatRows,
	"chartLines":   chartLines,
	"chartKey":     chartKey,
	"chartRows":    chartRows,
	"roundReports": roundReports,
}).ParseFS(webFiles, "web/*.html"))

// pageCSS is the stylesheet every page links; pageJS its one script,
// which only shows the times in the reader's own zone (the page is right
// without it).
var (
	pageCSS = mustRead("web/page.css")
	pageJS  = mustRead("web/page.js")
)

// Where the stylesheet and the script are served (head.html links them).
const (
	pageCSSPath = "/static/page.css"
	pageJSPath  = "/static/page.js"
)

func mustRead(name string) []byte {
	b, err := webFiles.ReadFile(name)
	if err != nil {
		panic(err)
	}
	return b
}

// contentSecurityPolicy lets a page load only what Tablehand serves, and
// nothing frame it.
const contentSecurityPolicy = "default-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// WebStore is what the pages read.
type WebStore interface {
	PageByToken(ctx context.Context, token string) (db.Page, error)
	// CampaignStamp names the guild's campaign's stored state: a page
	// keeps what it rendered of it while it is the same (webcache.go).
	CampaignStamp(ctx context.Context, guildID string) (db.CampaignStamp, error)
	faction.Store
	kit.EncounterStore
}

// Web serves the pages.
type Web struct {
	store  WebStore
	log    *slog.Logger
	now    func() time.Time
	mux    *http.ServeMux
	fights *fightHub
	pages  *pageCache
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

// WebOptions are the pages' clock and how often an open fight page's
// fight is looked at for changes.
type WebOptions struct {
	// Now is the clock the schedule's next firings count from (nil:
	// time.Now).
	Now func() time.Time
	// Poll is how often the store is asked whether a watched fight
	// changed (0: DefaultFightPoll). One look per fight serves every page
	// open on it.
	Poll time.Duration
}

// DefaultFightPoll is how often a watched fight is looked at.
const DefaultFightPoll = 250 * time.Millisecond

// NewWeb returns the pages' handler over store.
func NewWeb(store WebStore, log *slog.Logger, o WebOptions) *Web {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Poll <= 0 {
		o.Poll = DefaultFightPoll
	}
	w := &Web{store: store, log: log, now: o.Now, mux: http.NewServeMux(), fights: newFightHub(store, o.Poll, log),
		pages: newPageCache(DefaultPageCacheBytes), closing: make(chan struct{})}
	w.mux.HandleFunc("GET "+kit.PagePath+"{token}", w.page)
	w.mux.HandleFunc("GET "+kit.PagePath+"{token}/events", w.events)
	w.mux.HandleFunc("GET "+pageCSSPath, w.static(pageCSS, "text/css; charset=utf-8"))
	w.mux.HandleFunc("GET "+pageJSPath, w.static(pageJS, "text/javascript; charset=utf-8"))
	w.mux.HandleFunc("/", func(rw http.ResponseWriter, r *http.Request) { w.notFound(rw) })
	return w
}

// ServeHTTP serves a page, the stylesheet, or the 404.
func (w *Web) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	h := rw.Header()
	h.Set("Content-Security-Policy", contentSecurityPolicy)
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Content-Type-Options", "nosniff")
	w.mux.ServeHTTP(rw, r)
}

// IsWebPath reports whether the pages answer path: http serves them
// beside the interactions endpoint, which has every other path.
func IsWebPath(path string) bool {
	return len(path) > len(kit.PagePath) && strings.HasPrefix(path, kit.PagePath) || path == pageCSSPath || path == pageJSPath
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
	p, err := w.store.PageByToken(r.Context(), r.PathValue("token"))
	if err != nil {
		w.answer(rw, "", nil, err)
		return
	}
	if channel, ok := db.FightChannel(p.Scope); ok {
		fp, err := tracker.LoadFightPage(r.Context(), w.store, channel, p.Audience == db.AudienceGM)
		w.answer(rw, "fight", fp, err)
		return
	}
	page, err := w.campaignPage(r.Context(), p.GuildID, p.Audience)
	w.answer(rw, "campaign", page, err)
}

// answer renders the page name of data, or answers err: what is not
// found (an unknown or revoked token, a campaign that is gone, a fight
// that has ended) is the one 404; anything else, a 503.
func (w *Web) answer(rw http.ResponseWriter, name string, data any, err error) {
	switch {
	case errors.Is(err, db.ErrNotFound):
		w.notFound(rw)
	case err != nil:
		w.unavailable(rw, err)
	default:
		w.render(rw, http.StatusOK, name, data)
	}
}

// notFound is the one answer to every link that opens nothing.
func (w *Web) notFound(rw http.ResponseWriter) { w.render(rw, http.StatusNotFound, "notfound", nil) }

// unavailable answers a store that cannot be read, and logs why (the
// error names the guild, never the token).
func (w *Web) unavailable(rw http.ResponseWriter, err error) {
	w.log.Error("web page", "err", err)
	rw.Header().Set("Content-Type", "text/plain; charset=utf-8")
	rw.WriteHeader(http.StatusServiceUnavailable)
	fmt.Fprintln(rw, "Tablehand cannot read its database right now: try again in a minute.")
}

// render writes the page whole or, when the template fails, nothing of it.
func (w *Web) render(rw http.ResponseWriter, status int, name string, data any) {
	b := renderBuffers.Get().(*bytes.Buffer)
	defer putRenderBuffer(b)
	if err := webTemplates.ExecuteTemplate(b, name, data); err != nil {
		w.unavailable(rw, fmt.Errorf("render %s: %w", name, err))
		return
	}
	rw.Header().Set("Content-Type", "text/html; charset=utf-8")
	rw.Header().Set("Cache-Control", "no-store")
	rw.WriteHeader(status)
	rw.Write(b.Bytes())
}

// renderBuffers are the buffers pages are rendered in, used again: a
// campaign page of 100 factions is half a megabyte, which a new buffer
// would grow to by copying it a dozen times.
var renderBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// maxRenderBuffer is the largest buffer kept for the next page (4 MB);
// a larger one goes to the collector.
const maxRenderBuffer = 4 << 20

func putRenderBuffer(b *bytes.Buffer) {
	if b.Cap() > maxRenderBuffer {
		return
	}
	b.Reset()
	renderBuffers.Put(b)
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
