-- History retention (docs/operations.md, "History retention"): `payroll prune` deletes finished jobs
-- and finished webhook events older than their retention, in batches. These indexes find them by
-- age without reading the live rows: a finished job by when it finished, an event by when it was
-- made. The due-job index (jobs_due_idx) is partial on unfinished jobs, so claims never read the
-- history either way; pruning keeps the table, its vacuums and its backups bounded.
CREATE INDEX jobs_done_at_idx ON jobs (done_at) WHERE done_at IS NOT NULL;
CREATE INDEX jobs_failed_at_idx ON jobs (failed_at) WHERE failed_at IS NOT NULL;
CREATE INDEX webhook_events_created_idx ON webhook_events (created_at);
