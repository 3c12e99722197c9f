// Engine-alone throughput (no HTTP, no database): `npx tsx bench/engine.ts` prints paystubs/s.
// A run is prepared once (settings parsed, rate products precomputed), as the API does.
import { computePaystub, prepareCustom, prepareRun } from '../src/tax-engine/engine.js';
import { DEFAULT_SETTINGS } from '../src/tax-engine/engine.types.js';

const run = prepareRun({ ...DEFAULT_SETTINGS, nhisEnabled: true });
const customs = [
  prepareCustom({ id: 1, name: 'Welfare', type: 'percentage', applyTo: 'gross_pay', employeeValue: '2', employerValue: null }),
  prepareCustom({ id: 2, name: 'Co-op', type: 'percentage', applyTo: 'net_pay', employeeValue: '5', employerValue: '1' }),
  prepareCustom({ id: 3, name: 'HMO', type: 'amount', applyTo: 'gross_pay', employeeValue: null, employerValue: '2500' }),
];
const ends = ['2025-06-30', '2026-01-31'];
const inputs = Array.from({ length: 10_000 }, (_, i) => ({
  payPeriodEnd: ends[i % 2],
  taxableIncome: BigInt(5_000_000 + ((i * 7919) % 200_000_000)), // ₦50k .. ₦2.05m in kobo
  reimbursements: BigInt((i % 10) * 10_000),
  otherAllowances: BigInt((i % 5) * 500_000),
  periodsPerYear: [12, 26, 52][i % 3],
  annualRentPaid: i % 4 === 0 ? 120_000_000n : null,
  lifeAssurancePremium: null,
  customs,
}));

function pass(): number {
  let ok = 0;
  for (const input of inputs) if (computePaystub(run, input).ok) ok++;
  return ok;
}

for (let i = 0; i < 20; i++) pass(); // warm-up
const rounds = 100;
const start = process.hrtime.bigint();
for (let i = 0; i < rounds; i++) pass();
const seconds = Number(process.hrtime.bigint() - start) / 1e9;
const rate = Math.round((rounds * inputs.length) / seconds);
console.log(
  `engine: ${rate.toLocaleString('en-US')} paystubs/s (${rounds * inputs.length} paystubs, 3 custom contributions each, ${seconds.toFixed(2)} s)`,
);
