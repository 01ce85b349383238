package commands

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/tablehand/tablehand/commands/kit"
)

// answerLine answers one console line (or "complete ..." for
// autocomplete) through r as user u1 "alice", and decodes the `result` as
// the console prints it. A line that does not parse fails the test.
func answerLine(t testing.TB, r *kit.Router, line string) (kit.Response, map[string]any, error) {
	t.Helper()
	var req *kit.Request
	var err error
	if rest, ok := strings.CutPrefix(line, "complete "); ok {
		req, err = r.ParseAutocomplete(rest)
	} else {
		req, err = r.ParseLine(line)
	}
	if err != nil {
		t.Fatalf("%s: %v", line, err)
	}
	req.User = kit.User{ID: "u1", Name: "alice"}
	resp, err := r.Handle(context.Background(), req)
	var result map[string]any
	if resp.Result != nil {
		js, jerr := json.Marshal(resp.Result)
		if jerr != nil {
			t.Fatalf("%s: result does not encode: %v", line, jerr)
		}
		if jerr := json.Unmarshal(js, &result); jerr != nil {
			t.Fatalf("%s: %v", line, jerr)
		}
	}
	return resp, result, err
}
