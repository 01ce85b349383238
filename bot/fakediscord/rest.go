package fakediscord

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"time"
	"unicode/utf8"
)

// Route patterns of the endpoints the fake implements, as recorded in
// Request.Route and accepted by Route. Any other request is answered 404
// (or 405 for a known path with another method) and recorded too.
const (
	RouteGatewayWS         = "GET /gateway" // the websocket upgrade (discordgo dials /gateway/?v=9&encoding=json)
	RouteGateway           = "GET /api/v9/gateway"
	RouteGatewayBot        = "GET /api/v9/gateway/bot"
	RouteApplicationMe     = "GET /api/v9/oauth2/applications/@me"
	RouteGlobalCommands    = "PUT /api/v9/applications/{app}/commands"
	RouteGuildCommands     = "PUT /api/v9/applications/{app}/guilds/{guild}/commands"
	RouteGetGlobalCommands = "GET /api/v9/applications/{app}/commands"
	RouteGetGuildCommands  = "GET /api/v9/applications/{app}/guilds/{guild}/commands"
	RouteCallback          = "POST /api/v9/interactions/{id}/{token}/callback"
	RouteFollowup          = "POST /api/v9/webhooks/{app}/{token}"
	RouteGetOriginal       = "GET /api/v9/webhooks/{app}/{token}/messages/@original"
	RouteEditOriginal      = "PATCH /api/v9/webhooks/{app}/{token}/messages/@original"
	RouteDeleteOriginal    = "DELETE /api/v9/webhooks/{app}/{token}/messages/@original"
	RouteGetFollowup       = "GET /api/v9/webhooks/{app}/{token}/messages/{message}"
	RouteEditFollowup      = "PATCH /api/v9/webhooks/{app}/{token}/messages/{message}"
	RouteDeleteFollowup    = "DELETE /api/v9/webhooks/{app}/{token}/messages/{message}"
	RouteCreateMessage     = "POST /api/v9/channels/{channel}/messages"
	RouteEditMessage       = "PATCH /api/v9/channels/{channel}/messages/{message}"
)

const (
	maxContentLen           = 2000
	maxEmbeds               = 10
	defaultRateLimitRetry   = 50 * time.Millisecond
	messageFlagEphemeral    = 1 << 6
	messageFlagLoading      = 1 << 7
	messageTypeDefault      = 0
	messageTypeChatInputCmd = 20
)

type route struct {
	pattern
	auth bool // needs the bot token in Authorization
	h    func(s *Server, req *Request) reply
}

// routes are tried in order; the first match answers. @original comes
// before the {message} routes so that Request.Route names it.
var routes = []route{
	{pattern: parsePattern(RouteGatewayWS)}, // handled by serveGateway
	{pattern: parsePattern(RouteGateway), h: (*Server).getGateway},
	{pattern: parsePattern(RouteGatewayBot), auth: true, h: (*Server).getGatewayBot},
	{pattern: parsePattern(RouteApplicationMe), auth: true, h: (*Server).getApplication},
	{pattern: parsePattern(RouteGlobalCommands), auth: true, h: (*Server).putCommands},
	{pattern: parsePattern(RouteGuildCommands), auth: true, h: (*Server).putCommands},
	{pattern: parsePattern(RouteGetGlobalCommands), auth: true, h: (*Server).getCommands},
	{pattern: parsePattern(RouteGetGuildCommands), auth: true, h: (*Server).getCommands},
	{pattern: parsePattern(RouteCallback), h: (*Server).postCallback},
	{pattern: parsePattern(RouteFollowup), h: (*Server).postFollowup},
	{pattern: parsePattern(RouteGetOriginal), h: (*Server).getWebhookMessage},
	{pattern: parsePattern(RouteEditOriginal), h: (*Server).editWebhookMessage},
	{pattern: parsePattern(RouteDeleteOriginal), h: (*Server).deleteWebhookMessage},
	{pattern: parsePattern(RouteGetFollowup), h: (*Server).getWebhookMessage},
	{pattern: parsePattern(RouteEditFollowup), h: (*Server).editWebhookMessage},
	{pattern: parsePattern(RouteDeleteFollowup), h: (*Server).deleteWebhookMessage},
	{pattern: parsePattern(RouteCreateMessage), auth: true, h: (*Server).postChannelMessage},
	{pattern: parsePattern(RouteEditMessage), auth: true, h: (*Server).editChannelMessage},
}

