package bot

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// The README's proxy configurations, run in front of the endpoint and the
// pages as `tablehand http` serves them. Without the proxy they skip and
// say so, but not in CI (.ci/run installs Debian's nginx).

// readmeBlock is the first fenced block of lang in the README.
func readmeBlock(t *testing.T, lang string) string {
	t.Helper()
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)```" + lang + "\n(.*?)```").FindSubmatch(readme)
	if m == nil {
		t.Fatalf("the README has no %s block", lang)
	}
	return string(m[1])
}

// findProxy is the path of the program name, or a skip (a failure in CI)
// saying how to install it.
func findProxy(t *testing.T, name string, more ...string) string {
	t.Helper()
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	for _, p := range more {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	msg := fmt.Sprintf("no %s: install Debian's package (apt-get install -y %s) to run this test", name, name)
	if os.Getenv("CI") == "true" {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return ""
}

// freeAddr is a loopback address no one listens on now.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// addrLog is a log writer that sends the address of the endpoint's
// "listening" line, once.
type addrLog struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	addr chan string
	sent bool
}

func (l *addrLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf.Write(p)
	if m := regexp.MustCompile(`listening for interactions"? addr=(\S+)`).FindStringSubmatch(l.buf.String()); m != nil && !l.sent {
		l.sent = true
		l.addr <- m[1]
	}
	return len(p), nil
}

// serveEndpoint serves the campaign's pages beside an interactions
// endpoint, as `tablehand http` does (ServeHTTPEndpoint), until the test
// ends, and returns its address and the key its requests are signed with.
func serveEndpoint(t *testing.T, w *webCampaign) (string, signer) {
	t.Helper()
	s := newSigner(t)
	e, err := NewEndpoint(HTTPOptions{PublicKey: s.pub, Handler: w.router})
	if err != nil {
		t.Fatal(err)
	}
	logs := &addrLog{addr: make(chan string, 1)}
	web := NewWeb(w.store, w.router.Pages(), slogDiscard(), WebOptions{Poll: 20 * time.Millisecond})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- ServeHTTPEndpoint(ctx, "127.0.0.1:0", e, web, slog.New(slog.NewTextHandler(logs, nil)))
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("endpoint: %v", err)
		}
	})
	select {
	case addr := <-logs.addr:
		return addr, s
	case err := <-done:
		t.Fatalf("endpoint: %v", err)
	case <-time.After(eventWait):
		t.Fatal("the endpoint did not start")
	}
	return "", s
}

// startProxy runs cmd, a proxy listening on addr, until the test ends,
// and waits until addr answers.
func startProxy(t *testing.T, cmd *exec.Cmd, addr string) {
	t.Helper()
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Kill() // our own child, by its pid
		<-exited
	})
	deadline := time.Now().Add(eventWait)
	for {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
			return
		}
		select {
		case err := <-exited:
			t.Fatalf("%s stopped: %v\n%s", cmd.Path, err, out.String())
		case <-time.After(10 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s does not listen on %s:\n%s", cmd.Path, addr, out.String())
		}
	}
}

// checkThroughProxy checks the endpoint and the pages through the proxy
// at base: a signed ping is answered, a page and its headers come
// through, and a change reaches an open event stream within a second.
func checkThroughProxy(t *testing.T, w *webCampaign, s signer, base string) {
	t.Helper()
	body := []byte(`{"id":"1","type":1,"application_id":"1","token":"t","version":1}`)
	res := s.post(t, base+"/", body, time.Now())
	pong, _ := io.ReadAll(res.Body)
	res.Body.Close()
	var answer struct{ Type int }
	if res.StatusCode != 200 || json.Unmarshal(pong, &answer) != nil || answer.Type != 1 {
		t.Errorf("a ping through the proxy: %d %s", res.StatusCode, pong)
	}
	links := w.fight(t)
	page := base + strings.TrimPrefix(links.Players, "https://pages.example.org")
	res, _ = get(t, page)
	if res.StatusCode != 200 || res.Header.Get("X-Robots-Tag") == "" {
		t.Fatalf("the players' page through the proxy: %d %v", res.StatusCode, res.Header)
	}
	stream := openEvents(t, page)
	w.run(t, "/init next")
	start := time.Now()
	// A buffering proxy holds the stream back for good, not for a while:
	// what fails is nothing arriving. The time it took is logged (on an
	// idle machine, well under the second issue 23 asks); the bound is
	// loose so that a loaded machine does not fail the test.
	select {
	case e := <-stream.events:
		if e != "change" {
			t.Fatalf("the stream through the proxy: %q, want a change", e)
		}
		t.Logf("the change reached the stream through the proxy in %v", time.Since(start))
	case <-time.After(proxyPatience):
		t.Fatalf("no change reached the stream through the proxy within %v: does it buffer the stream?", proxyPatience)
	}
}

