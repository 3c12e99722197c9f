// U8 throughput: a 10,000-row CSV in the import template layout posted to the real server as
// multipart/form-data, end to end (upload, parse, validation, batched writes, invitations). Target:
// at least 5,000 rows/s on PostgreSQL with the server's peak RSS under 300 MB.
import { importCsv, timedBulkCreate } from '../lib/bulk-upload.js';
import type { Scenario } from '../scenario.js';

const ROWS = Number(process.env.BENCH_USERS_BULK_ROWS ?? 10_000);
const RUNS = Number(process.env.BENCH_USERS_BULK_RUNS ?? 3);

const scenario: Scenario = {
  name: 'users-bulk',
  order: 30,
  async run(ctx) {
    const rates: number[] = [];
    let peak = 0;
    await ctx.serverPeakRssMb(); // reset the peak before the first upload
    for (let run = 0; run < RUNS; run++) {
      const company = await ctx.newCompany();
      const seconds = await timedBulkCreate(ctx, company.token, importCsv(company.domain, `${company.id}r${run}`, ROWS), '?notify=true');
      rates.push(ROWS / seconds);
      peak = Math.max(peak, await ctx.serverPeakRssMb());
    }
    const best = Math.max(...rates);
    const median = [...rates].sort((a, b) => a - b)[Math.floor(rates.length / 2)];
    ctx.report({
      scenario: `U8 bulk create, ${ROWS} rows CSV`,
      rate: Math.round(median),
      unit: 'rows/s',
      note: `median of ${RUNS} (best ${Math.round(best)} rows/s); peak server RSS ${peak} MB (target >= 5000 rows/s, < 300 MB)`,
    });
  },
};

export default scenario;
