package fakediscord

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// Gateway opcodes.
const (
	opDispatch       = 0
	opHeartbeat      = 1
	opIdentify       = 2
	opPresence       = 3
	opVoiceState     = 4
	opResume         = 6
	opReconnect      = 7
	opRequestMembers = 8
	opInvalidSession = 9
	opHello          = 10
	opHeartbeatAck   = 11
)

// Gateway close codes the fake uses.
const (
	CloseUnknownError         = 4000
	CloseUnknownOpcode        = 4001
	CloseDecodeError          = 4002
	CloseNotAuthenticated     = 4003
	CloseAuthenticationFailed = 4004
	CloseAlreadyAuthenticated = 4005
	CloseInvalidShard         = 4010
	CloseDisallowedIntents    = 4014
)

// privilegedIntents are GUILD_MEMBERS, GUILD_PRESENCES and MESSAGE_CONTENT.
const privilegedIntents = 1<<1 | 1<<8 | 1<<15

const (
	writeTimeout = 5 * time.Second
	// closeGrace is how long a connection the fake closed waits for the
	// client to close its side before the fake drops it.
	closeGrace = 2 * time.Second
)

// gwConn is one gateway websocket connection.
type gwConn struct {
	s   *Server
	id  int
	ws  *websocket.Conn
	wmu sync.Mutex // serialises writes

	// guarded by s.gw
	authed    bool
	sessionID string
	closing   bool
}

// gwSession is the gateway session a RESUME continues.
type gwSession struct {
	id    string
	seq   int64
	log   []event // dispatches after READY, for replay on RESUME
	shard *[2]int
}

type event struct {
	seq int64
	t   string
	d   json.RawMessage
}

// payload is a gateway message.
type payload struct {
	Op int             `json:"op"`
	D  json.RawMessage `json:"d"`
	S  *int64          `json:"s"`
	T  *string         `json:"t"`
}

func (s *Server) serveGateway(w http.ResponseWriter, r *http.Request, req *Request) {
	ws, err := s.up.Upgrade(w, r, nil)
	if err != nil { // Upgrade has answered the client
		req.Status = http.StatusBadRequest
		s.recordRequest(req)
		return
	}
	req.Status = http.StatusSwitchingProtocols
	s.recordRequest(req)

	s.gw.Lock()
	if s.closed() {
		s.gw.Unlock()
		_ = ws.Close() // shutting down: nothing to report
		return
	}
	s.connSeq++
	c := &gwConn{s: s, id: s.connSeq, ws: ws}
	s.conns[c] = struct{}{}
	s.wg.Add(1)
	s.gw.Unlock()
	defer s.wg.Done()

	ms := s.opts.HeartbeatInterval.Milliseconds()
	if ms < 1 {
		ms = 1
	}
	if err := c.send(opHello, map[string]int64{"heartbeat_interval": ms}); err != nil {
		s.logf("gateway conn %d: hello: %v", c.id, err)
	}
	c.readLoop()
}

func (c *gwConn) readLoop() {
	s := c.s
	defer c.gone()
	for {
		mt, msg, err := c.ws.ReadMessage()
		if err != nil {
			s.connGone(c, err)
			return
		}
		s.gw.Lock()
		closing := c.closing
		s.gw.Unlock()
		if closing {
			continue
		}
		var p payload
		if mt != websocket.TextMessage || json.Unmarshal(msg, &p) != nil {
			c.closeWith(CloseDecodeError, "Error while decoding payload.")
			continue
		}
		f := Frame{Conn: c.id, FromClient: true, Time: time.Now(), Op: p.Op, Data: p.D}
		if p.S != nil {
			f.Seq = *p.S
		}
		if p.T != nil {
			f.Type = *p.T
		}
		s.recordFrame(f)
		switch p.Op {
		case opHeartbeat:
			s.gw.Lock()
			ack := !s.noAcks
			s.gw.Unlock()
			if ack {
				if err := c.send(opHeartbeatAck, nil); err != nil {
					s.logf("gateway conn %d: heartbeat ack: %v", c.id, err)
				}
			}
		case opIdentify:
			s.identify(c, p.D)
		case opResume:
			s.resume(c, p.D)
		case opPresence, opVoiceState, opRequestMembers:
			s.gw.Lock()
			authed := c.authed
			s.gw.Unlock()
			if !authed {
				c.closeWith(CloseNotAuthenticated, "Not authenticated.")
			}
		default:
			c.closeWith(CloseUnknownOpcode, "Unknown opcode.")
		}
	}
}

