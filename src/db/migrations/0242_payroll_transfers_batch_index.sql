-- A transfer job loads its batch (transfers.repo.ts `open`: run, attempt, batch), which
-- payroll_transfers_batch_idx (run_id, attempt, batch; 0080) answers with its 100 rows. Under the
-- statistics of a table that grew since it was last analysed, the planner preferred
-- (company_id, run_id) and read every transfer of the run for each batch: at 100,000 employees,
-- 1,000 batches of 100 each scanning 100,000 rows (54 ms a batch, docs/benchmarks.md "Growth").
-- Every statement on payroll_transfers names the run, so the batch index serves them all.
DROP INDEX payroll_transfers_company_idx;
