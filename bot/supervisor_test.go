package bot

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"

	"github.com/tablehand/tablehand/bot/fakediscord"
)

// maskedFrame builds a client frame as RFC 6455 has it: first byte, masked
// length, key, masked payload.
func maskedFrame(b0 byte, payload string) []byte {
	key := [4]byte{0x37, 0xfa, 0x21, 0x3d}
	p := []byte{b0}
	switch n := len(payload); {
	case n < 126:
		p = append(p, 0x80|byte(n))
	case n < 1<<16:
		p = binary.BigEndian.AppendUint16(append(p, 0x80|126), uint16(n))
	default:
		p = binary.BigEndian.AppendUint64(append(p, 0x80|127), uint64(n))
	}
	p = append(p, key[:]...)
	for i := range len(payload) {
		p = append(p, payload[i]^key[i%4])
	}
	return p
}

func TestClientFrame(t *testing.T) {
	heartbeat := maskedFrame(0x81, `{"op":1,"d":42}`)
	unmasked := append([]byte{0x81, byte(len(`{"op":1,"d":42}`))}, `{"op":1,"d":42}`...)
	for _, tc := range []struct {
		name string
		p    []byte
		want frameKind
	}{
		{"heartbeat", heartbeat, frameHeartbeat},
		{"heartbeat before any dispatch", maskedFrame(0x81, `{"op":1,"d":null}`), frameHeartbeat},
		{"identify", maskedFrame(0x81, `{"op":2,"d":{"token":"Bot x"}}`), frameOther},
		{"op 11 is not op 1", maskedFrame(0x81, `{"op":11,"d":null}`), frameOther},
		{"16-bit length", maskedFrame(0x81, `{"op":1,"d":1}`+strings.Repeat(" ", 300)), frameHeartbeat},
		{"64-bit length", maskedFrame(0x81, `{"op":1,"d":1}`+strings.Repeat(" ", 70000)), frameHeartbeat},
		{"close 1000", maskedFrame(0x88, "\x03\xe8"), frameClose},
		{"close without a code", maskedFrame(0x88, ""), frameClose},
		{"ping", maskedFrame(0x89, ""), frameOther},
		{"unmasked, as a server writes", unmasked, frameOther},
		{"first fragment", maskedFrame(0x01, `{"op":1,"d":42}`), frameOther},
		{"cut short", heartbeat[:len(heartbeat)-1], frameOther},
		{"two frames in one write", append(slices.Clone(heartbeat), heartbeat...), frameOther},
		{"header only", heartbeat[:6], frameOther},
		{"upgrade request", []byte("GET /gateway/?v=9&encoding=json HTTP/1.1\r\nHost: gateway.discord.gg\r\n\r\n"), frameOther},
		{"nothing", nil, frameOther},
	} {
		if got := clientFrame(tc.p); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestReconnectDelay(t *testing.T) {
	for failed := 1; failed <= 12; failed++ {
		base := reconnectMaxDelay
		if s := time.Duration(1<<(failed-1)) * time.Second; s < base {
			base = s
		}
		for range 50 {
			if d := reconnectDelay(failed); d < base*3/4 || d >= base*5/4 {
				t.Fatalf("after %d failures: wait %v, want %v give or take a quarter", failed, d, base)
			}
		}
	}
}

// connectProxy is an HTTP proxy that only tunnels (CONNECT), and notes
// each request's target and credentials.
type connectProxy struct {
	t    *testing.T
	mu   sync.Mutex
	seen []string // "target credentials"
}

func (p *connectProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodConnect {
		http.Error(w, "tunnels only", http.StatusMethodNotAllowed)
		return
	}
	p.mu.Lock()
	p.seen = append(p.seen, r.Host+" "+r.Header.Get("Proxy-Authorization"))
	p.mu.Unlock()
	up, err := net.Dial("tcp", r.Host)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	defer up.Close()
	conn, buf, err := http.NewResponseController(w).Hijack()
	if err != nil {
		p.t.Errorf("proxy: hijack: %v", err)
		return
	}
	defer conn.Close()
	if _, err := conn.Write([]byte("HTTP/1.1 200 Connection established\r\n\r\n")); err != nil {
		return
	}
	go func() {
		if _, err := io.Copy(up, buf); err != nil {
			return
		}
		if err := up.(*net.TCPConn).CloseWrite(); err != nil {
			return // the copy back ends the tunnel anyway
		}
	}()
	if _, err := io.Copy(conn, up); err != nil {
		return // the client went first
	}
}

// wsEnd is what a test gateway received on one websocket: its text
// messages and how it ended.
type wsEnd struct {
	texts []string
	err   error
}

// The gateway's stream, as the supervisor dials it: TLS through an HTTP
// proxy (with credentials), with heartbeats noticed, and discordgo's close
// frame held back until the session ends.
func TestGatewayDialer(t *testing.T) {
	ends := make(chan wsEnd, 2)
	var up websocket.Upgrader
	gw := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := up.Upgrade(w, r, nil)
		if err != nil {
			return // Upgrade has answered
		}
		defer c.Close()
		var end wsEnd
		for {
			_, msg, err := c.ReadMessage()
			if err != nil {
				end.err = err
				break
			}
			end.texts = append(end.texts, string(msg))
		}
		ends <- end
	}))
	defer gw.Close()
	proxy := &connectProxy{t: t}
	ps := httptest.NewServer(proxy)
	defer ps.Close()
	proxyURL, err := url.Parse(ps.URL)
	if err != nil {
		t.Fatal(err)
	}
	proxyURL.User = url.UserPassword("bot", "s3cret")

	s, err := discordgo.New("Bot test-token")
	if err != nil {
		t.Fatal(err)
	}
	sp := newSupervisor(s, slogDiscard(), "test-token")
	roots := x509.NewCertPool()
	roots.AddCert(gw.Certificate())
	sp.tlsConfig = &tls.Config{RootCAs: roots}
	sp.proxy = func(r *http.Request) (*url.URL, error) {
		if r.URL.Scheme != "https" {
			return nil, fmt.Errorf("asked for a %s proxy, want https", r.URL.Scheme)
		}
		return proxyURL, nil
	}
	// One connection, as Open would dial it.
	connect := func() (*websocket.Conn, *gatewayConn) {
		t.Helper()
		ctx, cancel := context.WithCancel(context.Background())
		t.Cleanup(cancel)
		sp.mu.Lock()
		sp.opening = ctx
		sp.mu.Unlock()
		ws, resp, err := s.Dialer.Dial("wss://"+gw.Listener.Addr().String()+"/?v=9&encoding=json", nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := resp.Body.Close(); err != nil {
			t.Fatal(err)
		}
		sp.mu.Lock()
		defer sp.mu.Unlock()
		c := sp.dialed
		sp.opening, sp.dialed = nil, nil
		return ws, c
	}
	type op struct {
		Op int `json:"op"`
		D  any `json:"d"`
	}
	send := func(ws *websocket.Conn, v any) {
		t.Helper()
		if err := ws.WriteJSON(v); err != nil {
			t.Fatal(err)
		}
	}

	ws, c := connect()
	send(ws, op{2, map[string]string{"token": "Bot test-token"}})
	if c.heartbeat.Load() {
		t.Error("an IDENTIFY was taken for a heartbeat")
	}
	send(ws, op{1, 7})
	if !c.heartbeat.Load() {
		t.Error("the heartbeat went unnoticed")
	}
	if err := ws.WriteMessage(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, "")); err != nil {
		t.Fatal(err)
	}
	if err := ws.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-c.closed:
	default:
		t.Error("closing the websocket did not count as discordgo closing the connection")
	}
	end := <-ends
	// WriteJSON ends each message with a newline, as discordgo's do.
	if want := []string{`{"op":2,"d":{"token":"Bot test-token"}}` + "\n", `{"op":1,"d":7}` + "\n"}; !slices.Equal(end.texts, want) {
		t.Errorf("the gateway read %q, want %q", end.texts, want)
	}
	if websocket.IsCloseError(end.err, websocket.CloseNormalClosure) {
		t.Errorf("the gateway read a close frame 1000 before the session ended: %v", end.err)
	}

	sp.endSession()
	ws, _ = connect()
	if err := ws.WriteMessage(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, "")); err != nil {
		t.Fatal(err)
	}
	if end := <-ends; !websocket.IsCloseError(end.err, websocket.CloseNormalClosure) {
		t.Errorf("the session's last close ended the websocket with %v, want close 1000", end.err)
	}
	if err := ws.Close(); err != nil {
		t.Fatal(err)
	}

	want := gw.Listener.Addr().String() + " Basic " + base64.StdEncoding.EncodeToString([]byte("bot:s3cret"))
	proxy.mu.Lock()
	defer proxy.mu.Unlock()
	if !slices.Equal(proxy.seen, []string{want, want}) {
		t.Errorf("the proxy tunnelled %q, want twice %q", proxy.seen, want)
	}
}

