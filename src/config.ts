// Typed environment settings (README.md, "Configuration"), parsed once. Tests build their own
// Config through loadConfig(overrides) instead of mutating process.env.
import net from 'node:net';
import path from 'node:path';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  publicUrl: string;
  /** PUBLIC_URL unset: the console accepts its forms from every loopback name of PORT. */
  publicUrlIsDefault: boolean;
  adminToken: string | undefined;
  tokenTtlSeconds: number;
  rateLimit: {
    windowSeconds: number;
    endpoint: number;
    sensitive: number;
    standard: number;
    premium: number;
    enterprise: number;
    unauthenticated: number;
    /** C2 answers that say a domain, registration id or personal e-mail is taken, per company. */
    takenAnswers: number;
  };
  /** Window of the console's failed sign-in counters (per e-mail and address, per address, per account). */
  signInWindowSeconds: number;
  /** Wrong passwords for one console account per window, from all addresses, before it locks (docs/console.md). */
  signInAccountFailures: number;
  paymentProvider: 'sandbox' | 'paystack';
  paystackSecretKey: string | undefined;
  paystackBaseUrl: string;
  walletVerifyDelaySeconds: number;
  /** The sandbox transfer provider settles salary transfers this long after they are sent. */
  sandboxTransferDelaySeconds: number;
  smtpUrl: string | undefined;
  mailFrom: string;
  /** Outbound e-mails per company per hour; more wait in the outbox for a later hour (platform/mail). */
  mailPerCompanyPerHour: number;
  /** Which peers may set X-Forwarded-For: none (false), the nearest N hops, or these addresses/CIDRs. */
  trustProxy: false | number | string[];
  /** METRICS_TOKEN: GET /metrics on the public port needs `Authorization: Bearer` with it; unset, it is a 404. */
  metricsToken: string | undefined;
  /** METRICS_PORT: GET /metrics is also served on this port of 127.0.0.1 (platform/metrics.ts). */
  metricsPort: number | undefined;
  /** Longest a client may take to send a whole request (headers and body). */
  requestTimeoutSeconds: number;
  /** Longest a client may take to send the request headers. */
  headersTimeoutSeconds: number;
  seedDemo: boolean;
  logLevel: string;
  /** Log lines are written when this many bytes are waiting, or after at most a second; 0 writes each line at once. */
  logBufferBytes: number;
  jobPollMs: number;
  /** Webhook endpoints may use http:// (WEBHOOK_ALLOW_HTTP); https only otherwise. */
  webhookAllowHttp: boolean;
  /** Webhook URLs may resolve to loopback/private/link-local addresses (WEBHOOK_ALLOW_PRIVATE_NETWORKS). */
  webhookAllowPrivateNetworks: boolean;
  /**
   * Base64 of 32 bytes encrypting webhook secrets at rest (WEBHOOK_SECRET_KEY). Required with
   * DATABASE_URL; unset on the embedded database: a fixed development key.
   */
  webhookSecretKey: string | undefined;
  /** Seconds before each retry of a failed delivery (WEBHOOK_RETRY_SCHEDULE, comma-separated; tests shorten it). */
  webhookRetrySchedule: number[];
  /** Longest a receiver may take to answer (WEBHOOK_TIMEOUT_MS). */
  webhookTimeoutMs: number;
  /**
   * Test only (IDEMPOTENCY_TEST_CRASH, comma-separated `<route name>:in-transaction|after-commit`):
   * where a request holding an Idempotency-Key kills its own process (platform/idempotency-claims.ts).
   */
  idempotencyTestCrash: string[];
}

type Env = Record<string, string | undefined>;

function int(env: Env, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min) {
    throw new Error(`${name} must be a whole number >= ${min}, got "${raw}"`);
  }
  return Number(raw);
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (/^(1|true|yes|on)$/i.test(raw)) return true;
  if (/^(0|false|no|off)$/i.test(raw)) return false;
  throw new Error(`${name} must be true or false, got "${raw}"`);
}

const PROXY_PRESETS = new Set(['loopback', 'linklocal', 'uniquelocal']);

function proxyAddress(entry: string): boolean {
  if (PROXY_PRESETS.has(entry)) return true;
  const [address, prefix, extra] = entry.split('/');
  const family = net.isIP(address);
  if (family === 0 || extra !== undefined) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
}

/**
 * TRUST_PROXY: unset/false = the peer is the client; a number = that many proxies in front (each
 * appends to X-Forwarded-For, so the client is that many entries from the right); true = 1; else a
 * comma-separated list of proxy addresses or CIDRs. Trusting every hop (what `true` used to mean)
 * would let a client pick its own IP by writing X-Forwarded-For and escape every per-IP limit.
 */
