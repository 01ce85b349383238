package kit

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"math"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/tablehand/tablehand/db"
)

// Handler answers one request. It returns the response as a value and never
// sends anything itself. A *UserError becomes a private message naming the
// mistake; any other error is logged and the user is told something went
// wrong.
type Handler func(ctx context.Context, req *Request) (Response, error)

type route struct {
	h      Handler
	gmOnly bool
}

// Router maps request paths to handlers. Routes are registered in New and a
// duplicate panics at start, so a typo cannot silently shadow a command.
type Router struct {
	commands     []Command
	routes       map[string]route   // "init/next"
	autocomplete map[string]Handler // "faction/show:name"
	components   map[string]route   // custom_id prefix before the first ':'
	notes        map[string]Note    // command name
	job          Job                // the scheduled work (AddJob)
	pages        []Page             // the web pages (AddPage)
	noStore      map[string]bool    // command paths whose handlers need no store
	gmRoles      []string
	log          *slog.Logger
	// database is the database file's path, for the operator's log.
	database string
	outage   outage
	// names records the names people show (SetNames); nil: none.
	names *nameBook
	// diceRules says where players' dice are rolled by Tablehand
	// (SetDiceRules, dicerule.go); nil: players may always give dice.
	diceRules DiceRules
}

// outage is the store's current outage, as the router saw it: its start
// and its end are each logged once, not per command. It starts with the
// first command the store failed for want of storage (db.Unavailable), and
// ends with the first later success of a command of a kind that failed
// in it: a read succeeding on a read-only file ends nothing.
type outage struct {
	on     atomic.Bool // fast path: an outage is going on
	mu     sync.Mutex
	reason string          // db.UnavailableReason, "" for an I/O error
	failed map[string]bool // the kinds of command (outageKey) that failed
	count  int             // commands refused for want of storage
}

// outageKey is the kind of command req is, for outage.failed.
func outageKey(req *Request) string {
	if req.Kind == KindComponent {
		prefix, _, _ := strings.Cut(req.CustomID, ":")
		return "click:" + prefix
	}
	return req.Path
}

// storeFailed records that req failed for want of storage, for reason; it
// reports whether this starts the outage or changes its reason.
func (o *outage) storeFailed(req *Request, reason string) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	news := o.failed == nil || o.reason != reason
	if o.failed == nil {
		o.failed = map[string]bool{}
		o.count = 0
	}
	o.reason = reason
	o.failed[outageKey(req)] = true
	o.count++
	o.on.Store(true)
	return news
}