func TestGatewayDialerProxySchemes(t *testing.T) {
	s, err := discordgo.New("Bot test-token")
	if err != nil {
		t.Fatal(err)
	}
	sp := newSupervisor(s, slogDiscard(), "test-token")
	sp.proxy = func(*http.Request) (*url.URL, error) { return url.Parse("socks5://127.0.0.1:1080") }
	sp.opening = context.Background()
	_, _, err = s.Dialer.Dial("ws://127.0.0.1:1/", nil)
	if err == nil || !strings.Contains(err.Error(), "only http and https proxies") {
		t.Errorf("dial through a socks5 proxy: %v", err)
	}
	sp.proxy = func(*http.Request) (*url.URL, error) { return nil, errors.New("bad proxy setting") }
	if _, _, err = s.Dialer.Dial("ws://127.0.0.1:1/", nil); err == nil || !strings.Contains(err.Error(), "bad proxy setting") {
		t.Errorf("dial with a broken proxy setting: %v", err)
	}
}

// supervised opens a session against fake under a supervisor, and runs the
// supervisor until the test ends; the cleanup ends the session before the
// fake closes.
func supervised(t *testing.T, fake *fakediscord.Server, log *slog.Logger, delay func(int) time.Duration) *supervisor {
	t.Helper()
	s, err := discordgo.New(fakediscord.DefaultToken)
	if err != nil {
		t.Fatal(err)
	}
	s.Client = fake.Client()
	s.LogLevel = discordgo.LogWarning
	sp := newSupervisor(s, log, "test-token")
	sp.delay = delay
	ctx, cancel := context.WithCancel(context.Background())
	c, err := sp.open(ctx)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := sp.run(ctx, c); err != nil {
			t.Errorf("supervisor: %v", err)
		}
	}()
	t.Cleanup(func() {
		cancel()
		<-done
		sp.endSession()
		if err := s.Close(); err != nil {
			t.Errorf("close session: %v", err)
		}
	})
	return sp
}

