-- A hidden sheet does not hold its name against the players: names are
-- unique in a guild, whatever their case, among the visible sheets, and
-- among the hidden ones, but a visible and a hidden sheet may share one.
-- Else a player who names a sheet as the GM's secret NPC would be told
-- the name is taken, and learn of the NPC. The table is rebuilt without
-- 0002's inline UNIQUE (SQLite cannot drop it), keeping every row and id.
CREATE TABLE characters_new (
    id         INTEGER PRIMARY KEY,
    guild_id   TEXT NOT NULL DEFAULT '',
    owner_id   TEXT NOT NULL,
    owner_name TEXT NOT NULL,
    name       TEXT NOT NULL,
    system     TEXT NOT NULL,
    stats      TEXT NOT NULL DEFAULT '{}', -- JSON object: stat name -> integer
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    hidden     INTEGER NOT NULL DEFAULT 0 CHECK (hidden IN (0, 1))
);
INSERT INTO characters_new (id, guild_id, owner_id, owner_name, name, system, stats, created_at, updated_at, hidden)
    SELECT id, guild_id, owner_id, owner_name, name, system, stats, created_at, updated_at, hidden FROM characters;
DROP TABLE characters;
ALTER TABLE characters_new RENAME TO characters;
CREATE INDEX characters_owner ON characters (guild_id, owner_id);
CREATE UNIQUE INDEX characters_name ON characters (guild_id, name COLLATE NOCASE) WHERE hidden = 0;
CREATE UNIQUE INDEX characters_hidden_name ON characters (guild_id, name COLLATE NOCASE) WHERE hidden = 1;