// reply is an answer not yet written.
type reply struct {
	status int
	header http.Header
	body   []byte
}

func jsonReply(status int, v any) reply {
	b, err := json.Marshal(v)
	if err != nil {
		return errorReply(http.StatusInternalServerError, 0, "fakediscord: "+err.Error())
	}
	return reply{status: status, body: b}
}

// errorReply is Discord's JSON error body.
func errorReply(status, code int, message string) reply {
	return jsonReply(status, map[string]any{"message": message, "code": code})
}

func invalidForm(detail string) reply {
	return jsonReply(http.StatusBadRequest, map[string]any{
		"message": "Invalid Form Body", "code": 50035,
		"errors": map[string]any{"_errors": []map[string]string{{"code": "BASE_TYPE_INVALID", "message": detail}}},
	})
}

// Fault is a canned failure for FailNext.
type Fault struct {
	// Status is the HTTP status to answer. 429 gets Discord's rate-limit
	// body and numeric X-RateLimit-* headers; others get a JSON error.
	Status int
	// RetryAfter is a 429's retry_after (seconds in the body, which is what
	// discordgo sleeps) and X-RateLimit-Reset-After. Default 50 ms.
	RetryAfter time.Duration
	// Global marks a 429 as global: "global": true and X-RateLimit-Global.
	// (discordgo treats any non-empty X-RateLimit-Global as global, so the
	// header is absent otherwise.)
	Global bool
	// Code and Message make the JSON error body of non-429 faults.
	// Defaults: 0 and Discord's "<status>: <text>".
	Code    int
	Message string
	// Drop closes the connection without any answer instead.
	Drop bool
}

// RateLimit is a 429 fault with the given retry_after.
func RateLimit(retryAfter time.Duration) Fault {
	return Fault{Status: http.StatusTooManyRequests, RetryAfter: retryAfter}
}

// ServerError is a fault answering status (500, 502, 503, ...). discordgo
// retries only 502, immediately, up to MaxRestRetries times.
func ServerError(status int) Fault { return Fault{Status: status} }

type fault struct {
	match func(Request) bool
	left  int
	f     Fault
}

// FailNext makes the next n requests for which match is true answer with
// the fault instead of their normal answer. Faults are tried in the order
// they were added. The Request given to match has no Status yet.
func (s *Server) FailNext(n int, match func(Request) bool, f Fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = append(s.faults, &fault{match: match, left: n, f: f})
}

// RejectGateway makes the next n gateway connection attempts fail with
// HTTP 503 before the websocket upgrade, so Dial fails. (discordgo's
// reconnect loop then waits 1 s, 2 s, 4 s, ... between attempts.)
func (s *Server) RejectGateway(n int) {
	s.FailNext(n, Route(RouteGatewayWS), ServerError(http.StatusServiceUnavailable))
}

func (s *Server) takeFault(req Request) (Fault, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, f := range s.faults {
		if f.left > 0 && f.match(req) {
			f.left--
			return f.f, true
		}
	}
	return Fault{}, false
}

func (f Fault) reply() reply {
	if f.Status == http.StatusTooManyRequests {
		after := f.RetryAfter
		if after <= 0 {
			after = defaultRateLimitRetry
		}
		secs := after.Seconds()
		h := http.Header{}
		h.Set("X-RateLimit-Limit", "1")
		h.Set("X-RateLimit-Remaining", "0")
		h.Set("X-RateLimit-Reset-After", strconv.FormatFloat(secs, 'f', 3, 64))
		reset := float64(time.Now().Add(after).UnixMilli()) / 1000
		h.Set("X-RateLimit-Reset", strconv.FormatFloat(reset, 'f', 3, 64))
		if f.Global {
			h.Set("X-RateLimit-Global", "true")
		}
		r := jsonReply(f.Status, map[string]any{
			"message": "You are being rate limited.", "retry_after": secs, "global": f.Global,
		})
		r.header = h
		return r
	}
	msg := f.Message
	if msg == "" {
		msg = fmt.Sprintf("%d: %s", f.Status, http.StatusText(f.Status))
	}
	return errorReply(f.Status, f.Code, msg)
}

