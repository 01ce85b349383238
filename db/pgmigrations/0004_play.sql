-- How freely players change combatants they do not control in a channel's
-- fights (/init play): as db/migrations/0006.
CREATE TABLE play_settings (
    guild_id   TEXT NOT NULL DEFAULT '',
    channel_id TEXT NOT NULL,
    mode       TEXT NOT NULL,
    set_by     TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (guild_id, channel_id)
);
