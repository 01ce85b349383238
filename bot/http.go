package bot

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tablehand/tablehand/commands/kit"
)

// Answerer answers requests; *kit.Router is one.
type Answerer interface {
	Handle(ctx context.Context, req *kit.Request) (kit.Response, error)
}

// needsStore reports whether h may wait on the store to answer req: what
// h says (kit.Router.NeedsStore), else yes.
func needsStore(h Answerer, req *kit.Request) bool {
	n, ok := h.(interface{ NeedsStore(*kit.Request) bool })
	return !ok || n.NeedsStore(req)
}

// validateRequest is h's check that req has a shape Discord would send
// (kit.Router.Validate); nil when h has none.
func validateRequest(h Answerer, req *kit.Request) error {
	v, ok := h.(interface{ Validate(*kit.Request) error })
	if !ok {
		return nil
	}
	return v.Validate(req)
}

// Limits of the HTTP interactions endpoint.
const (
	// MaxInteractionBody bounds a request body. Discord's interactions are a
	// few kilobytes; resolved data of a large autocomplete stays far below.
	MaxInteractionBody = 256 << 10
	// MaxClockSkew is how far a request's signed timestamp may be from now:
	// an older request is a replay.
	MaxClockSkew = 5 * time.Minute
	// DeferAfter is how long the endpoint waits for a handler before it
	// answers "thinking..." (type 5) and sends the answer as a follow-up:
	// Discord wants the first answer within 3 seconds.
	DeferAfter = 2 * time.Second
	// FollowupTimeout bounds a deferred handler: the interaction token
	// lives 15 minutes, but no command should take more than this.
	FollowupTimeout = 30 * time.Second
)

// HTTPOptions configures the HTTP interactions endpoint.
type HTTPOptions struct {
	// PublicKey is the application's Ed25519 public key (the developer
	// portal's hex string, decoded).
	PublicKey ed25519.PublicKey
	Handler   Answerer
	// REST sends follow-ups for deferred answers; a session made with the
	// bot token, never opened (no gateway).
	REST *discordgo.Session
	Log  *slog.Logger
	// Now is the clock the timestamp check uses; default time.Now.
	Now func() time.Time
	// DeferAfter overrides the constant of that name, for tests.
	DeferAfter time.Duration
	// After starts the defer clock (time.After by default); tests give
	// their own, to fire it when they choose.
	After func(time.Duration) <-chan time.Time
	// Replays, when set, is the replay memory shared by every replica on
	// one database (*db.DB is one): an interaction answered by any of them
	// is refused by the others. Without it each process remembers only
	// what it answered itself.
	Replays ReplayStore
}

// ReplayStore records answered interactions where every replica sees
// them. ClaimInteraction reports whether id is claimed for the first time;
// IDs older than keep may be forgotten.
type ReplayStore interface {
	ClaimInteraction(ctx context.Context, id string, now time.Time, keep time.Duration) (bool, error)
}

// Endpoint is the HTTP interactions endpoint: Discord POSTs each
// interaction to it, signed, and takes the interaction response as the
// HTTP response.
type Endpoint struct {
	o        HTTPOptions
	inflight sync.WaitGroup
	seen     seenIDs
	// replaysDown is set while the shared replay memory fails: its outage
	// is logged when it starts and when it ends, not on every request.
	replaysDown atomic.Bool
}

// seenIDs remembers the interactions answered within the last
// 2×MaxClockSkew at least, the window in which a signed request's
// timestamp is still accepted: a request sent again (a replay) is refused
// rather than run twice.
//
// IDs are kept in two generations, each spanning 2×MaxClockSkew: when the
// current one is older than that it becomes the previous one and the
// previous one is dropped whole. An ID is so remembered for 2 to 4 times
// MaxClockSkew, at a constant cost per request (sweeping one map entry by
// entry cost time in proportion to its size, on every 256th request).
type seenIDs struct {
	mu        sync.Mutex
	cur, prev map[string]struct{}
	since     time.Time // when cur was started
}

// seenSpan is how long one generation of seenIDs lasts.
const seenSpan = 2 * MaxClockSkew

// first records id at now and reports whether it is new.
func (s *seenIDs) first(id string, now time.Time) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cur == nil {
		s.cur, s.since = map[string]struct{}{}, now
	}
	// Every ID in cur was recorded less than seenSpan after since. (A
	// clock that went back rotates nothing.)
	if d := now.Sub(s.since); d >= seenSpan {
		s.prev = nil // all older than seenSpan
		if d < 2*seenSpan {
			s.prev = s.cur
		}
		s.cur, s.since = map[string]struct{}{}, now
	}
	if _, ok := s.cur[id]; ok {
		return false
	}
	if _, ok := s.prev[id]; ok {
		return false
	}
	s.cur[id] = struct{}{}
	return true
}

