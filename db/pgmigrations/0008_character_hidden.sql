-- Hidden characters: as db/migrations/0011.
ALTER TABLE characters ADD COLUMN hidden INTEGER NOT NULL DEFAULT 0 CHECK (hidden IN (0, 1));
