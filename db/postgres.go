package db

// PostgreSQL, the second store: for a bot that outgrows one machine, where
// several processes (gateway shards, HTTP replicas, schedulers) share one
// database server.
//
// The store's methods are written once, in SQLite's SQL; the connections
// to PostgreSQL translate each statement (translate, below) the first time
// they see it: ? placeholders become $n, SQLite's case-insensitive
// comparisons (COLLATE NOCASE, LIKE) become lower()/ILIKE, and Go booleans
// become the 0/1 integers both schemas store. The few statements with no
// common form (JSON functions) are chosen by DB.postgres where they are
// used. The SQL is kept to what PostgreSQL, CockroachDB and YugabyteDB all
// accept: no advisory locks, no LOCK TABLE; concurrency rests on SERIALIZABLE
// transactions, row locks (SELECT ... FOR UPDATE) on the one row a change
// is about, and the primary keys.

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
)

// IsPostgresURL reports whether source names a PostgreSQL database
// (postgres:// or postgresql://) rather than a SQLite file.
func IsPostgresURL(source string) bool {
	return strings.HasPrefix(source, "postgres://") || strings.HasPrefix(source, "postgresql://")
}

// Redact returns source with any password replaced, for messages and logs.
func Redact(source string) string {
	if !IsPostgresURL(source) {
		return source
	}
	cfg, err := pgconn.ParseConfig(source)
	if err != nil {
		return "postgres://…"
	}
	return fmt.Sprintf("postgres://%s@%s:%d/%s", cfg.User, cfg.Host, cfg.Port, cfg.Database)
}

// openPostgres connects to the PostgreSQL database at url.
func openPostgres(ctx context.Context, url string, trip func(string)) (*sql.DB, error) {
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		// pgx's parse errors can quote the URL, password and all.
		return nil, errors.New("malformed database URL: want postgres://user[:password]@host[:port]/database")
	}
	if cfg.ConnectTimeout == 0 {
		cfg.ConnectTimeout = 10 * time.Second
	}
	sqldb := sql.OpenDB(pgConnector{stdlib.GetConnector(*cfg), trip})
	sqldb.SetMaxOpenConns(20)
	sqldb.SetMaxIdleConns(20)
	sqldb.SetConnMaxIdleTime(5 * time.Minute)
	if err := sqldb.PingContext(ctx); err != nil {
		sqldb.Close()
		return nil, pgError(err)
	}
	return sqldb, nil
}

// pgError makes a connection failure one line a GM can act on.
func pgError(err error) error {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch pe.Code {
		case "28P01", "28000":
			return fmt.Errorf("the database server refused the login: %s (%s)", pe.Message, pe.Code)
		case "3D000":
			return fmt.Errorf("the database does not exist: %s", pe.Message)
		}
		return fmt.Errorf("the database server said: %s (%s)", pe.Message, pe.Code)
	}
	var ne *net.OpError
	if errors.As(err, &ne) {
		return fmt.Errorf("cannot reach the database server: %v", ne.Err)
	}
	return fmt.Errorf("cannot connect to the database server: %w", err)
}

// retryable reports a transaction that failed only because another ran
// beside it (serialization failure 40001, deadlock 40P01): run it again.
func retryable(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && (pe.Code == "40001" || pe.Code == "40P01")
}

// MaxAttempts bounds how many times a PostgreSQL transaction is run when it
// keeps meeting concurrent ones.
const MaxAttempts = 20

// backoff is how long to wait before attempt n (from 1) of a transaction:
// growing from about a millisecond, with jitter, so that the transactions
// that collided do not collide again.
func backoff(n int) time.Duration {
	d := time.Millisecond << min(n, 7)
	return d/2 + rand.N(d)
}

