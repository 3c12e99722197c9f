// `payroll`: serve, migrate, and the operator commands (docs/decisions.md, "Operator API and CLI"):
// the operator API's JSON on stdout, errors on stderr; exit 0 done, 1 refused or failed, 2 usage.
//
// Only light modules are imported here. The app's modules and the database drivers (~1.2 s of CPU
// to load, against ~0.15 s for Node itself) are imported by the commands that use them: `--help`, a
// usage error and every command over HTTP start without them (docs/operations.md, "Operator tasks").
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { DataDirLockedError } from '../db/data-dir-lock.js';
import { errorMessage } from '../platform/guards.js';
import { useBaselineCompilerOnly } from './baseline-compiler.js';
import { HELP } from './help.js';
import { CliError, httpClient, type OperatorClient } from './operator-client.js';

const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  url: { type: 'string' },
  name: { type: 'string' },
  domain: { type: 'string' },
  plan: { type: 'string' },
  'payment-frequency': { type: 'string' },
  'user-type': { type: 'string', multiple: true },
  role: { type: 'string', multiple: true },
  'redirect-domain': { type: 'string', multiple: true },
  'clear-redirect-domains': { type: 'boolean' },
  scopes: { type: 'string', multiple: true },
  company: { type: 'string' },
  'api-access': { type: 'string' },
  'add-domain': { type: 'string', multiple: true },
  'add-user-type': { type: 'string', multiple: true },
  'add-role': { type: 'string', multiple: true },
  to: { type: 'string' },
  email: { type: 'string' },
  'first-name': { type: 'string' },
  'last-name': { type: 'string' },
  limit: { type: 'string' },
  'jobs-days': { type: 'string' },
  'failed-jobs-days': { type: 'string' },
  'webhook-days': { type: 'string' },
} as const;

class UsageError extends Error {}

type Values = ReturnType<typeof parse>['values'];

function parse(argv: string[]) {
  try {
    return parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(errorMessage(error));
  }
}

/** Repeated options and comma-separated values, flattened; undefined when the option is absent. */
function list(values: string[] | undefined): string[] | undefined {
  if (!values) return undefined;
  return values
    .flatMap((value) => value.split(','))
    .map((value) => value.trim())
    .filter(Boolean);
}

function required(values: Values, name: 'name' | 'domain' | 'company'): string {
  const value = values[name];
  if (!value) throw new UsageError(`--${name} is required`);
  return value;
}

function companyId(values: Values, positional: string | undefined): number {
  const raw = values.company ?? positional;
  if (!raw) throw new UsageError('--company <id> is required');
  if (!/^\d{1,9}$/.test(raw) || Number(raw) < 1) throw new UsageError(`--company must be a company id (a positive integer), got "${raw}"`);
  return Number(raw);
}

function onOff(value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  if (/^(on|true|yes|1)$/i.test(value)) return true;
  if (/^(off|false|no|0)$/i.test(value)) return false;
  throw new UsageError(`--api-access must be on or off, got "${value}"`);
}

async function operatorClient(values: Values): Promise<OperatorClient> {
  const url = values.url ?? process.env.PAYROLL_URL;
  if (url) {
    const token = process.env.ADMIN_TOKEN;
    if (!token) throw new UsageError("--url/PAYROLL_URL needs ADMIN_TOKEN in the environment (the server's operator token)");
    return httpClient(url, token);
  }
  const { directClient } = await import('./operator-direct.js');
  return directClient(loadConfig());
}

async function operator(values: Values, work: (client: OperatorClient) => Promise<unknown>): Promise<number> {
  const client = await operatorClient(values);
  try {
    const result = await work(client);
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  } finally {
    await client.close();
  }
}

async function migrateCommand(): Promise<number> {
  const config = loadConfig();
  const { openConfiguredDatabase, prepareDatabase } = await import('../runtime.js');
  const opened = await openConfiguredDatabase(config);
  try {
    const applied = await prepareDatabase(opened.database);
    process.stdout.write(
      applied.length
        ? `Applied ${applied.length} migration(s):\n${applied.map((name) => `  ${name}`).join('\n')}\n`
        : 'Database is up to date.\n',
    );
    return 0;
  } finally {
    await opened.close();
  }
}

function days(values: Values, name: 'jobs-days' | 'failed-jobs-days' | 'webhook-days', fallback: number): number {
  const raw = values[name];
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > 3650) throw new UsageError(`--${name} must be a whole number of days, 1 to 3650`);
  return value;
}

