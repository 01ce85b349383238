-- The tokens of the read-only web pages (/faction page): one per guild,
-- scope ('campaign') and audience ('players' or 'gm'). The token is kept
-- to show the GM the same link again; token_hash (SHA-256, hex) is what a
-- request is looked up by, and the token is then compared in constant
-- time (db/pages.go). A revoked token is deleted: it and a token never
-- made are the same "not found".
CREATE TABLE page_tokens (
    guild_id   TEXT NOT NULL,
    scope      TEXT NOT NULL,
    audience   TEXT NOT NULL,
    token      TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL,
    PRIMARY KEY (guild_id, scope, audience)
);
