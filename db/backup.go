package db

// Operations: online backups, checks, and telling an outage of the storage
// from other failures.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/mattn/go-sqlite3"
)

// Unavailable reports whether err comes from storage that cannot be
// written now: a read-only database file or file system, a full disk, an
// I/O error. Such a failure is nobody's mistake and passes when the
// operator fixes the machine; SQLite has rolled the transaction back, so
// nothing was half written.
//
// On PostgreSQL: the server cannot be reached or refuses work for now
// (connection errors, SQLSTATE classes 08, 53 and 57P0x, a read-only
// server), or a transaction still collided with others after MaxAttempts.
func Unavailable(err error) bool {
	if err == nil {
		return false
	}
	if pgUnavailable(err) {
		return true
	}
	var se sqlite3.Error
	if !errors.As(err, &se) {
		return false
	}
	switch se.Code {
	case sqlite3.ErrReadonly, sqlite3.ErrFull, sqlite3.ErrIoErr, sqlite3.ErrCantOpen:
		return true
	}
	return false
}

// ErrDamaged marks a database file SQLite finds damaged: Open refuses it
// (see Damaged for the message), and a command that meets the damage at
// run time fails with an error Damaged reports.
var ErrDamaged = errors.New("the database file is damaged")

// Damaged reports whether err comes from a damaged database file: Open's
// quick check, or SQLite's "database disk image is malformed" and "file
// is not a database" at run time. Retrying does not help: the operator
// restores a backup.
func Damaged(err error) bool {
	if errors.Is(err, ErrDamaged) {
		return true
	}
	var se sqlite3.Error
	return errors.As(err, &se) && (se.Code == sqlite3.ErrCorrupt || se.Code == sqlite3.ErrNotADB)
}

// DamagedFile is the error of a damaged database file, with what to do:
// the same for Open (serve, http, console) and tablehand check.
func DamagedFile(file, detail string) error {
	return fmt.Errorf("%w: %s (%s). Restore a backup: stop Tablehand, check the backup with `tablehand check --db BACKUP`, copy it over %s, delete %s-wal and %s-shm if present, and start Tablehand again",
		ErrDamaged, file, detail, file, file, file)
}

// quickCheck runs SQLite's quick_check on a database about to be used,
// and returns DamagedFile's error when it finds anything wrong.
func quickCheck(ctx context.Context, d *sql.DB, file string) error {
	rows, err := d.QueryContext(ctx, "PRAGMA quick_check")
	if err != nil {
		if Damaged(err) {
			return DamagedFile(file, err.Error())
		}
		return fmt.Errorf("open database %s: quick check: %w", file, err)
	}
	defer rows.Close()
	var lines []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return DamagedFile(file, err.Error())
		}
		lines = append(lines, line)
	}
	if err := rows.Err(); err != nil {
		if Damaged(err) {
			return DamagedFile(file, err.Error())
		}
		return fmt.Errorf("open database %s: quick check: %w", file, err)
	}
	if len(lines) != 1 || lines[0] != "ok" {
		return DamagedFile(file, "quick_check: "+strings.Join(lines, "; "))
	}
	return nil
}

// UnavailableReason words why storage cannot be written, for the user and
// the operator: "read-only", "the disk is full", or "" for an I/O error
// or a file that cannot be opened.
func UnavailableReason(err error) string {
	var se sqlite3.Error
	if !errors.As(err, &se) {
		return ""
	}
	switch se.Code {
	case sqlite3.ErrReadonly:
		return "read-only"
	case sqlite3.ErrFull:
		return "the disk is full"
	}
	return ""
}

// openRaw opens file without migrating it: read-only (mode=ro) for checks
// and backups, which must never change the schema of a database a running
// bot of another version is using.
func openRaw(file string) (*sql.DB, error) {
	if _, err := os.Stat(file); err != nil {
		return nil, fmt.Errorf("database %s: %w", file, err)
	}
	q := url.Values{}
	q.Set("mode", "ro")
	q.Set("_busy_timeout", "5000")
	dsn := "file:" + (&url.URL{Path: file}).EscapedPath() + "?" + q.Encode()
	d, err := sql.Open("sqlite3", dsn)
	if err != nil {
		return nil, fmt.Errorf("open database %s: %w", file, err)
	}
	return d, nil
}

// Backup writes a consistent copy of the database at src to dest while
// other connections, a running bot's, go on reading and writing it. It uses
// VACUUM INTO, which copies one read transaction's snapshot (WAL readers do
// not block the writer, nor it them), into a temporary file beside dest;
// checks the copy with PRAGMA integrity_check; syncs it; and only then
// links it to dest, which must not exist: a backup never overwrites one.
//
// A PostgreSQL database is not copied: its server's pg_dump does that, and
// Backup says so.
func Backup(ctx context.Context, src, dest string) (err error) {
	if IsPostgresURL(src) {
		return fmt.Errorf("backup: the database is PostgreSQL (%s): back it up with its own tools, e.g. pg_dump --format=custom --file=%s 'postgres://…'", Redact(src), dest)
	}
	if _, err := os.Lstat(dest); err == nil {
		return fmt.Errorf("backup: %s already exists: choose a new name", dest)
	}
	source, err := openRaw(src)
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	defer source.Close()

	tmp, err := os.CreateTemp(filepath.Dir(dest), "."+filepath.Base(dest)+".*.tmp")
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	tmpName := tmp.Name()
	defer func() {
		if rmErr := os.Remove(tmpName); rmErr != nil && !errors.Is(rmErr, os.ErrNotExist) && err == nil {
			err = fmt.Errorf("backup: remove temporary file: %w", rmErr)
		}
	}()
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	// VACUUM INTO takes an existing file if it is empty.
	if _, err := source.ExecContext(ctx, "VACUUM INTO ?", tmpName); err != nil {
		return fmt.Errorf("backup %s: %w", src, err)
	}
	rep, err := check(ctx, tmpName)
	if err != nil {
		return fmt.Errorf("backup: check the copy: %w", err)
	}
	if !rep.IntegrityOK() {
		return fmt.Errorf("backup: the copy fails its integrity check: %s", strings.Join(rep.Integrity, "; "))
	}
	if err := syncFile(tmpName); err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	// Link, unlike rename, fails if dest appeared meanwhile.
	if err := os.Link(tmpName, dest); err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	if err := syncFile(filepath.Dir(dest)); err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	return nil
}

