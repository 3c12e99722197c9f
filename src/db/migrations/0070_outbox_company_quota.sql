-- Per-company outbound mail quota (docs/security.md, "Money, mail and invoices"): each message
-- gets the time its delivery may start; messages above a company's hourly quota wait for a later
-- hour. The index serves the count of a company's messages due in the current hour and later.
ALTER TABLE outbox ADD COLUMN deliver_at timestamptz NOT NULL DEFAULT now();
CREATE INDEX outbox_company_deliver_at_idx ON outbox (company_id, deliver_at);
