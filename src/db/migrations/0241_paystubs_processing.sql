-- Every settlement of a run's transfers (a job's batch, or one Paystack webhook per transfer) ends by
-- asking whether anything of the run is still processing (payroll-runs.repo.ts `finish`). Counting the
-- run's paystubs for that made each settlement cost O(run size), so a 10,000-employee run paid by
-- webhooks did 10,000 counts of 10,000 rows (docs/benchmarks.md, "Paystack at scale"). This index
-- holds only the paystubs being paid: the question is one probe, and the index is empty between pays.
CREATE INDEX paystubs_processing_idx ON paystubs (company_id, transaction_id) WHERE status = 'processing';