// NewEndpoint returns the endpoint for o.
func NewEndpoint(o HTTPOptions) (*Endpoint, error) {
	if len(o.PublicKey) != ed25519.PublicKeySize {
		return nil, errors.New("http: the application's public key is missing or not 32 bytes: set TABLEHAND_PUBLIC_KEY or public_key (hex, from the developer portal)")
	}
	if o.Handler == nil {
		return nil, errors.New("http: no handler")
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.DeferAfter == 0 {
		o.DeferAfter = DeferAfter
	}
	if o.After == nil {
		o.After = time.After
	}
	return &Endpoint{o: o}, nil
}

// ParsePublicKey decodes the developer portal's hex public key.
func ParsePublicKey(s string) (ed25519.PublicKey, error) {
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != ed25519.PublicKeySize {
		return nil, fmt.Errorf("public key %q: want %d bytes as hex, from the developer portal's General Information page", s, ed25519.PublicKeySize)
	}
	return ed25519.PublicKey(b), nil
}

// ServeHTTP checks the signature before it parses anything: Discord sends
// bad signatures on purpose and removes an endpoint that accepts them.
func (e *Endpoint) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// Discord's 3 seconds run from now: the defer clock starts here,
	// before anything that may wait on the store.
	deferC := e.o.After(e.o.DeferAfter)
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, "POST only", http.StatusMethodNotAllowed)
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, MaxInteractionBody+1))
	if err != nil {
		http.Error(w, "cannot read body", http.StatusBadRequest)
		return
	}
	if len(body) > MaxInteractionBody {
		http.Error(w, "body too large", http.StatusRequestEntityTooLarge)
		return
	}
	if !e.verify(r.Header, body) {
		http.Error(w, "invalid request signature", http.StatusUnauthorized)
		return
	}
	i, err := decodeInteraction(body)
	if err != nil {
		http.Error(w, "bad interaction", http.StatusBadRequest)
		return
	}
	if i.Type == discordgo.InteractionPing {
		writeJSON(w, &discordgo.InteractionResponse{Type: discordgo.InteractionResponsePong})
		return
	}
	req, err := e.validate(i)
	if err != nil {
		// Nothing has run: Discord never sends this, so it is a client
		// or a forger to answer, not a user.
		e.o.Log.Warn("interaction refused: a shape Discord would not send", "interaction", logID(i.ID), "path", req.Path, "err", err)
		http.Error(w, "bad interaction: "+err.Error(), http.StatusBadRequest)
		return
	}
	if !e.seen.first(i.ID, e.o.Now()) {
		// Discord sends each interaction once; this one came again.
		http.Error(w, "interaction already answered", http.StatusConflict)
		return
	}
	e.answer(w, i, req, deferC)
}

// validate converts i into a request and refuses a shape Discord would not
// send: the interaction's own (checkShape), then its options against the
// command's definition, if the handler can say (kit.Router.Validate).
func (e *Endpoint) validate(i *discordgo.Interaction) (*kit.Request, error) {
	if err := checkShape(i); err != nil {
		return &kit.Request{}, err
	}
	req := Request(i)
	return req, validateRequest(e.o.Handler, req)
}

// logID is id for the log when it is a snowflake, else a placeholder: a
// malformed ID is text the sender chose.
func logID(id string) string {
	if isSnowflake(id) {
		return id
	}
	return "(not a snowflake)"
}

// claim asks the shared replay memory, if any, whether id is new. When the
// store cannot say (the database is down, or did not answer in time), the
// interaction is answered: refusing every interaction would stop even the
// commands that need no store, and a replay still needs a valid signature
// from the last few minutes; this process's own memory has refused it
// already if it came here before.
func (e *Endpoint) claim(ctx context.Context, id string) bool {
	if e.o.Replays == nil {
		return true
	}
	first, err := e.o.Replays.ClaimInteraction(ctx, id, e.o.Now(), 2*seenSpan)
	if err != nil {
		if e.replaysDown.CompareAndSwap(false, true) {
			e.o.Log.Warn("replay memory unavailable: answering without it until the store is back (logged once)", "interaction", id, "err", oneLine(err))
		}
		return true
	}
	if e.replaysDown.CompareAndSwap(true, false) {
		e.o.Log.Info("replay memory available again", "interaction", id)
	}
	return first
}

