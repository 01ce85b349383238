-- Encounters: the fight in a channel, turn by turn. The current state is
-- kept whole as the JSON of rules/encounter's Snapshot; every command that
-- changes it appends to encounter_events with the state after it, so undo
-- and redo restore a stored state exactly and /init log tells who did what.
CREATE TABLE encounters (
    id         INTEGER PRIMARY KEY,
    guild_id   TEXT    NOT NULL DEFAULT '',
    channel_id TEXT    NOT NULL,
    system     TEXT    NOT NULL,                -- the rule system whose policy runs it
    state      TEXT    NOT NULL,                -- JSON: encounter.Snapshot, the current state
    seq        INTEGER NOT NULL,                -- seq of its newest journal entry: the version
    active     INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)), -- 0 once the fight ended
    tracker_message TEXT NOT NULL DEFAULT '',   -- Discord message ID of the tracker, for the edge to edit
    created_by TEXT    NOT NULL,
    created_at TEXT    NOT NULL,                -- RFC 3339, UTC
    updated_at TEXT    NOT NULL
);
-- One fight at a time in a channel.
CREATE UNIQUE INDEX encounters_active_channel ON encounters (channel_id) WHERE active = 1;
CREATE INDEX encounters_channel ON encounters (channel_id, id);

-- The journal of an encounter, seq counting from 1 in each. A change is
-- 'done', 'undone' (by /init undo, and can be redone) or 'dropped' (undone,
-- then a new change took its place: it can no longer be redone). 'start'
-- opens the journal, 'undo' and 'redo' record those commands, with ref the
-- seq of the change they undid or redid. state is the state after the
-- entry, so undoing the newest done change restores the state of the done
-- change (or start) before it.
CREATE TABLE encounter_events (
    encounter_id INTEGER NOT NULL REFERENCES encounters (id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL,
    kind       TEXT    NOT NULL,                -- encounter.Kind, or start, undo, redo
    status     TEXT    NOT NULL CHECK (status IN ('start', 'done', 'undone', 'dropped', 'undo', 'redo')),
    ref        INTEGER NOT NULL DEFAULT 0,
    actor_id   TEXT    NOT NULL,                -- user ID of who ran the command
    summary    TEXT    NOT NULL DEFAULT '',     -- the headline as the GM reads it
    public     TEXT    NOT NULL DEFAULT '',     -- the headline as the players read it ('' when secret)
    event      TEXT    NOT NULL DEFAULT '{}',   -- JSON: encounter.Event
    state      TEXT    NOT NULL,                -- JSON: encounter.Snapshot after the entry
    created_at TEXT    NOT NULL,
    PRIMARY KEY (encounter_id, seq)
);
CREATE INDEX encounter_events_status ON encounter_events (encounter_id, status, seq);

-- The rule system of a channel, or of a whole guild (channel_id ''): what
-- /init start uses when not told, set with /system set.
CREATE TABLE system_settings (
    guild_id   TEXT NOT NULL DEFAULT '',
    channel_id TEXT NOT NULL DEFAULT '',
    system     TEXT NOT NULL,
    set_by     TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (guild_id, channel_id)
);
