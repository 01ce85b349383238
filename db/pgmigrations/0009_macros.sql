-- Saved rolls (/macro): as db/migrations/0012.
CREATE TABLE macros (
    guild_id   TEXT NOT NULL DEFAULT '',
    owner_id   TEXT NOT NULL,
    owner_name TEXT NOT NULL,
    name       TEXT NOT NULL,
    roll       TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (guild_id, owner_id, name)
);