async function pruneCommand(values: Values): Promise<number> {
  const [{ DEFAULT_RETENTION, prune }, { openConfiguredDatabase }] = await Promise.all([import('./prune.js'), import('../runtime.js')]);
  const retention = {
    jobsDays: days(values, 'jobs-days', DEFAULT_RETENTION.jobsDays),
    failedJobsDays: days(values, 'failed-jobs-days', DEFAULT_RETENTION.failedJobsDays),
    webhookDays: days(values, 'webhook-days', DEFAULT_RETENTION.webhookDays),
  };
  const opened = await openConfiguredDatabase(loadConfig());
  try {
    const deleted = await prune(opened.database.db, retention);
    process.stdout.write(`${JSON.stringify({ deleted, retention }, null, 2)}\n`);
    return 0;
  } finally {
    await opened.close();
  }
}

/** Reads the database itself (docs/audit.md, "Verifying the chain"): there is no HTTP form. */
async function auditVerify(company: number | undefined): Promise<number> {
  const [{ openConfiguredDatabase, prepareDatabase }, { createAuditService }] = await Promise.all([
    import('../runtime.js'),
    import('../modules/audit/index.js'),
  ]);
  const opened = await openConfiguredDatabase(loadConfig());
  try {
    await prepareDatabase(opened.database);
    const report = await createAuditService({ db: opened.database.db }).verify(company);
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    for (const link of report.broken)
      process.stderr.write(
        link.reason === 'unsealed'
          ? `payroll: company ${link.company_id}: event aud_${link.id} was never sealed, though its transaction ended before the sealed line (added by hand, or its seal removed)\n`
          : `payroll: company ${link.company_id}: the chain breaks at seq ${link.seq} (${link.reason})\n`,
      );
    return report.ok ? 0 : 1;
  } finally {
    await opened.close();
  }
}

async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv);
  const [command, sub, arg] = positionals;
  if (values.help || !command || command === 'help') {
    process.stdout.write(HELP);
    return command || values.help ? 0 : 2;
  }
  if (command !== 'serve') useBaselineCompilerOnly();
  switch (`${command}${sub ? ` ${sub}` : ''}`) {
    case 'serve': {
      const { startServer } = await import('../server.js');
      await startServer();
      return 0;
    }
    case 'migrate':
      return migrateCommand();
    case 'company create':
      return operator(values, (client) =>
        client.createCompany({
          name: required(values, 'name'),
          domain: required(values, 'domain'),
          plan: values.plan,
          payment_frequency: values['payment-frequency'],
          user_types: list(values['user-type']),
          roles: list(values.role),
          redirect_domains: list(values['redirect-domain']),
          scopes: list(values.scopes),
        }),
      );
    case 'company update': {
      const id = companyId(values, arg);
      const redirects = values['clear-redirect-domains'] ? [] : list(values['redirect-domain']);
      return operator(values, (client) =>
        client.updateCompany(id, {
          plan: values.plan,
          api_access: onOff(values['api-access']),
          add_domains: list(values['add-domain']),
          add_user_types: list(values['add-user-type']),
          add_roles: list(values['add-role']),
          redirect_domains: redirects,
        }),
      );
    }
    case 'token generate': {
      const id = companyId(values, arg);
      return operator(values, (client) => client.generateToken(id, { scopes: list(values.scopes) }));
    }
    case 'token revoke': {
      const id = companyId(values, arg);
      return operator(values, (client) => client.revokeToken(id));
    }
    case 'admin invite': {
      const id = companyId(values, arg);
      const email = values.email;
      if (!email) throw new UsageError('--email is required');
      const role = values.role?.[0] ?? 'super-admin';
      // Names default to the e-mail's local part: the administrator can correct them later in the console.
      const local = email.split('@')[0] ?? 'Administrator';
      return operator(values, (client) =>
        client.inviteAdmin(id, {
          personal_email: email,
          first_name: values['first-name'] ?? local,
          last_name: values['last-name'] ?? 'Administrator',
          role,
        }),
      );
    }
    case 'outbox': {
      const limit = values.limit === undefined ? undefined : Number(values.limit);
      if (limit !== undefined && !(Number.isInteger(limit) && limit >= 1 && limit <= 1000))
        throw new UsageError('--limit must be 1 to 1000');
      return operator(values, (client) => client.listOutbox({ to: values.to, limit }));
    }
    case 'prune':
      return pruneCommand(values);
    case 'audit verify':
      return auditVerify(values.company === undefined ? undefined : companyId(values, undefined));
    default:
      throw new UsageError(`unknown command "${positionals.join(' ')}"`);
  }
}

export async function main(argv: string[]): Promise<number> {
  try {
    return await run(argv);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`payroll: ${error.message}\nRun "payroll --help" for usage.\n`);
      return 2;
    }
    if (error instanceof DataDirLockedError) {
      process.stderr.write(`payroll: ${error.message}\nTo change a running server, use --url <server> with ADMIN_TOKEN.\n`);
      return 1;
    }
    if (error instanceof CliError) {
      process.stderr.write(`payroll: ${error.message}\n`);
      return 1;
    }
    process.stderr.write(`payroll: ${(error instanceof Error && error.stack) || String(error)}\n`);
    return 1;
  }
}
