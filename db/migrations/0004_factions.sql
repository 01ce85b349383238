-- The faction game of seed 000 (rules/faction): one campaign per guild
-- (a campaign is the world around one group's story; a guild that runs
-- several games keeps them apart by server). Its whole state is the JSON of
-- faction.Campaign; version counts its saves.
CREATE TABLE faction_campaigns (
    id         INTEGER PRIMARY KEY,
    guild_id   TEXT    NOT NULL UNIQUE,
    channel_id TEXT    NOT NULL,            -- where it was created: scheduled reports go there
    state      TEXT    NOT NULL,            -- JSON: faction.Campaign
    version    INTEGER NOT NULL DEFAULT 1,  -- +1 at every save
    timezone   TEXT    NOT NULL DEFAULT '', -- the guild's IANA zone, last given to /schedule set
    created_by TEXT    NOT NULL,
    created_at TEXT    NOT NULL,            -- RFC 3339, UTC
    updated_at TEXT    NOT NULL
);

-- Orders queued for the next round, in the order given (seq) per faction.
-- mode 'queued' waits for /faction round (or a schedule); mode 'act' is a
-- /faction act held by a Question until the GM (or the faction asked)
-- answers with a button.
CREATE TABLE faction_orders (
    id          INTEGER PRIMARY KEY,
    campaign_id INTEGER NOT NULL REFERENCES faction_campaigns (id) ON DELETE CASCADE,
    faction     TEXT    NOT NULL,
    seq         INTEGER NOT NULL,
    mode        TEXT    NOT NULL DEFAULT 'queued' CHECK (mode IN ('queued', 'act')),
    body        TEXT    NOT NULL,            -- JSON: faction.Order
    question    TEXT    NOT NULL DEFAULT '', -- JSON: the faction.Question it waits on, '' when none
    created_by  TEXT    NOT NULL,
    created_at  TEXT    NOT NULL
);
CREATE INDEX faction_orders_queue ON faction_orders (campaign_id, faction COLLATE NOCASE, seq);

-- Scheduled rounds: one schedule per campaign. spec is what the GM typed,
-- cron the five-field spec it stands for, in timezone. last_firing is the
-- scheduled time of the newest firing dealt with (applied, awaiting
-- approval, skipped or missed): firings after it are due.
CREATE TABLE faction_schedules (
    id             INTEGER PRIMARY KEY,
    campaign_id    INTEGER NOT NULL UNIQUE REFERENCES faction_campaigns (id) ON DELETE CASCADE,
    channel_id     TEXT    NOT NULL,     -- where its reports are posted
    spec           TEXT    NOT NULL,
    cron           TEXT    NOT NULL,
    timezone       TEXT    NOT NULL,
    rounds         INTEGER NOT NULL CHECK (rounds BETWEEN 1 AND 3),
    paused         INTEGER NOT NULL DEFAULT 0 CHECK (paused IN (0, 1)),
    approve        INTEGER NOT NULL DEFAULT 0 CHECK (approve IN (0, 1)),
    missed         TEXT    NOT NULL DEFAULT 'skip' CHECK (missed IN ('skip', 'catch-up')),
    catch_up_limit INTEGER NOT NULL DEFAULT 3 CHECK (catch_up_limit BETWEEN 0 AND 10),
    last_firing    TEXT    NOT NULL,     -- RFC 3339, UTC
    created_by     TEXT    NOT NULL,
    created_at     TEXT    NOT NULL,
    updated_at     TEXT    NOT NULL
);

-- Every firing of a schedule, by its identity (schedule, scheduled time):
-- the primary key makes a firing count at most once, across restarts and
-- with several processes on one database. An applied firing is written in
-- the same transaction as the rounds it played.
CREATE TABLE faction_firings (
    schedule_id  INTEGER NOT NULL REFERENCES faction_schedules (id) ON DELETE CASCADE,
    scheduled_at TEXT    NOT NULL,       -- RFC 3339, UTC, whole seconds
    status       TEXT    NOT NULL CHECK (status IN ('pending', 'applied', 'skipped', 'missed')),
    first_round  INTEGER NOT NULL DEFAULT 0,
    last_round   INTEGER NOT NULL DEFAULT 0,
    note         TEXT    NOT NULL DEFAULT '',
    updated_at   TEXT    NOT NULL,
    PRIMARY KEY (schedule_id, scheduled_at)
);

-- The history of played rounds: the report as the players read it and
-- each faction's sheet after the round, for /faction report and the chart.
CREATE TABLE faction_rounds (
    campaign_id  INTEGER NOT NULL REFERENCES faction_campaigns (id) ON DELETE CASCADE,
    round        INTEGER NOT NULL,
    report       TEXT    NOT NULL,            -- JSON: faction.RoundReport
    sheets       TEXT    NOT NULL,            -- JSON: []db.FactionSheet after the round
    schedule_id  INTEGER NOT NULL DEFAULT 0,  -- the firing that played it, 0 for /faction round
    scheduled_at TEXT    NOT NULL DEFAULT '',
    played_by    TEXT    NOT NULL,
    created_at   TEXT    NOT NULL,
    PRIMARY KEY (campaign_id, round)
);
