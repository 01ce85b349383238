-- An order's number is its faction's own: the first order a faction ever
-- queues is #1, its next #2, whatever other factions queue (issue 20: a
-- number a player sees counts only what that player may see; a campaign-
-- wide ID would tell a faction how many orders the others queued). The
-- number is never given twice within its faction, as order IDs are never
-- given twice: faction_order_numbers keeps the last number each faction
-- was given, since its orders are deleted when carried out. The ID stays
-- the row's identity, and is shown to no one.
ALTER TABLE faction_orders ADD COLUMN number INTEGER NOT NULL DEFAULT 0;
UPDATE faction_orders SET number = (SELECT count(*) FROM faction_orders o
    WHERE o.campaign_id = faction_orders.campaign_id AND o.faction = faction_orders.faction COLLATE NOCASE AND o.id <= faction_orders.id);
CREATE UNIQUE INDEX faction_orders_number ON faction_orders (campaign_id, faction COLLATE NOCASE, number);
CREATE TABLE faction_order_numbers (
    campaign_id INTEGER NOT NULL REFERENCES faction_campaigns (id) ON DELETE CASCADE,
    faction     TEXT    NOT NULL COLLATE NOCASE,
    last        INTEGER NOT NULL,
    PRIMARY KEY (campaign_id, faction)
);
INSERT INTO faction_order_numbers (campaign_id, faction, last)
    SELECT campaign_id, min(faction), max(number) FROM faction_orders GROUP BY campaign_id, faction COLLATE NOCASE;
