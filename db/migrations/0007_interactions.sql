-- The interactions answered lately, by Discord's interaction ID: the
-- replay memory of `tablehand http`, shared by every process on the
-- database, so that an interaction answered by one replica is refused as a
-- replay by the others. seen_at is RFC 3339, UTC; rows older than the
-- window a signed request is accepted in are deleted (db/interactions.go).
CREATE TABLE interactions (
    id      TEXT NOT NULL PRIMARY KEY,
    seen_at TEXT NOT NULL
);
CREATE INDEX interactions_seen ON interactions (seen_at);
