-- How freely players change combatants they do not control in a channel's
-- fights, set by the GM with /init play: 'standard', 'strict' or 'open'.
-- A channel without a row plays 'standard'.
CREATE TABLE play_settings (
    guild_id   TEXT NOT NULL DEFAULT '',
    channel_id TEXT NOT NULL,
    mode       TEXT NOT NULL,
    set_by     TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (guild_id, channel_id)
);
