// Command tablehand runs the Tablehand Discord bot, or its offline console.
//
//	tablehand console [--json] [--seed N] [--db PATH] [--user NAME] [--gm NAMES] [--channel NAME] [--guild NAME]
//	tablehand serve [--config FILE] [--metrics ADDR] [--shard N --shards M]
//	tablehand http [--listen ADDR] [--config FILE] [--metrics ADDR]
//	tablehand commands
//	tablehand backup [--config FILE] [--db PATH] DEST
//	tablehand check [--config FILE] [--db PATH]
//	tablehand migrate-store --from PATH --to postgres://...
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/tablehand/tablehand/bot"
	"github.com/tablehand/tablehand/commands"
	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/db"
	"github.com/tablehand/tablehand/rules/dice"
)

const usage = `Tablehand runs tabletop role-playing games on Discord.

Usage:
  tablehand console [flags]   answer commands typed on standard input, no Discord needed
  tablehand serve [flags]     connect to Discord's gateway and answer interactions
  tablehand http [flags]      answer interactions that Discord POSTs to an HTTP endpoint
  tablehand commands          print the slash command definitions as JSON
  tablehand backup DEST       copy the database to DEST while the bot runs
  tablehand check             verify the database: integrity and schema version
  tablehand migrate-store --from PATH --to URL
                              copy a SQLite database into an empty PostgreSQL one

Run 'tablehand <command> -h' for a command's flags.
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	// After the first signal a clean shutdown begins; a second one ends
	// the process at once, should anything hang.
	context.AfterFunc(ctx, stop)
	err := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv)
	stop()
	if err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "tablehand:", err)
		}
		os.Exit(2)
	}
}

// run is main without the process: tests call it directly.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return errors.New("no command given")
	}
	switch args[0] {
	case "console":
		return runConsole(ctx, args[1:], stdin, stdout, stderr, getenv)
	case "serve":
		return runServe(ctx, args[1:], stderr, getenv)
	case "http":
		return runHTTP(ctx, args[1:], stderr, getenv)
	case "commands":
		return runCommands(stdout)
	case "backup":
		return runBackup(ctx, args[1:], stdout, stderr, getenv)
	case "check":
		return runCheck(ctx, args[1:], stdout, stderr, getenv)
	case "migrate-store":
		return runMigrateStore(ctx, args[1:], stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	fmt.Fprint(stderr, usage)
	return fmt.Errorf("unknown command %q", args[0])
}

func runConsole(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) error {
	fs := flag.NewFlagSet("console", flag.ContinueOnError)
	fs.SetOutput(stderr)
	configFile := fs.String("config", "", "configuration file (default tablehand.toml if present)")
	dbPath := dbFlag(fs)
	jsonOut := fs.Bool("json", false, "print one JSON object per command")
	seed := fs.Uint64("seed", 0, "seed the dice, for deterministic output")
	user := fs.String("user", "player", "the user who types the commands")
	gms := fs.String("gm", "", "comma-separated users with GM rights (default: the --user)")
	channel := fs.String("channel", "table", "the channel the commands are typed in")
	guild := fs.String("guild", "", "the guild (server) of the channel")
	if err := fs.Parse(args); err != nil {
		return err
	}
	seeded := false
	fs.Visit(func(f *flag.Flag) { seeded = seeded || f.Name == "seed" })

	cfg, err := bot.LoadConfig(*configFile, getenv)
	if err != nil {
		return err
	}
	if *dbPath != "" {
		cfg.Use(*dbPath)
	}
	log, err := logger(cfg, stderr)
	if err != nil {
		return err
	}
	hooks, err := readTestHooks(getenv)
	if err != nil {
		return err
	}
	store, err := openDB(ctx, cfg, hooks)
	if err != nil {
		return err
	}
	defer store.Close()

	gmList := []string{*user}
	if *gms != "" {
		gmList = splitList(*gms)
	}
	// One roller for the whole run: the console answers one line at a time,
	// and a fixed seed then fixes every die of the run.
	var roller dice.Roller
	if seeded {
		roller = dice.NewRandom(rand.New(rand.NewPCG(*seed, *seed)))
	} else {
		roller = dice.NewRandom(rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64())))
	}
	deps := wire(cfg, store, log, hooks)
	deps.Roller = func() dice.Roller { return roller }
	deps.Codes = kit.NewCodes(*seed, seeded)
	deps.Calendar = bot.Cron{}
	router := commands.New(deps)
	return bot.Console(ctx, bot.ConsoleOptions{
		Router: router, JSON: *jsonOut, User: *user, GMs: gmList, Channel: *channel, Guild: *guild,
	}, stdin, stdout)
}

func runServe(ctx context.Context, args []string, stderr io.Writer, getenv func(string) string) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	configFile := fs.String("config", "", "configuration file (default tablehand.toml if present)")
	dbPath := dbFlag(fs)
	metricsAddr := fs.String("metrics", "", "serve Prometheus metrics at http://ADDR/metrics (e.g. 127.0.0.1:9090)")
	webAddr := fs.String("web", "", "serve the read-only web pages (/faction page) at http://ADDR (default web_listen from the config; none when empty)")
	shard := fs.Int("shard", 0, "this process's shard, 0 to --shards-1")
	shards := fs.Int("shards", 1, "the number of shards (processes) the bot runs as")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *shards < 1 || *shard < 0 || *shard >= *shards {
		return fmt.Errorf("serve: --shard %d --shards %d: want 0 <= shard < shards", *shard, *shards)
	}
	b, err := open(ctx, *configFile, *dbPath, stderr, getenv)
	if err != nil {
		return err
	}
	defer b.store.Close()
	if b.cfg.Token == "" {
		// Before the scheduler plays any overdue round it could not post.
		return errors.New("serve: no bot token: set TABLEHAND_TOKEN or token in the config file")
	}
	metrics, err := startMetrics(ctx, *metricsAddr, b.log)
	if err != nil {
		return err
	}
	// One process plays the scheduled rounds: shard 0, as it alone
	// registers the commands. (The database would refuse a second playing
	// of a firing anyway, but each shard would try, and post "missed".)
	if *shard == 0 {
		poster, err := bot.NewRESTPoster(b.cfg.Token, b.cfg.APIURL)
		if err != nil {
			return err
		}
		if err := b.startScheduler(ctx, poster, metrics); err != nil {
			return err
		}
		defer b.sched.Stop()
	}
	if *webAddr != "" {
		b.cfg.WebListen = *webAddr
	}
	if b.cfg.WebListen != "" {
		webCtx, stopWeb := context.WithCancel(ctx)
		defer stopWeb()
		wait, err := bot.StartWeb(webCtx, b.cfg.WebListen, bot.NewWeb(b.store, b.router.Pages(), b.log, b.cfg.WebOptions()), b.log)
		if err != nil {
			return fmt.Errorf("serve: %w", err)
		}
		defer func() {
			stopWeb()
			if err := wait(); err != nil {
				b.log.Error("web pages stopped", "err", err)
			}
		}()
	}
	return bot.Serve(ctx, bot.ServeOptions{Token: b.cfg.Token, Router: b.router, DevGuild: b.cfg.DevGuild, APIURL: b.cfg.APIURL, Log: b.log,
		Metrics: metrics, ShardID: *shard, ShardCount: *shards})
}

func runHTTP(ctx context.Context, args []string, stderr io.Writer, getenv func(string) string) error {
	fs := flag.NewFlagSet("http", flag.ContinueOnError)
	fs.SetOutput(stderr)
	configFile := fs.String("config", "", "configuration file (default tablehand.toml if present)")
	dbPath := dbFlag(fs)
	listen := fs.String("listen", "", "address to listen on (default from the config, else 127.0.0.1:8080)")
	metricsAddr := fs.String("metrics", "", "serve Prometheus metrics at http://ADDR/metrics (e.g. 127.0.0.1:9090)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	b, err := open(ctx, *configFile, *dbPath, stderr, getenv)
	if err != nil {
		return err
	}
	defer b.store.Close()
	if *listen != "" {
		b.cfg.Listen = *listen
	}
	key, err := bot.ParsePublicKey(b.cfg.PublicKey)
	if err != nil {
		return fmt.Errorf("http: %w (set TABLEHAND_PUBLIC_KEY or public_key)", err)
	}
	rest, err := bot.RESTSession(ctx, b.cfg.Token, b.cfg.APIURL, b.cfg.DevGuild, b.router, b.log)
	if err != nil {
		return err
	}
	metrics, err := startMetrics(ctx, *metricsAddr, b.log)
	if err != nil {
		return err
	}
	// The replay memory is the store's, on both kinds: replicas on one
	// PostgreSQL share what they answered, and on either a restart
	// forgets nothing a signed request could still be replayed within.
	opts := bot.HTTPOptions{PublicKey: key, Handler: bot.Logged(b.router, b.log, metrics), REST: rest, Log: b.log, Replays: b.store}
	e, err := bot.NewEndpoint(opts)
	if err != nil {
		return err
	}
	if err := b.startScheduler(ctx, bot.SessionPoster{Session: rest}, metrics); err != nil {
		return err
	}
	defer b.sched.Stop()
	return bot.ServeHTTPEndpoint(ctx, b.cfg.Listen, e, bot.NewWeb(b.store, b.router.Pages(), b.log, b.cfg.WebOptions()), b.log)
}

// wiring is what serve and http share: configuration, log, database and
// the router over them.
type wiring struct {
	cfg    bot.Config
	log    *slog.Logger
	store  *db.DB
	router *kit.Router
	sched  *bot.Scheduler
	hooks  *testHooks
}

func open(ctx context.Context, configFile, dbPath string, stderr io.Writer, getenv func(string) string) (*wiring, error) {
	cfg, err := bot.LoadConfig(configFile, getenv)
	if err != nil {
		return nil, err
	}
	if dbPath != "" {
		cfg.Use(dbPath)
	}
	log, err := logger(cfg, stderr)
	if err != nil {
		return nil, err
	}
	bot.RouteDiscordLogs(log)
	hooks, err := readTestHooks(getenv)
	if err != nil {
		return nil, err
	}
	store, err := openDB(ctx, cfg, hooks)
	if err != nil {
		return nil, err
	}
	// The scheduler runs the router's scheduled work (the faction game's
	// rounds) on the stored schedules; /schedule tells it of changes. It
	// starts with serve or http.
	sched := bot.NewScheduler(bot.SchedulerOptions{Store: store, Log: log, Resync: time.Minute,
		Now: hooks.clock(), Hook: hooks.roundHook(ctx, log)})
	// The dice are kit.NewDeps's: a fresh generator per request, since
	// handlers run concurrently.
	deps := wire(cfg, store, log, hooks)
	deps.Calendar = sched
	router := commands.New(deps)
	sched.SetJob(router.Job())
	log.Info("starting", "database", db.Redact(cfg.Store()))
	return &wiring{cfg: cfg, log: log, store: store, router: router, sched: sched, hooks: hooks}, nil
}

// startScheduler starts the scheduler, posting its reports with p, and
// the test clock, if any, that drives it.
func (b *wiring) startScheduler(ctx context.Context, p bot.Poster, m *bot.Metrics) error {
	if err := b.sched.Start(ctx, p, m); err != nil {
		return err
	}
	b.hooks.follow(ctx, b.sched, b.log)
	return nil
}

// runCommands prints the command definitions exactly as serve sends them.
func runCommands(stdout io.Writer) error {
	router := commands.New(kit.NewDeps(nil, commands.DefaultRules()))
	return bot.WriteCommands(stdout, router)
}

// wire returns the dependencies of the commands as cfg sets them, over
// store: what the console and serve share.
func wire(cfg bot.Config, store *db.DB, log *slog.Logger, hooks *testHooks) kit.Deps {
	deps := kit.NewDeps(store, cfg.Rules)
	deps.Database = db.Redact(cfg.Store()) // the store in use, never its password
	deps.GMRoles = cfg.GMRoles
	deps.Log = log
	deps.Policies = commands.Policies(nil, cfg.Rules)
	deps.Now = hooks.clock()
	deps.PublicURL = cfg.PublicURL
	return deps
}

func logger(cfg bot.Config, w io.Writer) (*slog.Logger, error) {
	level, err := cfg.Level()
	if err != nil {
		return nil, err
	}
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: level})), nil
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// startMetrics serves Prometheus metrics on addr until ctx ends; with no
// addr it returns nil metrics, which count nothing.
func startMetrics(ctx context.Context, addr string, log *slog.Logger) (*bot.Metrics, error) {
	if addr == "" {
		return nil, nil
	}
	m := bot.NewMetrics()
	if _, err := bot.ServeMetrics(ctx, addr, m, log); err != nil {
		return nil, err
	}
	return m, nil
}

// databaseFlags parses the flags of backup and check and returns the
// database file the configuration names.
func databaseFlags(name string, args []string, stderr io.Writer, getenv func(string) string) (file string, rest []string, err error) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	configFile := fs.String("config", "", "configuration file (default tablehand.toml if present)")
	dbPath := dbFlag(fs)
	if err := fs.Parse(args); err != nil {
		return "", nil, err
	}
	cfg, err := bot.LoadConfig(*configFile, getenv)
	if err != nil {
		return "", nil, err
	}
	if *dbPath != "" {
		cfg.Use(*dbPath)
	}
	if err := checkStore(cfg); err != nil {
		return "", nil, err
	}
	return cfg.Store(), fs.Args(), nil
}

// runBackup copies the database, consistently, while a bot may be using it.
func runBackup(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	file, rest, err := databaseFlags("backup", args, stderr, getenv)
	if err != nil {
		return err
	}
	if len(rest) != 1 {
		return errors.New("backup: want one destination file: tablehand backup [--db PATH] DEST")
	}
	start := time.Now()
	if err := db.Backup(ctx, file, rest[0]); err != nil {
		return err
	}
	info, err := os.Stat(rest[0])
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "backed up %s to %s (%d bytes, integrity ok) in %v\n", file, rest[0], info.Size(), time.Since(start).Round(time.Millisecond))
	return nil
}

// runCheck verifies the database without changing it.
func runCheck(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	file, rest, err := databaseFlags("check", args, stderr, getenv)
	if err != nil {
		return err
	}
	if len(rest) != 0 {
		return errors.New("check: takes no arguments: tablehand check [--db PATH]")
	}
	rep, err := db.Check(ctx, file)
	if err != nil && db.Damaged(err) {
		return db.DamagedFile(file, err.Error())
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s\n%s\n", db.Redact(file), rep)
	if !rep.IntegrityOK() {
		return db.DamagedFile(db.Redact(file), "integrity_check: "+strings.Join(rep.Integrity, "; "))
	}
	if !rep.OK() {
		return fmt.Errorf("check: %s is not fit to use", db.Redact(file))
	}
	return nil
}

// runMigrateStore copies a whole SQLite database into an empty PostgreSQL
// database and checks the copy, table by table.
func runMigrateStore(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	const example = "tablehand migrate-store --from tablehand.db --to postgres://tablehand@db.example.org/tablehand"
	fs := flag.NewFlagSet("migrate-store", flag.ContinueOnError)
	fs.SetOutput(stderr)
	from := fs.String("from", "", "the SQLite database file to copy")
	to := fs.String("to", "", "the PostgreSQL database to copy it into, empty: postgres://user@host/database")
	if err := fs.Parse(args); err != nil {
		return err
	}
	switch {
	case fs.NArg() != 0 || *from == "" || *to == "":
		return errors.New("migrate-store: want --from and --to, e.g. " + example)
	case db.IsPostgresURL(*from):
		return errors.New("migrate-store: --from is a SQLite file, e.g. " + example)
	case !db.IsPostgresURL(*to):
		return errors.New("migrate-store: --to is a postgres:// URL, e.g. " + example)
	}
	if _, err := os.Stat(*from); err != nil {
		return fmt.Errorf("migrate-store: %w", err)
	}
	src, err := db.Open(ctx, *from)
	if err != nil {
		return fmt.Errorf("migrate-store: %w", err)
	}
	defer src.Close()
	dst, err := db.Open(ctx, *to)
	if err != nil {
		return fmt.Errorf("migrate-store: %w", err)
	}
	defer dst.Close()
	start := time.Now()
	copies, err := db.MigrateStore(ctx, src, dst)
	if err != nil {
		return err
	}
	rows := 0
	for _, c := range copies {
		fmt.Fprintf(stdout, "%-18s %8d rows  sha256 %s\n", c.Table, c.To, c.ToSum[:16])
		rows += c.To
	}
	fmt.Fprintf(stdout, "copied %s to %s: %d rows in %d tables, counts and checksums equal on both sides, in %v\n",
		*from, db.Redact(*to), rows, len(copies), time.Since(start).Round(time.Millisecond))
	return nil
}

// dbFlag defines --db on fs: a SQLite file (or a postgres:// URL) that
// replaces the config's store; "" when it is not given. Given empty, it
// is a mistake rather than the config's database in silence.
func dbFlag(fs *flag.FlagSet) *string {
	v := new(dbPathValue)
	fs.Var(v, "db", "SQLite database `file` (default from the config: database_url, else database, else tablehand.db)")
	return &v.path
}

// dbPathValue is the flag.Value of --db.
type dbPathValue struct{ path string }

func (v *dbPathValue) String() string { return v.path }

func (v *dbPathValue) Set(s string) error {
	if strings.TrimSpace(s) == "" {
		return errors.New("the database path is empty: give a file, e.g. --db tablehand.db, or leave --db out to use the config's database")
	}
	v.path = s
	return nil
}

// openDB opens cfg's store, with the test hooks' options, once checkStore
// passes.
func openDB(ctx context.Context, cfg bot.Config, hooks *testHooks) (*db.DB, error) {
	if err := checkStore(cfg); err != nil {
		return nil, err
	}
	return db.Open(ctx, cfg.Store(), append(cfg.StoreOptions(), hooks.dbOptions()...)...)
}

// checkStore refuses a configuration whose store is empty (database = ""
// in the file, or TABLEHAND_DB set empty with no URL), which would
// otherwise open tablehand.db in the working directory in silence.
func checkStore(cfg bot.Config) error {
	if strings.TrimSpace(cfg.Store()) == "" {
		return errors.New("no database is set: the config's database is empty; set database to a SQLite file such as tablehand.db (or database_url to a PostgreSQL URL), or give --db PATH")
	}
	return nil
}