// gone closes the socket once the read loop ends.
func (c *gwConn) gone() {
	_ = c.ws.Close() // the connection is over either way
}

// connGone forgets a connection. A close frame 1000 or 1001 from the client
// ends its session, as on Discord; anything else leaves it resumable.
func (s *Server) connGone(c *gwConn, err error) {
	s.gw.Lock()
	defer s.gw.Unlock()
	delete(s.conns, c)
	if s.live == c {
		s.live = nil
	}
	var ce *websocket.CloseError
	if errors.As(err, &ce) && (ce.Code == websocket.CloseNormalClosure || ce.Code == websocket.CloseGoingAway) &&
		s.session != nil && s.session.id == c.sessionID && !c.closing {
		s.session = nil
		s.logf("gateway conn %d: client closed with %d: session ended", c.id, ce.Code)
		return
	}
	s.logf("gateway conn %d: gone: %v", c.id, err)
}

// send writes a non-dispatch payload.
func (c *gwConn) send(op int, d any) error {
	raw, err := json.Marshal(d)
	if err != nil {
		return fmt.Errorf("encode op %d: %w", op, err)
	}
	return c.write(Frame{Conn: c.id, Time: time.Now(), Op: op, Data: raw}, payload{Op: op, D: raw})
}

// sendDispatch writes a dispatch (op 0).
func (c *gwConn) sendDispatch(ev event) error {
	t, seq := ev.t, ev.seq
	return c.write(Frame{Conn: c.id, Time: time.Now(), Op: opDispatch, Seq: seq, Type: t, Data: ev.d},
		payload{Op: opDispatch, D: ev.d, S: &seq, T: &t})
}

func (c *gwConn) write(f Frame, p payload) error {
	b, err := json.Marshal(p)
	if err != nil {
		return fmt.Errorf("encode op %d: %w", p.Op, err)
	}
	c.s.recordFrame(f)
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if err := c.ws.SetWriteDeadline(time.Now().Add(writeTimeout)); err != nil {
		return fmt.Errorf("gateway conn %d: %w", c.id, err)
	}
	if err := c.ws.WriteMessage(websocket.TextMessage, b); err != nil {
		return fmt.Errorf("gateway conn %d: write op %d: %w", c.id, p.Op, err)
	}
	return nil
}

// closeWith sends a close frame and lets the client close its side; the
// connection is dropped after closeGrace if it does not.
func (c *gwConn) closeWith(code int, text string) {
	c.s.gw.Lock()
	c.closing = true
	c.s.gw.Unlock()
	c.s.logf("gateway conn %d: closing with %d %s", c.id, code, text)
	c.wmu.Lock()
	err := c.ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, text), time.Now().Add(writeTimeout))
	c.wmu.Unlock()
	if err != nil {
		c.s.logf("gateway conn %d: close frame: %v", c.id, err)
	}
	if err := c.ws.NetConn().SetReadDeadline(time.Now().Add(closeGrace)); err != nil {
		c.drop()
	}
}

// drop closes the TCP connection without a close frame.
func (c *gwConn) drop() {
	_ = c.ws.NetConn().Close() // abrupt on purpose; the read loop reports the end
}

func (s *Server) identify(c *gwConn, d json.RawMessage) {
	var id Identify
	if err := json.Unmarshal(d, &id); err != nil {
		c.closeWith(CloseDecodeError, "Error while decoding payload.")
		return
	}
	if code, text := s.startSession(c, id); code != 0 {
		c.closeWith(code, text)
	}
}