// succeeded records that req succeeded; it reports whether this ends the
// outage, and how many commands it refused.
func (o *outage) succeeded(req *Request) (ended bool, refused int) {
	if !o.on.Load() {
		return false, 0
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if !o.failed[outageKey(req)] {
		return false, 0
	}
	refused = o.count
	o.failed, o.count, o.reason = nil, 0, ""
	o.on.Store(false)
	return true, refused
}

// SetNames makes the router record in store the name each person who
// acts, or whom a user option names, shows on the server (names.go).
func (r *Router) SetNames(store NameStore) { r.names = newNameBook(store, nil) }

// SetDatabase names the database file in what the router logs for the
// operator.
func (r *Router) SetDatabase(path string) { r.database = path }

// NewRouter returns a router with no routes; members with one of gmRoles
// are GMs besides those with Manage Channels.
func NewRouter(log *slog.Logger, gmRoles []string) *Router {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Router{
		routes:       map[string]route{},
		autocomplete: map[string]Handler{},
		components:   map[string]route{},
		notes:        map[string]Note{},
		noStore:      map[string]bool{},
		gmRoles:      gmRoles,
		log:          log,
	}
}

// Define adds a command definition; its routes are added with Route, or
// with Mount, which does both.
func (r *Router) Define(c Command) {
	for _, old := range r.commands {
		if old.Name == c.Name {
			panic("commands: duplicate command " + c.Name)
		}
	}
	r.commands = append(r.commands, c)
}

// Route answers the command path ("init/next") with h; gmOnly refuses it
// to players.
func (r *Router) Route(path string, h Handler, gmOnly bool) {
	if _, dup := r.routes[path]; dup {
		panic("commands: duplicate route " + path)
	}
	r.routes[path] = route{h: h, gmOnly: gmOnly}
}

// RouteAutocomplete answers autocomplete of option in the command path
// with h.
func (r *Router) RouteAutocomplete(path, option string, h Handler) {
	key := path + ":" + option
	if _, dup := r.autocomplete[key]; dup {
		panic("commands: duplicate autocomplete " + key)
	}
	r.autocomplete[key] = h
}

// RouteComponent answers clicks on the components whose custom_id begins
// with prefix and a colon ("reroll:ABC123") with h.
func (r *Router) RouteComponent(prefix string, h Handler, gmOnly bool) {
	if _, dup := r.components[prefix]; dup {
		panic("commands: duplicate component " + prefix)
	}
	r.components[prefix] = route{h: h, gmOnly: gmOnly}
}

// Note is a line /help command:<name> adds to a command's help that
// depends on where it is asked (the play mode of /init in the channel).
type Note func(ctx context.Context, req *Request) (string, error)

// HelpNote adds n to the help of command.
func (r *Router) HelpNote(command string, n Note) {
	if _, dup := r.notes[command]; dup {
		panic("commands: duplicate help note " + command)
	}
	r.notes[command] = n
}

// HelpNoteFor is the note of command for req: "" when it has none.
func (r *Router) HelpNoteFor(ctx context.Context, req *Request, command string) (string, error) {
	n, ok := r.notes[command]
	if !ok {
		return "", nil
	}
	// /help needs no store (Routes.NoStore): a note the store cannot give
	// in NoteTimeout is left out rather than waited for.
	ctx, cancel := context.WithTimeout(ctx, NoteTimeout)
	defer cancel()
	note, err := n(ctx, req)
	if err != nil {
		r.log.Warn("help note left out: the store did not answer", "command", command, "err", err)
		return "", nil
	}
	return note, nil
}

// NoteTimeout bounds the store's part of a help note (HelpNoteFor).
const NoteTimeout = 500 * time.Millisecond

// Commands returns the command definitions, in the order they were defined.
func (r *Router) Commands() []Command { return slices.Clone(r.commands) }

// Command returns the definition of the named command.
func (r *Router) Command(name string) (Command, bool) {
	for _, c := range r.commands {
		if c.Name == name {
			return c, true
		}
	}
	return Command{}, false
}

// Handle answers req. The response is always one the caller can send: a
// failure has already been turned into a message for the user, and the
// returned error is only for the caller's own record (the console prints
// it). A panic in a handler is recovered, logged and answered.
func (r *Router) Handle(ctx context.Context, req *Request) (resp Response, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic in %s: %v", req.Path, p)
			r.log.Error("handler panicked", "path", req.Path, "user", req.User.ID, "panic", Scrub(fmt.Sprint(p), req), "stack", string(debug.Stack()))
			resp = r.Failure(req, err)
		}
	}()
	req.GM = req.Permissions&ManageChannels != 0 || slices.ContainsFunc(req.Roles, func(role string) bool {
		return slices.Contains(r.gmRoles, role)
	})
	// A command that needs no store (/odds, /help) never waits on it,
	// for names either: they are recorded at the next that does.
	if r.NeedsStore(req) {
		if err := r.names.record(ctx, req); err != nil {
			// The command goes on: a name is refreshed at the next one.
			r.log.Warn("record display names", "guild", req.GuildID, "err", err)
		}
	}
	resp, err = r.dispatch(ctx, req)
	if err != nil {
		return r.Failure(req, err), err
	}
	if ended, refused := r.outage.succeeded(req); ended {
		r.log.Info("the database can be written again: commands that change something work again",
			"database", r.database, "refused", refused, "path", req.Path)
	}
	if resp.Type == 0 {
		resp.Type = Message
	}
	return resp.Fit(), nil
}

func (r *Router) dispatch(ctx context.Context, req *Request) (Response, error) {
	switch req.Kind {
	case KindAutocomplete:
		h, ok := r.autocomplete[req.Path+":"+req.Focused]
		if !ok {
			return Response{Type: Autocomplete}, nil
		}
		resp, err := h(ctx, req)
		resp.Type = Autocomplete
		return resp, err
	case KindComponent:
		prefix, _, _ := strings.Cut(req.CustomID, ":")
		rt, ok := r.components[prefix]
		if !ok {
			return Response{}, Errorf("this button no longer works: run the command again")
		}
		if rt.gmOnly && !req.GM {
			return Response{}, ErrNotGM
		}
		return rt.h(ctx, req)
	default:
		rt, ok := r.routes[req.Path]
		if !ok {
			return Response{}, Errorf("unknown command /%s: try /help for the list", req.Typed())
		}
		if rt.gmOnly && !req.GM {
			return Response{}, ErrNotGM
		}
		if !req.checked {
			if err := r.checkOptions(req); err != nil {
				return Response{}, err
			}
		}
		if err := r.checkDice(ctx, req); err != nil {
			return Response{}, err
		}
		return rt.h(ctx, req)
	}
}

