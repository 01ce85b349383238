package bot

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tablehand/tablehand/commands"
	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/db"
	"github.com/tablehand/tablehand/rules/dice"
)

// crashChildEnv, set to a database path, makes the test binary a bot
// instead of a test: TestKillDuringLoad re-executes itself with it (the
// way os/exec's tests run helper processes), so no build step is needed.
const crashChildEnv = "TABLEHAND_CRASH_CHILD_DB"

const crashChannel = "crash"

// crashChild is the bot under test: the console, with the router and
// database the real binary uses, answering /roll lines from stdin until
// it is killed.
func crashChild(path string) {
	ctx := context.Background()
	store, err := db.Open(ctx, path)
	if err != nil {
		fmt.Fprintln(os.Stderr, "crash child:", err)
		os.Exit(3)
	}
	deps := kit.NewDeps(store, commands.DefaultRules())
	deps.Roller = func() dice.Roller { return dice.NewRandom(rand.New(rand.NewPCG(rand.Uint64(), 0))) }
	router := commands.New(deps)
	err = Console(ctx, ConsoleOptions{Router: router, JSON: true, Channel: crashChannel}, os.Stdin, os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "crash child:", err)
		os.Exit(4)
	}
	os.Exit(0)
}

// Kill -9 in the middle of sustained load, restart, and do it again: every
// roll the bot answered (acknowledged to the user) is in the roll log
// afterwards, and the file passes integrity_check. The bot answers only
// after its transaction commits, and SQLite's WAL makes a commit durable
// against a process crash (synchronous=NORMAL can lose the last commits
// only on a power cut or OS crash, which this cannot show).
func TestKillDuringLoad(t *testing.T) {
	if path := os.Getenv(crashChildEnv); path != "" {
		crashChild(path)
	}
	path := filepath.Join(t.TempDir(), "t.db")
	var acked []string
	start := time.Now()
	for round, killAfter := range []int{150, 400, 250} {
		codes := rollUntilKilled(t, path, round, killAfter)
		if len(codes) < killAfter {
			t.Fatalf("round %d: only %d rolls answered before the kill", round, len(codes))
		}
		acked = append(acked, codes...)
	}
	t.Logf("3 kills in %v; %d rolls acknowledged", time.Since(start).Round(time.Millisecond), len(acked))

	ctx := context.Background()
	rep, err := db.Check(ctx, path)
	if err != nil || !rep.OK() {
		t.Fatalf("after the kills: %v\n%s", err, rep)
	}
	store, err := db.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	missing := 0
	for _, code := range acked {
		if _, found, err := store.RollByCode(ctx, crashChannel, code); err != nil || !found {
			missing++
			if missing <= 5 {
				t.Errorf("acknowledged roll %s is not in the log (%v)", code, err)
			}
		}
	}
	var rows, badDetail int
	if err := store.SQL().QueryRow(`SELECT count(*), count(*) FILTER (WHERE NOT json_valid(detail)) FROM rolls`).Scan(&rows, &badDetail); err != nil {
		t.Fatal(err)
	}
	if missing > 0 || badDetail > 0 || rows < len(acked) {
		t.Fatalf("%d acknowledged rolls missing, %d rows with a broken detail, %d rows for %d acknowledged", missing, badDetail, rows, len(acked))
	}
	// Rows beyond the acknowledged ones committed in the instant between
	// the commit and the answer: saved, never shown; that is allowed.
	t.Logf("integrity ok; %d rows hold all %d acknowledged rolls", rows, len(acked))
}

// rollUntilKilled starts the bot on path, feeds it /roll lines as fast as
// it takes them, SIGKILLs it once killAfter answers have come back, and
// returns the roll code of every answer it printed.
func rollUntilKilled(t *testing.T, path string, round, killAfter int) []string {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestKillDuringLoad$", "-test.count=1")
	cmd.Env = append(os.Environ(), crashChildEnv+"="+path)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		// Until the pipe breaks: the kill ends it.
		w := bufio.NewWriter(stdin)
		for i := 0; ; i++ {
			if _, err := fmt.Fprintf(w, "/roll 1d20+%d\n", i%50); err != nil {
				return
			}
			if i%32 == 0 && w.Flush() != nil {
				return
			}
		}
	}()
	var codes []string
	killed := false
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		var line struct {
			Result struct {
				ID string `json:"id"`
			} `json:"result"`
			Error string `json:"error"`
		}
		if !strings.HasPrefix(sc.Text(), "{") {
			continue
		}
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			// Killed in the middle of writing a line: not acknowledged.
			continue
		}
		if line.Error != "" || line.Result.ID == "" {
			t.Errorf("round %d: the bot answered an error: %s", round, sc.Text())
			continue
		}
		codes = append(codes, line.Result.ID)
		if len(codes) == killAfter && !killed {
			// Lines already written to the pipe were answered too: keep
			// reading them after the kill.
			if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			killed = true
		}
	}
	err = cmd.Wait()
	if !killed {
		t.Fatalf("round %d: the bot ended before the kill (%v): %s", round, err, stderr.String())
	}
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("round %d: the bot ended with %v, not by SIGKILL: %s", round, err, stderr.String())
	}
	return codes
}
