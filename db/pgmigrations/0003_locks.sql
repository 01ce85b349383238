-- Rows that stand for something with no row of its own, to lock with
-- SELECT ... FOR UPDATE (portable where advisory locks are not):
-- 'faction_orders' orders the allocation of new order IDs (QueueOrder).
CREATE TABLE tablehand_locks (
    name TEXT NOT NULL PRIMARY KEY
);
INSERT INTO tablehand_locks (name) VALUES ('faction_orders');
