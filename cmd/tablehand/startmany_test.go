package main

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tablehand/tablehand/db"
)

// startProcesses is how many tablehand processes TestProcessesStartTogether
// starts at once on one new SQLite file, and startRounds how many times.
const (
	startProcesses = 8
	startRounds    = 20
)

// Eight tablehand processes started at the same moment on one new SQLite
// file all start, twenty times over (issue 21: one used to die with
// "apply migration 0001_rolls.sql: table rolls already exists"): each
// runs one console command, exits 0 with nothing on standard error, and
// the file keeps every process's roll. With -short, fewer rounds.
func TestProcessesStartTogether(t *testing.T) {
	rounds := startRounds
	if testing.Short() {
		rounds = 5
	}
	bin := botBinary(t)
	for round := range rounds {
		file := filepath.Join(t.TempDir(), "new.db")
		startTogether(t, bin, file, round)
		if t.Failed() {
			return
		}
		store, err := db.Open(context.Background(), file)
		if err != nil {
			t.Fatal(err)
		}
		var n int
		err = store.SQL().QueryRow(`SELECT COUNT(*) FROM rolls`).Scan(&n)
		store.Close()
		if err != nil || n != startProcesses {
			t.Fatalf("round %d: %d rolls kept (%v), want %d", round, n, err, startProcesses)
		}
	}
}

// startTogether starts startProcesses consoles on file at once, each
// rolling once as its own user, and checks that each starts and answers.
func startTogether(t *testing.T, bin, file string, round int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmds := make([]*exec.Cmd, startProcesses)
	outs := make([]*bytes.Buffer, startProcesses)
	errs := make([]*bytes.Buffer, startProcesses)
	for i := range cmds {
		cmds[i] = exec.CommandContext(ctx, bin, "console", "--json", "--db", file, "--user", fmt.Sprintf("p%d", i))
		cmds[i].Env = botEnv()
		cmds[i].Stdin = strings.NewReader("/roll 1d20 dice:5\n")
		outs[i], errs[i] = new(bytes.Buffer), new(bytes.Buffer)
		cmds[i].Stdout, cmds[i].Stderr = outs[i], errs[i]
	}
	// Start them all before waiting for any: the migrations of a new
	// file race, as when a supervisor starts several at once.
	for i, c := range cmds {
		if err := c.Start(); err != nil {
			t.Fatalf("round %d: start process %d: %v", round, i, err)
		}
	}
	var wg sync.WaitGroup
	runErrs := make([]error, startProcesses)
	for i, c := range cmds {
		wg.Go(func() { runErrs[i] = c.Wait() })
	}
	wg.Wait()
	for i := range cmds {
		if runErrs[i] != nil || errs[i].Len() > 0 || !strings.Contains(outs[i].String(), `"total":5`) {
			t.Errorf("round %d, process %d: %v\nstderr: %s\nstdout: %s", round, i, runErrs[i], errs[i], outs[i])
		}
	}
}
