-- An order's number is its faction's own, never given twice within it:
-- as db/migrations/0016. A faction's name is compared in any case, as
-- everywhere (lower()).
ALTER TABLE faction_orders ADD COLUMN number BIGINT NOT NULL DEFAULT 0;
UPDATE faction_orders SET number = n.number FROM (
    SELECT id, row_number() OVER (PARTITION BY campaign_id, lower(faction) ORDER BY id) AS number FROM faction_orders) n
    WHERE faction_orders.id = n.id;
CREATE UNIQUE INDEX faction_orders_number ON faction_orders (campaign_id, lower(faction), number);
CREATE TABLE faction_order_numbers (
    campaign_id BIGINT NOT NULL REFERENCES faction_campaigns (id) ON DELETE CASCADE,
    faction     TEXT   NOT NULL,
    last        BIGINT NOT NULL
);
CREATE UNIQUE INDEX faction_order_numbers_key ON faction_order_numbers (campaign_id, lower(faction));
INSERT INTO faction_order_numbers (campaign_id, faction, last)
    SELECT campaign_id, min(faction), max(number) FROM faction_orders GROUP BY campaign_id, lower(faction);
