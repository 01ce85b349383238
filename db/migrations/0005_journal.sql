-- A bounded encounter journal. Every entry of encounter_events used to
-- keep a whole snapshot of the encounter in its state column, forever: a
-- long fight made thousands. Now the snapshots live in encounter_states,
-- only while undo or redo may need them (db/encounters.go, MaxUndo, says
-- which), and encounter_events is the log alone: who did what, kept whole.
--
-- Why a table of its own, and not state = '' in place: SQLite does not
-- give back the room of a row that an UPDATE shrinks (the page stays
-- sparse, and new rows go to new pages at the end of the table), so the
-- file would have grown by a snapshot per command all the same. A DELETE
-- does: emptied pages go to the free list, and the next snapshots reuse
-- them.
--
-- state was NOT NULL, which SQLite cannot relax in place, and ALTER TABLE
-- DROP COLUMN rewrites each row where it is, leaving the pages as sparse;
-- so encounter_events is rebuilt without it (the table-rebuild pattern:
-- copy into a new table, drop the old, rename, re-create the index). The old table's pages go to the free list,
-- for the database to reuse; VACUUM (or a backup, which is a VACUUM INTO)
-- gives them back to the file system. Nothing references encounter_events,
-- so no foreign key needs handling.

-- The state after journal entry (encounter_id, seq): a row for each start,
-- done or undone entry in (or not yet pruned just below) the undo window
-- of an encounter that can still be undone; deleted once out of reach.
CREATE TABLE encounter_states (
    encounter_id INTEGER NOT NULL REFERENCES encounters (id) ON DELETE CASCADE,
    seq          INTEGER NOT NULL,              -- the journal entry it follows
    state        TEXT    NOT NULL,              -- JSON: encounter.Snapshot
    PRIMARY KEY (encounter_id, seq)
);

-- What undo and redo may still read: the states of start, done and undone
-- entries (not of undo and redo entries: the encounter's own row has the
-- current state; nor of dropped ones: they cannot be redone) of each
-- channel's latest encounter (undo reaches no other). The next change of a
-- long fight trims them to its undo window.
INSERT INTO encounter_states (encounter_id, seq, state)
SELECT ev.encounter_id, ev.seq, ev.state FROM encounter_events ev
WHERE ev.status IN ('start', 'done', 'undone')
  AND ev.encounter_id IN (SELECT MAX(id) FROM encounters GROUP BY channel_id);

CREATE TABLE encounter_events_new (
    encounter_id INTEGER NOT NULL REFERENCES encounters (id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL,
    kind       TEXT    NOT NULL,                -- encounter.Kind, or start, undo, redo
    status     TEXT    NOT NULL CHECK (status IN ('start', 'done', 'undone', 'dropped', 'undo', 'redo')),
    ref        INTEGER NOT NULL DEFAULT 0,
    actor_id   TEXT    NOT NULL,                -- user ID of who ran the command
    summary    TEXT    NOT NULL DEFAULT '',     -- the headline as the GM reads it
    public     TEXT    NOT NULL DEFAULT '',     -- the headline as the players read it ('' when secret)
    event      TEXT    NOT NULL DEFAULT '{}',   -- JSON: encounter.Event
    created_at TEXT    NOT NULL,
    PRIMARY KEY (encounter_id, seq)
);
INSERT INTO encounter_events_new (encounter_id, seq, kind, status, ref, actor_id, summary, public, event, created_at)
SELECT encounter_id, seq, kind, status, ref, actor_id, summary, public, event, created_at FROM encounter_events;
DROP TABLE encounter_events;
ALTER TABLE encounter_events_new RENAME TO encounter_events;
CREATE INDEX encounter_events_status ON encounter_events (encounter_id, status, seq);
