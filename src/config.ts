// Typed environment settings (decisions.md §1), parsed once. Tests build their own Config
// through loadConfig(overrides) instead of mutating process.env.
import path from 'node:path';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  publicUrl: string;
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
  };
  paymentProvider: 'sandbox' | 'paystack';
  paystackSecretKey: string | undefined;
  paystackBaseUrl: string;
  walletVerifyDelaySeconds: number;
  smtpUrl: string | undefined;
  mailFrom: string;
  trustProxy: boolean;
  seedDemo: boolean;
  logLevel: string;
  /** Log lines are written when this many bytes are waiting, or after at most a second; 0 writes each line at once. */
  logBufferBytes: number;
  jobPollMs: number;
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

function blankToUndefined(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

export function loadConfig(overrides: Partial<Config> = {}, env: Env = process.env): Config {
  const port = int(env, 'PORT', 3000);
  const databaseUrl = blankToUndefined(env.DATABASE_URL);
  const provider = env.PAYMENT_PROVIDER ?? 'sandbox';
  if (provider !== 'sandbox' && provider !== 'paystack') {
    throw new Error(`PAYMENT_PROVIDER must be sandbox or paystack, got "${provider}"`);
  }
  const config: Config = {
    port,
    host: env.HOST || '127.0.0.1',
    dataDir: path.resolve(env.DATA_DIR || './data'),
    databaseUrl,
    redisUrl: blankToUndefined(env.REDIS_URL),
    publicUrl: (env.PUBLIC_URL || `http://localhost:${port}`).replace(/\/+$/, ''),
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
    },
    paymentProvider: provider,
    paystackSecretKey: blankToUndefined(env.PAYSTACK_SECRET_KEY),
    paystackBaseUrl: (env.PAYSTACK_BASE_URL || 'https://api.paystack.co').replace(/\/+$/, ''),
    walletVerifyDelaySeconds: int(env, 'WALLET_VERIFY_DELAY_SECONDS', 120),
    smtpUrl: blankToUndefined(env.SMTP_URL),
    mailFrom: env.MAIL_FROM || 'Payroll <no-reply@payroll.local>',
    trustProxy: bool(env, 'TRUST_PROXY', false),
    seedDemo: bool(env, 'SEED_DEMO', databaseUrl === undefined),
    logLevel: env.LOG_LEVEL || 'info',
    logBufferBytes: int(env, 'LOG_BUFFER_BYTES', 8192, 0),
    jobPollMs: int(env, 'JOB_POLL_MS', 500, 10),
  };
  return { ...config, ...overrides, rateLimit: { ...config.rateLimit, ...overrides.rateLimit } };
}
