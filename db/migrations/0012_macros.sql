-- Saved rolls (/macro): `/roll atk` rolls the roll a player saved as atk.
-- owner_id is the player's user ID, or '' for the server's (scope:server,
-- set by a GM), which serves every player of the guild; a player's own
-- macro of a name wins over the server's. name is stored in lower case
-- (the commands fold it), so the key needs no NOCASE.
CREATE TABLE macros (
    guild_id   TEXT NOT NULL DEFAULT '',
    owner_id   TEXT NOT NULL,
    owner_name TEXT NOT NULL, -- who set it: the player, or the GM for the server's
    name       TEXT NOT NULL,
    roll       TEXT NOT NULL, -- the dice expression, as typed
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (guild_id, owner_id, name)
);
