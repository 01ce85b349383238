// Package db keeps Tablehand's state: in SQLite by default (one file, no
// server), or in PostgreSQL when several processes share one database
// (postgres.go). The same methods, the same tests (the conformance suite in
// store_test.go) and one transaction per public method on both; each store
// has its own embedded, forward-only migrations.
package db

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/mattn/go-sqlite3"
)

//go:embed migrations/*.sql
var migrations embed.FS

//go:embed pgmigrations/*.sql
var pgMigrations embed.FS

// DefaultPath is the database file used when none is configured: a file in
// the working directory, no server to install.
const DefaultPath = "tablehand.db"

// MemoryPrefix begins the source of a SQLite database kept in memory, not
// in a file: "memory:NAME" is the database NAME of this process, which
// every store opened on the same source shares, and which is gone when
// the last of them closes. Tests use it (db/dbtest.Memory,
// commands/kit/kittest); it passes the same store suite as a file.
const MemoryPrefix = "memory:"

// DB is an open Tablehand database.
type DB struct {
	sql *sql.DB
	now func() time.Time
	// postgres says the store is PostgreSQL, not SQLite.
	postgres bool
	// expired is when ClaimInteraction last deleted old IDs.
	expireMu sync.Mutex
	expired  time.Time
	// write serialises this process's write transactions. SQLite allows one
	// writer at a time anyway; waiting here, in order, instead of in
	// SQLite's busy handler (which sleeps in growing steps and retries)
	// keeps the tail latency of a busy channel low. Other processes still
	// meet the busy timeout.
	write writeLock
	// stop ends the background checkpoint; stopped says it has ended.
	stop, stopped chan struct{}
	// checkpointNow wakes the background checkpoint before its time;
	// commits counts the commits that do (wrote).
	checkpointNow chan struct{}
	commits       atomic.Int64
	// insertRoll is the roll log's INSERT, prepared once: the roll log is
	// the busiest write, and parsing its SQL anew cost a sixth of it.
	insertRoll *sql.Stmt
	// rolls gathers the rolls saved while the writer is busy, to commit
	// them together (LogRoll).
	rolls groupCommit[*rollWait]
	// claims gathers the replay claims made while the writer is busy
	// (ClaimInteraction).
	claims groupCommit[*claimWait]
	// retries counts the PostgreSQL transactions run again (Retries).
	retries atomic.Int64
	// pageKey is the page secret (pagekey.go), read from pageKeyFile the
	// first time it is needed unless given; pageKeyErr a secret refused.
	pageKeyMu   sync.Mutex
	pageKey     []byte
	pageKeyErr  error
	pageKeyFile string
	// file is the SQLite file's path ("" in memory or on PostgreSQL);
	// fileWasReadOnly says it was seen unwritable at least once since
	// Open: connections opened then are read-only for good (reopenWrites).
	file            string
	fileWasReadOnly atomic.Bool
	// trip, when set, is told of each round trip to PostgreSQL
	// (WithRoundTrips).
	trip func(what string)
}

// Retries returns how many times a PostgreSQL transaction of this store
// collided with another (SQLSTATE 40001 or 40P01) and was run again: the
// cost of contention, which no user sees but in their wait.
func (d *DB) Retries() int64 { return d.retries.Load() }

// Option configures Open.
type Option func(*DB)

// WithClock sets the clock that stamps stored rows (UTC is stored).
func WithClock(now func() time.Time) Option { return func(d *DB) { d.now = now } }

// WithRoundTrips tells trip of each round trip the store makes to
// PostgreSQL: each statement it sends (its SQL), each BEGIN, COMMIT and
// ROLLBACK, and each statement it prepares ("PREPARE " and its SQL). It
// is for tests that hold a command to the round trips it costs; SQLite,
// in the process, has none to count and ignores it.
func WithRoundTrips(trip func(what string)) Option { return func(d *DB) { d.trip = trip } }

