-- The replay memory of `tablehand http`: as db/migrations/0007.
CREATE TABLE interactions (
    id      TEXT NOT NULL PRIMARY KEY,
    seen_at TEXT NOT NULL
);
CREATE INDEX interactions_seen ON interactions (seen_at);
