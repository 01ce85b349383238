package bot

import (
	"bufio"
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tablehand/tablehand/bot/fakediscord"
	"github.com/tablehand/tablehand/commands"
	"github.com/tablehand/tablehand/db"
	"github.com/tablehand/tablehand/rules/dice"
)

// logSink keeps the lines a logger writes, and echoes them to the test log.
type logSink struct {
	t  *testing.T
	mu sync.Mutex
	b  strings.Builder
}

func (s *logSink) Write(p []byte) (int, error) {
	s.t.Log(strings.TrimSpace(string(p)))
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *logSink) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// lines returns the logged lines that contain every one of parts.
func (s *logSink) lines(parts ...string) []string {
	var out []string
	for _, l := range strings.Split(s.String(), "\n") {
		if !slices.ContainsFunc(parts, func(p string) bool { return !strings.Contains(l, p) }) {
			out = append(out, l)
		}
	}
	return out
}

// waitLog waits until a line with every one of parts has been logged.
func (s *logSink) waitLog(t *testing.T, parts ...string) string {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		if l := s.lines(parts...); len(l) > 0 {
			return l[0]
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("no log line with %q; the log:\n%s", parts, s.String())
	return ""
}

// startServe runs Serve against fake, which the test has prepared (faults
// to meet at start), and waits until the commands are registered.
func startServe(t *testing.T, fake *fakediscord.Server, o ServeOptions) *served {
	t.Helper()
	store, err := db.Open(context.Background(), filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	if o.Log == nil {
		o.Log = slog.New(slog.NewTextHandler(testWriter{t}, nil))
	}
	router := commands.New(commands.Deps{
		Rolls: store, Characters: store, Rules: commands.DefaultRules(),
		Roller: func() dice.Roller { return dice.NewRandom(rand.New(rand.NewPCG(rand.Uint64(), 0))) },
		Log:    o.Log,
	})
	ready := make(chan struct{})
	o.Token = "test-token"
	o.Router = router
	o.HTTPClient = fake.Client()
	o.OnReady = func() { close(ready) }
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- Serve(ctx, o) }()
	var once sync.Once
	var serveErr error
	s := &served{fake: fake, router: router, stop: func() error {
		once.Do(func() {
			cancel()
			serveErr = <-errc
		})
		return serveErr
	}}
	t.Cleanup(func() { s.stop() }) // before fake.Close, which the caller registered earlier
	select {
	case <-ready:
	case err := <-errc:
		errc <- err
		t.Fatalf("Serve returned before it was ready: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("Serve was not ready within 10 s")
	}
	return s
}

// roll is a /roll with physical dice, so its answer is known.
func (s *served) roll(die int) fakediscord.Interaction {
	return s.fake.SlashCommand("roll", fakediscord.StringOpt("expression", "1d20"), fakediscord.StringOpt("dice", strconv.Itoa(die)))
}

func wantRoll(t *testing.T, what string, cb fakediscord.Callback, die int) {
	t.Helper()
	want := fmt.Sprintf("1d20 (%d) = %d", die, die)
	if cb.Type != 4 || cb.Data == nil || !strings.Contains(cb.Data.Content, want) {
		t.Errorf("%s: answered %+v, want %q", what, cb.Data, want)
	}
}

// callback waits for the answer to an interaction already dispatched.
func (s *served) callback(t *testing.T, in fakediscord.Interaction) fakediscord.Callback {
	t.Helper()
	cb, err := s.fake.WaitCallback(waitCtx(t), in.ID)
	if err != nil {
		t.Fatalf("no callback for interaction %s: %v", in.ID, err)
	}
	return cb
}

// callbacks returns the callback requests for one interaction, in order.
func callbacks(fake *fakediscord.Server, id string) []fakediscord.Request {
	var out []fakediscord.Request
	for _, r := range fake.Requests() {
		if r.Route == fakediscord.RouteCallback && r.Param("id") == id {
			out = append(out, r)
		}
	}
	return out
}

func statuses(rs []fakediscord.Request) []int {
	out := make([]int, len(rs))
	for i, r := range rs {
		out[i] = r.Status
	}
	return out
}

// The real discordgo client against a fake Discord that fails on purpose,
// in one session (each reconnect and each Close costs discordgo a second):
// 429s and 5xx on the bulk overwrite and the interaction callback, a
// dropped REST connection, and the gateway closed with a resumable code and
// then dropped twice in a row. The bot backs off, resumes and keeps
// answering; what it cannot deliver it logs.
func TestServeRidesOutFaults(t *testing.T) {
	fake := fakediscord.New(fakediscord.Options{Logf: t.Logf})
	t.Cleanup(fake.Close)
	// At start the bulk overwrite meets a 429, then a 502.
	const retryAfter = 150 * time.Millisecond
	fake.FailNext(1, fakediscord.Route(fakediscord.RouteGlobalCommands), fakediscord.RateLimit(retryAfter))
	fake.FailNext(1, fakediscord.Route(fakediscord.RouteGlobalCommands), fakediscord.ServerError(http.StatusBadGateway))
	logs := &logSink{t: t}
	m := NewMetrics()
	start := time.Now()
	s := startServe(t, fake, ServeOptions{Log: slog.New(slog.NewTextHandler(logs, nil)), Metrics: m, ShardCount: 2})
	t.Logf("ready after a 429 and a 502 on the bulk overwrite in %v", time.Since(start))
	ctx := waitCtx(t)

	var puts []fakediscord.Request
	for _, r := range fake.Requests() {
		if r.Route == fakediscord.RouteGlobalCommands {
			puts = append(puts, r)
		}
	}
	if got := statuses(puts); !slices.Equal(got, []int{429, 502, 200}) {
		t.Errorf("bulk overwrite answered %v; want 429, 502 and then 200", got)
	} else if wait := puts[1].Time.Sub(puts[0].Time); wait < retryAfter*9/10 {
		t.Errorf("retried the bulk overwrite %v after a 429 with retry_after %v", wait, retryAfter)
	}
	if n := len(fake.Commands("")); n != len(s.router.Commands()) {
		t.Errorf("%d commands registered, want %d", n, len(s.router.Commands()))
	}
	id, err := fake.WaitIdentify(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if id.Shard == nil || *id.Shard != [2]int{0, 2} {
		t.Errorf("IDENTIFY shard %v, want [0 2]", id.Shard)
	}

	t.Run("429 on the callback", func(t *testing.T) {
		fake.FailNext(1, fakediscord.Route(fakediscord.RouteCallback), fakediscord.RateLimit(retryAfter))
		in := s.roll(7)
		wantRoll(t, "after a 429", s.answer(t, in), 7)
		cbs := callbacks(fake, in.ID)
		if got := statuses(cbs); !slices.Equal(got, []int{429, 204}) {
			t.Fatalf("callbacks answered %v, want 429 then 204", got)
		}
		if wait := cbs[1].Time.Sub(cbs[0].Time); wait < retryAfter*9/10 {
			t.Errorf("retried %v after a 429 with retry_after %v", wait, retryAfter)
		}
	})

	t.Run("502 on the callback", func(t *testing.T) {
		fake.FailNext(2, fakediscord.Route(fakediscord.RouteCallback), fakediscord.ServerError(http.StatusBadGateway))
		in := s.roll(8)
		wantRoll(t, "after two 502s", s.answer(t, in), 8)
		if got := statuses(callbacks(fake, in.ID)); !slices.Equal(got, []int{502, 502, 204}) {
			t.Errorf("callbacks answered %v, want 502, 502, 204", got)
		}
	})

	// A 500, a 503 or a dropped connection on the callback is tried once
	// more (a second acknowledgement cannot answer twice: Discord refuses
	// it), so the answer still arrives; and the next interaction too.
	for _, f := range []struct {
		name  string
		fault fakediscord.Fault
	}{
		{"500", fakediscord.ServerError(http.StatusInternalServerError)},
		{"503", fakediscord.ServerError(http.StatusServiceUnavailable)},
		{"dropped connection", fakediscord.Fault{Drop: true}},
	} {
		t.Run(f.name+" on the callback", func(t *testing.T) {
			fake.FailNext(1, fakediscord.Route(fakediscord.RouteCallback), f.fault)
			in := s.roll(9)
			wantRoll(t, "answered on the second try", s.answer(t, in), 9)
			if n := len(callbacks(fake, in.ID)); n != 2 {
				t.Errorf("%d callbacks; want 2, the failed one and its retry", n)
			}
			wantRoll(t, "the next interaction", s.answer(t, s.roll(10)), 10)
		})
	}

	// Both tries fail: the failure is logged, without the interaction's
	// token, and the bot goes on.
	t.Run("a callback failing twice", func(t *testing.T) {
		fake.FailNext(2, fakediscord.Route(fakediscord.RouteCallback), fakediscord.ServerError(http.StatusInternalServerError))
		failed := s.roll(11)
		if err := fake.DispatchInteraction(failed); err != nil {
			t.Fatal(err)
		}
		line := logs.waitLog(t, "answer interaction", "interaction="+failed.ID)
		if !strings.Contains(line, "level=ERROR") || !strings.Contains(line, "path=roll") {
			t.Errorf("logged %q", line)
		}
		if strings.Contains(line, failed.Token) {
			t.Errorf("the log line shows the interaction token: %q", line)
		}
		if n := len(callbacks(fake, failed.ID)); n != 2 {
			t.Errorf("%d callbacks for the failed answer; want 2", n)
		}
		wantRoll(t, "the next interaction", s.answer(t, s.roll(12)), 12)
	})

	resumes := 0
	// waitResume waits for the client's next RESUME, on a new connection,
	// and for its first heartbeat there: a connection that dies before
	// that meets a discordgo bug (see TestGatewayDropRightAfterResume).
	waitResume := func(t *testing.T) fakediscord.Frame {
		t.Helper()
		resumes++
		n := 0
		f, err := fake.WaitFrame(ctx, func(f fakediscord.Frame) bool {
			if f.FromClient && f.Op == 6 {
				n++
				return n == resumes
			}
			return false
		})
		if err != nil {
			t.Fatalf("no RESUME #%d: %v", resumes, err)
		}
		if _, err := fake.WaitFrame(ctx, func(h fakediscord.Frame) bool { return h.FromClient && h.Op == 1 && h.Conn == f.Conn }); err != nil {
			t.Fatalf("no heartbeat after RESUME #%d: %v", resumes, err)
		}
		return f
	}

	t.Run("gateway closed with 4000", func(t *testing.T) {
		fake.CloseGateway(fakediscord.CloseUnknownError, "Unknown error.")
		// Sent while the bot is away: Discord replays it on RESUME.
		during := s.roll(11)
		if err := fake.DispatchInteraction(during); err != nil {
			t.Fatal(err)
		}
		waitResume(t)
		wantRoll(t, "dispatched while disconnected", s.callback(t, during), 11)
		wantRoll(t, "after the resume", s.answer(t, s.roll(12)), 12)
	})

	// Two drops in a row, each with an interaction sent while the bot is
	// away. The second comes once the first resume is complete (with its
	// first heartbeat): a drop in the instant after a RESUME meets a
	// discordgo bug (see TestGatewayDropRightAfterResume).
	t.Run("gateway dropped twice in a row", func(t *testing.T) {
		for i := range 2 {
			fake.DropGateway()
			in := s.roll(13 + i)
			if err := fake.DispatchInteraction(in); err != nil {
				t.Fatal(err)
			}
			waitResume(t)
			wantRoll(t, fmt.Sprintf("dispatched during drop %d", i+1), s.callback(t, in), 13+i)
		}
		wantRoll(t, "after two drops", s.answer(t, s.roll(15)), 15)
		if sid := fake.SessionID(); sid != "fake-session-1" {
			t.Errorf("session %q: the bot identified afresh instead of resuming", sid)
		}
	})

	if err := s.stop(); err != nil {
		t.Errorf("Serve returned %v", err)
	}
	// What the operator sees.
	for _, c := range []struct {
		metric string
		min    float64
	}{
		{`tablehand_commands_total{command="roll",kind="command",outcome="ok"}`, 12},
		{`tablehand_discord_rate_limits_total`, 2},
		{`tablehand_gateway_events_total{event="resumed"}`, 3},
		{`tablehand_gateway_events_total{event="ready"}`, 1},
		{`tablehand_gateway_events_total{event="disconnect"}`, 3},
		{`tablehand_command_duration_seconds_count{command="roll",kind="command"}`, 12},
	} {
		if v := metricValue(t, m, c.metric); v < c.min {
			t.Errorf("%s = %v, want at least %v", c.metric, v, c.min)
		}
	}
	if n := len(logs.lines("msg=command", "command=roll", "outcome=ok")); n < 11 {
		t.Errorf("%d command log lines for /roll, want at least 11", n)
	}
}

// A known bug of discordgo v0.29.0, kept here as its reproduction: when a
// connection dies in the instant after discordgo reconnected (a second
// drop right after the RESUME, before the new connection's first
// heartbeat: microseconds on an idle machine, milliseconds on a busy one),
// both of that connection's goroutines handle the failure. The listen loop closes and reconnects; the
// heartbeat goroutine, blocked meanwhile behind Close's one-second sleep,
// then fails its first write on the dead connection and calls Close and
// reconnect itself: which closes the fresh connection with 1000, ending the
// session (Discord forgets a session closed with 1000). The next
// connection's heartbeat goroutine meets the same fate, and so on: a new
// IDENTIFY every second, forever, each spending one of the 1000 session
// starts Discord allows a day, and the interactions sent meanwhile lost.
// Set TABLEHAND_DISCORDGO_BUGS=1 to run it.
func TestGatewayDropRightAfterResume(t *testing.T) {
	if os.Getenv("TABLEHAND_DISCORDGO_BUGS") == "" {
		t.Skip("reproduces a discordgo v0.29.0 reconnect loop; set TABLEHAND_DISCORDGO_BUGS=1 to run")
	}
	s := serve(t, ServeOptions{}, fakediscord.Options{})
	ctx := waitCtx(t)
	s.fake.DropGateway()
	if _, err := s.fake.WaitFrame(ctx, func(f fakediscord.Frame) bool { return f.FromClient && f.Op == 6 }); err != nil {
		t.Fatal(err)
	}
	s.fake.DropGateway() // right after the RESUME
	time.Sleep(5 * time.Second)
	identifies := 0
	for _, f := range s.fake.Frames() {
		if f.FromClient && f.Op == 2 {
			identifies++
		}
	}
	if identifies > 1 {
		t.Errorf("%d IDENTIFYs in 5 s after two drops: discordgo is in a reconnect loop", identifies)
	}
}

// metricValue scrapes m and returns the value of the sample named exactly
// as series ("name{label=\"v\",...}"), or -1 when it is absent.
func metricValue(t *testing.T, m *Metrics, series string) float64 {
	t.Helper()
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	sc := bufio.NewScanner(rec.Body)
	for sc.Scan() {
		name, value, ok := strings.Cut(sc.Text(), " ")
		if ok && name == series {
			v, err := strconv.ParseFloat(value, 64)
			if err != nil {
				t.Fatalf("%s: %v", sc.Text(), err)
			}
			return v
		}
	}
	return -1
}

// Registering the commands fails for good on a 5xx that discordgo does not
// retry (only 502 is): the bot stops with an error that names the failure,
// for its supervisor to restart it. Shown with the REST session the HTTP
// endpoint uses, which makes the same call without the gateway's second.
func TestRegistrationFailsOn5xx(t *testing.T) {
	fake := fakediscord.New(fakediscord.Options{})
	defer fake.Close()
	fake.FailNext(1, fakediscord.Route(fakediscord.RouteGlobalCommands), fakediscord.ServerError(http.StatusServiceUnavailable))
	_, err := RESTSession(context.Background(), "test-token", fake.URL(), "", testRouter(t), slogDiscard())
	if err == nil || !strings.Contains(err.Error(), "503") || !strings.Contains(err.Error(), "register") {
		t.Errorf("a 503 on the bulk overwrite: %v", err)
	}
	// A 429 is waited out.
	fake.FailNext(1, fakediscord.Route(fakediscord.RouteGlobalCommands), fakediscord.RateLimit(50*time.Millisecond))
	if _, err := RESTSession(context.Background(), "test-token", fake.URL(), "", testRouter(t), slogDiscard()); err != nil {
		t.Errorf("a 429 on the bulk overwrite: %v", err)
	}
}

// A shard other than 0 connects as that shard, leaves the commands to
// shard 0, and answers what Discord sends it.
func TestServeShard(t *testing.T) {
	s := serve(t, ServeOptions{ShardID: 1, ShardCount: 2}, fakediscord.Options{})
	id, err := s.fake.WaitIdentify(waitCtx(t))
	if err != nil {
		t.Fatal(err)
	}
	if id.Shard == nil || *id.Shard != [2]int{1, 2} {
		t.Errorf("IDENTIFY shard %v, want [1 2]", id.Shard)
	}
	for _, r := range s.fake.Requests() {
		if r.Route == fakediscord.RouteGlobalCommands || r.Route == fakediscord.RouteGuildCommands {
			t.Errorf("shard 1 registered the commands: %s", r)
		}
	}
	wantRoll(t, "shard 1", s.answer(t, s.roll(5)), 5)
}
