-- Page tokens are no longer kept, and a fight's page is one fight's: as
-- db/migrations/0012. Rebuilt so that the old table's files, tokens and
-- all, are deleted with it.
CREATE TABLE page_tokens_new (
    guild_id   TEXT NOT NULL,
    scope      TEXT NOT NULL,
    audience   TEXT NOT NULL,
    nonce      TEXT NOT NULL DEFAULT '',
    token_hash TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL,
    PRIMARY KEY (guild_id, scope, audience)
);
INSERT INTO page_tokens_new (guild_id, scope, audience, nonce, token_hash, created_at)
SELECT guild_id,
       CASE WHEN scope LIKE 'fight:%' THEN scope || ':' || CAST(COALESCE(
           (SELECT e.id FROM encounters e WHERE e.channel_id = substr(page_tokens.scope, 7) AND e.active = 1),
           (SELECT MAX(e.id) FROM encounters e WHERE e.channel_id = substr(page_tokens.scope, 7)),
           0) AS TEXT)
       ELSE scope END,
       audience, '', token_hash, created_at
FROM page_tokens;
DROP TABLE page_tokens;
ALTER TABLE page_tokens_new RENAME TO page_tokens;
