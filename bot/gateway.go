package bot

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tablehand/tablehand/commands/kit"
)

// ServeOptions configures Serve.
type ServeOptions struct {
	Token  Secret
	Router *kit.Router
	// DevGuild, when set, registers the commands in that guild only, where
	// they update at once, instead of globally.
	DevGuild string
	Log      *slog.Logger
	// APIURL, when set, sends discordgo's requests there instead of to
	// discord.com (an API proxy, or a fake Discord).
	APIURL string
	// HTTPClient replaces discordgo's client; tests point it at a fake
	// Discord server. It wins over APIURL.
	HTTPClient *http.Client
	// ReadyTimeout bounds the wait for the gateway's READY; default 30 s.
	ReadyTimeout time.Duration
	// OnReady, if set, is called once the commands are registered.
	OnReady func()
	// answered, if set, is told of each interaction once everything its
	// response asked for is done: tests wait on it instead of sleeping.
	answered func(interactionID string)
	// deferAfter overrides DeferAfter, and handler the router as the
	// answerer, for tests.
	deferAfter time.Duration
	handler    Answerer
	// Metrics, if set, counts commands and follows the gateway's state.
	Metrics *Metrics
	// ShardID and ShardCount make this process one shard of several
	// (ShardCount > 1): Discord sends it the guilds with
	// (guild_id >> 22) % ShardCount == ShardID. Shard 0 registers the
	// commands for all.
	ShardID, ShardCount int
}

