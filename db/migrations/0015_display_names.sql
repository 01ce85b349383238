-- The name each person shows on a server (their nick there, else their
-- global name, else their username), as Discord last gave it: the pages
-- show it where Discord would show a mention. Refreshed when they act or
-- are named in a user option.
CREATE TABLE display_names (
    guild_id   TEXT NOT NULL,
    user_id    TEXT NOT NULL,
    name       TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);