// A gateway that refuses the first reconnect attempts: the supervisor
// tries at once, then backs off, and RESUMEs when the gateway takes it.
func TestSupervisorBacksOff(t *testing.T) {
	fake := fakediscord.New(fakediscord.Options{Logf: t.Logf})
	t.Cleanup(fake.Close)
	logs := &logSink{t: t}
	var mu sync.Mutex
	var waits []int
	supervised(t, fake, slog.New(slog.NewTextHandler(logs, nil)), func(failed int) time.Duration {
		mu.Lock()
		defer mu.Unlock()
		waits = append(waits, failed)
		return time.Duration(failed) * 10 * time.Millisecond
	})
	ctx := waitCtx(t)
	if _, err := fake.WaitIdentify(ctx); err != nil {
		t.Fatal(err)
	}
	fake.RejectGateway(2)
	fake.DropGateway()
	if _, err := fake.WaitResume(ctx); err != nil {
		t.Fatalf("no RESUME: %v", err)
	}
	logs.waitLog(t, "gateway reconnected", "attempts=3")
	if n := len(logs.lines("level=WARN", "reconnect to the gateway", "bad handshake")); n != 2 {
		t.Errorf("%d failed attempts logged, want 2", n)
	}
	var dials []int
	for _, r := range fake.Requests() {
		if r.Route == fakediscord.RouteGatewayWS {
			dials = append(dials, r.Status)
		}
	}
	if want := []int{101, 503, 503, 101}; !slices.Equal(dials, want) {
		t.Errorf("gateway dials answered %v, want %v", dials, want)
	}
	mu.Lock()
	defer mu.Unlock()
	if !slices.Equal(waits, []int{1, 2}) {
		t.Errorf("backed off after failures %v, want after 1 and 2", waits)
	}
}

// A gateway that takes the websocket and then says nothing: discordgo's
// Open would wait for its HELLO for ever. An attempt gives up after the
// open timeout, and at once when the supervisor is stopped.
func TestSupervisorOpenGivesUp(t *testing.T) {
	upgraded := make(chan struct{}, 4)
	var up websocket.Upgrader
	var wsURL string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/v9/gateway" {
			fmt.Fprintf(w, `{"url": %q}`, wsURL)
			return
		}
		c, err := up.Upgrade(w, r, nil)
		if err != nil {
			return // Upgrade has answered
		}
		defer c.Close()
		upgraded <- struct{}{}
		for {
			if _, _, err := c.ReadMessage(); err != nil {
				return // the client has gone
			}
		}
	}))
	defer srv.Close()
	wsURL = "ws://" + srv.Listener.Addr().String() + "/gateway"
	s, err := discordgo.New("Bot test-token")
	if err != nil {
		t.Fatal(err)
	}
	if s.Client, err = apiClient(srv.URL); err != nil {
		t.Fatal(err)
	}
	sp := newSupervisor(s, slogDiscard(), "test-token")

	sp.openTimeout = 100 * time.Millisecond
	start := time.Now()
	if _, err := sp.open(context.Background()); err == nil || !strings.Contains(err.Error(), "no answer from the gateway within 100ms") {
		t.Errorf("open against a silent gateway: %v", err)
	}
	t.Logf("gave up after %v", time.Since(start))

	sp.openTimeout = time.Hour
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := sp.open(ctx)
		errc <- err
	}()
	wait := waitCtx(t)
	for range 2 { // the first attempt's, then this one's
		select {
		case <-upgraded:
		case <-wait.Done():
			t.Fatal("the gateway was not dialed")
		}
	}
	cancel()
	select {
	case err := <-errc:
		if err == nil {
			t.Error("open succeeded against a silent gateway")
		}
	case <-wait.Done():
		t.Fatal("stopping the supervisor did not end the attempt")
	}
}
