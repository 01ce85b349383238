// Package fakediscord is a fake Discord server (REST and websocket gateway)
// on the loopback interface, for driving the real discordgo client offline.
//
// A test starts a Server, points a discordgo session at it and opens it:
//
//	fake := fakediscord.New(fakediscord.Options{})
//	defer fake.Close() // after the session is closed
//	s, err := discordgo.New(fakediscord.DefaultToken)
//	s.Client = fake.Client()
//	err = s.Open()
//
// discordgo computes its Endpoint* variables once at init, so the fake is
// reached through Client: its transport rewrites the scheme and host of every
// request to the fake and leaves everything else alone. The websocket dialer
// needs no such help: Open asks GET /api/v9/gateway for the gateway URL, and
// the fake answers with its own ws://127.0.0.1:PORT/gateway, which discordgo
// dials directly (adding "/?v=9&encoding=json").
//
// Everything the client sends is recorded: REST requests as Request values
// and gateway payloads as Frame values. Tests wait for what they expect with
// WaitRequest, WaitCallback and WaitFrame, which wake on every new record
// instead of polling. Faults (429, 5xx, dropped connections, refused or
// closed gateway connections) are injected with FailNext, RejectGateway,
// CloseGateway, DropGateway and DropAfterResume.
//
// The fake listens on 127.0.0.1 only and never dials out.
//
// Things discordgo v0.29.0 forces on tests that use it:
//   - Session.Close sleeps one second while holding the session lock, and so
//     does every reconnect after a dropped gateway connection (the read loop
//     calls Close before reconnecting). Keep opened sessions few.
//   - Set ShouldReconnectOnError to false before Close, and close the
//     session before the Server: otherwise a reconnect loop can start against
//     a dead fake.
//   - Event handlers run in their own goroutines: assert on what the fake
//     recorded, or have the handler report to the test over a channel.
//   - HeartbeatLatency is a data race under -race: don't call it.
package fakediscord

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"
)

// Defaults used when the matching Options field is empty.
const (
	DefaultToken       = "Bot test-token"
	DefaultAppID       = "1100000000000000001"
	DefaultBotUserID   = "1100000000000000002" // differs from the application ID on purpose
	DefaultBotUsername = "tablehand"
	DefaultGuildID     = "1200000000000000001"
	DefaultChannelID   = "1300000000000000001"
	DefaultUserID      = "1400000000000000001"
	DefaultUsername    = "player"
	// DefaultPermissions is the invoking member's permission set in built
	// interactions (MANAGE_CHANNELS), as Discord's decimal string.
	DefaultPermissions = "16"
	// DefaultHeartbeatInterval is sent in HELLO unless Options say otherwise.
	DefaultHeartbeatInterval = 45 * time.Second
)

// Errors returned by the Server.
var (
	// ErrClosed is returned by waits and dispatches after Close.
	ErrClosed = errors.New("fakediscord: server closed")
	// ErrNoSession is returned by a dispatch before any gateway session was
	// identified, or after the client ended its session.
	ErrNoSession = errors.New("fakediscord: no gateway session")
)

// Options configure a Server. The zero value is usable.
type Options struct {
	// Token is the token the client must present, exactly as given to
	// discordgo.New ("Bot ..."): in IDENTIFY and RESUME (else close 4004)
	// and in the Authorization header of authenticated REST routes (else
	// 401). Default DefaultToken.
	Token string
	// AppID is the application ID sent in READY and required in the
	// commands and webhook routes. Default DefaultAppID.
	AppID string
	// AppFlags is READY's application.flags.
	AppFlags int
	// BotUserID and BotUsername describe READY's user. Defaults
	// DefaultBotUserID and DefaultBotUsername.
	BotUserID, BotUsername string
	// GuildIDs are READY's (unavailable) guilds. Default {DefaultGuildID}.
	GuildIDs []string
	// ChannelID is the channel of built interactions. Default DefaultChannelID.
	ChannelID string
	// User invokes built interactions. Default {DefaultUserID, DefaultUsername}.
	User User
	// HeartbeatInterval is HELLO's heartbeat_interval, sent in whole
	// milliseconds. Default DefaultHeartbeatInterval.
	HeartbeatInterval time.Duration
	// AllowPrivilegedIntents lets IDENTIFY ask for GUILD_MEMBERS,
	// GUILD_PRESENCES and MESSAGE_CONTENT; otherwise the fake closes with
	// 4014 as Discord does for an application without them.
	AllowPrivilegedIntents bool
	// CallbackDeadline, when positive, makes a callback later than this
	// after the dispatch fail with 10062 "Unknown interaction" (Discord
	// allows 3 s). Zero means no deadline.
	CallbackDeadline time.Duration
	// Logf, if set, receives a line for every request and gateway event.
	// t.Logf fits if the Server is closed before the test ends.
	Logf func(format string, args ...any)
}