// Open opens the database at source and brings its schema up to date:
// a PostgreSQL URL (postgres://user@host/db, IsPostgresURL), the path of
// a SQLite file, created if missing, or a SQLite database in memory
// (MemoryPrefix).
//
// For SQLite:
// WAL lets readers run beside the writer; the busy timeout makes a writer
// wait for another instead of failing with "database is locked"; foreign
// keys are per connection, so they are set in the DSN, which applies them to
// every connection of the pool; _txlock=immediate takes the write lock at
// BEGIN, so two transactions never deadlock upgrading a read lock.
func Open(ctx context.Context, file string, opts ...Option) (*DB, error) {
	if IsPostgresURL(file) {
		return openPostgresDB(ctx, file, opts...)
	}
	if file == "" {
		file = DefaultPath
	}
	q := url.Values{}
	q.Set("_journal_mode", "WAL")
	q.Set("_busy_timeout", "5000")
	q.Set("_foreign_keys", "on")
	q.Set("_txlock", "immediate")
	q.Set("_synchronous", "NORMAL")
	path := file
	name, inMemory := strings.CutPrefix(file, MemoryPrefix)
	if inMemory {
		// SQLite's memdb VFS: a name beginning with "/" is one database
		// for every connection of the process, with the same locks as a
		// file (":memory:" would give each connection of the pool its own
		// empty database; a shared cache locks tables, not the database).
		// It has no WAL: its journal is in memory.
		q.Set("vfs", "memdb")
		path = "/" + name
	}
	dsn := "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + q.Encode()
	registerDriver.Do(func() {
		sql.Register(driverName, &sqlite3.SQLiteDriver{ConnectHook: func(c *sqlite3.SQLiteConn) error {
			// Checkpoints run in the background (checkpointLoop), not inside
			// whichever commit happens to cross the WAL's size threshold,
			// where they stalled every writer queued behind it.
			_, err := c.Exec("PRAGMA wal_autocheckpoint = 0", nil)
			return err
		}})
	})
	sqldb, err := sql.Open(driverName, dsn)
	if err != nil {
		return nil, fmt.Errorf("open database %s: %w", file, err)
	}
	d := &DB{sql: sqldb, now: time.Now}
	if !inMemory {
		// A database in memory keeps its page secret in memory too: no
		// key file beside a file that does not exist.
		d.pageKeyFile = file + PageKeySuffix
	}
	for _, o := range opts {
		o(d)
	}
	if d.pageKeyErr != nil {
		sqldb.Close()
		return nil, d.pageKeyErr
	}
	// A damaged file is refused at start, with what to do, rather than
	// met by every command later.
	if err := whileBusy(ctx, func() error { return quickCheck(ctx, sqldb, file) }); err != nil {
		sqldb.Close()
		return nil, explainOpen(file, err)
	}
	if err := whileBusy(ctx, func() error { return d.migrate(ctx) }); err != nil {
		sqldb.Close()
		return nil, explainOpen(file, fmt.Errorf("open database %s: %w", file, err))
	}
	if d.insertRoll, err = sqldb.PrepareContext(ctx, insertRollSQL); err != nil {
		sqldb.Close()
		return nil, fmt.Errorf("open database %s: prepare the roll log: %w", file, err)
	}
	if !inMemory {
		d.file = file
		if !fileWritable(file) {
			d.fileWasReadOnly.Store(true)
		}
	}
	d.stop, d.stopped = make(chan struct{}), make(chan struct{})
	d.checkpointNow = make(chan struct{}, 1)
	go d.checkpointLoop(CheckpointEvery)
	return d, nil
}

// openPostgresDB opens and migrates a PostgreSQL store.
func openPostgresDB(ctx context.Context, url string, opts ...Option) (*DB, error) {
	d := &DB{now: time.Now, postgres: true}
	for _, o := range opts {
		o(d)
	}
	sqldb, err := openPostgres(ctx, url, d.trip)
	if err != nil {
		return nil, fmt.Errorf("open database %s: %w", Redact(url), err)
	}
	d.sql = sqldb
	if d.pageKeyErr != nil {
		sqldb.Close()
		return nil, d.pageKeyErr
	}
	if err := d.pgMigrate(ctx); err != nil {
		sqldb.Close()
		return nil, fmt.Errorf("open database %s: %w", Redact(url), err)
	}
	if d.insertRoll, err = sqldb.PrepareContext(ctx, insertRollSQL); err != nil {
		sqldb.Close()
		return nil, fmt.Errorf("open database %s: prepare the roll log: %w", Redact(url), err)
	}
	return d, nil
}

// Postgres reports whether the store is PostgreSQL.
func (d *DB) Postgres() bool { return d.postgres }

const driverName = "sqlite3_tablehand"

