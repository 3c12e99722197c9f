// The ZIP writer's cost per entry as the ZIP grows (docs/compliance.md, "Payslips"): the run's
// payslips go through src/modules/payslips/payslips.zip.view.ts, and the ZIP library used before it looked for
// its next entry from the first one on every step, so a ZIP of 100,000 payslips was quadratic and
// only the growth scenario's largest size showed it. Here small entries (the PDFs are not the
// question) are written and read back as a client would, SMALL then LARGE of them, in this process;
// the CPU per entry of the large ZIP against the small one's, median of the rounds, must stay under
// LIMIT: yazl, written the same way, measured ×5.0 (0.078 → 0.386 ms per entry); fflate ×0.6-1.
// Fails the bench otherwise, in CI's smoke run too (about 5 s).
import crypto from 'node:crypto';
import { zipStream } from '../../src/modules/payslips/index.js';
import { median } from '../lib/paired.js';
import type { Scenario } from '../scenario.js';

const SMALL = 2_000;
const LARGE = 100_000;
const ROUNDS = 3;
const LIMIT = 2;
const ENTRY = crypto.randomBytes(256);

/** CPU ms of this process per entry for a ZIP of `entries` entries, written and read to its end. */
async function cpuPerEntry(entries: number): Promise<{ ms: number; bytes: number }> {
  const zip = zipStream();
  let bytes = 0;
  zip.output.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
  });
  const ended = new Promise((resolve, reject) => zip.output.once('end', resolve).once('error', reject));
  const mtime = new Date();
  const started = process.cpuUsage();
  for (let i = 0; i < entries; i++) await zip.add(`payslip-${i}.pdf`, ENTRY, mtime);
  zip.end();
  await ended;
  const used = process.cpuUsage(started);
  return { ms: (used.user + used.system) / 1000 / entries, bytes };
}

const scenario: Scenario = {
  name: 'zip-growth',
  order: 60,
  async run(ctx) {
    const ratios: number[] = [];
    const largeMs: number[] = [];
    const perEntry: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const small = await cpuPerEntry(SMALL);
      const large = await cpuPerEntry(LARGE);
      if (large.bytes < LARGE * ENTRY.length) throw new Error(`the ZIP of ${LARGE} entries came out short: ${large.bytes} bytes`);
      ratios.push(large.ms / small.ms);
      largeMs.push(large.ms);
      perEntry.push(`${(small.ms * 1000).toFixed(1)} → ${(large.ms * 1000).toFixed(1)} µs`);
    }
    const ratio = median(ratios);
    ctx.report({
      scenario: `ZIP writer, CPU per entry at ${LARGE.toLocaleString('en')} entries / at ${SMALL.toLocaleString('en')}`,
      rate: Math.round(1000 / median(largeMs)),
      unit: 'ops/s',
      ratio,
      note: `median of ${ROUNDS} rounds (limit ${LIMIT}; the quadratic writer used before: ×5.0); by round ${perEntry.join(', ')}`,
    });
    if (ratio > LIMIT)
      throw new Error(`the ZIP writer's cost per entry grows with the ZIP: ×${ratio.toFixed(2)} from ${SMALL} to ${LARGE} entries`);
  },
};

export default scenario;
