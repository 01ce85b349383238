package bot

import (
	"bufio"
	"context"
	"crypto/tls"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
)

// The gateway supervisor: Tablehand, not discordgo, reopens a gateway
// connection that failed.
//
// discordgo v0.29.0 reconnects by itself, from whichever of a connection's
// two goroutines meets the failure (wsapi.go), and that is not safe. Open
// starts them while it holds the session lock (line 201): heartbeat sends
// its first heartbeat only once it gets the lock for reading (lines
// 290-298). If the connection dies in that instant, listen (lines 214-239)
// calls Close, which sleeps a second holding the lock (line 972), and then
// reconnects. The heartbeat goroutine, which was waiting for the lock, then
// writes on the closed connection, fails ("websocket: close sent") and calls
// Close and reconnect itself (lines 300-308) without checking, as listen
// does (line 224), that its connection is still the session's: by then
// the session holds the new connection, and Close ends it with 1000, which
// ends the session on Discord's side. The new connection's heartbeat
// goroutine is caught the same way, and so on: an IDENTIFY a second, for
// ever.
//
// So the supervisor turns discordgo's reconnect off (ShouldReconnectOnError:
// discordgo still closes a failed connection, but no longer opens one) and
// opens the next connection itself, once no goroutine of the old one can
// close the session any more. It knows when that is from two facts. Each
// Close emits one Disconnect event (line 986), which the supervisor counts.
// And the session dials through the supervisor, which sees every frame
// discordgo writes and the Close of the connection: if the close frame went
// out before any heartbeat, the heartbeat goroutine is bound to fail its
// first write and call Close once more. So after a connection is closed
// the supervisor waits for one more Disconnect than it had counted when
// the connection closed (that Close's own) or two (and the heartbeat
// goroutine's), and only then reconnects, RESUMEing the session. The
// extra Close finds no connection and does nothing. The supervisor never
// waits for a Close that may not come: it expects one only from the Close
// it saw, and from a goroutine that has no other way out.
//
// Two more things keep a session alive. A close frame from discordgo
// reaches Discord only when Serve ends the session on shutdown: discordgo
// closes every failed connection with 1000, after which Discord refuses a
// RESUME (its documentation asks for another code when the client means to
// resume). And a write error is not reported to discordgo: the heartbeat
// goroutine would otherwise close and reconnect alongside listen, which
// meets the same failure when it reads.
//
// What remains is a goroutine caught between waking and writing at the
// instant its connection is closed: a heartbeat goroutine woken by its ticker
// (a few microseconds in every 41 seconds), or listen answering Discord's
// request for a heartbeat (op 1) before the heartbeat goroutine's first one.
// Such a goroutine can still close the next connection. That costs a RESUME,
// not the session, and no loop: the supervisor handles it as any closed
// connection.

// gatewayOpenTimeout bounds one attempt to connect: dial, HELLO, and the
// answer to IDENTIFY or RESUME. Past the websocket handshake, discordgo's
// Open waits for the gateway without a deadline of its own.
const gatewayOpenTimeout = 45 * time.Second

// Reconnect attempts after the first, which is immediate, wait from
// reconnectMinDelay, doubling up to reconnectMaxDelay, give or take a
// quarter so that the shards of a bot do not come back in step.
const (
	reconnectMinDelay = time.Second
	reconnectMaxDelay = 2 * time.Minute
)

// supervisor owns the gateway connections of one discordgo session.
type supervisor struct {
	s     *discordgo.Session
	log   *slog.Logger
	token Secret

	openTimeout time.Duration
	delay       func(attempt int) time.Duration // before attempt n+1 when n failed
	proxy       func(*http.Request) (*url.URL, error)
	tlsConfig   *tls.Config // nil: the system's roots; tests trust their own

	disconnects atomic.Int64  // Disconnect events so far
	kick        chan struct{} // one more Disconnect event (capacity 1)
	final       atomic.Bool   // let close frames through: the session ends

	mu      sync.Mutex
	opening context.Context // the attempt in progress, or nil
	dialed  *gatewayConn    // the connection it dialed, or nil
}