// startSession checks an IDENTIFY and answers READY, or returns the close
// code and reason to refuse it with.
func (s *Server) startSession(c *gwConn, id Identify) (int, string) {
	s.gw.Lock()
	defer s.gw.Unlock()
	switch {
	case c.authed:
		return CloseAlreadyAuthenticated, "Already authenticated."
	case id.Token != s.opts.Token || s.revoked:
		return CloseAuthenticationFailed, "Authentication failed."
	case id.Shard != nil && (id.Shard[1] < 1 || id.Shard[0] < 0 || id.Shard[0] >= id.Shard[1]):
		return CloseInvalidShard, "Invalid shard."
	case !s.opts.AllowPrivilegedIntents && id.Intents&privilegedIntents != 0:
		return CloseDisallowedIntents, "Disallowed intent(s)."
	}
	s.sessions++
	sess := &gwSession{id: fmt.Sprintf("fake-session-%d", s.sessions), shard: id.Shard}
	s.session = sess
	c.authed, c.sessionID = true, sess.id
	s.live = c

	guilds := make([]map[string]any, 0, len(s.opts.GuildIDs))
	for _, g := range s.opts.GuildIDs {
		guilds = append(guilds, map[string]any{"id": g, "unavailable": true})
	}
	ready := map[string]any{
		"v":          9,
		"session_id": sess.id,
		"user": map[string]any{
			"id": s.opts.BotUserID, "username": s.opts.BotUsername, "discriminator": "0",
			"global_name": nil, "avatar": nil, "bot": true, "verified": true, "flags": 0,
		},
		"application":        map[string]any{"id": s.opts.AppID, "flags": s.opts.AppFlags},
		"guilds":             guilds,
		"private_channels":   []any{},
		"resume_gateway_url": s.wsURL,
	}
	if id.Shard != nil {
		ready["shard"] = id.Shard
	}
	raw, err := json.Marshal(ready)
	if err != nil {
		panic(fmt.Sprintf("fakediscord: encode READY: %v", err)) // a map of plain values always encodes
	}
	sess.seq++
	if err := c.sendDispatch(event{seq: sess.seq, t: "READY", d: raw}); err != nil {
		s.logf("%v", err)
	}
	return 0, ""
}

func (s *Server) resume(c *gwConn, d json.RawMessage) {
	var r Resume
	if err := json.Unmarshal(d, &r); err != nil {
		c.closeWith(CloseDecodeError, "Error while decoding payload.")
		return
	}
	if code, text := s.resumeSession(c, r); code != 0 {
		c.closeWith(code, text)
	}
}

// resumeSession checks a RESUME and replays what the client missed, then
// RESUMED; or answers INVALID_SESSION; or returns the close code and
// reason to refuse it with.
func (s *Server) resumeSession(c *gwConn, r Resume) (int, string) {
	s.gw.Lock()
	defer s.gw.Unlock()
	switch {
	case c.authed:
		return CloseAlreadyAuthenticated, "Already authenticated."
	case r.Token != s.opts.Token || s.revoked:
		return CloseAuthenticationFailed, "Authentication failed."
	}
	sess := s.session
	if sess == nil || sess.id != r.SessionID || r.Seq > sess.seq {
		if err := c.send(opInvalidSession, false); err != nil {
			s.logf("%v", err)
		}
		return 0, ""
	}
	c.authed, c.sessionID = true, sess.id
	s.live = c
	for _, ev := range sess.log {
		if ev.seq > r.Seq {
			if err := c.sendDispatch(ev); err != nil {
				s.logf("%v", err)
				return 0, ""
			}
		}
	}
	sess.seq++
	if err := c.sendDispatch(event{seq: sess.seq, t: "RESUMED", d: json.RawMessage(`{}`)}); err != nil {
		s.logf("%v", err)
	}
	if s.dropResumes > 0 {
		s.dropResumes--
		s.logf("gateway conn %d: dropped right after RESUMED", c.id)
		c.drop()
		s.live = nil
	}
	return 0, ""
}