var registerDriver sync.Once

// CheckpointEvery is how often the background checkpoint copies the WAL
// back into the database file.
const CheckpointEvery = time.Second

// checkpointLoop checkpoints the WAL every interval until Close. PASSIVE
// never waits for readers or writers: it copies what it can and the next
// round does the rest, so the WAL stays small without stalling anyone.
//
// A busy store also checkpoints after every CheckpointWrites commits
// (wrote): the WAL then stays a few megabytes long, rewritten in place in
// the page cache, where a second of a busy roll log grew it by a hundred
// and the kernel spent more on extending the file than SQLite on the
// rolls (BenchmarkSaveRoll in db/ measures a roll alone in its commit).
func (d *DB) checkpointLoop(interval time.Duration) {
	defer close(d.stopped)
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-d.stop:
			return
		case <-d.checkpointNow:
			d.sql.Exec("PRAGMA wal_checkpoint(PASSIVE)")
		case <-t.C:
			// An error here (a busy or read-only database) is retried on the
			// next tick; nothing depends on one checkpoint.
			d.sql.Exec("PRAGMA wal_checkpoint(PASSIVE)")
		}
	}
}

// CheckpointWrites is how many commits of this process bring the next
// background checkpoint forward (checkpointLoop).
const CheckpointWrites = 256

// wrote counts a commit on SQLite, and wakes the checkpoint every
// CheckpointWrites.
func (d *DB) wrote() {
	if d.postgres || d.checkpointNow == nil {
		return
	}
	if d.commits.Add(1)%CheckpointWrites == 0 {
		select {
		case d.checkpointNow <- struct{}{}:
		default: // one is due already
		}
	}
}

// Close stops the background checkpoint, folds the WAL into the database
// file, and closes it.
func (d *DB) Close() error {
	if d.stop != nil {
		close(d.stop)
		<-d.stopped
		d.stop = nil
		d.sql.Exec("PRAGMA wal_checkpoint(TRUNCATE)") // best effort: the WAL is replayed at the next open anyway
	}
	if d.insertRoll != nil {
		d.insertRoll.Close()
	}
	return d.sql.Close()
}

// SQL returns the underlying handle, for tests and checks.
func (d *DB) SQL() *sql.DB { return d.sql }

