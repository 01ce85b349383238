package fakediscord

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"strings"
	"time"
)

// Request is one HTTP request the fake received, with the answer it gave.
// Copies share Header, Body and Params: treat them as read-only.
type Request struct {
	Seq      int         // 1-based arrival order among all requests
	Time     time.Time   // arrival
	Method   string      // "GET", "POST", ...
	Path     string      // URL path as sent, e.g. /api/v9/interactions/1/tok/callback
	RawQuery string      // e.g. "wait=true"
	Host     string      // the host the client meant (discord.com when rewritten by Client)
	Header   http.Header // request headers, including Authorization
	Body     []byte      // raw body; see Payload for multipart bodies

	Route  string            // the route pattern that answered (e.g. RouteCallback), "" if none
	Params map[string]string // the route's wildcards, e.g. "id", "token"
	Status int               // status the fake answered; 0 while a Fault's match runs, and when dropped
	Fault  bool              // answered by an injected Fault
}

// Param returns the route wildcard name ("app", "guild", "id", "token",
// "channel", "message"), or "".
func (r Request) Param(name string) string { return r.Params[name] }

// Payload returns the JSON payload of the body: the body itself, or the
// payload_json part of a multipart body (messages with files).
func (r Request) Payload() []byte {
	mt, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || !strings.HasPrefix(mt, "multipart/") {
		return r.Body
	}
	mr := multipart.NewReader(bytes.NewReader(r.Body), params["boundary"])
	for {
		p, err := mr.NextPart()
		if err != nil {
			return nil
		}
		if p.FormName() == "payload_json" {
			b, err := io.ReadAll(p)
			if err != nil {
				return nil
			}
			return b
		}
	}
}

// Decode unmarshals the JSON payload into v.
func (r Request) Decode(v any) error {
	if err := json.Unmarshal(r.Payload(), v); err != nil {
		return fmt.Errorf("decode %s %s body: %w", r.Method, r.Path, err)
	}
	return nil
}

// OK reports whether the fake answered with a 2xx status.
func (r Request) OK() bool { return r.Status >= 200 && r.Status < 300 }

// String is a one-line summary for logs and failure messages.
func (r Request) String() string {
	return fmt.Sprintf("#%d %s %s -> %d", r.Seq, r.Method, r.Path, r.Status)
}

// Frame is one gateway payload, sent by the client (FromClient) or by the fake.
type Frame struct {
	Conn       int             // gateway connection number, from 1
	FromClient bool            // sent by the client, else by the fake
	Time       time.Time       // when it was received or sent
	Op         int             // opcode: 0 dispatch, 1 heartbeat, 2 identify, 6 resume, 10 hello, 11 ack, ...
	Seq        int64           // s of a dispatch, else 0
	Type       string          // t of a dispatch, e.g. "READY", else ""
	Data       json.RawMessage // d
}

// Identify is the d of an IDENTIFY (op 2).
type Identify struct {
	Token          string            `json:"token"`
	Intents        int64             `json:"intents"`
	Shard          *[2]int           `json:"shard,omitempty"`
	Compress       bool              `json:"compress"`
	LargeThreshold int               `json:"large_threshold"`
	Properties     map[string]string `json:"properties"`
}

// Resume is the d of a RESUME (op 6).
type Resume struct {
	Token     string `json:"token"`
	SessionID string `json:"session_id"`
	Seq       int64  `json:"seq"`
}

// Callback is a decoded interaction callback (the body of
// POST /interactions/{id}/{token}/callback).
type Callback struct {
	Type    int           `json:"type"` // 1 pong, 4 message, 5 deferred, 6/7 update, 8 autocomplete, 9 modal
	Data    *CallbackData `json:"data"`
	Request Request       `json:"-"` // the request that carried it
}

// CallbackData holds the commonly asserted fields of a callback's data;
// decode Request into discordgo's types for the rest.
type CallbackData struct {
	Content         string            `json:"content"`
	Flags           int               `json:"flags"` // 64 ephemeral
	TTS             bool              `json:"tts"`
	Embeds          []json.RawMessage `json:"embeds"`
	Components      []json.RawMessage `json:"components"`
	AllowedMentions json.RawMessage   `json:"allowed_mentions"`
	Choices         []Choice          `json:"choices"` // autocomplete result
	CustomID        string            `json:"custom_id"`
	Title           string            `json:"title"` // modal
}

// Choice is one autocomplete choice.
type Choice struct {
	Name  string `json:"name"`
	Value any    `json:"value"`
}

// Ephemeral reports whether the ephemeral flag (1<<6) is set.
func (d *CallbackData) Ephemeral() bool { return d != nil && d.Flags&64 != 0 }

// record appends under s.mu and wakes the waiters.
func (s *Server) notifyLocked() {
	close(s.changed)
	s.changed = make(chan struct{})
}

func (s *Server) recordRequest(r *Request) {
	s.mu.Lock()
	r.Seq = len(s.requests) + 1
	s.requests = append(s.requests, *r)
	s.notifyLocked()
	s.mu.Unlock()
	q := ""
	if r.RawQuery != "" {
		q = "?" + r.RawQuery
	}
	s.logf("%s %s%s -> %d", r.Method, r.Path, q, r.Status)
}

