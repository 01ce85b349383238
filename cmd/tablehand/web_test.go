package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// listening finds the address in the log line of an endpoint that has
// started.
var listening = regexp.MustCompile(`listening for interactions"? addr=(\S+)`)

// logWatch is a log writer that calls found, once, with the submatches of
// the first match of re in what has been written.
type logWatch struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	re    *regexp.Regexp
	found func(m []string)
	seen  bool
}

func (w *logWatch) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if m := w.re.FindStringSubmatch(w.buf.String()); m != nil && !w.seen {
		w.seen = true
		w.found(m)
	}
	return len(p), nil
}

// tablehand http serves the campaign's page beside the interactions
// endpoint, at the address of the link /faction page gave, with the
// store's public_url; the endpoint still answers its POSTs.
func TestHTTPServesThePages(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "t.db")
	env := map[string]string{"TABLEHAND_PUBLIC_URL": "https://pages.example.org", "TABLEHAND_PUBLIC_KEY": strings.Repeat("ab", 32)}
	out, err := runWith(t, env, "/faction create name:Red owner:alice home:Mars\n/faction page\n", "console", "--json", "--db", file, "--user", "gm")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var page struct {
		Result struct {
			Players string `json:"players_url"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &page); err != nil || page.Result.Players == "" {
		t.Fatalf("/faction page: %v\n%s", err, out)
	}

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	listened := make(chan string, 1)
	logs := &logWatch{re: listening, found: func(m []string) { listened <- m[1] }}
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"http", "--listen", "127.0.0.1:0", "--db", file}, strings.NewReader(""), &bytes.Buffer{}, logs, func(n string) string { return env[n] })
	}()
	var addr string
	select {
	case addr = <-listened:
	case err := <-done:
		t.Fatalf("http stopped: %v\n%s", err, logs.buf.String())
	}
	base := "http://" + addr
	for path, want := range map[string]int{
		strings.TrimPrefix(page.Result.Players, "https://pages.example.org"): http.StatusOK,
		"/p/unknown": http.StatusNotFound,
	} {
		res, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != want {
			t.Errorf("GET a page: %d, want %d", res.StatusCode, want)
		}
	}
	res, err := http.Post(base+"/", "application/json", strings.NewReader(`{"type":1}`))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusUnauthorized {
		t.Errorf("an unsigned POST to the endpoint: %d, want 401", res.StatusCode)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("http: %v", err)
	}
	if tok := page.Result.Players[strings.LastIndex(page.Result.Players, "/")+1:]; strings.Contains(logs.buf.String(), tok) {
		t.Errorf("the page's token is in the log")
	}
}
