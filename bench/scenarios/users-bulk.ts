// U8 throughput: a 10,000-row CSV in the import template layout posted to the real server as
// multipart/form-data, end to end (upload, parse, validation, batched writes, invitations). Target:
// at least 5,000 rows/s on PostgreSQL with the server's peak RSS under 300 MB.
import { timedBulkCreate } from '../lib/bulk-upload.js';
import type { Scenario } from '../scenario.js';

const ROWS = Number(process.env.BENCH_USERS_BULK_ROWS ?? 10_000);
const RUNS = Number(process.env.BENCH_USERS_BULK_RUNS ?? 3);

const HEADER =
  'first_name,last_name,personal_email,domain,user_types,title,base_salary,department,allowances,office_location,start_date (YYYY-MM-DD),manager,bank_name,account_number';

export function csv(domain: string, tag: string, rows = ROWS): string {
  const lines = ['Instructions: start_date must use the format YYYY-MM-DD', HEADER];
  for (let i = 0; i < rows; i++) {
    // Varied names, as in a real file: some clash (same first and last name) and need a suffix.
    lines.push(
      `Emp${i % 997},Staff${i % 1009},bench.${tag}.${i}@personal.test,${domain},Full-time,Engineer,250000.00,Engineering,15000.50,Lagos,2024-02-01,,Bank,00${String(10_000_000 + i)}`,
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}

const scenario: Scenario = {
  name: 'users-bulk',
  order: 30,
  async run(ctx) {
    const rates: number[] = [];
    let peak = 0;
    await ctx.serverPeakRssMb(); // reset the peak before the first upload
    for (let run = 0; run < RUNS; run++) {
      const company = await ctx.newCompany();
      const seconds = await timedBulkCreate(ctx, company.token, csv(company.domain, `${company.id}r${run}`), '?notify=true');
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
