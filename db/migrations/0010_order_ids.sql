-- Order IDs are never given twice (AUTOINCREMENT), as PostgreSQL's
-- identity column gives them: a removed order's number, shown on an old
-- message or held by an answer button, never comes to mean another order.
-- SQLite cannot add AUTOINCREMENT to a table: it is made anew, with the
-- same columns, rows and index, and remembers the largest ID so far.
CREATE TABLE faction_orders_new (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    campaign_id INTEGER NOT NULL REFERENCES faction_campaigns (id) ON DELETE CASCADE,
    faction     TEXT    NOT NULL,
    seq         INTEGER NOT NULL,
    mode        TEXT    NOT NULL DEFAULT 'queued' CHECK (mode IN ('queued', 'act')),
    body        TEXT    NOT NULL,            -- JSON: faction.Order
    question    TEXT    NOT NULL DEFAULT '', -- JSON: the faction.Question it waits on, '' when none
    created_by  TEXT    NOT NULL,
    created_at  TEXT    NOT NULL
);
INSERT INTO faction_orders_new (id, campaign_id, faction, seq, mode, body, question, created_by, created_at)
    SELECT id, campaign_id, faction, seq, mode, body, question, created_by, created_at FROM faction_orders;
DROP TABLE faction_orders;
ALTER TABLE faction_orders_new RENAME TO faction_orders;
CREATE INDEX faction_orders_queue ON faction_orders (campaign_id, faction COLLATE NOCASE, seq);