function trustProxy(env: Env): false | number | string[] {
  const raw = (env.TRUST_PROXY ?? '').trim();
  if (raw === '' || /^(0|false|no|off)$/i.test(raw)) return false;
  if (/^(true|yes|on)$/i.test(raw)) return 1;
  if (/^\d+$/.test(raw)) return Number(raw);
  const entries = raw.split(',').map((entry) => entry.trim());
  if (entries.every(proxyAddress)) return entries;
  throw new Error(`TRUST_PROXY must be false, a number of proxies, or a comma-separated list of proxy addresses or CIDRs, got "${raw}"`);
}

/** The spec's schedule: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, then failed. */
export const WEBHOOK_RETRY_SCHEDULE = [5, 300, 1800, 7200, 18_000, 36_000, 36_000];

function retrySchedule(env: Env): number[] {
  const raw = (env.WEBHOOK_RETRY_SCHEDULE ?? '').trim();
  if (raw === '') return WEBHOOK_RETRY_SCHEDULE;
  const parts = raw.split(',').map((part) => part.trim());
  if (!parts.every((part) => /^\d+(\.\d+)?$/.test(part))) {
    throw new Error(`WEBHOOK_RETRY_SCHEDULE must be comma-separated seconds, got "${raw}"`);
  }
  return parts.map(Number);
}

/** METRICS_TOKEN: long enough that it cannot be guessed (docs/operations.md, "Health, metrics, logs"). */
function metricsToken(env: Env): string | undefined {
  const token = blankToUndefined(env.METRICS_TOKEN)?.trim();
  if (token !== undefined && !/^\S{16,}$/.test(token)) {
    throw new Error('METRICS_TOKEN must be at least 16 characters without spaces (openssl rand -hex 32)');
  }
  return token;
}

function metricsPort(env: Env, port: number): number | undefined {
  if (blankToUndefined(env.METRICS_PORT) === undefined) return undefined;
  const metrics = int(env, 'METRICS_PORT', 0, 1);
  if (metrics > 65_535 || metrics === port)
    throw new Error(`METRICS_PORT must be a port (1-65535) other than PORT, got "${env.METRICS_PORT}"`);
  return metrics;
}

