package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"tablehand": main,
	})
}

// TestScripts runs the stories in testdata/script with the real binary.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:       "testdata/script",
		Cmds:      scriptCmds,
		Condition: scriptCondition,
	})
}

// scriptCmds are the script commands beyond testscript's own.
var scriptCmds = map[string]func(*testscript.TestScript, bool, []string){"readonly": cmdReadonly}

// cmdReadonly is the script command `readonly FILE`: it makes FILE
// read-only for this process until the script ends. Root writes through
// chmod 0444, so as root the file is made immutable with chattr +i.
func cmdReadonly(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: readonly FILE")
	}
	ts.Check(makeReadonly(ts.MkAbs(args[0])))
	ts.Defer(func() { undoReadonly(ts.MkAbs(args[0])) })
}

func makeReadonly(path string) error {
	if os.Geteuid() != 0 {
		return os.Chmod(path, 0o444)
	}
	if out, err := exec.Command("chattr", "+i", path).CombinedOutput(); err != nil {
		return fmt.Errorf("chattr +i %s: %v: %s", path, err, out)
	}
	return nil
}

func undoReadonly(path string) {
	if os.Geteuid() != 0 {
		os.Chmod(path, 0o644)
		return
	}
	exec.Command("chattr", "-i", path).Run()
}

// scriptCondition answers [readonly]: whether a file can be made read-only
// here (chattr needs a file system that supports it when run as root).
func scriptCondition(cond string) (bool, error) {
	if cond != "readonly" {
		return false, fmt.Errorf("unknown condition %q", cond)
	}
	f, err := os.CreateTemp("", "readonly-probe")
	if err != nil {
		return false, err
	}
	f.Close()
	defer os.Remove(f.Name())
	defer undoReadonly(f.Name())
	if makeReadonly(f.Name()) != nil {
		return false, nil
	}
	g, err := os.OpenFile(f.Name(), os.O_WRONLY, 0)
	if err == nil {
		g.Close()
		return false, nil
	}
	return true, nil
}

type line struct {
	Input    string          `json:"input"`
	User     string          `json:"user"`
	Channel  string          `json:"channel"`
	Response json.RawMessage `json:"response"`
	Result   json.RawMessage `json:"result"`
	Error    *string         `json:"error"`
}

type response struct {
	Type int `json:"type"`
	Data struct {
		Content         string `json:"content"`
		Flags           int    `json:"flags"`
		AllowedMentions *struct {
			Parse []string `json:"parse"`
		} `json:"allowed_mentions"`
	} `json:"data"`
}

type rollResult struct {
	ID    string `json:"id"`
	Total int    `json:"total"`
	Rolls []struct {
		Expr  string `json:"expr"`
		Total int    `json:"total"`
		Dice  []struct {
			Sides int  `json:"sides"`
			Value int  `json:"value"`
			Kept  bool `json:"kept"`
		} `json:"dice"`
	} `json:"rolls"`
}

// console runs `tablehand console` with args on input and decodes its lines.
func console(t *testing.T, input string, args ...string) []line {
	t.Helper()
	var out, errs bytes.Buffer
	args = append([]string{"console", "--json", "--db", filepath.Join(t.TempDir(), "t.db")}, args...)
	if err := run(context.Background(), args, strings.NewReader(input), &out, &errs, func(string) string { return "" }); err != nil {
		t.Fatalf("console: %v\n%s", err, errs.String())
	}
	var lines []line
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var v line
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			t.Fatalf("not one JSON object a line: %q: %v", l, err)
		}
		lines = append(lines, v)
	}
	return lines
}

func decode[T any](t *testing.T, raw json.RawMessage) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("decode %s: %v", raw, err)
	}
	return v
}

