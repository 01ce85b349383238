package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The test-only settings refuse what they cannot use, with an example;
// and the console runs on the test clock: /schedule set counts its next
// firings from the clock's time.
func TestTestHooks(t *testing.T) {
	dir := t.TempDir()
	notATime := filepath.Join(dir, "clock")
	if err := os.WriteFile(notATime, []byte("tomorrow\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		env  map[string]string
		want string
	}{
		{"unknown step", map[string]string{envTestStall: "halfway"}, "TABLEHAND_TEST_STALL=halfway: not a step of a round; one of loaded, resolved, saved"},
		{"no clock file", map[string]string{envTestClock: filepath.Join(dir, "none")}, "TABLEHAND_TEST_CLOCK: open " + filepath.Join(dir, "none")},
		{"not a time", map[string]string{envTestClock: notATime}, "holds no RFC 3339 time, such as 2025-01-06T18:00:00Z"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := runWith(t, c.env, "", "console", "--db", filepath.Join(t.TempDir(), "t.db"))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v; want %q", err, c.want)
			}
		})
	}

	clock := newTestClock(t, "2025-01-06T12:00:00Z")
	out, err := runWith(t, map[string]string{envTestClock: clock.file}, "/faction create name:Red home:Mars\n/schedule set when:\"daily 18:00\"\n",
		"console", "--db", filepath.Join(dir, "t.db"))
	// 2025-01-06T18:00:00Z, 2025-01-07T18:00:00Z, ...
	if err != nil || !strings.Contains(out, "Next: <t:1736186400:F> · <t:1736272800:F>") {
		t.Errorf("/schedule set on the test clock of 2025-01-06T12:00:00Z: %v\n%s", err, out)
	}
}
