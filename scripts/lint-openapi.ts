// npm run lint:openapi: the served /openapi.json (the app built in-process on an in-memory PGlite,
// with the operator API on so that it is documented too) written to a temp file, then linted by
// Redocly (recommended rules, redocly.yaml) and Spectral (spectral:oas, .spectral.yaml). Any error
// or warning of either fails (docs/api-reference.md).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openPglite } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';

const root = path.resolve(import.meta.dirname, '..');
const database = await openPglite(undefined);
await migrate(database);
const config = loadConfig({ seedDemo: false, paymentProvider: 'sandbox', adminToken: 'lint'.repeat(10) } as never);
const app = await buildApp({ config, database, logLevel: 'silent' });
await app.ready();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'payroll-openapi-'));
const file = path.join(dir, 'openapi.json');
fs.writeFileSync(file, JSON.stringify(app.swagger(), null, 2));
await app.close();

/** The project's linter, or one on PATH (a checkout whose node_modules predates them). */
const bin = (name: string) => {
  const local = path.join(root, 'node_modules', '.bin', name);
  return fs.existsSync(local) ? local : name;
};
const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
let failed = false;

// Redocly exits 0 on warnings: its JSON report is read instead, and any problem fails.
const redocly = spawnSync(
  bin('redocly'),
  ['lint', file, '--config', path.join(root, 'redocly.yaml'), '--format', 'json', '--max-problems', '1000'],
  {
    env,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  },
);
try {
  const report = JSON.parse(redocly.stdout) as {
    totals: { errors: number; warnings: number };
    problems: { ruleId: string; severity: string; message: string; location: { pointer?: string }[] }[];
  };
  for (const problem of report.problems)
    console.log(`redocly ${problem.severity} ${problem.ruleId}: ${problem.message} (${problem.location[0]?.pointer ?? ''})`);
  console.log(`redocly (recommended): ${report.totals.errors} errors, ${report.totals.warnings} warnings`);
  if (report.totals.errors + report.totals.warnings > 0) failed = true;
} catch {
  console.error(redocly.stderr || redocly.stdout);
  failed = true;
}

const spectral = spawnSync(bin('spectral'), ['lint', file, '--ruleset', path.join(root, '.spectral.yaml'), '--fail-severity', 'hint'], {
  stdio: 'inherit',
  env,
});
console.log(`spectral (spectral:oas): ${spectral.status === 0 ? 'no problems' : 'problems above'}`);
if (spectral.status !== 0) failed = true;
fs.rmSync(dir, { recursive: true, force: true });
process.exit(failed ? 1 : 0);