func syncFile(name string) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("sync %s: %w", name, err)
	}
	return f.Close()
}

// Report is what Check found.
type Report struct {
	// Integrity is what PRAGMA integrity_check said: ["ok"] when the file
	// is sound, else its list of problems.
	Integrity []string
	// ForeignKeyViolations counts rows whose parent row is missing.
	ForeignKeyViolations int
	// Version is the schema version recorded in the file; Latest the
	// newest migration this build carries. Older is fine (the next Open
	// migrates); newer means an older Tablehand is looking at it.
	Version, Latest int
}

// IntegrityOK reports whether integrity_check found nothing wrong.
func (r Report) IntegrityOK() bool { return len(r.Integrity) == 1 && r.Integrity[0] == "ok" }

// OK reports whether the database is sound and this build can use it.
func (r Report) OK() bool {
	return r.IntegrityOK() && r.ForeignKeyViolations == 0 && r.Version <= r.Latest
}

func (r Report) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "integrity: %s\n", strings.Join(r.Integrity, "\n  "))
	fmt.Fprintf(&b, "foreign keys: %d violations\n", r.ForeignKeyViolations)
	fmt.Fprintf(&b, "schema: version %d; this build migrates up to %d", r.Version, r.Latest)
	switch {
	case r.Version < r.Latest:
		b.WriteString(" (the next start migrates it)")
	case r.Version > r.Latest:
		b.WriteString(" (made by a newer Tablehand: upgrade this one)")
	}
	return b.String()
}

// Check verifies the database file without changing it: PRAGMA
// integrity_check, PRAGMA foreign_key_check, and its schema version against
// the migrations this build carries. It does not migrate.
//
// On PostgreSQL, which checks its own pages and enforces foreign keys at
// every write, it checks that the server answers and compares the schema
// version with this build's.
func Check(ctx context.Context, file string) (Report, error) {
	if IsPostgresURL(file) {
		return pgCheck(ctx, file)
	}
	return check(ctx, file)
}

func pgCheck(ctx context.Context, url string) (Report, error) {
	d, err := openPostgres(ctx, url, nil)
	if err != nil {
		return Report{}, fmt.Errorf("check %s: %w", Redact(url), err)
	}
	defer d.Close()
	rep := Report{Integrity: []string{"ok"}}
	var exists bool
	if err := d.QueryRowContext(ctx, `SELECT to_regclass('tablehand_schema') IS NOT NULL`).Scan(&exists); err != nil {
		return Report{}, fmt.Errorf("check %s: %w", Redact(url), err)
	}
	if exists {
		err := d.QueryRowContext(ctx, `SELECT version FROM tablehand_schema WHERE id = 1`).Scan(&rep.Version)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return Report{}, fmt.Errorf("check %s: schema version: %w", Redact(url), err)
		}
	}
	if rep.Latest, err = latestMigration(pgMigrations, "pgmigrations"); err != nil {
		return Report{}, err
	}
	return rep, nil
}

func check(ctx context.Context, file string) (Report, error) {
	d, err := openRaw(file)
	if err != nil {
		return Report{}, err
	}
	defer d.Close()
	var rep Report
	rows, err := d.QueryContext(ctx, "PRAGMA integrity_check")
	if err != nil {
		return Report{}, fmt.Errorf("check %s: %w", file, err)
	}
	defer rows.Close()
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return Report{}, fmt.Errorf("check %s: %w", file, err)
		}
		rep.Integrity = append(rep.Integrity, line)
	}
	if err := rows.Err(); err != nil {
		return Report{}, fmt.Errorf("check %s: %w", file, err)
	}
	if err := d.QueryRowContext(ctx, "SELECT count(*) FROM pragma_foreign_key_check").Scan(&rep.ForeignKeyViolations); err != nil {
		return Report{}, fmt.Errorf("check %s: foreign keys: %w", file, err)
	}
	if err := d.QueryRowContext(ctx, "PRAGMA user_version").Scan(&rep.Version); err != nil {
		return Report{}, fmt.Errorf("check %s: schema version: %w", file, err)
	}
	if rep.Latest, err = LatestVersion(); err != nil {
		return Report{}, err
	}
	return rep, nil
}

// LatestVersion is the version of the newest migration this build carries:
// the schema version Open brings a database to.
func LatestVersion() (int, error) { return latestMigration(migrations, "migrations") }
