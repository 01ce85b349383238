-- Messages to post, written in the same transaction as what they report
-- (a scheduled faction round), so that a process that dies after the
-- commit leaves them for any process to post (db/outbox.go). body is the
-- message as the game encoded it: the store does not read it. Times are
-- outboxStamp, UTC, so that they compare as text.
CREATE TABLE outbox (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    channel_id TEXT NOT NULL,
    body       TEXT NOT NULL,
    created_at TEXT NOT NULL,
    claimed_at TEXT,
    attempts   INTEGER NOT NULL DEFAULT 0,
    posted_at  TEXT
);
CREATE INDEX outbox_due ON outbox (posted_at, id);
