-- Whether players may type in dice (`dice:`) in a channel, or in a whole
-- guild (channel_id ''), set by a GM with /system dice: 'any' (as with no
-- row) or 'rolled' (a player's dice: is refused; the GMs may still give
-- dice). A channel's row wins over its guild's.
CREATE TABLE dice_settings (
    guild_id   TEXT NOT NULL,
    channel_id TEXT NOT NULL,
    players    TEXT NOT NULL,
    set_by     TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (guild_id, channel_id)
);
