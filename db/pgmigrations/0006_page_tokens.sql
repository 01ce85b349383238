-- The tokens of the read-only web pages (/faction page): as
-- db/migrations/0009.
CREATE TABLE page_tokens (
    guild_id   TEXT NOT NULL,
    scope      TEXT NOT NULL,
    audience   TEXT NOT NULL,
    token      TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL,
    PRIMARY KEY (guild_id, scope, audience)
);
