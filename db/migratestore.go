package db

// Moving a whole database from one store to another: a GM outgrowing one
// machine copies the SQLite file into PostgreSQL without losing a campaign.

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// storeTables are the tables of the schema, parents before children (the
// foreign keys), with the columns that identify a row.
var storeTables = []struct{ name, key string }{
	{"rolls", "id"},
	{"characters", "id"},
	{"encounters", "id"},
	{"encounter_events", "encounter_id, seq"},
	{"encounter_states", "encounter_id, seq"},
	{"system_settings", "guild_id, channel_id"},
	{"play_settings", "guild_id, channel_id"},
	{"gm_channels", "guild_id"},
	{"faction_campaigns", "id"},
	{"faction_orders", "id"},
	{"faction_order_numbers", "campaign_id, faction"},
	{"faction_schedules", "id"},
	{"faction_firings", "schedule_id, scheduled_at"},
	{"faction_rounds", "campaign_id, round"},
	{"interactions", "id"},
	{"page_tokens", "guild_id, scope, audience"},
	{"macros", "guild_id, owner_id, name"},
	{"outbox", "id"},
	{"display_names", "guild_id, user_id"},
	{"dice_settings", "guild_id, channel_id"},
}

// identityTables have an id column the database numbers: after a copy of
// explicit IDs, PostgreSQL's sequence must start past the largest.
// faction_orders, whose IDs are never given twice, restarts past every ID
// the source gave (restartOrderIDs), on both stores.
var identityTables = []string{"rolls", "characters", "encounters", "faction_campaigns", "faction_schedules", "outbox"}

// TableCopy is what MigrateStore found of one table: its rows on each side
// and the checksum of its contents on each side.
type TableCopy struct {
	Table          string
	From, To       int
	FromSum, ToSum string
}

// OK reports whether the table arrived whole.
func (c TableCopy) OK() bool { return c.From == c.To && c.FromSum == c.ToSum }