// verify checks the Ed25519 signature over timestamp + body and that the
// timestamp is recent.
func (e *Endpoint) verify(h http.Header, body []byte) bool {
	sig, err := hex.DecodeString(h.Get("X-Signature-Ed25519"))
	if err != nil || len(sig) != ed25519.SignatureSize {
		return false
	}
	ts := h.Get("X-Signature-Timestamp")
	unix, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return false
	}
	if d := e.o.Now().Sub(time.Unix(unix, 0)); d > MaxClockSkew || d < -MaxClockSkew {
		return false
	}
	msg := make([]byte, 0, len(ts)+len(body))
	msg = append(append(msg, ts...), body...)
	return ed25519.Verify(e.o.PublicKey, msg, sig)
}

type handled struct {
	resp kit.Response
	// replay says the shared replay memory refused the interaction: it
	// was not run.
	replay bool
}

// answer claims the interaction in the shared replay memory and runs the
// handler; a quick answer goes back in the HTTP response, a slow one is
// deferred when deferC fires (DeferAfter after the request arrived, the
// claim's time included) and sent as a follow-up when it is ready. Every
// store call of both has the deadline FollowupTimeout after arrival. A
// command that needs no store (NeedsStore) is not claimed: running one
// twice changes nothing, and it never waits on a slow store.
func (e *Endpoint) answer(w http.ResponseWriter, i *discordgo.Interaction, req *kit.Request, deferC <-chan time.Time) {
	claim := needsStore(e.o.Handler, req)
	done := make(chan handled, 1)
	e.inflight.Add(1)
	go func() {
		defer e.inflight.Done()
		ctx, cancel := context.WithTimeout(context.Background(), FollowupTimeout)
		defer cancel()
		if claim && !e.claim(ctx, i.ID) {
			done <- handled{replay: true}
			return
		}
		resp, _ := e.o.Handler.Handle(ctx, req) // failures are already answers, and logged
		done <- handled{resp: resp}
	}()
	select {
	case h := <-done:
		if h.replay {
			http.Error(w, "interaction already answered", http.StatusConflict)
			return
		}
		writeResponse(w, InteractionResponse(h.resp))
		e.extras(i, h.resp)
		return
	case <-deferC:
	}
	if req.Kind == kit.KindAutocomplete {
		// Autocomplete cannot be deferred: say "no suggestions" rather
		// than nothing.
		writeJSON(w, InteractionResponse(kit.Response{Type: kit.Autocomplete}))
		return
	}
	writeJSON(w, &discordgo.InteractionResponse{Type: deferredType(i)})
	e.inflight.Add(1)
	go func() {
		defer e.inflight.Done()
		h := <-done
		if h.replay {
			// Deferred before the slow replay memory could say: it was not
			// run, and Discord refuses a second answer to the first.
			e.o.Log.Info("replay refused after deferring", "path", req.Path, "interaction", i.ID)
			return
		}
		if err := e.followUp(i, h.resp); err != nil {
			e.o.Log.Error("send deferred answer", "path", req.Path, "interaction", i.ID, "err", redact(err, Secret(i.Token)))
			return
		}
		e.extras(i, h.resp)
	}()
}

// followUp delivers an answer that was deferred.
func (e *Endpoint) followUp(i *discordgo.Interaction, r kit.Response) error {
	if e.o.REST == nil {
		return errors.New("no REST session for follow-ups (is the bot token set?)")
	}
	ctx, cancel := context.WithTimeout(context.Background(), FollowupTimeout)
	defer cancel()
	return followUp(ctx, e.o.REST, i, r)
}

// deferredType is how an interaction is acknowledged when its answer will
// come later: a click without a placeholder, so @original stays the message
// clicked (the tracker), which an update then edits; anything else with a
// "thinking..." placeholder.
func deferredType(i *discordgo.Interaction) discordgo.InteractionResponseType {
	if i.Type == discordgo.InteractionMessageComponent {
		return discordgo.InteractionResponseDeferredMessageUpdate
	}
	return discordgo.InteractionResponseDeferredChannelMessageWithSource
}

// followUp delivers a deferred answer through s, by either edge.
func followUp(ctx context.Context, s *discordgo.Session, i *discordgo.Interaction, r kit.Response) error {
	data := InteractionResponse(r).Data
	edit := func() error {
		_, err := s.InteractionResponseEdit(i, &discordgo.WebhookEdit{
			Content: &data.Content, Embeds: &data.Embeds, Components: &data.Components, Files: data.Files,
			AllowedMentions: data.AllowedMentions,
		}, discordgo.WithContext(ctx))
		return err
	}
	send := func() error {
		params := &discordgo.WebhookParams{
			Content: data.Content, Embeds: data.Embeds, Components: data.Components, Files: data.Files,
			AllowedMentions: data.AllowedMentions,
		}
		if r.Ephemeral {
			params.Flags = discordgo.MessageFlagsEphemeral
		}
		_, err := s.FollowupMessageCreate(i, false, params, discordgo.WithContext(ctx))
		return err
	}
	if i.Type == discordgo.InteractionMessageComponent {
		// Deferred as an update: @original is the message clicked.
		if r.Type == kit.UpdateMessage {
			return edit()
		}
		return send()
	}
	// Deferred with a "thinking..." placeholder. It cannot become private,
	// and an edit notifies nobody it mentions: those answers replace it
	// with a message of their own.
	if r.Ephemeral || len(r.MentionUsers) > 0 {
		if err := s.InteractionResponseDelete(i, discordgo.WithContext(ctx)); err != nil {
			return fmt.Errorf("delete placeholder: %w", err)
		}
		return send()
	}
	return edit()
}

