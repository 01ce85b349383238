-- Who sees a roll (/roll visibility:): 'public', 'self' (the roller
-- alone: private: as before), 'gm' (the roller and the GMs) or 'blind'
-- (the GMs alone). private stays 1 for every roll other players may not
-- see. Rolls logged before this were 'public' or, when private, 'self'.
ALTER TABLE rolls ADD COLUMN visibility TEXT NOT NULL DEFAULT 'public';
UPDATE rolls SET visibility = 'self' WHERE private = 1;

-- The channel where Tablehand posts each gm and blind roll for the GMs of
-- a guild (/system gm-channel).
CREATE TABLE gm_channels (
    guild_id   TEXT NOT NULL PRIMARY KEY,
    channel_id TEXT NOT NULL,
    set_by     TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