function blankToUndefined(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

export const PAYMENT_PROVIDER_REQUIRED =
  'PAYMENT_PROVIDER must be set when DATABASE_URL is set: "paystack" for real payments (with PAYSTACK_SECRET_KEY), ' +
  'or "sandbox" for a test deployment, where anyone holding a checkout link can complete a top-up without paying.';

export const WEBHOOK_SECRET_KEY_REQUIRED =
  'WEBHOOK_SECRET_KEY must be set when DATABASE_URL is set: the base64 of 32 random bytes (openssl rand -base64 32). ' +
  "It encrypts the webhook endpoints' signing secrets in the database; without it they would be encrypted under the " +
  'public development key, and a copy of the database would reveal them.';

/**
 * The key that encrypts webhook secrets at rest. The embedded database (a developer's machine) may
 * use the fixed development key; a PostgreSQL deployment must bring its own, or a dump of its
 * database would be enough to forge every company's webhooks (the same rule as PAYMENT_PROVIDER).
 */
function webhookSecretKey(configured: string | undefined, databaseUrl: string | undefined): string | undefined {
  if (configured === undefined) {
    if (databaseUrl) throw new Error(WEBHOOK_SECRET_KEY_REQUIRED);
    return undefined;
  }
  if (Buffer.from(configured, 'base64').length !== 32) {
    throw new Error('WEBHOOK_SECRET_KEY must be the base64 of 32 bytes (openssl rand -base64 32)');
  }
  return configured;
}

export function loadConfig(overrides: Partial<Config> = {}, env: Env = process.env): Config {
  const port = int(env, 'PORT', 3000);
  const databaseUrl = blankToUndefined(env.DATABASE_URL);
  // The sandbox lets whoever holds a checkout link "pay": the default only on the embedded
  // database; a PostgreSQL deployment must say which provider it means (README.md,
  // "Configuration").
  const provider = overrides.paymentProvider ?? blankToUndefined(env.PAYMENT_PROVIDER) ?? (databaseUrl ? undefined : 'sandbox');
  if (provider === undefined) throw new Error(PAYMENT_PROVIDER_REQUIRED);
  if (provider !== 'sandbox' && provider !== 'paystack') {
    throw new Error(`PAYMENT_PROVIDER must be sandbox or paystack, got "${provider}"`);
  }
  const webhookKey = webhookSecretKey(overrides.webhookSecretKey ?? blankToUndefined(env.WEBHOOK_SECRET_KEY), databaseUrl);
  const config: Config = {
    port,
    host: env.HOST || '127.0.0.1',
    dataDir: path.resolve(env.DATA_DIR || './data'),
    databaseUrl,
    redisUrl: blankToUndefined(env.REDIS_URL),
    publicUrl: '',
    publicUrlIsDefault: true,
    adminToken: blankToUndefined(env.ADMIN_TOKEN),
    tokenTtlSeconds: int(env, 'TOKEN_TTL_SECONDS', 2_592_000, 1),
    rateLimit: {
      windowSeconds: int(env, 'RATE_LIMIT_WINDOW_SECONDS', 60, 1),
      endpoint: int(env, 'RATE_LIMIT_ENDPOINT', 100, 1),
      sensitive: int(env, 'RATE_LIMIT_SENSITIVE', 10, 1),
      standard: int(env, 'RATE_LIMIT_STANDARD', 50, 1),
      premium: int(env, 'RATE_LIMIT_PREMIUM', 1000, 1),
      enterprise: int(env, 'RATE_LIMIT_ENTERPRISE', 5000, 1),
      unauthenticated: int(env, 'RATE_LIMIT_UNAUTHENTICATED', 60, 1),
      takenAnswers: int(env, 'RATE_LIMIT_TAKEN_ANSWERS', 10, 1),
    },
    signInWindowSeconds: int(env, 'SIGNIN_WINDOW_SECONDS', 900, 1),
    signInAccountFailures: int(env, 'SIGNIN_ACCOUNT_FAILURES', 10, 1),
    paymentProvider: provider,
    paystackSecretKey: blankToUndefined(env.PAYSTACK_SECRET_KEY),
    paystackBaseUrl: (env.PAYSTACK_BASE_URL || 'https://api.paystack.co').replace(/\/+$/, ''),
    walletVerifyDelaySeconds: int(env, 'WALLET_VERIFY_DELAY_SECONDS', 120),
    sandboxTransferDelaySeconds: int(env, 'SANDBOX_TRANSFER_DELAY_SECONDS', 2),
    smtpUrl: blankToUndefined(env.SMTP_URL),
    mailFrom: env.MAIL_FROM || 'Payroll <no-reply@payroll.local>',
    mailPerCompanyPerHour: int(env, 'MAIL_PER_COMPANY_PER_HOUR', 10_000, 1),
    trustProxy: trustProxy(env),
    metricsToken: metricsToken(env),
    metricsPort: metricsPort(env, port),
    requestTimeoutSeconds: int(env, 'REQUEST_TIMEOUT_SECONDS', 30, 1),
    headersTimeoutSeconds: int(env, 'HEADERS_TIMEOUT_SECONDS', 10, 1),
    seedDemo: bool(env, 'SEED_DEMO', databaseUrl === undefined),
    logLevel: env.LOG_LEVEL || 'info',
    logBufferBytes: int(env, 'LOG_BUFFER_BYTES', 8192, 0),
    jobPollMs: int(env, 'JOB_POLL_MS', 500, 10),
    webhookAllowHttp: bool(env, 'WEBHOOK_ALLOW_HTTP', false),
    webhookAllowPrivateNetworks: bool(env, 'WEBHOOK_ALLOW_PRIVATE_NETWORKS', false),
    webhookSecretKey: webhookKey,
    webhookRetrySchedule: retrySchedule(env),
    webhookTimeoutMs: int(env, 'WEBHOOK_TIMEOUT_MS', 10_000, 1),
    idempotencyTestCrash: (env.IDEMPOTENCY_TEST_CRASH ?? '').split(',').filter((point) => point.trim() !== ''),
  };
  const merged = { ...config, ...overrides, rateLimit: { ...config.rateLimit, ...overrides.rateLimit } };
  // The default is the address the server listens on (README's http://127.0.0.1:3000, what the
  // banner prints), not http://localhost:$PORT (docs/decisions.md, "Where we differ"): a browser
  // may resolve localhost to ::1 while the server listens on 127.0.0.1 only, and then every link
  // handed out (checkout, onboarding) fails (seen in chromium). Unset, the console also accepts
  // forms from every loopback name of the port (web.routes.ts). Derived after overrides so an
  // overridden port moves it too.
  const publicUrl = overrides.publicUrl || blankToUndefined(env.PUBLIC_URL);
  merged.publicUrl = (publicUrl ?? listeningUrl(merged.host, merged.port)).replace(/\/+$/, '');
  merged.publicUrlIsDefault = publicUrl === undefined;
  // Node refuses a headers timeout longer than the request timeout.
  if (merged.headersTimeoutSeconds > merged.requestTimeoutSeconds) {
    throw new Error(
      `HEADERS_TIMEOUT_SECONDS (${merged.headersTimeoutSeconds}) must not exceed REQUEST_TIMEOUT_SECONDS (${merged.requestTimeoutSeconds})`,
    );
  }
  return merged;
}

/** The URL of the listening address (a wildcard HOST is reached at 127.0.0.1). */
export function listeningUrl(host: string, port: number): string {
  const wildcard = host === '0.0.0.0' || host === '::' || host === '';
  const name = wildcard ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return `http://${name}:${port}`;
}