// The foundation's "done when", as the contract states it.
func TestConsoleContractRoll(t *testing.T) {
	lines := console(t, "/roll 4d6kh3\n/roll 1d0\n/roll 2d6+3 dice:4,5\n", "--seed", "1")
	if len(lines) != 3 {
		t.Fatalf("%d lines, want 3", len(lines))
	}

	first := lines[0]
	resp := decode[response](t, first.Response)
	res := decode[rollResult](t, first.Result)
	if first.Error != nil || resp.Type != 4 || res.Total < 3 || res.Total > 18 {
		t.Errorf("/roll 4d6kh3: type %d total %d error %v; want type 4 and 3..18", resp.Type, res.Total, first.Error)
	}
	if len(res.Rolls) != 1 || len(res.Rolls[0].Dice) != 4 {
		t.Fatalf("/roll 4d6kh3: rolls %+v; want one group of four dice", res.Rolls)
	}
	kept, sum := 0, 0
	for _, d := range res.Rolls[0].Dice {
		if d.Sides != 6 || d.Value < 1 || d.Value > 6 {
			t.Errorf("bad die %+v", d)
		}
		if d.Kept {
			kept++
			sum += d.Value
		}
	}
	if kept != 3 || sum != res.Total {
		t.Errorf("/roll 4d6kh3: %d kept summing to %d, total %d", kept, sum, res.Total)
	}
	if resp.Data.AllowedMentions == nil || resp.Data.AllowedMentions.Parse == nil || len(resp.Data.AllowedMentions.Parse) != 0 {
		t.Errorf("allowed_mentions = %+v; want parse: [] so nobody is pinged", resp.Data.AllowedMentions)
	}
	if !strings.Contains(resp.Data.Content, res.ID) || len(res.ID) != 6 {
		t.Errorf("reply %q does not show the roll's ID %q", resp.Data.Content, res.ID)
	}

	bad := lines[1]
	resp = decode[response](t, bad.Response)
	if bad.Error == nil || !strings.Contains(*bad.Error, "d0") || resp.Data.Flags&64 == 0 || !strings.Contains(resp.Data.Content, "d0") {
		t.Errorf("/roll 1d0: error %v, response %+v; want a private error naming d0", bad.Error, resp)
	}

	manual := lines[2]
	res = decode[rollResult](t, manual.Result)
	if manual.Error != nil || res.Total != 12 {
		t.Errorf("/roll 2d6+3 dice:4,5: total %d error %v; want 12", res.Total, manual.Error)
	}
}

func TestConsoleContractLines(t *testing.T) {
	input := strings.Join([]string{
		"// a comment",
		"",
		"/roll expression:1d20+5 private:true",
		"@alice #tavern /roll 1d6 dice:3",
		"/nosuchcommand",
		"/roll 2d6 dice:4",
		"/roll 1d6 dice:9",
		"/help",
	}, "\n")
	lines := console(t, input, "--seed", "3", "--user", "bob", "--channel", "hall")
	if len(lines) != 6 {
		t.Fatalf("%d lines, want 6 (comments and blanks skipped)", len(lines))
	}
	private := decode[response](t, lines[0].Response)
	if private.Data.Flags&64 == 0 || lines[0].User != "bob" || lines[0].Channel != "hall" {
		t.Errorf("private roll: flags %d user %s channel %s", private.Data.Flags, lines[0].User, lines[0].Channel)
	}
	alice := lines[1]
	if alice.User != "alice" || alice.Channel != "tavern" || decode[rollResult](t, alice.Result).Total != 3 {
		t.Errorf("@alice #tavern: %+v", alice)
	}
	if lines[2].Error == nil || !strings.Contains(*lines[2].Error, "nosuchcommand") {
		t.Errorf("unknown command: %+v", lines[2])
	}
	if e := lines[3].Error; e == nil || !strings.Contains(*e, "1 more") || !strings.Contains(*e, "d6") {
		t.Errorf("too few dice: %v; want it to say one more d6 is needed", e)
	}
	if e := lines[4].Error; e == nil || !strings.Contains(*e, "9") || !strings.Contains(*e, "d6") {
		t.Errorf("die out of range: %v; want it to name 9 and the d6", e)
	}
	help := decode[response](t, lines[5].Response)
	if !strings.Contains(help.Data.Content, "/roll") || !strings.Contains(help.Data.Content, "/help") {
		t.Errorf("/help does not list the commands: %q", help.Data.Content)
	}
}

func TestConsoleSeedIsDeterministic(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "same.db")
	runOnce := func() string {
		var out bytes.Buffer
		err := run(context.Background(), []string{"console", "--json", "--seed", "42", "--db", db},
			strings.NewReader("/roll 4d6kh3\n/roll 3d20+1\n"), &out, os.Stderr, func(string) string { return "" })
		if err != nil {
			t.Fatal(err)
		}
		return out.String()
	}
	a, b := runOnce(), runOnce()
	if a != b {
		t.Errorf("--seed 42 twice on one database gave\n%s\nand\n%s", a, b)
	}
}

func TestCommandsPrintsDefinitions(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), []string{"commands"}, nil, &out, os.Stderr, func(string) string { return "" }); err != nil {
		t.Fatal(err)
	}
	var defs []struct {
		Name        string `json:"name"`
		Description string `json:"description"`
		Type        int    `json:"type"`
	}
	if err := json.Unmarshal(out.Bytes(), &defs); err != nil {
		t.Fatalf("not a JSON array: %v", err)
	}
	names := map[string]bool{}
	for _, d := range defs {
		names[d.Name] = true
		if d.Type != 1 || d.Description == "" {
			t.Errorf("definition %+v: want a chat-input command with a description", d)
		}
	}
	if !names["roll"] || !names["help"] {
		t.Errorf("commands printed %v; want roll and help among them", names)
	}
}