// newSupervisor takes over the connections of s. Call it before Open.
func newSupervisor(s *discordgo.Session, log *slog.Logger, token Secret) *supervisor {
	sp := &supervisor{
		s: s, log: log, token: token,
		openTimeout: gatewayOpenTimeout,
		delay:       reconnectDelay,
		proxy:       http.ProxyFromEnvironment,
		kick:        make(chan struct{}, 1),
	}
	s.ShouldReconnectOnError = false
	s.Dialer = &websocket.Dialer{
		// TCP, any proxy and TLS are done here, so that what the
		// websocket reads and writes through is its own frames
		// (websocket.DefaultDialer, discordgo's, puts TLS on top).
		NetDialContext: func(ctx context.Context, _, addr string) (net.Conn, error) {
			return sp.dial(ctx, "http", addr)
		},
		NetDialTLSContext: func(ctx context.Context, _, addr string) (net.Conn, error) {
			return sp.dial(ctx, "https", addr)
		},
		HandshakeTimeout: websocket.DefaultDialer.HandshakeTimeout,
	}
	s.AddHandler(func(*discordgo.Session, *discordgo.Disconnect) {
		sp.disconnects.Add(1)
		select {
		case sp.kick <- struct{}{}:
		default: // a wake-up is pending already
		}
	})
	return sp
}

// reconnectDelay is the wait before attempt n+1, once n attempts failed.
func reconnectDelay(failed int) time.Duration {
	d := reconnectMaxDelay
	if failed <= 8 { // 1 s << 7 passes the maximum
		d = min(reconnectMinDelay<<max(failed-1, 0), reconnectMaxDelay)
	}
	return d*3/4 + rand.N(d/2)
}

// open connects the session, IDENTIFYing or RESUMEing as discordgo decides,
// and returns the new connection.
func (sp *supervisor) open(ctx context.Context) (*gatewayConn, error) {
	ctx, cancel := context.WithTimeout(ctx, sp.openTimeout)
	defer cancel()
	sp.mu.Lock()
	sp.opening, sp.dialed = ctx, nil
	sp.mu.Unlock()
	// Open takes no context: a gateway that stops answering, or a
	// shutdown, ends the attempt by closing the socket under it.
	stop := context.AfterFunc(ctx, func() {
		sp.mu.Lock()
		defer sp.mu.Unlock()
		if sp.dialed != nil {
			sp.dialed.abort()
		}
	})
	err := sp.s.Open()
	stop()
	sp.mu.Lock()
	c := sp.dialed
	sp.opening, sp.dialed = nil, nil
	sp.mu.Unlock()
	switch {
	case err != nil && errors.Is(ctx.Err(), context.DeadlineExceeded):
		return nil, fmt.Errorf("no answer from the gateway within %v: %w", sp.openTimeout, err)
	case err != nil:
		return nil, err
	case c == nil: // Open returns nil only after dialing
		return nil, errors.New("gateway opened without dialing")
	}
	return c, nil
}

// run reopens the session's connection, starting from c, each time
// discordgo closes it, until ctx is done (nil) or Discord refuses the bot
// for good (the error: see fatalClose).
func (sp *supervisor) run(ctx context.Context, c *gatewayConn) error {
	for {
		select {
		case <-c.closed:
		case <-ctx.Done():
			return nil
		}
		// The Close that closed c, and the heartbeat goroutine's if it
		// had sent nothing yet: see the top of this file.
		want := c.closedAt + 1
		early := !c.heartbeat.Load()
		if early {
			want++
		}
		sp.log.Info("gateway connection closed; reconnecting", "before_first_heartbeat", early)
		if !sp.waitDisconnects(ctx, want) {
			return nil
		}
		var err error
		if c, err = sp.reconnect(ctx); c == nil {
			return err
		}
	}
}

// waitDisconnects waits until n Disconnect events have been seen. It
// reports false if ctx ended first.
func (sp *supervisor) waitDisconnects(ctx context.Context, n int64) bool {
	for sp.disconnects.Load() < n {
		select {
		case <-sp.kick:
		case <-ctx.Done():
			return false
		}
	}
	return true
}

// reconnect opens the session again, backing off between failed attempts,
// until it succeeds (the new connection), ctx ends (nil, nil), or Discord
// refuses the bot for good (nil and why).
func (sp *supervisor) reconnect(ctx context.Context) (*gatewayConn, error) {
	start := time.Now()
	var wait time.Duration
	for attempt := 1; ; attempt++ {
		if wait > 0 {
			t := time.NewTimer(wait)
			select {
			case <-t.C:
			case <-ctx.Done():
				t.Stop()
				return nil, nil
			}
		}
		c, err := sp.open(ctx)
		if err == nil {
			sp.log.Info("gateway reconnected", "attempts", attempt, "took", time.Since(start))
			return c, nil
		}
		if ctx.Err() != nil {
			return nil, nil
		}
		if fatalClose(err) {
			return nil, err
		}
		wait = sp.delay(attempt)
		sp.log.Warn("reconnect to the gateway", "attempt", attempt, "retry_in", wait, "err", redact(err, sp.token))
	}
}

