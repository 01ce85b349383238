package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/tablehand/tablehand/bot"
	"github.com/tablehand/tablehand/db"
)

// Test-only settings, read from the environment, for the tests that run
// real tablehand processes and must drive them from outside
// (processes_test.go): time, and a round that stops half-way so that the
// test can kill the process there. Nobody sets them in production; unset,
// they change nothing.
const (
	// envTestClock names a file holding one RFC 3339 time, which becomes
	// the process's clock (the scheduler's, the store's and /schedule's)
	// instead of the system's. Time stands still until the file changes;
	// while the scheduler runs, each new time in the file is taken within
	// milliseconds, the schedules run at once at it (as cron would have
	// when that time came) and the log says "test clock moved" with the
	// time, once they are done. Write the file whole (a rename), not in
	// place.
	envTestClock = "TABLEHAND_TEST_CLOCK"
	// envTestStall names a step of a round (a db.RoundPhase: loaded,
	// resolved, saved, orders-cleared, reported, firing) after which every
	// round the scheduler plays stops, inside its transaction: the log
	// says "test: a scheduled round stalls" and the round waits until the
	// process ends. A test kills the process there with SIGKILL.
	envTestStall = "TABLEHAND_TEST_STALL"
)

// clockPoll is how often a test clock's file is read.
const clockPoll = 5 * time.Millisecond

// testHooks are the test-only settings of one process.
type testHooks struct {
	clockFile string
	stall     db.RoundPhase

	mu  sync.Mutex
	now time.Time // the test clock's time
}

func readTestHooks(getenv func(string) string) (*testHooks, error) {
	h := &testHooks{clockFile: getenv(envTestClock), stall: db.RoundPhase(getenv(envTestStall))}
	if h.stall != "" && !slices.Contains(db.RoundPhases, h.stall) {
		names := make([]string, len(db.RoundPhases))
		for i, p := range db.RoundPhases {
			names[i] = string(p)
		}
		return nil, fmt.Errorf("%s=%s: not a step of a round; one of %s", envTestStall, h.stall, strings.Join(names, ", "))
	}
	if h.clockFile != "" {
		t, err := readClock(h.clockFile)
		if err != nil {
			return nil, err
		}
		h.now = t
	}
	return h, nil
}

func readClock(file string) (time.Time, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return time.Time{}, fmt.Errorf("%s: %w", envTestClock, err)
	}
	t, err := time.Parse(time.RFC3339, strings.TrimSpace(string(b)))
	if err != nil {
		return time.Time{}, fmt.Errorf("%s: %s holds no RFC 3339 time, such as 2025-01-06T18:00:00Z: %w", envTestClock, file, err)
	}
	return t, nil
}

// clock is the process's clock: the test clock's, or nil for the
// system's.
func (h *testHooks) clock() func() time.Time {
	if h.clockFile == "" {
		return nil
	}
	return func() time.Time {
		h.mu.Lock()
		defer h.mu.Unlock()
		return h.now
	}
}

// dbOptions are the store's options the hooks ask for.
func (h *testHooks) dbOptions() []db.Option {
	if c := h.clock(); c != nil {
		return []db.Option{db.WithClock(c)}
	}
	return nil
}

// roundHook is the scheduler's db.PlayOptions.Hook: nil, or the stall.
func (h *testHooks) roundHook(ctx context.Context, log *slog.Logger) func(db.RoundPhase) error {
	if h.stall == "" {
		return nil
	}
	return func(p db.RoundPhase) error {
		if p != h.stall {
			return nil
		}
		log.Warn("test: a scheduled round stalls", "phase", p)
		<-ctx.Done()
		return fmt.Errorf("test: stalled after %s: %w", p, ctx.Err())
	}
}

// follow moves the test clock with its file until ctx ends, running the
// scheduler's schedules at each new time.
func (h *testHooks) follow(ctx context.Context, sched *bot.Scheduler, log *slog.Logger) {
	if h.clockFile == "" {
		return
	}
	go func() {
		tick := time.NewTicker(clockPoll)
		defer tick.Stop()
		var failed string
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			t, err := readClock(h.clockFile)
			if err != nil {
				if err.Error() != failed {
					failed = err.Error()
					log.Error("test clock", "err", err)
				}
				continue
			}
			failed = ""
			h.mu.Lock()
			moved := !t.Equal(h.now)
			h.now = t
			h.mu.Unlock()
			if moved {
				sched.RunDue(ctx)
				log.Info("test clock moved", "now", t.UTC().Format(time.RFC3339))
			}
		}
	}()
}