// pgMigrate brings a PostgreSQL schema up to date: the schema version is a
// row of tablehand_schema, and each migration is applied with its bump in
// one transaction. Processes starting together are serialised by the
// primary key of that row and SERIALIZABLE: the loser retries and finds the
// work done.
func (d *DB) pgMigrate(ctx context.Context) error {
	ms, err := readMigrations(pgMigrations, "pgmigrations")
	if err != nil {
		return err
	}
	if _, err := d.sql.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS tablehand_schema (
		id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL)`); err != nil && !isUniqueViolation(err) {
		return fmt.Errorf("create the schema version table: %w", err)
	}
	return d.tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO tablehand_schema (id, version) VALUES (1, 0) ON CONFLICT (id) DO NOTHING`); err != nil {
			return err
		}
		var current int
		if err := tx.QueryRowContext(ctx, `SELECT version FROM tablehand_schema WHERE id = 1 FOR UPDATE`).Scan(&current); err != nil {
			return fmt.Errorf("read schema version: %w", err)
		}
		if n := len(ms); n > 0 && current > ms[n-1].version {
			return fmt.Errorf("database schema version %d is newer than this Tablehand knows (%d): upgrade Tablehand", current, ms[n-1].version)
		}
		for _, m := range ms {
			if m.version <= current {
				continue
			}
			if _, err := tx.ExecContext(ctx, m.body); err != nil {
				return fmt.Errorf("apply migration %s: %w", m.name, err)
			}
			if _, err := tx.ExecContext(ctx, `UPDATE tablehand_schema SET version = ? WHERE id = 1`, m.version); err != nil {
				return fmt.Errorf("apply migration %s: %w", m.name, err)
			}
		}
		return nil
	})
}

// pgConnector hands out connections that translate SQLite's SQL, and
// tell trip, when set, of each round trip (WithRoundTrips).
type pgConnector struct {
	c    driver.Connector
	trip func(string)
}

func (p pgConnector) Connect(ctx context.Context) (driver.Conn, error) {
	c, err := p.c.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &pgConn{c.(*stdlib.Conn), p.trip}, nil
}

func (p pgConnector) Driver() driver.Driver { return p.c.Driver() }

// pgConn is a pgx connection whose statements are translated.
type pgConn struct {
	*stdlib.Conn
	trip func(string)
}

func (c *pgConn) count(what string) {
	if c.trip != nil {
		c.trip(what)
	}
}

func (c *pgConn) Prepare(query string) (driver.Stmt, error) {
	return c.PrepareContext(context.Background(), query)
}

func (c *pgConn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	c.count("PREPARE " + query)
	s, err := c.Conn.PrepareContext(ctx, translate(query))
	if err != nil || c.trip == nil {
		return s, err
	}
	return &pgStmt{s.(*stdlib.Stmt), query, c.trip}, nil
}

func (c *pgConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	c.count(query)
	return c.Conn.ExecContext(ctx, translate(query), args)
}

func (c *pgConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	c.count(query)
	return c.Conn.QueryContext(ctx, translate(query), args)
}

func (c *pgConn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	c.count("BEGIN")
	tx, err := c.Conn.BeginTx(ctx, opts)
	if err != nil || c.trip == nil {
		return tx, err
	}
	return pgTx{tx, c.trip}, nil
}

// pgTx counts its end (WithRoundTrips).
type pgTx struct {
	driver.Tx
	trip func(string)
}

func (t pgTx) Commit() error   { t.trip("COMMIT"); return t.Tx.Commit() }
func (t pgTx) Rollback() error { t.trip("ROLLBACK"); return t.Tx.Rollback() }

// pgStmt counts each run of a prepared statement (WithRoundTrips).
type pgStmt struct {
	*stdlib.Stmt
	query string
	trip  func(string)
}

func (s *pgStmt) ExecContext(ctx context.Context, args []driver.NamedValue) (driver.Result, error) {
	s.trip(s.query)
	return s.Stmt.ExecContext(ctx, args)
}

func (s *pgStmt) QueryContext(ctx context.Context, args []driver.NamedValue) (driver.Rows, error) {
	s.trip(s.query)
	return s.Stmt.QueryContext(ctx, args)
}

