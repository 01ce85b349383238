package bot

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/tablehand/tablehand/commands/kit"
)

// answers returns what it is told to, after a pause.
type answers struct {
	resp kit.Response
	err  error
}

func (a answers) Handle(context.Context, *kit.Request) (kit.Response, error) {
	time.Sleep(time.Millisecond)
	return a.resp, a.err
}

// One line per command, with what an operator needs and nothing a user
// typed: the command path, never option values, the token or the content.
func TestLoggedLinePerCommand(t *testing.T) {
	const secret = "hunter2-option-value"
	cases := []struct {
		name    string
		req     kit.Request
		err     error
		outcome string
		command string
		level   string
	}{
		{"ok", kit.Request{Kind: kit.KindCommand, Path: "init/next"}, nil, OutcomeOK, "init/next", "INFO"},
		{"user error", kit.Request{Kind: kit.KindCommand, Path: "roll"}, kit.Errorf("bad dice %s", secret), OutcomeUserError, "roll", "INFO"},
		{"bug", kit.Request{Kind: kit.KindCommand, Path: "roll"}, fmt.Errorf("save %s: %w", secret, errors.New("boom")), OutcomeError, "roll", "WARN"},
		{"timeout", kit.Request{Kind: kit.KindCommand, Path: "odds"}, fmt.Errorf("odds: %w", context.DeadlineExceeded), OutcomeTimeout, "odds", "WARN"},
		{"autocomplete", kit.Request{Kind: kit.KindAutocomplete, Path: "roll", Focused: "expression"}, nil, OutcomeOK, "roll", "INFO"},
		{"button", kit.Request{Kind: kit.KindComponent, CustomID: "reroll:" + secret}, nil, OutcomeOK, "button:reroll", "INFO"},
		{"odd button", kit.Request{Kind: kit.KindComponent, CustomID: "<@&1>:x"}, nil, OutcomeOK, "button:other", "INFO"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var buf strings.Builder
			m := NewMetrics()
			h := Logged(answers{resp: kit.Response{Content: secret}, err: c.err}, slog.New(slog.NewTextHandler(&buf, nil)), m)
			req := c.req
			req.GuildID, req.ChannelID = "g1", "c1"
			req.Options = kit.Options{"expression": secret}
			req.User = kit.User{ID: "u1", Name: secret}
			if _, err := h.Handle(context.Background(), &req); !errors.Is(err, c.err) {
				t.Errorf("the error %v did not pass through: %v", c.err, err)
			}
			line := buf.String()
			for _, want := range []string{"level=" + c.level, "msg=command", "command=" + c.command, "guild=g1", "channel=c1", "latency=", "outcome=" + c.outcome} {
				if !strings.Contains(line, want) {
					t.Errorf("log line %q lacks %q", line, want)
				}
			}
			if strings.Contains(line, secret) || strings.Count(line, "\n") != 1 {
				t.Errorf("log line %q: want one line without what the user typed", line)
			}
			kind := map[kit.Kind]string{kit.KindCommand: "command", kit.KindAutocomplete: "autocomplete", kit.KindComponent: "component"}[c.req.Kind]
			series := fmt.Sprintf(`tablehand_commands_total{command=%q,kind=%q,outcome=%q}`, c.command, kind, c.outcome)
			if v := metricValue(t, m, series); v != 1 {
				t.Errorf("%s = %v, want 1", series, v)
			}
		})
	}
}

// A nil *Metrics is a valid "no metrics".
func TestNilMetrics(t *testing.T) {
	var m *Metrics
	m.observe("roll", "command", OutcomeOK, time.Millisecond)
	m.SchedulerFiring("faction-round", OutcomeOK)
	m.watchGateway(nil)
	h := Logged(answers{}, nil, nil)
	if _, err := h.Handle(context.Background(), &kit.Request{Path: "roll"}); err != nil {
		t.Fatal(err)
	}
}

// --metrics serves Prometheus's text format, with the process's own
// figures, until its context ends.
func TestServeMetrics(t *testing.T) {
	m := NewMetrics()
	m.SchedulerFiring("faction-round", OutcomeOK)
	ctx, cancel := context.WithCancel(context.Background())
	addr, err := ServeMetrics(ctx, "127.0.0.1:0", m, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Get("http://" + addr.String() + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /metrics: %d %v", resp.StatusCode, err)
	}
	for _, want := range []string{
		`tablehand_scheduler_firings_total{job="faction-round",outcome="ok"} 1`,
		`tablehand_gateway_connected 0`,
		`tablehand_gateway_events_total{event="resumed"} 0`,
		"process_resident_memory_bytes",
		"go_goroutines",
	} {
		if !strings.Contains(string(body), want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
	cancel()
	deadline := time.Now().Add(5 * time.Second)
	for {
		if _, err := http.Get("http://" + addr.String() + "/metrics"); err != nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the metrics server still answers after its context ended")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if _, err := ServeMetrics(context.Background(), "127.0.0.1:notaport", m, slog.New(slog.DiscardHandler)); err == nil {
		t.Error("a bad address was accepted")
	}
}
