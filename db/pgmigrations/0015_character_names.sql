-- Names unique among the visible sheets and among the hidden ones, a
-- visible and a hidden sheet may share one: as db/migrations/0018.
DROP INDEX characters_name;
CREATE UNIQUE INDEX characters_name ON characters (guild_id, lower(name)) WHERE hidden = 0;
CREATE UNIQUE INDEX characters_hidden_name ON characters (guild_id, lower(name)) WHERE hidden = 1;