// CheckNamedValue stores Go booleans as the 0/1 integers of the schema.
func (c *pgConn) CheckNamedValue(v *driver.NamedValue) error {
	if b, ok := v.Value.(bool); ok {
		v.Value = int64(0)
		if b {
			v.Value = int64(1)
		}
	}
	return nil
}

var translated sync.Map // SQLite statement -> PostgreSQL statement

var (
	nocaseEq    = regexp.MustCompile(`([a-z_][a-z_0-9.]*) = \? COLLATE NOCASE`)
	nocaseOrder = regexp.MustCompile(`([a-z_][a-z_0-9.]*) COLLATE NOCASE`)
	numbered    = regexp.MustCompile(`\?([0-9]+)`)
)

// translate turns a statement in SQLite's SQL into PostgreSQL's: see the
// top of this file. Each statement is translated once.
func translate(q string) string {
	if t, ok := translated.Load(q); ok {
		return t.(string)
	}
	t := nocaseEq.ReplaceAllString(q, "lower($1) = lower(?)")
	t = nocaseOrder.ReplaceAllString(t, "lower($1)")
	t = strings.ReplaceAll(t, " LIKE ", " ILIKE ")
	t = numbered.ReplaceAllString(t, "$$$1")
	var b strings.Builder
	n, quoted := 0, false
	for _, r := range t {
		switch {
		case r == '\'':
			quoted = !quoted
		case r == '?' && !quoted:
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteRune(r)
	}
	translated.Store(q, b.String())
	return b.String()
}

// lock takes, on PostgreSQL, the row locks of the rows query selects (with
// FOR UPDATE): the rows a change is about, a channel's encounters or a
// guild's campaign. Two changes of one channel then queue on the lock,
// as SQLite's one writer queues them, and the later one is retried
// (SERIALIZABLE) before it has read anything, instead of failing later on
// a key the earlier one took. On SQLite, whose writer lock is taken at
// BEGIN, it does nothing.
func (d *DB) lock(ctx context.Context, tx *sql.Tx, query string, args ...any) error {
	if !d.postgres {
		return nil
	}
	rows, err := tx.QueryContext(ctx, query+d.forUpdate(), args...)
	if err != nil {
		return fmt.Errorf("lock: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("lock: %w", err)
	}
	return nil
}

// forUpdate is the clause that makes a SELECT lock the rows it reads, on
// PostgreSQL (see lock): a load that locks what it loads is one statement,
// where lock and then a load are two. SQLite's writer lock, taken at
// BEGIN, needs none.
func (d *DB) forUpdate() string {
	if d.postgres {
		return " FOR UPDATE"
	}
	return ""
}

// lockCampaign locks the guild's faction campaign (see lock).
func (d *DB) lockCampaign(ctx context.Context, tx *sql.Tx, guildID string) error {
	return d.lock(ctx, tx, `SELECT id FROM faction_campaigns WHERE guild_id = ?`, guildID)
}

// lockChannel locks every encounter of the channel, active or not (see
// lock).
func (d *DB) lockChannel(ctx context.Context, tx *sql.Tx, channelID string) error {
	return d.lock(ctx, tx, `SELECT id FROM encounters WHERE channel_id = ?`, channelID)
}

// pgUnavailable is Unavailable for PostgreSQL's errors.
func pgUnavailable(err error) bool {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch {
		case strings.HasPrefix(pe.Code, "08"), strings.HasPrefix(pe.Code, "53"),
			strings.HasPrefix(pe.Code, "57P0"), pe.Code == "25006", retryable(err):
			return true
		}
		return false
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false // the caller gave up: its own outcome, not the store's
	}
	var ne *net.OpError
	var ce *pgconn.ConnectError
	return errors.Is(err, driver.ErrBadConn) || errors.As(err, &ne) || errors.As(err, &ce) || pgconn.SafeToRetry(err)
}
