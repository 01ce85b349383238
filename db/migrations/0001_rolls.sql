-- The roll log: every roll in the project, so a table can settle
-- "what did you roll?" later. Dice and outcome are kept as JSON.
CREATE TABLE rolls (
    id         INTEGER PRIMARY KEY,
    code       TEXT    NOT NULL,             -- the short ID shown to users
    guild_id   TEXT    NOT NULL DEFAULT '',
    channel_id TEXT    NOT NULL,
    user_id    TEXT    NOT NULL,
    user_name  TEXT    NOT NULL,
    expr       TEXT    NOT NULL,
    total      INTEGER NOT NULL,
    private    INTEGER NOT NULL DEFAULT 0 CHECK (private IN (0, 1)),
    detail     TEXT    NOT NULL DEFAULT '{}', -- JSON: the dice and the outcome
    created_at TEXT    NOT NULL              -- RFC 3339, UTC
);
CREATE INDEX rolls_channel ON rolls (channel_id, id);
CREATE INDEX rolls_code ON rolls (code);
CREATE INDEX rolls_user ON rolls (user_id, id);