func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	req := Request{
		Time:     time.Now(),
		Method:   r.Method,
		Path:     r.URL.Path,
		RawQuery: r.URL.RawQuery,
		Host:     r.Host,
		Header:   r.Header.Clone(),
		Body:     body,
	}
	rt, params, known := findRoute(r.Method, r.URL.Path)
	if rt != nil {
		req.Route, req.Params = rt.text, params
	}
	var rep reply
	switch {
	case err != nil:
		rep = errorReply(http.StatusBadRequest, 0, "fakediscord: read body: "+err.Error())
	default:
		if f, ok := s.takeFault(req); ok {
			req.Fault = true
			if f.Drop {
				s.recordRequest(&req)
				dropHTTP(w)
				return
			}
			rep = f.reply()
			break
		}
		switch {
		case rt == nil && known:
			rep = errorReply(http.StatusMethodNotAllowed, 0, "405: Method Not Allowed")
		case rt == nil:
			rep = errorReply(http.StatusNotFound, 0, "404: Not Found")
		case rt.h == nil:
			s.serveGateway(w, r, &req)
			return
		case rt.auth && r.Header.Get("Authorization") != s.opts.Token:
			rep = errorReply(http.StatusUnauthorized, 0, "401: Unauthorized")
		default:
			rep = rt.h(s, &req)
		}
	}
	req.Status = rep.status
	s.recordRequest(&req)
	for k, v := range rep.header {
		w.Header()[k] = v
	}
	if rep.body != nil && rep.status != http.StatusNoContent {
		w.Header().Set("Content-Type", "application/json")
	}
	w.WriteHeader(rep.status)
	if rep.status != http.StatusNoContent {
		_, _ = w.Write(rep.body) // the client went away: nothing to do
	}
}

// findRoute returns the route for method and path, or nil and whether the
// path is known under another method.
func findRoute(method, path string) (*route, map[string]string, bool) {
	known := false
	for i := range routes {
		if params, ok := routes[i].match(method, path); ok {
			return &routes[i], params, true
		}
		if _, ok := routes[i].match(routes[i].method, path); ok {
			known = true
		}
	}
	return nil, nil, known
}

// dropHTTP closes the client's connection without an answer.
func dropHTTP(w http.ResponseWriter) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		panic(http.ErrAbortHandler)
	}
	conn, _, err := hj.Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	_ = conn.Close() // a drop is the point: the error says nothing more
}

func (s *Server) getGateway(*Request) reply {
	return jsonReply(http.StatusOK, map[string]string{"url": s.wsURL})
}

// getApplication answers the bot's own application, as an HTTP-endpoint
// bot (which gets no READY) learns its application ID.
func (s *Server) getApplication(*Request) reply {
	return jsonReply(http.StatusOK, map[string]any{
		"id": s.opts.AppID, "name": s.opts.BotUsername, "flags": s.opts.AppFlags,
		"bot": map[string]any{"id": s.opts.BotUserID, "username": s.opts.BotUsername, "bot": true},
	})
}

func (s *Server) getGatewayBot(*Request) reply {
	return jsonReply(http.StatusOK, map[string]any{
		"url":    s.wsURL,
		"shards": 1,
		"session_start_limit": map[string]int{
			"total": 1000, "remaining": 999, "reset_after": 86400000, "max_concurrency": 1,
		},
	})
}

// checkApp answers 403 when the path's application is not the fake's.
func (s *Server) checkApp(req *Request) (reply, bool) {
	if req.Param("app") != s.opts.AppID {
		return errorReply(http.StatusForbidden, 50001, "Missing Access"), false
	}
	return reply{}, true
}

// putCommands is a bulk overwrite: the scope's commands become the body's,
// echoed back with IDs (kept across overwrites for the same type and name).
func (s *Server) putCommands(req *Request) reply {
	if rep, ok := s.checkApp(req); !ok {
		return rep
	}
	var cmds []map[string]any
	if err := json.Unmarshal(req.Body, &cmds); err != nil {
		return invalidForm("body must be an array of application commands: " + err.Error())
	}
	scope := req.Param("guild")
	seen := map[string]bool{}
	out := make([]map[string]any, 0, len(cmds))
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, c := range cmds {
		name, _ := c["name"].(string)
		if name == "" {
			return invalidForm(fmt.Sprintf("command %d has no name", i))
		}
		typ := 1.0
		if t, ok := c["type"].(float64); ok && t != 0 {
			typ = t
		}
		key := fmt.Sprintf("%s\x00%v\x00%s", scope, typ, name)
		if seen[key] {
			return errorReply(http.StatusBadRequest, 50035, "Application command names must be unique")
		}
		seen[key] = true
		id, ok := s.commandIDs[key]
		if !ok {
			id = s.newID()
			s.commandIDs[key] = id
		}
		m := maps.Clone(c)
		m["id"] = id
		m["type"] = typ
		m["application_id"] = s.opts.AppID
		m["version"] = s.newID()
		if scope != "" {
			m["guild_id"] = scope
		}
		if _, ok := m["default_member_permissions"]; !ok {
			m["default_member_permissions"] = nil
		}
		out = append(out, m)
	}
	s.commands[scope] = out
	return jsonReply(http.StatusOK, out)
}

