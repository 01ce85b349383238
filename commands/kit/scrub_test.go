package kit

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"strings"
	"testing"
)

// An error line names the command and the error, never what the user
// typed (README, Logs; issue 25, item 5): an error that quotes an option's
// value, or holds it unquoted, is logged with <name> in its place.
func TestFailureLogsNoUserText(t *testing.T) {
	var logs bytes.Buffer
	r := NewRouter(slog.New(slog.NewTextHandler(&logs, nil)), nil)
	r.Define(Command{Name: "note", Description: "d", Options: []Option{
		{Type: String, Name: "text", Description: "d", Required: true},
		{Type: String, Name: "tag", Description: "d"},
	}})
	r.Route("note", func(ctx context.Context, req *Request) (Response, error) {
		return Response{}, fmt.Errorf("log roll %q: save %s: tagged %q: disk I/O error", req.Options.String("text"), req.Options.String("text"), req.Options.String("tag"))
	}, false)
	typed := []string{"2d20 + 3", "my secret plan"}
	resp, err := r.Handle(context.Background(), &Request{Kind: KindCommand, Path: "note",
		Options: Options{"text": typed[0], "tag": typed[1]}, User: User{ID: "1", Name: "Ann"}})
	if err == nil || !strings.Contains(resp.Content, "Something went wrong") {
		t.Fatalf("answered %q, %v", resp.Content, err)
	}
	out := logs.String()
	if !strings.Contains(out, "command failed") || !strings.Contains(out, "disk I/O error") || !strings.Contains(out, "<text>") {
		t.Errorf("the error line lost the error:\n%s", out)
	}
	for _, s := range typed {
		if strings.Contains(out, s) {
			t.Errorf("the log holds %q, which the user typed:\n%s", s, out)
		}
	}
}

func TestScrub(t *testing.T) {
	req := &Request{Options: Options{"expression": "1d20", "n": int64(3), "short": "ab", "long": "1d20+5 to hit"}}
	for _, c := range []struct{ in, want string }{
		{`log roll "1d20": boom`, `log roll <expression>: boom`},
		{`roll 1d20+5 to hit failed`, `roll <long> failed`},
		{`character "ab": not found`, `character <short>: not found`},
		{`tab ab: line 3`, `tab ab: line 3`}, // too short to replace unquoted
	} {
		if got := Scrub(c.in, req); got != c.want {
			t.Errorf("Scrub(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