// migrate applies, in order, each embedded migration newer than the
// database's PRAGMA user_version, each in its own transaction together with
// the version bump, so a crash leaves either the old or the new schema.
func (d *DB) migrate(ctx context.Context) error {
	ms, err := readMigrations(migrations, "migrations")
	if err != nil {
		return err
	}
	var current int
	if err := d.sql.QueryRowContext(ctx, "PRAGMA user_version").Scan(&current); err != nil {
		return fmt.Errorf("read schema version: %w", err)
	}
	if n := len(ms); n > 0 && current > ms[n-1].version {
		return fmt.Errorf("database schema version %d is newer than this Tablehand knows (%d): upgrade Tablehand", current, ms[n-1].version)
	}
	// Tokens kept in the clear (before tokensHashed) are scrubbed from
	// the file, its free pages and its WAL too, once the migration has
	// dropped them.
	scrub := false
	if current >= tokensKept && current < tokensHashed {
		if err := d.sql.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM page_tokens)`).Scan(&scrub); err != nil {
			return fmt.Errorf("count page tokens: %w", err)
		}
	}
	for _, m := range ms {
		if m.version <= current {
			continue
		}
		err = d.tx(ctx, func(tx *sql.Tx) error {
			// The transaction holds the write lock from its BEGIN
			// (IMMEDIATE): read the version again under it, so that of
			// processes opening one new file at once, one applies each
			// migration and the others find it applied.
			var now int
			if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&now); err != nil {
				return fmt.Errorf("read schema version: %w", err)
			}
			if now >= m.version {
				return nil
			}
			if _, err := tx.ExecContext(ctx, m.body); err != nil {
				return err
			}
			_, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", m.version))
			return err
		})
		if err != nil {
			return fmt.Errorf("apply migration %s: %w", m.name, err)
		}
	}
	if scrub {
		if _, err := d.sql.ExecContext(ctx, "VACUUM"); err != nil {
			return fmt.Errorf("vacuum away the page tokens: %w", err)
		}
		if _, err := d.sql.ExecContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
			return fmt.Errorf("vacuum away the page tokens: %w", err)
		}
	}
	return nil
}

// The SQLite migrations that made and dropped page tokens kept in the
// clear.
const (
	tokensKept   = 9
	tokensHashed = 13
)

type migration struct {
	version    int
	name, body string
}

// readMigrations reads the migrations in dir of fsys, in version order.
func readMigrations(fsys embed.FS, dir string) ([]migration, error) {
	entries, err := fsys.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("read migrations: %w", err)
	}
	var ms []migration
	for _, e := range entries {
		num, _, ok := strings.Cut(e.Name(), "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || v <= 0 {
			return nil, fmt.Errorf("migration %s: name must start with a positive number and '_'", e.Name())
		}
		body, err := fsys.ReadFile(path.Join(dir, e.Name()))
		if err != nil {
			return nil, fmt.Errorf("read migration %s: %w", e.Name(), err)
		}
		ms = append(ms, migration{v, e.Name(), string(body)})
	}
	slices.SortFunc(ms, func(a, b migration) int { return a.version - b.version })
	for i := 1; i < len(ms); i++ {
		if ms[i].version == ms[i-1].version {
			return nil, fmt.Errorf("migrations %s and %s share version %d", ms[i-1].name, ms[i].name, ms[i].version)
		}
	}
	return ms, nil
}

// latestMigration is the version of the newest migration in dir of fsys,
// 0 for none.
func latestMigration(fsys embed.FS, dir string) (int, error) {
	ms, err := readMigrations(fsys, dir)
	if err != nil || len(ms) == 0 {
		return 0, err
	}
	return ms[len(ms)-1].version, nil
}

// Version returns the schema version recorded in the database.
func (d *DB) Version(ctx context.Context) (int, error) {
	var v int
	q := "PRAGMA user_version"
	if d.postgres {
		q = "SELECT version FROM tablehand_schema WHERE id = 1"
	}
	err := d.sql.QueryRowContext(ctx, q).Scan(&v)
	return v, err
}

// SetVersion records v as the schema version, for tests of a database
// left by a newer Tablehand.
func (d *DB) SetVersion(ctx context.Context, v int) error {
	q := fmt.Sprintf("PRAGMA user_version = %d", v)
	if d.postgres {
		q = fmt.Sprintf("UPDATE tablehand_schema SET version = %d WHERE id = 1", v)
	}
	_, err := d.sql.ExecContext(ctx, q)
	return err
}

// tx runs fn in one transaction: committed when fn returns nil, rolled back
// otherwise. Every public method that changes state goes through it, and
// unexported helpers take the *sql.Tx so they compose.
//
// On PostgreSQL, fn runs in a SERIALIZABLE transaction, without the
// process's write lock (other processes write beside it anyway), and is
// run again, up to MaxAttempts times, when the transaction collided with
// another (retryable): fn must only change the database, and what it
// returns. A user never sees a collision, only its outcome.
func (d *DB) tx(ctx context.Context, fn func(*sql.Tx) error) error {
	return d.txIso(ctx, sql.LevelSerializable, fn)
}

// lockedTx is tx for a method whose first statements lock (lock,
// lockCampaign) every row it reads to decide and then changes: on
// PostgreSQL it runs at READ COMMITTED, where a transaction that waited
// for a lock goes on with what the holder committed instead of failing
// and being run again, as SERIALIZABLE would make it. SQLite's one writer
// makes both the same.
func (d *DB) lockedTx(ctx context.Context, fn func(*sql.Tx) error) error {
	return d.txIso(ctx, sql.LevelReadCommitted, fn)
}

// txIso is tx at an isolation level of PostgreSQL's.
func (d *DB) txIso(ctx context.Context, level sql.IsolationLevel, fn func(*sql.Tx) error) error {
	if d.postgres {
		return d.txAt(ctx, level, fn)
	}
	if err := d.write.LockContext(ctx); err != nil {
		return fmt.Errorf("wait for the writer: %w", err)
	}
	defer d.write.Unlock()
	return d.txLocked(ctx, fn)
}

// writeLock is a mutex whose waiters give up when their context ends: a
// store call waiting behind a stalled writer keeps its deadline.
type writeLock struct {
	once sync.Once
	c    chan struct{}
}

func (l *writeLock) ch() chan struct{} {
	l.once.Do(func() { l.c = make(chan struct{}, 1) })
	return l.c
}

// Lock takes the lock, waiting as long as it takes.
func (l *writeLock) Lock() { l.ch() <- struct{}{} }

// LockContext takes the lock, or returns ctx's error when ctx ends first.
func (l *writeLock) LockContext(ctx context.Context) error {
	select {
	case l.ch() <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Unlock releases the lock.
func (l *writeLock) Unlock() { <-l.ch() }

// txLocked is tx for a caller that holds d.write (on SQLite).
func (d *DB) txLocked(ctx context.Context, fn func(*sql.Tx) error) error {
	return d.writeLocked(func() error { return d.txAt(ctx, sql.LevelSerializable, fn) })
}

// once runs fn, which sends one statement that commits by itself: no
// BEGIN, no COMMIT, a round trip where a transaction costs three on
// PostgreSQL and three calls into SQLite. A statement is atomic, and
// durable once it returns, as a transaction's commit is. On SQLite it
// runs with d.write held, as tx's transactions do.
func (d *DB) once(ctx context.Context, fn func(*sql.DB) error) error {
	if d.postgres {
		return fn(d.sql)
	}
	if err := d.write.LockContext(ctx); err != nil {
		return fmt.Errorf("wait for the writer: %w", err)
	}
	defer d.write.Unlock()
	return d.onceLocked(fn)
}

// onceLocked is once for a caller that holds d.write (on SQLite).
func (d *DB) onceLocked(fn func(*sql.DB) error) error {
	return d.writeLocked(func() error { return fn(d.sql) })
}

// writeLocked runs write, which commits, for a caller that holds d.write
// (on SQLite): again on fresh connections while reopenWrites says so, and
// counted once committed (wrote).
func (d *DB) writeLocked(write func() error) error {
	err := write()
	for attempt := 0; err != nil && attempt < reopenAttempts && d.reopenWrites(err); attempt++ {
		err = write()
	}
	if err == nil {
		d.wrote()
	}
	return err
}

// reopenAttempts bounds how often one write is run again on fresh
// connections (reopenWrites).
const reopenAttempts = 2

// reopenWrites reports whether a write that failed with err is worth
// running again on fresh connections, and closes the idle ones if so.
// SQLite opens a file it cannot write read-only, silently, and such a
// connection stays read-only after the file is made writable again (it
// holds an O_RDONLY descriptor): once the file has been seen unwritable,
// a write refused as read-only while the file is writable again drops
// the pool's connections, so that the next ones open it read-write. (A
// connection made read-only by PRAGMA query_only, on a writable file that
// never was read-only, is left alone.)
func (d *DB) reopenWrites(err error) bool {
	if d.file == "" || d.postgres || UnavailableReason(err) != "read-only" {
		return false
	}
	if !fileWritable(d.file) {
		d.fileWasReadOnly.Store(true)
		return false
	}
	if !d.fileWasReadOnly.Load() {
		return false
	}
	// Closes every idle connection, and each one in use as it is put back;
	// new ones are opened as needed.
	d.sql.SetMaxIdleConns(0)
	d.sql.SetMaxIdleConns(sqliteIdleConns)
	return true
}

// explainOpen turns a failure to open or migrate the SQLite file into
// what the operator must fix when the file or its directory cannot be
// written: SQLite's own words ("attempt to write a readonly database",
// "unable to open database file: no such file or directory") do not say,
// and are misleading for a directory that exists: the explanation
// replaces them (the error still wraps SQLite's, for errors.Is and As).
func explainOpen(file string, err error) error {
	if strings.HasPrefix(file, MemoryPrefix) || !Unavailable(err) {
		return err
	}
	dir := filepath.Dir(file)
	if fi, statErr := os.Stat(file); statErr == nil && fi.IsDir() {
		return &openError{fmt.Sprintf("database %s is a directory: give a file in it, such as %s", file, filepath.Join(file, "tablehand.db")), err}
	}
	if missing := missingDir(dir); missing != "" {
		return &openError{fmt.Sprintf("database %s: the directory %s does not exist: create it (mkdir -p %s), or set database to a file in a directory that exists", file, missing, dir), err}
	}
	if probeErr := dirProbe(dir); probeErr != nil {
		return &openError{fmt.Sprintf("database %s: its directory %s cannot be written (%s; SQLite creates the database and its -wal and -shm files there): make the directory writable by the bot's user (chmod, chown; lsattr -d for an immutable directory), or set database to a file in a writable directory", file, dir, why(probeErr)), err}
	}
	if !fileWritable(file) {
		if _, statErr := os.Stat(file); statErr == nil {
			return &openError{fmt.Sprintf("database %s: the file cannot be written: make it writable by the bot's user (chmod, chown; lsattr for an immutable file), or remount its file system read-write", file), err}
		}
	}
	return err
}

// openError is explainOpen's explanation, which replaces the message of
// the error it wraps.
type openError struct {
	msg string
	err error
}

func (e *openError) Error() string { return e.msg }
func (e *openError) Unwrap() error { return e.err }

// missingDir is the first directory on the way to dir that does not
// exist ("" when dir exists): the one the operator must create first.
func missingDir(dir string) string {
	missing := ""
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(d); err == nil || !errors.Is(err, fs.ErrNotExist) {
			return missing
		}
		missing = d
		if filepath.Dir(d) == d {
			return missing
		}
	}
}

// why is what a failed write says, in the operator's words.
func why(err error) string {
	switch {
	case errors.Is(err, syscall.EROFS):
		return "a read-only file system"
	case errors.Is(err, syscall.EPERM):
		return "operation not permitted: an immutable directory?"
	case errors.Is(err, fs.ErrPermission):
		return "permission denied"
	}
	return err.Error()
}

// dirProbe creates and removes a file in dir: nil when a file can be
// created there now, else why not.
func dirProbe(dir string) error {
	f, err := os.CreateTemp(dir, ".tablehand-probe-*")
	if err != nil {
		return err
	}
	f.Close()
	os.Remove(f.Name())
	return nil
}

// sqliteIdleConns is how many idle connections a SQLite store keeps:
// database/sql's default, which Open does not change.
const sqliteIdleConns = 2

// fileWritable reports whether file can be opened for writing now.
func fileWritable(file string) bool {
	f, err := os.OpenFile(file, os.O_RDWR, 0)
	if err != nil {
		return false
	}
	f.Close()
	return true
}

// txAt is txLocked at the isolation level given on PostgreSQL: SERIALIZABLE
// but where a method's row locks alone keep it right (see QueueOrder).
func (d *DB) txAt(ctx context.Context, level sql.IsolationLevel, fn func(*sql.Tx) error) error {
	if !d.postgres {
		return d.txOnce(ctx, nil, fn)
	}
	opts := &sql.TxOptions{Isolation: level}
	for attempt := 1; ; attempt++ {
		err := d.txOnce(ctx, opts, fn)
		if err == nil || !retryable(err) || attempt == MaxAttempts {
			return err
		}
		d.retries.Add(1)
		select {
		case <-ctx.Done():
			return err
		case <-time.After(backoff(attempt)):
		}
	}
}

// txOnce runs fn in one transaction.
func (d *DB) txOnce(ctx context.Context, opts *sql.TxOptions, fn func(*sql.Tx) error) (err error) {
	tx, err := d.sql.BeginTx(ctx, opts)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	defer func() {
		if p := recover(); p != nil {
			tx.Rollback()
			panic(p)
		}
		if err != nil {
			tx.Rollback()
		}
	}()
	if err := fn(tx); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

func (d *DB) stamp() string { return d.now().UTC().Format(time.RFC3339Nano) }

// openBusyWait is how long Open tries again while another process holds
// a new database file's locks: SQLite's busy timeout does not cover
// every lock taken while a file becomes a WAL database (its first
// connections may be answered "database is locked" at once), and
// processes starting together on one new file meet exactly that.
const openBusyWait = 5 * time.Second

// whileBusy runs f, and runs it again while it fails with SQLite's
// "database is locked" or "busy", for at most openBusyWait.
func whileBusy(ctx context.Context, f func() error) error {
	deadline := time.Now().Add(openBusyWait)
	pause := 5 * time.Millisecond
	for {
		err := f()
		var se sqlite3.Error
		if err == nil || !errors.As(err, &se) || (se.Code != sqlite3.ErrBusy && se.Code != sqlite3.ErrLocked) || time.Now().After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(pause):
		}
		pause = min(2*pause, 100*time.Millisecond)
	}
}
