-- Page tokens are no longer kept, so that the database file and its
-- backups hold no working link (db/pages.go). A token is derived from the
-- server's page secret (outside the database) and the row's nonce, and
-- shown again from them; the row keeps only the nonce and the token's
-- hash, which a request is looked up by. A token made before this has
-- no nonce (''): its link still opens its page, and asking for it again
-- replaces it.
--
-- A fight's page is now the page of one fight, scope
-- 'fight:<channel>:<encounter id>', no longer of the channel's fight of
-- the moment: an old link of a channel opens the fight running in it
-- now, or, with none running, its latest (which has ended, and the link
-- says so); 0 for a channel that never had one.
--
-- Rebuilt rather than altered, and vacuumed after (db.go), so that the
-- tokens' text leaves the file's free pages as well.
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