func (s *Server) getCommands(req *Request) reply {
	if rep, ok := s.checkApp(req); !ok {
		return rep
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	cmds := s.commands[req.Param("guild")]
	if cmds == nil {
		cmds = []map[string]any{}
	}
	return jsonReply(http.StatusOK, cmds)
}

// Commands returns the commands of the last bulk overwrite of a scope
// (guildID "" for global), as the fake echoed them (with IDs).
func (s *Server) Commands(guildID string) []map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]map[string]any(nil), s.commands[guildID]...)
}

// commandID returns the ID of a registered chat command, or "".
func (s *Server) commandID(guildID, name string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, scope := range []string{guildID, ""} {
		if id, ok := s.commandIDs[fmt.Sprintf("%s\x00%v\x00%s", scope, 1.0, name)]; ok {
			return id
		}
	}
	return ""
}

// interactionState is what the fake knows of an interaction it delivered.
type interactionState struct {
	id, token, channelID string
	typ                  int
	dispatched           time.Time
	acked                bool
	original             string // ID of the @original message, "" if none
	componentMessage     string // ID of the message a component was on
}

// knownCallbackTypes are the callback types Discord accepts for each
// interaction type.
var knownCallbackTypes = map[int][]int{
	InteractionPing:         {1},
	InteractionCommand:      {4, 5, 9},
	InteractionComponent:    {4, 5, 6, 7, 9},
	InteractionAutocomplete: {8},
	InteractionModalSubmit:  {4, 5, 6, 7},
}