// Dispatch sends a dispatch event (op 0) of type eventType with data as d
// to the connected client (pass json.RawMessage for raw JSON). Events are
// numbered and kept: one sent while the client is disconnected is delivered
// when it RESUMEs, as Discord does. It fails with ErrNoSession when no
// session exists (never identified, or ended by the client).
func (s *Server) Dispatch(eventType string, data any) error {
	raw, err := json.Marshal(data)
	if err != nil {
		return fmt.Errorf("dispatch %s: %w", eventType, err)
	}
	s.gw.Lock()
	defer s.gw.Unlock()
	if s.closed() {
		return ErrClosed
	}
	sess := s.session
	if sess == nil {
		return fmt.Errorf("dispatch %s: %w", eventType, ErrNoSession)
	}
	sess.seq++
	ev := event{seq: sess.seq, t: eventType, d: raw}
	sess.log = append(sess.log, ev)
	if s.live == nil {
		s.logf("dispatch %s s %d: client disconnected, kept for RESUME", eventType, ev.seq)
		return nil
	}
	if err := s.live.sendDispatch(ev); err != nil {
		// The connection is failing; the client will RESUME and get it.
		s.logf("dispatch %s: %v", eventType, err)
	}
	return nil
}

// DropGateway closes every gateway connection abruptly (no close frame),
// as a network failure would. The session stays resumable: discordgo
// reconnects (after its 1 s Close sleep) and RESUMEs. It returns the
// number of connections dropped.
func (s *Server) DropGateway() int {
	s.gw.Lock()
	defer s.gw.Unlock()
	n := 0
	for c := range s.conns {
		c.drop()
		n++
	}
	s.live = nil
	return n
}

// DropAfterResume makes the fake drop the connection of each of the next n
// RESUMEs abruptly, in the instant after it has answered it (the missed
// events, then RESUMED): a network failure right after a reconnect, before
// the client can have sent anything on the new connection. The session
// stays resumable.
func (s *Server) DropAfterResume(n int) {
	s.gw.Lock()
	defer s.gw.Unlock()
	s.dropResumes = n
}

// CloseGateway sends a close frame with code and reason on every gateway
// connection (e.g. 4000 unknown error, 4009 session timed out) and ends
// them. Note that discordgo v0.29.0 does not look at close codes: it
// reconnects and RESUMEs whatever the code.
func (s *Server) CloseGateway(code int, reason string) {
	s.gw.Lock()
	conns := make([]*gwConn, 0, len(s.conns))
	for c := range s.conns {
		conns = append(conns, c)
	}
	s.live = nil
	s.gw.Unlock()
	for _, c := range conns {
		c.closeWith(code, reason)
	}
}

// RequestReconnect sends op 7 RECONNECT on the live connection. discordgo
// closes with 1012 (sleeping 1 s), reconnects and RESUMEs.
func (s *Server) RequestReconnect() error {
	s.gw.Lock()
	defer s.gw.Unlock()
	if s.live == nil {
		return ErrNoSession
	}
	return s.live.send(opReconnect, nil)
}

// RequestHeartbeat sends op 1 HEARTBEAT on the live connection, as Discord
// may do to ask for one at once. discordgo answers from its read loop with
// a heartbeat, which the fake acknowledges (op 11).
func (s *Server) RequestHeartbeat() error {
	s.gw.Lock()
	defer s.gw.Unlock()
	if s.live == nil {
		return ErrNoSession
	}
	return s.live.send(opHeartbeat, nil)
}

// InvalidateSession sends op 9 INVALID_SESSION with d resumable on the live
// connection; when not resumable the session is forgotten. discordgo
// answers with a fresh IDENTIFY on the same connection, at once.
func (s *Server) InvalidateSession(resumable bool) error {
	s.gw.Lock()
	defer s.gw.Unlock()
	c := s.live
	if c == nil {
		return ErrNoSession
	}
	c.authed = false
	if !resumable {
		s.session = nil
	}
	return c.send(opInvalidSession, resumable)
}

// RevokeToken is the bot's token reset in the developer portal: from now
// on the gateway refuses IDENTIFY and RESUME with 4004. Connections
// already open stay up.
func (s *Server) RevokeToken() {
	s.gw.Lock()
	defer s.gw.Unlock()
	s.revoked = true
}

// SetHeartbeatAcks turns the answers to heartbeats (op 11) on or off. With
// them off discordgo reconnects once about five heartbeat intervals pass
// without an ACK.
func (s *Server) SetHeartbeatAcks(on bool) {
	s.gw.Lock()
	defer s.gw.Unlock()
	s.noAcks = !on
}

// SessionID is the current gateway session's ID, or "".
func (s *Server) SessionID() string {
	s.gw.Lock()
	defer s.gw.Unlock()
	if s.session == nil {
		return ""
	}
	return s.session.id
}