// Validate reports whether req has a shape Discord's client would send for
// its command (Router.checkOptions): the error wraps ErrMalformed. Only
// slash commands are checked; an autocomplete's focused option is
// partial text whatever its type. A request it passed is not checked
// again by Handle (the HTTP endpoint validates before it answers).
func (r *Router) Validate(req *Request) error {
	if req.Kind != KindCommand {
		return nil
	}
	err := r.checkOptions(req)
	req.checked = err == nil
	return err
}

// checkOptions holds a command's values to its definition as Discord's
// client does before it sends anything (types, required options, bounds,
// lengths, fixed choices, only the options defined), so that no edge (the
// console, a forged or malformed request) hands a handler what Discord
// never would. A mistake wraps ErrMalformed.
func (r *Router) checkOptions(req *Request) error {
	path := strings.Split(req.Path, "/")
	cmd, ok := r.Command(path[0])
	if !ok {
		return nil
	}
	opts, ok := cmd.Leaf(path[1:])
	if !ok {
		return nil
	}
	slash := "/" + strings.Join(path, " ")
	for name := range req.Options {
		if !slices.ContainsFunc(opts, func(o Option) bool { return o.Name == name && o.Type != SubCommand && o.Type != SubCommandGroup }) {
			return malformed("%s has no option %q: see /help command:%s", slash, name, path[0])
		}
	}
	for _, o := range opts {
		v, given := req.Options[o.Name]
		if !given {
			if o.Required {
				return malformed("%s needs %s: e.g. %s %s", slash, o.Name, slash, example(opts))
			}
			continue
		}
		if err := checkValue(slash, opts, o, v); err != nil {
			return err
		}
	}
	return nil
}

// MaxInteger is the largest magnitude of an integer or number option
// Discord accepts (2^53).
const MaxInteger = 1 << 53

// checkType checks that v has the Go type of o's type, as Options holds it.
func checkType(o Option, v any) error {
	want := ""
	switch o.Type {
	case String, UserOption, ChannelOption, RoleOption:
		if _, ok := v.(string); !ok {
			want = "text"
			if o.Type != String {
				want = "a " + o.Type.String() + " ID"
			}
		}
	case Integer:
		n, ok := v.(int64)
		if !ok || n > MaxInteger || n < -MaxInteger {
			want = "a whole number from -2^53 to 2^53"
		}
	case Number:
		switch n := v.(type) {
		case int64:
			if n > MaxInteger || n < -MaxInteger {
				want = "a number from -2^53 to 2^53"
			}
		case float64:
			if math.IsNaN(n) || math.IsInf(n, 0) || math.Abs(n) > MaxInteger {
				want = "a number from -2^53 to 2^53"
			}
		default:
			want = "a number from -2^53 to 2^53"
		}
	case Boolean:
		if _, ok := v.(bool); !ok {
			want = "true or false"
		}
	}
	if want != "" {
		return malformed("option %s needs %s, not %s", o.Name, want, typeName(v))
	}
	return nil
}

// typeName names the kind of a value as a request carries it, without
// the value itself.
func typeName(v any) string {
	switch x := v.(type) {
	case string:
		return "text"
	case bool:
		return "true/false"
	case int64:
		return "the whole number " + strconv.FormatInt(x, 10)
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) || math.Abs(x) > MaxInteger {
			return "a number out of range"
		}
		return "the number " + strconv.FormatFloat(x, 'g', -1, 64)
	case nil:
		return "null"
	case map[string]any:
		return "an object"
	case []any:
		return "a list"
	}
	return fmt.Sprintf("of type %T", v)
}