// Server is a fake Discord API and gateway on 127.0.0.1. Its methods are
// safe for concurrent use.
type Server struct {
	opts  Options
	http  *httptest.Server
	wsURL string
	up    websocket.Upgrader

	ids  atomic.Int64
	done chan struct{}
	once sync.Once
	wg   sync.WaitGroup // gateway connection goroutines

	// mu guards the records, the REST state and changed.
	mu          sync.Mutex
	changed     chan struct{} // closed and replaced on every new record
	requests    []Request
	frames      []Frame
	faults      []*fault
	commands    map[string][]map[string]any // scope ("" or guild ID) -> commands
	commandIDs  map[string]string           // scope + "\x00" + type + name -> ID
	interaction map[string]*interactionState
	byToken     map[string]*interactionState
	messages    map[string]map[string]any

	// gw guards the gateway state; taken before a connection's write lock.
	gw       sync.Mutex
	revoked  bool // RevokeToken: the gateway refuses the token
	conns    map[*gwConn]struct{}
	live     *gwConn // the connection events go to
	session  *gwSession
	sessions int
	connSeq  int
	rejects  int
	noAcks   bool
	// dropResumes is how many of the next RESUMEs lose their connection
	// right after RESUMED.
	dropResumes int
}

// New starts a Server on 127.0.0.1. Close it when done.
func New(opts Options) *Server {
	if opts.Token == "" {
		opts.Token = DefaultToken
	}
	if opts.AppID == "" {
		opts.AppID = DefaultAppID
	}
	if opts.BotUserID == "" {
		opts.BotUserID = DefaultBotUserID
	}
	if opts.BotUsername == "" {
		opts.BotUsername = DefaultBotUsername
	}
	if opts.GuildIDs == nil {
		opts.GuildIDs = []string{DefaultGuildID}
	}
	if opts.ChannelID == "" {
		opts.ChannelID = DefaultChannelID
	}
	if opts.User.ID == "" {
		opts.User.ID = DefaultUserID
	}
	if opts.User.Username == "" {
		opts.User.Username = DefaultUsername
	}
	if opts.HeartbeatInterval <= 0 {
		opts.HeartbeatInterval = DefaultHeartbeatInterval
	}
	s := &Server{
		opts:        opts,
		done:        make(chan struct{}),
		changed:     make(chan struct{}),
		commands:    map[string][]map[string]any{},
		commandIDs:  map[string]string{},
		interaction: map[string]*interactionState{},
		byToken:     map[string]*interactionState{},
		messages:    map[string]map[string]any{},
		conns:       map[*gwConn]struct{}{},
	}
	s.up.CheckOrigin = func(*http.Request) bool { return true } // only discordgo dials, and it sends no Origin
	s.ids.Store(1500000000000000000)
	s.http = httptest.NewServer(http.HandlerFunc(s.serveHTTP))
	s.wsURL = "ws://" + s.http.Listener.Addr().String() + "/gateway"
	return s
}

// URL is the base URL of the fake, http://127.0.0.1:PORT.
func (s *Server) URL() string { return s.http.URL }

// GatewayURL is the websocket URL that GET /api/v9/gateway hands out.
func (s *Server) GatewayURL() string { return s.wsURL }

// AppID is the application ID the fake announces in READY.
func (s *Server) AppID() string { return s.opts.AppID }

// Client returns an HTTP client whose transport sends every request to the
// fake, whatever scheme and host it was built with (the Host header keeps
// the original host, recorded as Request.Host). Assign it to
// discordgo.Session.Client.
func (s *Server) Client() *http.Client {
	return &http.Client{
		Transport: &rewriteTransport{base: s.http.Client().Transport, host: s.http.Listener.Addr().String()},
		Timeout:   20 * time.Second,
	}
}

// Close drops every gateway connection, stops the server and waits for its
// goroutines. Close the discordgo session first. Close is idempotent.
func (s *Server) Close() {
	s.once.Do(func() {
		close(s.done)
		s.gw.Lock()
		for c := range s.conns {
			c.drop()
		}
		s.live = nil
		s.gw.Unlock()
		s.http.Close()
		s.wg.Wait()
	})
}

func (s *Server) closed() bool {
	select {
	case <-s.done:
		return true
	default:
		return false
	}
}

// newID returns a fresh snowflake-looking ID.
func (s *Server) newID() string {
	return strconv.FormatInt(s.ids.Add(1), 10)
}

func (s *Server) logf(format string, args ...any) {
	if s.opts.Logf != nil {
		s.opts.Logf("fakediscord: "+format, args...)
	}
}

// rewriteTransport sends every request to the fake server.
type rewriteTransport struct {
	base http.RoundTripper
	host string
}

func (t *rewriteTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	r := req.Clone(req.Context())
	r.URL.Scheme = "http"
	r.URL.Host = t.host
	if r.Host == "" {
		r.Host = req.URL.Host
	}
	return t.base.RoundTrip(r)
}
