-- The per-company mail quota read without counting (docs/security.md, "Money, mail and invoices";
-- docs/decisions.md, "Jobs and mail"). The quota needs a company's messages due from an hour ago
-- onwards; counting them read every waiting message at every send, so a 100,000-employee run's
-- payment e-mails (a backlog of ten hours at the default quota) fetched ~50 million rows. Each
-- company's messages are now numbered in delivery order (company_seq), so that number is the last
-- message's minus the first due one's plus one: two index probes however long the backlog.
--
-- Only messages still inside the window are numbered here; older ones are never counted again
-- (the window only moves forward) and keep NULL.
ALTER TABLE outbox ADD COLUMN company_seq bigint;
UPDATE outbox o SET company_seq = n.seq
FROM (SELECT id, row_number() OVER (PARTITION BY company_id ORDER BY deliver_at, id) AS seq
      FROM outbox WHERE company_id IS NOT NULL AND deliver_at > now() - interval '1 hour') n
WHERE o.id = n.id;
CREATE INDEX outbox_company_deliver_seq_idx ON outbox (company_id, deliver_at, company_seq);
DROP INDEX outbox_company_deliver_at_idx;
