-- Whether players may type in dice in a channel or guild: as
-- db/migrations/0017.
CREATE TABLE dice_settings (
    guild_id   TEXT NOT NULL,
    channel_id TEXT NOT NULL,
    players    TEXT NOT NULL,
    set_by     TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (guild_id, channel_id)
);
