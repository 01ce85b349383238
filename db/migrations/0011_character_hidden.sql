-- A hidden character (an NPC the GM keeps secret): only the GMs and its
-- owner may read its sheet, find it in lists or roll with its stats.
ALTER TABLE characters ADD COLUMN hidden INTEGER NOT NULL DEFAULT 0 CHECK (hidden IN (0, 1));
