package bot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/db"
)

// Metrics counts what the bot does, for Prometheus. It keeps its own
// registry (no global state), so tests and several bots in one process do
// not collide. A nil *Metrics records nothing: every method is safe on nil.
type Metrics struct {
	reg        *prometheus.Registry
	commands   *prometheus.CounterVec
	latency    *prometheus.HistogramVec
	connected  prometheus.Gauge
	gateway    *prometheus.CounterVec
	rateLimits prometheus.Counter
	firings    *prometheus.CounterVec
}

// Outcomes of a command, as logged and counted.
const (
	OutcomeOK        = "ok"         // answered
	OutcomeUserError = "user_error" // the user's mistake, named to them
	// OutcomeUnavailable: the database could not be written (read-only,
	// disk full, I/O error); the user is told to try again later.
	OutcomeUnavailable = "unavailable"
	OutcomeTimeout     = "timeout" // the handler ran out of time
	OutcomeError       = "error"   // anything else: a bug or an outage, logged by the router
)

// NewMetrics returns metrics registered in a fresh registry, with the Go
// runtime's and the process's own (resident memory, open files, CPU).
func NewMetrics() *Metrics {
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		commands: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "tablehand_commands_total",
			Help: "Interactions answered, by command path, kind (command, autocomplete, component) and outcome.",
		}, []string{"command", "kind", "outcome"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "tablehand_command_duration_seconds",
			Help: "Time from a request reaching the router to its response, by command path and kind.",
			// Discord allows 3 s for the first answer; the edges defer at 2 s.
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2, 3, 10},
		}, []string{"command", "kind"}),
		connected: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "tablehand_gateway_connected",
			Help: "1 while the gateway websocket is connected, else 0.",
		}),
		gateway: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "tablehand_gateway_events_total",
			Help: "Gateway lifecycle events: connect, disconnect, ready (a new session), resumed.",
		}, []string{"event"}),
		rateLimits: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "tablehand_discord_rate_limits_total",
			Help: "REST requests Discord answered 429; discordgo waited retry_after and retried.",
		}),
		firings: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "tablehand_scheduler_firings_total",
			Help: "Scheduled jobs fired, by job and outcome.",
		}, []string{"job", "outcome"}),
	}
	m.reg.MustRegister(m.commands, m.latency, m.connected, m.gateway, m.rateLimits, m.firings,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	for _, ev := range []string{"connect", "disconnect", "ready", "resumed"} {
		m.gateway.WithLabelValues(ev) // export zeros, so rate() works from the start
	}
	return m
}

// Handler serves the metrics in Prometheus's text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}

// Registry is the registry the metrics live in, for tests and for adding
// collectors.
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// observe counts one answered request.
func (m *Metrics) observe(command, kind, outcome string, d time.Duration) {
	if m == nil {
		return
	}
	m.commands.WithLabelValues(command, kind, outcome).Inc()
	m.latency.WithLabelValues(command, kind).Observe(d.Seconds())
}

// SchedulerFiring counts one firing of a scheduled job (a faction round,
// say) with its outcome (OutcomeOK, OutcomeError, ...).
func (m *Metrics) SchedulerFiring(job, outcome string) {
	if m == nil {
		return
	}
	m.firings.WithLabelValues(job, outcome).Inc()
}

// watchGateway follows a session's connection state and Discord's rate
// limits. Call it before Open.
func (m *Metrics) watchGateway(s *discordgo.Session) {
	if m == nil {
		return
	}
	s.AddHandler(func(*discordgo.Session, *discordgo.Connect) {
		m.connected.Set(1)
		m.gateway.WithLabelValues("connect").Inc()
	})
	s.AddHandler(func(*discordgo.Session, *discordgo.Disconnect) {
		m.connected.Set(0)
		m.gateway.WithLabelValues("disconnect").Inc()
	})
	s.AddHandler(func(*discordgo.Session, *discordgo.Ready) { m.gateway.WithLabelValues("ready").Inc() })
	s.AddHandler(func(*discordgo.Session, *discordgo.Resumed) { m.gateway.WithLabelValues("resumed").Inc() })
	s.AddHandler(func(*discordgo.Session, *discordgo.RateLimit) { m.rateLimits.Inc() })
}