// MigrateStore copies every row of the database from into the database to,
// which must be empty (its schema made, no rows): in one transaction of
// to's, so that a failure leaves it empty. It then counts the rows of each
// table and checksums their contents on both sides, and fails unless all
// agree. from is read, never changed (it is brought to the latest schema
// first, as any start of Tablehand would).
func MigrateStore(ctx context.Context, from, to *DB) ([]TableCopy, error) {
	fv, err1 := from.Version(ctx)
	tv, err2 := to.Version(ctx)
	if err1 != nil || err2 != nil {
		return nil, fmt.Errorf("migrate-store: schema versions: %v %v", err1, err2)
	}
	if fl, tl := latest(from), latest(to); fv != fl || tv != tl {
		return nil, fmt.Errorf("migrate-store: the stores are not at their latest schemas (%d of %d, %d of %d)", fv, fl, tv, tl)
	}
	for _, t := range storeTables {
		var n int
		if err := to.sql.QueryRowContext(ctx, `SELECT count(*) FROM `+t.name).Scan(&n); err != nil {
			return nil, fmt.Errorf("migrate-store: count %s in the target: %w", t.name, err)
		}
		if n > 0 {
			return nil, fmt.Errorf("migrate-store: the target is not empty (%s has %d rows): give an empty database", t.name, n)
		}
	}
	given, err := orderIDsGiven(ctx, from)
	if err != nil {
		return nil, fmt.Errorf("migrate-store: the order IDs given in the source: %w", err)
	}
	err = to.txOnce(ctx, nil, func(tx *sql.Tx) error {
		for _, t := range storeTables {
			if err := copyTable(ctx, from.sql, tx, t.name, t.key); err != nil {
				return fmt.Errorf("copy %s: %w", t.name, err)
			}
		}
		if to.postgres {
			for _, t := range identityTables {
				if _, err := tx.ExecContext(ctx, `SELECT setval(pg_get_serial_sequence('`+t+`', 'id'), coalesce(max(id), 0) + 1, false) FROM `+t); err != nil {
					return fmt.Errorf("restart the IDs of %s: %w", t, err)
				}
			}
		}
		if err := restartOrderIDs(ctx, to, tx, given); err != nil {
			return fmt.Errorf("restart the IDs of faction_orders: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("migrate-store: %w", err)
	}
	var out []TableCopy
	for _, t := range storeTables {
		c := TableCopy{Table: t.name}
		var err error
		if c.From, c.FromSum, err = checksum(ctx, from.sql, t.name); err != nil {
			return nil, fmt.Errorf("migrate-store: checksum %s in the source: %w", t.name, err)
		}
		if c.To, c.ToSum, err = checksum(ctx, to.sql, t.name); err != nil {
			return nil, fmt.Errorf("migrate-store: checksum %s in the target: %w", t.name, err)
		}
		out = append(out, c)
	}
	for _, c := range out {
		if !c.OK() {
			return out, fmt.Errorf("migrate-store: %s differs after the copy: %d rows (%s) in the source, %d (%s) in the target", c.Table, c.From, c.FromSum[:12], c.To, c.ToSum[:12])
		}
	}
	return out, nil
}

// orderIDsGiven returns the largest order ID d has given, removed or not
// (0 for none): SQLite's AUTOINCREMENT keeps it in sqlite_sequence,
// PostgreSQL's identity column in its sequence. Order IDs are never given
// twice (QueueOrder), and a copy keeps that promise.
func orderIDsGiven(ctx context.Context, d *DB) (int64, error) {
	var n int64
	if !d.postgres {
		err := d.sql.QueryRowContext(ctx, `SELECT coalesce(max(seq), 0) FROM sqlite_sequence WHERE name = 'faction_orders'`).Scan(&n)
		return n, err
	}
	// The sequence's own row, not pg_sequence_last_value, which is NULL
	// after a setval(…, false) until the next ID is taken: the state
	// pgmigrations/0007 and restartOrderIDs leave it in, its last_value
	// then being the next ID to give.
	var seq string
	if err := d.sql.QueryRowContext(ctx, `SELECT pg_get_serial_sequence('faction_orders', 'id')`).Scan(&seq); err != nil {
		return 0, err
	}
	var called bool
	if err := d.sql.QueryRowContext(ctx, `SELECT last_value, is_called FROM `+seq).Scan(&n, &called); err != nil {
		return 0, err
	}
	if !called {
		n--
	}
	return n, nil
}

// restartOrderIDs makes d's next order ID follow both the orders copied in
// tx and given, the largest the source ever gave.
func restartOrderIDs(ctx context.Context, d *DB, tx *sql.Tx, given int64) error {
	if d.postgres {
		_, err := tx.ExecContext(ctx, `SELECT setval(pg_get_serial_sequence('faction_orders', 'id'),
			greatest(coalesce(max(id), 0), ?) + 1, false) FROM faction_orders`, given)
		return err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM sqlite_sequence WHERE name = 'faction_orders'`); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO sqlite_sequence (name, seq)
		SELECT 'faction_orders', max(coalesce(max(id), 0), ?) FROM faction_orders`, given)
	return err
}

// latest is the newest migration d's store carries.
func latest(d *DB) int {
	fsys, dir := migrations, "migrations"
	if d.postgres {
		fsys, dir = pgMigrations, "pgmigrations"
	}
	v, err := latestMigration(fsys, dir)
	if err != nil {
		return 0
	}
	return v
}

// copyRows is how many rows one INSERT carries.
const copyRows = 200

// copyTable copies table from src into tx, copyRows rows an INSERT.
func copyTable(ctx context.Context, src *sql.DB, tx *sql.Tx, table, key string) error {
	rows, err := src.QueryContext(ctx, `SELECT * FROM `+table+` ORDER BY `+key)
	if err != nil {
		return err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return err
	}
	row := "(" + placeholders(len(cols)) + ")"
	var batch []any
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		n := len(batch) / len(cols)
		q := `INSERT INTO ` + table + ` (` + strings.Join(cols, ", ") + `) VALUES ` + valuesRows(n, row)
		_, err := tx.ExecContext(ctx, q, batch...)
		batch = batch[:0]
		return err
	}
	for rows.Next() {
		vals, err := scanValues(rows, len(cols))
		if err != nil {
			return err
		}
		for i, v := range vals {
			if b, ok := v.([]byte); ok {
				vals[i] = string(b) // the schema has no blobs: text as SQLite returned it
			}
		}
		batch = append(batch, vals...)
		if len(batch) >= copyRows*len(cols) {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	return flush()
}

// checksum counts the rows of table and hashes its contents: each row's
// values in column order, by name, in one canonical text form (integers in
// decimal, text quoted), the rows' hashes sorted (the stores order text
// keys differently), then hashed together.
func checksum(ctx context.Context, q *sql.DB, table string) (int, string, error) {
	rows, err := q.QueryContext(ctx, `SELECT * FROM `+table)
	if err != nil {
		return 0, "", err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return 0, "", err
	}
	order := make([]int, len(cols))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return strings.Compare(cols[a], cols[b]) })
	var sums [][]byte
	for rows.Next() {
		vals, err := scanValues(rows, len(cols))
		if err != nil {
			return 0, "", err
		}
		h := sha256.New()
		for _, i := range order {
			fmt.Fprintf(h, "%s=%s;", cols[i], canonical(vals[i]))
		}
		sums = append(sums, h.Sum(nil))
	}
	if err := rows.Err(); err != nil {
		return 0, "", err
	}
	slices.SortFunc(sums, bytes.Compare)
	h := sha256.New()
	for _, s := range sums {
		h.Write(s)
	}
	return len(sums), hex.EncodeToString(h.Sum(nil)), nil
}

// canonical writes a value as both stores' drivers return it the same.
func canonical(v any) string {
	switch v := v.(type) {
	case nil:
		return "NULL"
	case int64:
		return strconv.FormatInt(v, 10)
	case int32:
		return strconv.FormatInt(int64(v), 10)
	case bool:
		if v {
			return "1"
		}
		return "0"
	case []byte:
		return strconv.Quote(string(v))
	case string:
		return strconv.Quote(v)
	}
	return fmt.Sprintf("%T:%v", v, v)
}

// scanValues scans the n columns of the current row as the driver gives
// them.
func scanValues(rows *sql.Rows, n int) ([]any, error) {
	vals := make([]any, n)
	ptrs := make([]any, n)
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	return vals, rows.Scan(ptrs...)
}