func (s *Server) recordFrame(f Frame) {
	s.mu.Lock()
	s.frames = append(s.frames, f)
	s.notifyLocked()
	s.mu.Unlock()
	dir := "to client"
	if f.FromClient {
		dir = "from client"
	}
	s.logf("gateway conn %d %s: op %d s %d t %q", f.Conn, dir, f.Op, f.Seq, f.Type)
}

// Requests returns a copy of every request received so far, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Frames returns a copy of every gateway payload so far, in order.
func (s *Server) Frames() []Frame {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Frame(nil), s.frames...)
}

// WaitRequest returns the first recorded request (past or future) for which
// match is true, waiting until ctx is done or the server closes.
func (s *Server) WaitRequest(ctx context.Context, match func(Request) bool) (Request, error) {
	seen := 0
	for {
		s.mu.Lock()
		for _, r := range s.requests[seen:] {
			if match(r) {
				s.mu.Unlock()
				return r, nil
			}
		}
		seen = len(s.requests)
		changed := s.changed
		s.mu.Unlock()
		select {
		case <-changed:
		case <-ctx.Done():
			return Request{}, fmt.Errorf("wait for request (%d seen): %w", seen, ctx.Err())
		case <-s.done:
			return Request{}, ErrClosed
		}
	}
}

// WaitFrame returns the first recorded gateway payload (past or future) for
// which match is true, waiting until ctx is done or the server closes.
func (s *Server) WaitFrame(ctx context.Context, match func(Frame) bool) (Frame, error) {
	seen := 0
	for {
		s.mu.Lock()
		for _, f := range s.frames[seen:] {
			if match(f) {
				s.mu.Unlock()
				return f, nil
			}
		}
		seen = len(s.frames)
		changed := s.changed
		s.mu.Unlock()
		select {
		case <-changed:
		case <-ctx.Done():
			return Frame{}, fmt.Errorf("wait for gateway frame (%d seen): %w", seen, ctx.Err())
		case <-s.done:
			return Frame{}, ErrClosed
		}
	}
}

// WaitCallback waits for the first successful callback to the interaction
// and returns its decoded body. Callbacks answered with an error (injected
// faults, double acknowledgements) are skipped.
func (s *Server) WaitCallback(ctx context.Context, interactionID string) (Callback, error) {
	r, err := s.WaitRequest(ctx, func(r Request) bool {
		return r.Route == RouteCallback && r.Param("id") == interactionID && r.OK()
	})
	if err != nil {
		return Callback{}, fmt.Errorf("callback for interaction %s: %w", interactionID, err)
	}
	cb := Callback{Request: r}
	if err := r.Decode(&cb); err != nil {
		return Callback{}, err
	}
	return cb, nil
}

// WaitIdentify waits for the first IDENTIFY (op 2) the client sends.
func (s *Server) WaitIdentify(ctx context.Context) (Identify, error) {
	f, err := s.WaitFrame(ctx, func(f Frame) bool { return f.FromClient && f.Op == opIdentify })
	if err != nil {
		return Identify{}, err
	}
	var id Identify
	if err := json.Unmarshal(f.Data, &id); err != nil {
		return Identify{}, fmt.Errorf("decode identify: %w", err)
	}
	return id, nil
}

// WaitResume waits for the first RESUME (op 6) the client sends.
func (s *Server) WaitResume(ctx context.Context) (Resume, error) {
	f, err := s.WaitFrame(ctx, func(f Frame) bool { return f.FromClient && f.Op == opResume })
	if err != nil {
		return Resume{}, err
	}
	var r Resume
	if err := json.Unmarshal(f.Data, &r); err != nil {
		return Resume{}, fmt.Errorf("decode resume: %w", err)
	}
	return r, nil
}

// Route returns a predicate matching requests by a pattern "METHOD /path"
// whose {name} segments match any one segment, e.g.
// Route("POST /api/v9/interactions/{id}/{token}/callback"). A trailing
// slash in the request path is ignored. Use it with WaitRequest and FailNext.
func Route(pattern string) func(Request) bool {
	p := parsePattern(pattern)
	return func(r Request) bool {
		_, ok := p.match(r.Method, r.Path)
		return ok
	}
}

// pattern is a parsed "METHOD /a/{b}/c".
type pattern struct {
	text   string
	method string
	segs   []string
}

func parsePattern(text string) pattern {
	method, path, ok := strings.Cut(text, " ")
	if !ok {
		panic(fmt.Sprintf("fakediscord: pattern %q is not \"METHOD /path\"", text))
	}
	return pattern{text: text, method: method, segs: splitPath(path)}
}

func splitPath(p string) []string {
	return strings.Split(strings.Trim(p, "/"), "/")
}

func (p pattern) match(method, path string) (map[string]string, bool) {
	if method != p.method {
		return nil, false
	}
	segs := splitPath(path)
	if len(segs) != len(p.segs) {
		return nil, false
	}
	var params map[string]string
	for i, ps := range p.segs {
		if strings.HasPrefix(ps, "{") && strings.HasSuffix(ps, "}") {
			if segs[i] == "" {
				return nil, false
			}
			if params == nil {
				params = map[string]string{}
			}
			params[ps[1:len(ps)-1]] = segs[i]
			continue
		}
		if ps != segs[i] {
			return nil, false
		}
	}
	return params, true
}
