-- Character sheets: the stats a rules command reads with character:<name>
-- instead of the user typing them. Names are unique in a guild, whatever
-- their case, so a GM and the players can name a character unambiguously.
CREATE TABLE characters (
    id         INTEGER PRIMARY KEY,
    guild_id   TEXT NOT NULL DEFAULT '',
    owner_id   TEXT NOT NULL,
    owner_name TEXT NOT NULL,
    name       TEXT NOT NULL,
    system     TEXT NOT NULL,
    stats      TEXT NOT NULL DEFAULT '{}', -- JSON object: stat name -> integer
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    UNIQUE (guild_id, name COLLATE NOCASE)
);
CREATE INDEX characters_owner ON characters (guild_id, owner_id);
