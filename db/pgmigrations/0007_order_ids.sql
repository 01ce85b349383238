-- Order IDs come from the identity column, as db/migrations/0010 makes
-- SQLite give them: never twice, and without the one lock every new order
-- of every campaign queued on to take the largest ID plus one. The
-- sequence starts past the IDs given that way.
SELECT setval(pg_get_serial_sequence('faction_orders', 'id'), coalesce(max(id), 0) + 1, false) FROM faction_orders;
DROP TABLE tablehand_locks;