// fatalClose reports whether err is the gateway closing with a code that
// Discord documents as not to be retried: the token is wrong (4004), the
// shard is invalid or sharding is required (4010, 4011), the API version
// or the intents are refused (4012 to 4014). Retrying would only spend
// the day's session starts: the operator must change something.
func fatalClose(err error) bool {
	var ce *websocket.CloseError
	if !errors.As(err, &ce) {
		return false
	}
	switch ce.Code {
	case 4004, 4010, 4011, 4012, 4013, 4014:
		return true
	}
	return false
}

// endSession lets discordgo's next close frame through: Serve is closing
// the session for good, and Discord may forget it.
func (sp *supervisor) endSession() { sp.final.Store(true) }

// dial opens the stream of a gateway websocket (scheme "http" for ws://,
// "https" for wss://) for the Open in progress.
func (sp *supervisor) dial(ctx context.Context, scheme, addr string) (net.Conn, error) {
	sp.mu.Lock()
	opening := sp.opening
	sp.mu.Unlock()
	if opening == nil {
		return nil, errors.New("gateway: the session was opened behind the supervisor's back")
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer context.AfterFunc(opening, cancel)()
	conn, err := sp.dialTCP(ctx, scheme, addr)
	if err != nil {
		return nil, err
	}
	if scheme == "https" {
		host, _, err := net.SplitHostPort(addr)
		if err != nil {
			return nil, closeAfter(conn, fmt.Errorf("gateway address %q: %w", addr, err))
		}
		tc := tls.Client(conn, tlsClientConfig(sp.tlsConfig, host))
		if err := tc.HandshakeContext(ctx); err != nil {
			return nil, closeAfter(conn, fmt.Errorf("gateway %s: tls: %w", addr, err))
		}
		conn = tc
	}
	c := &gatewayConn{Conn: conn, sp: sp, closed: make(chan struct{})}
	sp.mu.Lock()
	defer sp.mu.Unlock()
	if err := opening.Err(); err != nil { // too late: the abort has run
		return nil, closeAfter(conn, err)
	}
	sp.dialed = c
	return c, nil
}

// dialTCP connects to addr, through the proxy that the environment names
// for scheme (HTTP_PROXY, HTTPS_PROXY, NO_PROXY) if any.
func (sp *supervisor) dialTCP(ctx context.Context, scheme, addr string) (net.Conn, error) {
	var d net.Dialer
	proxy, err := sp.proxy(&http.Request{URL: &url.URL{Scheme: scheme, Host: addr}})
	if err != nil {
		return nil, fmt.Errorf("proxy for the gateway: %w", err)
	}
	if proxy == nil {
		return d.DialContext(ctx, "tcp", addr)
	}
	return dialTunnel(ctx, &d, proxy, addr, sp.tlsConfig)
}

// dialTunnel opens a tunnel to addr through an HTTP or HTTPS proxy
// (CONNECT), with the credentials in its URL if any.
func dialTunnel(ctx context.Context, d *net.Dialer, proxy *url.URL, addr string, tlsConfig *tls.Config) (net.Conn, error) {
	port := proxy.Port()
	switch {
	case proxy.Scheme != "http" && proxy.Scheme != "https":
		return nil, fmt.Errorf("proxy %s: only http and https proxies can carry the gateway", proxy.Redacted())
	case port == "" && proxy.Scheme == "http":
		port = "80"
	case port == "":
		port = "443"
	}
	conn, err := d.DialContext(ctx, "tcp", net.JoinHostPort(proxy.Hostname(), port))
	if err != nil {
		return nil, fmt.Errorf("proxy %s: %w", proxy.Redacted(), err)
	}
	if proxy.Scheme == "https" {
		tc := tls.Client(conn, tlsClientConfig(tlsConfig, proxy.Hostname()))
		if err := tc.HandshakeContext(ctx); err != nil {
			return nil, closeAfter(conn, fmt.Errorf("proxy %s: tls: %w", proxy.Redacted(), err))
		}
		conn = tc
	}
	defer context.AfterFunc(ctx, func() {
		if err := conn.SetDeadline(time.Unix(1, 0)); err != nil {
			return // closed already: the exchange has failed anyway
		}
	})()
	req := &http.Request{Method: http.MethodConnect, URL: &url.URL{Opaque: addr}, Host: addr, Header: http.Header{}}
	if u := proxy.User; u != nil {
		password, _ := u.Password() // the bool tells only whether there is one
		req.Header.Set("Proxy-Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(u.Username()+":"+password)))
	}
	if err := req.Write(conn); err != nil {
		return nil, closeAfter(conn, fmt.Errorf("proxy %s: CONNECT %s: %w", proxy.Redacted(), addr, err))
	}
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, req)
	if err != nil {
		return nil, closeAfter(conn, fmt.Errorf("proxy %s: CONNECT %s: %w", proxy.Redacted(), addr, err))
	}
	if err := resp.Body.Close(); err != nil {
		return nil, closeAfter(conn, fmt.Errorf("proxy %s: CONNECT %s: %w", proxy.Redacted(), addr, err))
	}
	if resp.StatusCode != http.StatusOK {
		return nil, closeAfter(conn, fmt.Errorf("proxy %s: CONNECT %s: %s", proxy.Redacted(), addr, resp.Status))
	}
	if br.Buffered() > 0 { // the client speaks first, in TLS as in HTTP
		return nil, closeAfter(conn, fmt.Errorf("proxy %s: CONNECT %s: data before the handshake", proxy.Redacted(), addr))
	}
	return conn, nil
}

func tlsClientConfig(base *tls.Config, serverName string) *tls.Config {
	cfg := &tls.Config{}
	if base != nil {
		cfg = base.Clone()
	}
	if cfg.ServerName == "" {
		cfg.ServerName = serverName
	}
	return cfg
}

// closeAfter closes a connection that failed to set up and returns why.
func closeAfter(conn net.Conn, err error) error {
	if cerr := conn.Close(); cerr != nil {
		return fmt.Errorf("%w (and closing: %w)", err, cerr)
	}
	return err
}

// gatewayConn is one gateway connection as discordgo's websocket sees it.
// It notes the heartbeats discordgo writes and when discordgo closes it,
// keeps close frames from Discord until the session ends, and keeps write
// errors from discordgo (see the top of this file).
type gatewayConn struct {
	net.Conn
	sp *supervisor

	heartbeat atomic.Bool   // a heartbeat (op 1) was written
	closedAt  int64         // sp.disconnects when discordgo closed it; set before closed
	closed    chan struct{} // closed by discordgo's Close
	once      sync.Once
	werr      sync.Once
}

func (c *gatewayConn) Write(p []byte) (int, error) {
	switch clientFrame(p) {
	case frameClose:
		if !c.sp.final.Load() {
			return len(p), nil
		}
	case frameHeartbeat:
		c.heartbeat.Store(true)
	}
	if _, err := c.Conn.Write(p); err != nil {
		// listen meets the failure on its next read and closes the
		// connection; the write goes nowhere either way.
		c.werr.Do(func() { c.sp.log.Debug("gateway write failed", "err", err) })
	}
	return len(p), nil
}

// Close is discordgo closing the connection (Session.Close, or a failed
// Open).
func (c *gatewayConn) Close() error {
	c.once.Do(func() {
		c.closedAt = c.sp.disconnects.Load()
		close(c.closed)
	})
	return c.Conn.Close()
}

// abort ends the connection under discordgo, which then meets a read
// error.
func (c *gatewayConn) abort() {
	if err := c.Conn.Close(); err != nil {
		c.sp.log.Debug("abort gateway connection", "err", err)
	}
}

type frameKind int

const (
	frameOther frameKind = iota
	frameHeartbeat
	frameClose
)

// heartbeatPrefix starts discordgo's heartbeat payload, {"op":1,"d":SEQ}.
const heartbeatPrefix = `{"op":1,`

// clientFrame tells what p holds when it is exactly one whole, masked,
// unfragmented websocket frame, as gorilla/websocket writes each frame of
// a client in one Write. Anything else (the HTTP upgrade request, or a
// frame split across writes, which gorilla does not do) is frameOther, and
// passes untouched.
func clientFrame(p []byte) frameKind {
	if len(p) < 2 || p[1]&0x80 == 0 {
		return frameOther
	}
	n, i := uint64(p[1]&0x7f), 2
	switch n {
	case 126:
		if len(p) < 4 {
			return frameOther
		}
		n, i = uint64(binary.BigEndian.Uint16(p[2:])), 4
	case 127:
		if len(p) < 10 {
			return frameOther
		}
		n, i = binary.BigEndian.Uint64(p[2:]), 10
	}
	if len(p) < i+4 || uint64(len(p)-i-4) != n {
		return frameOther
	}
	key, payload := p[i:i+4], p[i+4:]
	switch p[0] { // FIN, no extension bits, opcode
	case 0x88:
		return frameClose
	case 0x81:
		if len(payload) < len(heartbeatPrefix) {
			return frameOther
		}
		for j := range len(heartbeatPrefix) {
			if payload[j]^key[j%4] != heartbeatPrefix[j] {
				return frameOther
			}
		}
		return frameHeartbeat
	}
	return frameOther
}