// checkValue checks one option's value against its definition; slash
// and opts (the command and its options) make the example.
func checkValue(slash string, opts []Option, o Option, v any) error {
	if err := checkType(o, v); err != nil {
		return err
	}
	eg := func(val string) string { return slash + " " + exampleWith(opts, o.Name, val) }
	var n float64
	isNum := false
	switch x := v.(type) {
	case int64:
		n, isNum = float64(x), true
	case float64:
		n, isNum = x, true
	case string:
		if o.MaxLength > 0 && utf8.RuneCountInString(x) > o.MaxLength {
			return malformed("option %s takes at most %d characters, not %d: shorten it", o.Name, o.MaxLength, utf8.RuneCountInString(x))
		}
	}
	if isNum {
		if o.MinValue != nil && n < *o.MinValue {
			return malformed("option %s must be at least %s, not %s (example: %s)", o.Name, formatBound(*o.MinValue), formatBound(n), eg(formatBound(*o.MinValue)))
		}
		if o.MaxValue != nil && n > *o.MaxValue {
			return malformed("option %s must be at most %s, not %s (example: %s)", o.Name, formatBound(*o.MaxValue), formatBound(n), eg(formatBound(*o.MaxValue)))
		}
	}
	if len(o.Choices) > 0 && !slices.ContainsFunc(o.Choices, func(c Choice) bool { return sameValue(c.Value, v) }) {
		names := make([]string, len(o.Choices))
		for i, c := range o.Choices {
			names[i] = fmt.Sprint(c.Value)
		}
		return malformed("option %s takes one of %s, not %v (example: %s)", o.Name, strings.Join(names, ", "), v, eg(names[0]))
	}
	return nil
}

// sameValue compares a fixed choice with a value as requests carry it:
// integer choices may be written as int, int64 or float64.
func sameValue(choice, v any) bool {
	num := func(x any) (float64, bool) {
		switch n := x.(type) {
		case int:
			return float64(n), true
		case int64:
			return float64(n), true
		case float64:
			return n, true
		}
		return 0, false
	}
	if a, ok := num(choice); ok {
		b, ok := num(v)
		return ok && a == b
	}
	return choice == v
}