// Serve connects to Discord's gateway, overwrites the application's
// commands in bulk, and answers interactions until ctx is done. It then
// waits for the answers in flight and disconnects.
func Serve(ctx context.Context, o ServeOptions) error {
	if o.Token == "" {
		return errors.New("serve: no bot token: set TABLEHAND_TOKEN or token in the config file")
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.ReadyTimeout == 0 {
		o.ReadyTimeout = 30 * time.Second
	}
	s, err := gatewaySession(o)
	if err != nil {
		return err
	}
	// The supervisor, not discordgo, reconnects: see supervisor.go.
	gw := newSupervisor(s, o.Log, o.Token)
	var handler Answerer = Logged(o.Router, o.Log, o.Metrics)
	if o.handler != nil {
		handler = o.handler
	}

	ready := make(chan *discordgo.Ready, 1)
	s.AddHandler(func(_ *discordgo.Session, r *discordgo.Ready) {
		select {
		case ready <- r:
		default: // a later READY after a full reconnect: nothing to do
		}
	})
	var inflight sync.WaitGroup
	var stopping sync.RWMutex // held for writing while draining
	s.AddHandler(func(s *discordgo.Session, ic *discordgo.InteractionCreate) {
		if !stopping.TryRLock() {
			return // shutting down; Discord shows the user a failed interaction
		}
		inflight.Add(1)
		stopping.RUnlock()
		defer inflight.Done()
		answer(ctx, s, ic.Interaction, handler, o.Log, cmp.Or(o.deferAfter, DeferAfter))
		if o.answered != nil {
			o.answered(ic.ID)
		}
	})

	start := time.Now()
	gwctx, stopGateway := context.WithCancel(ctx)
	defer stopGateway()
	conn, err := gw.open(gwctx)
	if err != nil {
		if ctx.Err() != nil {
			return nil
		}
		return fmt.Errorf("serve: connect to the gateway: %w", redact(err, o.Token))
	}
	supervised := make(chan struct{})
	refused := make(chan error, 1) // Discord refused the bot for good
	go func() {
		defer close(supervised)
		if err := gw.run(gwctx, conn); err != nil {
			refused <- err
		}
	}()
	defer func() {
		stopping.Lock() // no new interactions
		inflight.Wait()
		stopGateway()
		<-supervised // no reconnect from here on
		gw.endSession()
		if err := s.Close(); err != nil {
			o.Log.Warn("close gateway session", "err", redact(err, o.Token))
		}
	}()

	var r *discordgo.Ready
	select {
	case r = <-ready:
	case <-ctx.Done():
		return nil
	case err := <-refused:
		return fmt.Errorf("serve: the gateway refused the bot: %w", redact(err, o.Token))
	case <-time.After(o.ReadyTimeout):
		return fmt.Errorf("serve: no READY from the gateway within %v", o.ReadyTimeout)
	}
	if err := registerCommands(s, r, o, start); err != nil {
		return err
	}
	if o.OnReady != nil {
		o.OnReady()
	}
	select {
	case <-ctx.Done():
	case err := <-refused:
		// Stop, for the operator (or the service manager) to see why,
		// rather than reconnect for ever.
		return fmt.Errorf("serve: the gateway refused the bot: %w", redact(err, o.Token))
	}
	o.Log.Info("shutting down")
	return nil
}

// gatewaySession is the discordgo session Serve connects: the bot's
// token, the API it talks to, the least intent, its shard, watched by
// the metrics.
func gatewaySession(o ServeOptions) (*discordgo.Session, error) {
	s, err := discordgo.New("Bot " + string(o.Token))
	if err != nil {
		return nil, fmt.Errorf("serve: create session: %w", err)
	}
	switch {
	case o.HTTPClient != nil:
		s.Client = o.HTTPClient
	case o.APIURL != "":
		if s.Client, err = apiClient(o.APIURL); err != nil {
			return nil, fmt.Errorf("serve: %w", err)
		}
	}
	s.LogLevel = discordgo.LogWarning
	// Interactions need no gateway intent; ask for the least.
	s.Identify.Intents = discordgo.IntentsGuilds
	s.ShardID, s.ShardCount = o.ShardID, max(o.ShardCount, 1)
	o.Metrics.watchGateway(s)
	return s, nil
}

// registerCommands logs the READY that connected the bot (start is when
// it began) and, on the first shard, which registers for all, overwrites
// the application's commands with the router's.
func registerCommands(s *discordgo.Session, r *discordgo.Ready, o ServeOptions, start time.Time) error {
	if r.Application == nil || r.Application.ID == "" {
		return errors.New("serve: READY carried no application id")
	}
	o.Log.Info("connected", "user", r.User.Username, "application", r.Application.ID, "guilds", len(r.Guilds), "took", time.Since(start))
	if o.ShardID != 0 {
		return nil
	}
	defs := ApplicationCommands(o.Router.Commands())
	if _, err := s.ApplicationCommandBulkOverwrite(r.Application.ID, o.DevGuild, defs); err != nil {
		return fmt.Errorf("serve: register %d commands: %w", len(defs), redact(err, o.Token))
	}
	scope := "globally"
	if o.DevGuild != "" {
		scope = "in guild " + o.DevGuild
	}
	o.Log.Info("commands registered", "count", len(defs), "scope", scope)
	return nil
}

// answer runs one interaction through the router and sends the callback.
// An answer not ready within deferAfter is deferred ("thinking...") and
// delivered as a follow-up, as the HTTP endpoint does: Discord wants the
// first answer within 3 seconds.
func answer(ctx context.Context, s *discordgo.Session, i *discordgo.Interaction, router Answerer, log *slog.Logger, deferAfter time.Duration) {
	// The handler outlives a cancelled serve context: finishing an answer
	// already begun is part of a clean shutdown. A deferred answer has the
	// token's lifetime; FollowupTimeout bounds it.
	hctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), FollowupTimeout)
	defer cancel()
	// discordgo does not recover a handler's panic: one malformed event
	// must not take the bot down. (The router recovers the handlers; this
	// covers the edge's own code.)
	defer func() {
		if p := recover(); p != nil {
			log.Error("interaction panicked at the edge", "interaction", i.ID, "panic", p)
		}
	}()
	if err := checkShape(i); err != nil {
		// Discord never sends this: nothing runs, and there is no one to
		// answer.
		log.Warn("interaction refused: a shape Discord would not send", "interaction", logID(i.ID), "err", err)
		return
	}
	req := Request(i)
	done := make(chan kit.Response, 1)
	go func() {
		resp, _ := router.Handle(hctx, req) // the router has logged any failure
		done <- resp
	}()
	fail := func(err error) {
		// A transport error quotes the callback URL, which holds the
		// interaction's token: a credential for 15 minutes.
		log.Error("answer interaction", "path", req.Path, "interaction", i.ID, "err", redact(err, Secret(i.Token)))
	}
	var resp kit.Response
	timer := time.NewTimer(deferAfter)
	defer timer.Stop()
	select {
	case resp = <-done:
		if err := respond(hctx, s, i, func() *discordgo.InteractionResponse { return InteractionResponse(resp) }); err != nil {
			fail(err)
			return
		}
	case <-timer.C:
		if req.Kind == kit.KindAutocomplete {
			// Autocomplete cannot be deferred: "no suggestions" rather than
			// nothing.
			if err := respond(hctx, s, i, func() *discordgo.InteractionResponse {
				return InteractionResponse(kit.Response{Type: kit.Autocomplete})
			}); err != nil {
				fail(err)
			}
			return
		}
		if err := respond(hctx, s, i, func() *discordgo.InteractionResponse {
			return &discordgo.InteractionResponse{Type: deferredType(i)}
		}); err != nil {
			fail(err)
			return
		}
		resp = <-done
		if err := followUp(hctx, s, i, resp); err != nil {
			fail(err)
			return
		}
	}
	deliverExtras(hctx, s, i, resp, log)
}

// respond sends the interaction callback, once more after a server error
// or a lost connection: the user would otherwise see "The application did
// not respond". A second acknowledgement cannot answer twice: Discord
// refuses it (40060), which then means the first one got through.
//
// r builds the response afresh for each try: an attachment is a reader,
// used up by the first.
func respond(ctx context.Context, s *discordgo.Session, i *discordgo.Interaction, r func() *discordgo.InteractionResponse) error {
	err := s.InteractionRespond(i, r(), discordgo.WithContext(ctx))
	if err == nil || !retryable(err) {
		return err
	}
	err = s.InteractionRespond(i, r(), discordgo.WithContext(ctx))
	var re *discordgo.RESTError
	if errors.As(err, &re) && re.Message != nil && re.Message.Code == discordgo.ErrCodeInteractionHasAlreadyBeenAcknowledged {
		return nil
	}
	return err
}

// retryable reports whether a callback failed on the way or at Discord's
// end (5xx), rather than because Discord refused it.
func retryable(err error) bool {
	var re *discordgo.RESTError
	if errors.As(err, &re) {
		return re.Response != nil && re.Response.StatusCode >= 500
	}
	return !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, context.Canceled)
}