func (s *Server) postCallback(req *Request) reply {
	var cb struct {
		Type int            `json:"type"`
		Data map[string]any `json:"data"`
	}
	if err := json.Unmarshal(req.Payload(), &cb); err != nil {
		return invalidForm("callback body: " + err.Error())
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.interaction[req.Param("id")]
	if st == nil || st.token != req.Param("token") {
		return errorReply(http.StatusNotFound, 10062, "Unknown interaction")
	}
	if st.acked {
		return errorReply(http.StatusBadRequest, 40060, "Interaction has already been acknowledged.")
	}
	if d := s.opts.CallbackDeadline; d > 0 && req.Time.Sub(st.dispatched) > d {
		return errorReply(http.StatusNotFound, 10062, "Unknown interaction")
	}
	if !validCallback(st.typ, cb.Type) {
		return invalidForm(fmt.Sprintf("callback type %d is invalid for interaction type %d", cb.Type, st.typ))
	}
	switch cb.Type {
	case 4:
		if rep, ok := checkMessage(cb.Data, req); !ok {
			return rep
		}
		st.original = s.storeMessageLocked(st.channelID, messageTypeChatInputCmd, cb.Data)
	case 5:
		flags := messageFlagLoading
		if f, ok := cb.Data["flags"].(float64); ok {
			flags |= int(f) & messageFlagEphemeral
		}
		st.original = s.storeMessageLocked(st.channelID, messageTypeChatInputCmd, map[string]any{"flags": flags})
	case 6:
		st.original = st.componentMessage
	case 7:
		if st.componentMessage == "" {
			st.componentMessage = s.storeMessageLocked(st.channelID, messageTypeDefault, nil)
		}
		st.original = st.componentMessage
		mergeMessage(s.messages[st.original], cb.Data)
	}
	st.acked = true
	return reply{status: http.StatusNoContent}
}

func validCallback(interactionType, callbackType int) bool {
	for _, t := range knownCallbackTypes[interactionType] {
		if t == callbackType {
			return true
		}
	}
	return false
}

// checkMessage applies Discord's basic message rules to a payload.
func checkMessage(p map[string]any, req *Request) (reply, bool) {
	content, _ := p["content"].(string)
	if utf8.RuneCountInString(content) > maxContentLen {
		return invalidForm(fmt.Sprintf("content: must be %d or fewer in length", maxContentLen)), false
	}
	embeds, _ := p["embeds"].([]any)
	if len(embeds) > maxEmbeds {
		return invalidForm(fmt.Sprintf("embeds: must be %d or fewer in length", maxEmbeds)), false
	}
	components, _ := p["components"].([]any)
	attachments, _ := p["attachments"].([]any)
	stickers, _ := p["sticker_ids"].([]any)
	multipart := len(req.Payload()) != len(req.Body)
	if content == "" && len(embeds) == 0 && len(components) == 0 && len(attachments) == 0 &&
		len(stickers) == 0 && p["poll"] == nil && !multipart {
		return errorReply(http.StatusBadRequest, 50006, "Cannot send an empty message"), false
	}
	return reply{}, true
}

// webhookState returns the interaction behind a webhook token. For a token
// the fake never dispatched (an interaction delivered some other way, such
// as the HTTP interactions endpoint) it makes an acknowledged one.
func (s *Server) webhookStateLocked(token string) *interactionState {
	st := s.byToken[token]
	if st == nil {
		st = &interactionState{token: token, channelID: s.opts.ChannelID, typ: InteractionCommand, acked: true}
		s.byToken[token] = st
	}
	return st
}

func unknownWebhook() reply { return errorReply(http.StatusNotFound, 10015, "Unknown Webhook") }
func unknownMessage() reply { return errorReply(http.StatusNotFound, 10008, "Unknown Message") }

func (s *Server) postFollowup(req *Request) reply {
	if req.Param("app") != s.opts.AppID {
		return unknownWebhook()
	}
	var p map[string]any
	if err := json.Unmarshal(req.Payload(), &p); err != nil {
		return invalidForm("message body: " + err.Error())
	}
	if rep, ok := checkMessage(p, req); !ok {
		return rep
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.webhookStateLocked(req.Param("token"))
	if !st.acked {
		return unknownWebhook()
	}
	id := s.storeMessageLocked(st.channelID, messageTypeChatInputCmd, p)
	if !queryTrue(req.RawQuery, "wait") {
		return reply{status: http.StatusNoContent}
	}
	return jsonReply(http.StatusOK, s.messages[id])
}

// webhookMessageLocked resolves the message of a webhook message route.
func (s *Server) webhookMessageLocked(req *Request) (map[string]any, reply, bool) {
	if req.Param("app") != s.opts.AppID {
		return nil, unknownWebhook(), false
	}
	st := s.webhookStateLocked(req.Param("token"))
	if !st.acked {
		return nil, unknownWebhook(), false
	}
	id := req.Param("message")
	if id == "" { // @original
		id = st.original
	}
	m := s.messages[id]
	if m == nil {
		return nil, unknownMessage(), false
	}
	return m, reply{}, true
}

// answeredElsewhereLocked gives an interaction answered elsewhere (by the
// HTTP endpoint, which the fake never sees) the original message its
// answer made, when an edit or a delete of @original first names it: the
// "thinking..." placeholder of a deferred answer is edited into the answer,
// or deleted to make way for a private one.
func (s *Server) answeredElsewhereLocked(req *Request) {
	st := s.webhookStateLocked(req.Param("token"))
	if req.Param("message") == "" && st.acked && st.original == "" && s.interaction[st.id] == nil {
		st.original = s.storeMessageLocked(st.channelID, messageTypeChatInputCmd, nil)
	}
}

func (s *Server) getWebhookMessage(req *Request) reply {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, rep, ok := s.webhookMessageLocked(req)
	if !ok {
		return rep
	}
	return jsonReply(http.StatusOK, m)
}

func (s *Server) editWebhookMessage(req *Request) reply {
	var p map[string]any
	if err := json.Unmarshal(req.Payload(), &p); err != nil {
		return invalidForm("message body: " + err.Error())
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.answeredElsewhereLocked(req)
	m, rep, ok := s.webhookMessageLocked(req)
	if !ok {
		return rep
	}
	mergeMessage(m, p)
	content, _ := m["content"].(string)
	if utf8.RuneCountInString(content) > maxContentLen {
		return invalidForm(fmt.Sprintf("content: must be %d or fewer in length", maxContentLen))
	}
	return jsonReply(http.StatusOK, m)
}

func (s *Server) deleteWebhookMessage(req *Request) reply {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.answeredElsewhereLocked(req)
	m, rep, ok := s.webhookMessageLocked(req)
	if !ok {
		return rep
	}
	id, _ := m["id"].(string)
	delete(s.messages, id)
	return reply{status: http.StatusNoContent}
}

func (s *Server) postChannelMessage(req *Request) reply {
	var p map[string]any
	if err := json.Unmarshal(req.Payload(), &p); err != nil {
		return invalidForm("message body: " + err.Error())
	}
	if rep, ok := checkMessage(p, req); !ok {
		return rep
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	id := s.storeMessageLocked(req.Param("channel"), messageTypeDefault, p)
	return jsonReply(http.StatusOK, s.messages[id])
}

// editChannelMessage edits a message the fake holds in that channel, as
// the bot edits its own earlier messages (the encounter tracker).
func (s *Server) editChannelMessage(req *Request) reply {
	var p map[string]any
	if err := json.Unmarshal(req.Payload(), &p); err != nil {
		return invalidForm("message body: " + err.Error())
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.messages[req.Param("message")]
	if m == nil || m["channel_id"] != req.Param("channel") {
		return unknownMessage()
	}
	mergeMessage(m, p)
	content, _ := m["content"].(string)
	if utf8.RuneCountInString(content) > maxContentLen {
		return invalidForm(fmt.Sprintf("content: must be %d or fewer in length", maxContentLen))
	}
	return jsonReply(http.StatusOK, m)
}

// Message returns a copy of a message the fake holds (created by a
// callback, follow-up, edit or channel message), or nil.
func (s *Server) Message(id string) map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	return maps.Clone(s.messages[id])
}

// OriginalMessage returns a copy of an interaction's @original message
// (after a type 4 or 5 callback, and its edits), or nil.
func (s *Server) OriginalMessage(interactionID string) map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.interaction[interactionID]
	if st == nil {
		return nil
	}
	return maps.Clone(s.messages[st.original])
}

// storeMessageLocked creates a message from a payload and returns its ID.
func (s *Server) storeMessageLocked(channelID string, typ int, p map[string]any) string {
	id := s.newID()
	m := map[string]any{
		"id":               id,
		"type":             typ,
		"channel_id":       channelID,
		"content":          "",
		"tts":              false,
		"mention_everyone": false,
		"mentions":         []any{},
		"mention_roles":    []any{},
		"attachments":      []any{},
		"embeds":           []any{},
		"components":       []any{},
		"pinned":           false,
		"flags":            0,
		"timestamp":        time.Now().UTC().Format(time.RFC3339Nano),
		"edited_timestamp": nil,
		"application_id":   s.opts.AppID,
		"author": map[string]any{
			"id": s.opts.BotUserID, "username": s.opts.BotUsername, "discriminator": "0", "bot": true,
		},
	}
	setFields(m, p)
	s.messages[id] = m
	return id
}

// setFields copies a payload's message fields into m; null clears.
func setFields(m, p map[string]any) {
	for _, k := range []string{"content", "embeds", "components", "attachments", "flags", "tts", "poll"} {
		v, ok := p[k]
		if !ok {
			continue
		}
		if v == nil {
			switch k {
			case "content":
				v = ""
			case "flags":
				v = 0
			case "tts":
				v = false
			case "poll":
			default:
				v = []any{}
			}
		}
		m[k] = v
	}
}

// mergeMessage applies an edit payload. An edit cannot change the
// ephemeral flag; the first edit of a deferred ("loading") message
// completes it rather than marking it edited.
func mergeMessage(m, p map[string]any) {
	if m == nil || len(p) == 0 {
		return
	}
	old, _ := toInt(m["flags"])
	setFields(m, p)
	nw, _ := toInt(m["flags"])
	m["flags"] = nw&^(messageFlagLoading|messageFlagEphemeral) | old&messageFlagEphemeral
	if old&messageFlagLoading == 0 {
		m["edited_timestamp"] = time.Now().UTC().Format(time.RFC3339Nano)
	}
}

func toInt(v any) (int, bool) {
	switch n := v.(type) {
	case int:
		return n, true
	case float64:
		if n == math.Trunc(n) {
			return int(n), true
		}
	}
	return 0, false
}

func queryTrue(rawQuery, key string) bool {
	q, err := url.ParseQuery(rawQuery)
	if err != nil {
		return false
	}
	b, err := strconv.ParseBool(q.Get(key))
	return err == nil && b
}