// extras delivers what the response asks beyond the answer, after the
// HTTP response has gone, through the REST session.
func (e *Endpoint) extras(i *discordgo.Interaction, r kit.Response) {
	if e.o.REST == nil || (r.Posted == nil && r.Edit == nil && len(r.Followups) == 0 && len(r.Posts) == 0) {
		return
	}
	e.inflight.Add(1)
	go func() {
		defer e.inflight.Done()
		ctx, cancel := context.WithTimeout(context.Background(), FollowupTimeout)
		defer cancel()
		deliverExtras(ctx, e.o.REST, i, r, e.o.Log)
	}()
}

// Wait blocks until every handler and follow-up in flight has finished.
func (e *Endpoint) Wait() { e.inflight.Wait() }

// writeResponse writes an interaction response as the HTTP response: JSON,
// or multipart with payload_json when it carries files, as Discord takes it.
func writeResponse(w http.ResponseWriter, r *discordgo.InteractionResponse) {
	if r.Data == nil || len(r.Data.Files) == 0 {
		writeJSON(w, r)
		return
	}
	contentType, body, err := discordgo.MultipartBodyWithJSON(r, r.Data.Files)
	if err != nil {
		http.Error(w, "encode response", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", contentType)
	w.Write(body) // a failed write means Discord hung up; nothing to do
}

func writeJSON(w http.ResponseWriter, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		http.Error(w, "encode response", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(body) // a failed write means Discord hung up; nothing to do
}

// ServeHTTPEndpoint listens on addr and serves the endpoint, and beside
// it the web pages if web is not nil (WithPages), until ctx is done, then
// stops taking requests and waits for answers in flight.
func ServeHTTPEndpoint(ctx context.Context, addr string, e *Endpoint, web http.Handler, log *slog.Logger) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("http: listen on %s: %w", addr, err)
	}
	srv := &http.Server{
		Handler:           WithPages(e, web),
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       10 * time.Second,
		WriteTimeout:      10 * time.Second,
		MaxHeaderBytes:    16 << 10,
	}
	onShutdown(srv, web)
	log.Info("listening for interactions", "addr", ln.Addr().String())
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("http: %w", err)
	case <-ctx.Done():
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err = srv.Shutdown(shutdownCtx)
	e.Wait()
	if err != nil {
		return fmt.Errorf("http: shut down: %w", err)
	}
	return nil
}

// RESTSession returns a session for REST calls only (no gateway), made with
// the bot token, and registers the commands with it as serve does: an
// endpoint gets no READY, so the application is looked up with
// GET /applications/@me. Without a token it returns nil and logs that
// slow answers cannot be delivered and commands are not registered.
func RESTSession(ctx context.Context, token Secret, apiURL, devGuild string, router *kit.Router, log *slog.Logger) (*discordgo.Session, error) {
	if token == "" {
		log.Warn("no bot token: commands are not registered and answers slower than 2 s cannot be delivered")
		return nil, nil
	}
	s, err := discordgo.New("Bot " + string(token))
	if err != nil {
		return nil, fmt.Errorf("http: create REST session: %w", err)
	}
	if apiURL != "" {
		if s.Client, err = apiClient(apiURL); err != nil {
			return nil, fmt.Errorf("http: %w", err)
		}
	}
	s.LogLevel = discordgo.LogWarning
	app, err := s.Application("@me")
	if err != nil {
		return nil, fmt.Errorf("http: look up the application: %w", redact(err, token))
	}
	defs := ApplicationCommands(router.Commands())
	if _, err := s.ApplicationCommandBulkOverwrite(app.ID, devGuild, defs, discordgo.WithContext(ctx)); err != nil {
		return nil, fmt.Errorf("http: register %d commands: %w", len(defs), redact(err, token))
	}
	log.Info("commands registered", "count", len(defs), "application", app.ID)
	return s, nil
}

// oneLine is err's text on one line: a driver's error may hold line breaks
// (PostgreSQL's detail and hint), which split one log record into many.
func oneLine(err error) string {
	return strings.Join(strings.Fields(err.Error()), " ")
}