func formatBound(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// UnavailableMessage is what a user sees when the database cannot be
// written and the reason is not known (an I/O error).
const UnavailableMessage = "⚠️ Tablehand cannot save anything right now (its database cannot be written), so this was not done. Only the bot's operator can fix it, and it has been logged for them; please try again later."

// unavailableMessage is what a user sees when the database cannot be
// written for reason (see db.UnavailableReason): what is wrong, and who
// can fix it.
func unavailableMessage(reason string) string {
	switch reason {
	case "read-only":
		return "⚠️ Tablehand cannot save anything right now: its database file is read-only, so this was not done. Only the bot's operator can fix it (make the file writable), and it has been logged for them; commands that only read still work."
	case "the disk is full":
		return "⚠️ Tablehand cannot save anything right now: the disk its database is on is full, so this was not done. Only the bot's operator can fix it (free some space), and it has been logged for them; commands that only read still work."
	}
	return UnavailableMessage
}

// unavailableFix is what the operator does about reason.
func unavailableFix(reason string) string {
	switch reason {
	case "read-only":
		return "make the database file, and its directory (for the -wal and -shm files), writable by the bot's user, or remount the file system read-write"
	case "the disk is full":
		return "free space on the database's file system"
	}
	return "check the disk and the file system of the database (dmesg, tablehand check)"
}

// DamagedMessage is what a user sees when the database file is damaged:
// trying again does not help until the operator restores a backup.
const DamagedMessage = "⚠️ Tablehand's database is damaged, so this was not done, and trying again will not help: the bot's operator must restore a backup. It has been logged for them."

// Failure turns err into what the user sees. The edges use it for mistakes
// they catch before a handler runs (a console line that does not parse).
func (r *Router) Failure(req *Request, err error) Response {
	if req.Kind == KindAutocomplete {
		// Discord accepts only suggestions here; an empty list says "no match".
		if _, ok := AsUserError(err); !ok {
			r.log.Error("autocomplete failed", "path", req.Path, "err", Scrub(err.Error(), req))
		}
		return Response{Type: Autocomplete}
	}
	if db.Damaged(err) {
		r.log.Error("database damaged: stop Tablehand and restore a backup (see tablehand check)", "path", req.Path, "err", Scrub(err.Error(), req))
		return Response{Type: Message, Content: DamagedMessage, Ephemeral: true}
	}
	if db.Unavailable(err) {
		// Nobody's mistake, and it passes when the operator frees the disk
		// or makes the database writable; the transaction rolled back.
		// Logged when it starts (or its reason changes), not for every
		// command; its end is logged by Handle.
		reason := db.UnavailableReason(err)
		if r.outage.storeFailed(req, reason) {
			r.log.Error("the database cannot be written: the operator must fix it; commands that change something fail until then (logged once)",
				"database", r.database, "reason", cmp.Or(reason, "I/O error"), "fix", unavailableFix(reason), "path", req.Path, "err", Scrub(err.Error(), req))
		}
		return Response{Type: Message, Content: unavailableMessage(reason), Ephemeral: true}
	}
	if ue, ok := AsUserError(err); ok {
		msg := "⚠️ " + ue.Msg
		if ue.Detail != "" {
			msg += "\n```\n" + ue.Detail + "\n```"
		}
		return Response{Type: Message, Content: msg, Ephemeral: true}.Fit()
	}
	if !errors.Is(err, context.Canceled) {
		r.log.Error("command failed", "path", req.Path, "user", req.User.ID, "channel", req.ChannelID, "err", Scrub(err.Error(), req))
	}
	return Response{Type: Message, Content: "⚠️ Something went wrong on our side; it has been logged. Please try again.", Ephemeral: true}
}

// HasRoute reports whether a handler answers the command path.
func (r *Router) HasRoute(path string) bool {
	_, ok := r.routes[path]
	return ok
}

// HasAutocomplete reports whether a handler suggests values for option of
// the command path.
func (r *Router) HasAutocomplete(path, option string) bool {
	_, ok := r.autocomplete[path+":"+option]
	return ok
}

// Routes are the handlers of one command's subcommands, for Mount.
type Routes struct {
	// Handlers answer the subcommands, by their path under the command
	// ("check", "asset/add"); "" for a command without subcommands.
	Handlers map[string]Handler
	// GMOnly are the paths of Handlers only a GM may run.
	GMOnly []string
	// Suggest answers autocomplete, by option name: every option the
	// definition marks Autocomplete, in every subcommand, goes to the
	// suggester of its name.
	Suggest map[string]Handler
	// NoStore says the Handlers (not the suggesters) need no store, or
	// only for what they can go without (NoteTimeout): an edge answers
	// them without waiting on the store, when it is slow or down
	// (NeedsStore).
	NoStore bool
}

// NeedsStore reports whether answering req may wait on the store: false
// for the commands mounted with Routes.NoStore (/odds, /help), which an
// edge answers without waiting on it, whatever state it is in.
func (r *Router) NeedsStore(req *Request) bool {
	return req.Kind != KindCommand || !r.noStore[req.Path]
}

// Mount defines cmd and routes its subcommands and their autocomplete as
// rt says. Routes follow the definition: a subcommand without a handler,
// a handler without a subcommand, or an autocompleting option without a
// suggester panics at start, so the two cannot drift apart.
func (r *Router) Mount(cmd Command, rt Routes) {
	r.Define(cmd)
	used := map[string]bool{}
	var walk func(prefix string, opts []Option)
	walk = func(prefix string, opts []Option) {
		if HasSubcommands(opts) {
			for _, o := range opts {
				walk(strings.TrimPrefix(prefix+"/"+o.Name, "/"), o.Options)
			}
			return
		}
		h, ok := rt.Handlers[prefix]
		path := strings.TrimSuffix(cmd.Name+"/"+prefix, "/")
		if !ok {
			panic("commands: no handler for /" + strings.ReplaceAll(path, "/", " "))
		}
		used[prefix] = true
		r.Route(path, h, slices.Contains(rt.GMOnly, prefix))
		if rt.NoStore {
			r.noStore[path] = true
		}
		for _, o := range opts {
			if !o.Autocomplete {
				continue
			}
			s, ok := rt.Suggest[o.Name]
			if !ok {
				panic("commands: no suggestions for " + o.Name + ": of /" + strings.ReplaceAll(path, "/", " "))
			}
			r.RouteAutocomplete(path, o.Name, s)
		}
	}
	walk("", cmd.Options)
	for p := range rt.Handlers {
		if !used[p] {
			panic("commands: /" + cmd.Name + " has no subcommand " + p)
		}
	}
}

// minScrub is the shortest text option Scrub replaces where it stands
// unquoted: a shorter one would also replace digits and words of the
// error's own text.
const minScrub = 3

// Scrub returns text, an error's text for the operator's log, without
// what the user typed in req's text options: each value, quoted (as %q
// quotes it) or not, becomes <name>. The log never holds what users typed
// beyond the command's name (README, Logs); an error's own words stay.
func Scrub(text string, req *Request) string {
	// Longest first: a value may hold another.
	names := slices.SortedFunc(maps.Keys(req.Options), func(a, b string) int {
		la, _ := req.Options[a].(string)
		lb, _ := req.Options[b].(string)
		return cmp.Or(cmp.Compare(len(lb), len(la)), cmp.Compare(a, b))
	})
	for _, name := range names {
		v, ok := req.Options[name].(string)
		if !ok || v == "" {
			continue
		}
		mark := "<" + name + ">"
		text = strings.ReplaceAll(text, strconv.Quote(v), mark)
		if utf8.RuneCountInString(v) >= minScrub {
			text = strings.ReplaceAll(text, v, mark)
		}
	}
	return text
}
