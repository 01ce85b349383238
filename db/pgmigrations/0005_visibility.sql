-- Who sees a roll, and each guild's GM channel: as db/migrations/0008.
ALTER TABLE rolls ADD COLUMN visibility TEXT NOT NULL DEFAULT 'public';
UPDATE rolls SET visibility = 'self' WHERE private = 1;

CREATE TABLE gm_channels (
    guild_id   TEXT NOT NULL PRIMARY KEY,
    channel_id TEXT NOT NULL,
    set_by     TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