// proxyPatience is how long a change may take through a proxy.
const proxyPatience = 5 * time.Second

// nginx from Debian's package, with the README's server block (its
// listen and TLS lines replaced by a loopback port), and with that block
// cut down to proxy_pass alone (nginx's defaults: an HTTP/1.0 upstream,
// buffered, where only X-Accel-Buffering lets the stream through), each
// as one process in the foreground with everything in a temporary
// folder.
func TestPagesThroughNginx(t *testing.T) {
	nginx := findProxy(t, "nginx", "/usr/sbin/nginx")
	for _, bare := range []bool{false, true} {
		name := "README"
		if bare {
			name = "proxy_pass alone"
		}
		t.Run(name, func(t *testing.T) { throughNginx(t, nginx, bare) })
	}
}

func throughNginx(t *testing.T, nginx string, bare bool) {
	w := newWebCampaign(t)
	backend, s := serveEndpoint(t, w)
	dir := t.TempDir()
	addr := freeAddr(t)
	var server strings.Builder
	for _, line := range strings.SplitAfter(readmeBlock(t, "nginx"), "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(trimmed, "listen"), strings.HasPrefix(trimmed, "ssl_"):
			continue
		case bare && strings.HasPrefix(trimmed, "proxy_") && !strings.HasPrefix(trimmed, "proxy_pass "):
			continue
		case trimmed == "server {":
			line += "    listen " + addr + ";\n"
		}
		server.WriteString(strings.ReplaceAll(line, "http://127.0.0.1:8080", "http://"+backend))
	}
	conf := fmt.Sprintf(`daemon off;
master_process off;
worker_processes 1;
pid %[1]s/nginx.pid;
error_log %[1]s/error.log warn;
events { worker_connections 64; }
http {
    access_log off;
    client_body_temp_path %[1]s/client_body;
    proxy_temp_path %[1]s/proxy;
    fastcgi_temp_path %[1]s/fastcgi;
    uwsgi_temp_path %[1]s/uwsgi;
    scgi_temp_path %[1]s/scgi;
%[2]s}
`, dir, server.String())
	file := filepath.Join(dir, "nginx.conf")
	if err := os.WriteFile(file, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	startProxy(t, exec.Command(nginx, "-e", filepath.Join(dir, "error.log"), "-p", dir, "-c", file), addr)
	checkThroughProxy(t, w, s, "http://"+addr)
	if b, err := os.ReadFile(filepath.Join(dir, "error.log")); err == nil && bytes.Contains(b, []byte("[error]")) {
		t.Errorf("nginx logged errors:\n%s", b)
	} else if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Error(err)
	}
}

// Caddy from Debian's package, with the README's site block (its address
// replaced by a loopback port over plain HTTP, its upstream by the
// endpoint's), in the foreground with its state in a temporary folder.
func TestPagesThroughCaddy(t *testing.T) {
	caddy := findProxy(t, "caddy")
	w := newWebCampaign(t)
	backend, s := serveEndpoint(t, w)
	dir := t.TempDir()
	addr := freeAddr(t)
	site := readmeBlock(t, "caddy")
	site = strings.Replace(site, "tablehand.example.org {", "http://"+addr+" {", 1)
	site = strings.ReplaceAll(site, "127.0.0.1:8080", backend)
	file := filepath.Join(dir, "Caddyfile")
	if err := os.WriteFile(file, []byte("{\n\tadmin off\n}\n"+site), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(caddy, "run", "--config", file, "--adapter", "caddyfile")
	cmd.Env = append(os.Environ(), "HOME="+dir, "XDG_DATA_HOME="+dir, "XDG_CONFIG_HOME="+dir)
	startProxy(t, cmd, addr)
	checkThroughProxy(t, w, s, "http://"+addr)
}