// ServeMetrics listens on addr and serves /metrics until ctx is done. It
// returns once it is listening (a bad address fails at start, not later),
// with the address it listens on.
func ServeMetrics(ctx context.Context, addr string, m *Metrics, log *slog.Logger) (net.Addr, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("metrics: listen on %s: %w", addr, err)
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", m.Handler())
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second, WriteTimeout: 30 * time.Second}
	log.Info("serving metrics", "addr", ln.Addr().String(), "path", "/metrics")
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("metrics server stopped", "err", err)
		}
	}()
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := srv.Shutdown(sctx); err != nil {
			log.Warn("shut down metrics server", "err", err)
		}
	}()
	return ln.Addr(), nil
}

// Logged wraps h so that every request it answers leaves one structured
// log line (command path, kind, guild, channel, latency, outcome: never
// the token, never what the user typed beyond the command's name) and,
// when m is not nil, its metrics. A failure to write the database is
// answered with a message saying so instead of the router's generic one.
// Serve wraps its router with it; the HTTP endpoint's caller does.
func Logged(h Answerer, log *slog.Logger, m *Metrics) Answerer {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &loggedAnswerer{next: h, log: log, m: m}
}

type loggedAnswerer struct {
	next Answerer
	log  *slog.Logger
	m    *Metrics
}

func (a *loggedAnswerer) Handle(ctx context.Context, req *kit.Request) (kit.Response, error) {
	start := time.Now()
	resp, err := a.next.Handle(ctx, req)
	took := time.Since(start)
	outcome := Outcome(err)
	command, kind := commandLabel(req)
	level := slog.LevelInfo
	if outcome != OutcomeOK && outcome != OutcomeUserError {
		level = slog.LevelWarn
	}
	a.log.LogAttrs(ctx, level, "command",
		slog.String("command", command), slog.String("kind", kind),
		slog.String("guild", req.GuildID), slog.String("channel", req.ChannelID),
		slog.Duration("latency", took), slog.String("outcome", outcome))
	a.m.observe(command, kind, outcome, took)
	return resp, err
}

// NeedsStore is the wrapped Answerer's, if it says: whether answering req
// may wait on the store (kit.Router.NeedsStore).
func (a *loggedAnswerer) NeedsStore(req *kit.Request) bool {
	return needsStore(a.next, req)
}

// Outcome classifies what a handler returned.
func Outcome(err error) string {
	switch {
	case err == nil:
		return OutcomeOK
	case db.Unavailable(err):
		return OutcomeUnavailable
	case errors.Is(err, context.DeadlineExceeded):
		return OutcomeTimeout
	}
	if _, ok := kit.AsUserError(err); ok {
		return OutcomeUserError
	}
	return OutcomeError
}

// commandLabel names a request for logs and metrics without anything the
// user typed: the command path ("init/next"), or for a button the prefix
// of its custom_id ("reroll"), whose tail (a roll code, a name) is data.
func commandLabel(req *kit.Request) (command, kind string) {
	switch req.Kind {
	case kit.KindAutocomplete:
		return boundLabel(req.Path), "autocomplete"
	case kit.KindComponent:
		prefix, _, _ := strings.Cut(req.CustomID, ":")
		return "button:" + boundLabel(prefix), "component"
	}
	return boundLabel(req.Path), "command"
}

// boundLabel keeps a label to what command paths look like, so a label's
// values stay few whatever arrives: Discord only sends the commands we
// registered, but a metric must not trust that.
func boundLabel(s string) string {
	if s == "" || len(s) > 64 {
		return "other"
	}
	for _, r := range s {
		if !('a' <= r && r <= 'z' || '0' <= r && r <= '9' || r == '/' || r == '-' || r == '_') {
			return "other"
		}
	}
	return s
}

// Validate is the wrapped Answerer's, if it has one: whether req has a
// shape Discord would send (kit.Router.Validate).
func (a *loggedAnswerer) Validate(req *kit.Request) error {
	return validateRequest(a.next, req)
}
