// Helpers for the users tests: U3 bodies and creation, multipart bodies for app.inject, and CSV files in the template layout.
import crypto from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { App } from '../../src/app.js';
import type { Executor } from '../../src/db/client.js';
import { users } from '../../src/db/schema/index.js';
import type { TestCompany } from './factories.js';
import { as } from './http.js';

export interface FormFile {
  field: string;
  filename: string;
  contentType?: string;
  data: Buffer | string;
}

/** A multipart/form-data payload with text fields and files, for `app.inject`. */
export function multipart(fields: Record<string, string>, files: FormFile[] = []) {
  const boundary = `----users${crypto.randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  for (const file of files) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.filename}"\r\nContent-Type: ${file.contentType ?? 'application/octet-stream'}\r\n\r\n`,
      ),
      Buffer.isBuffer(file.data) ? file.data : Buffer.from(file.data),
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

export const IMPORT_COLUMNS = [
  'first_name',
  'last_name',
  'personal_email',
  'domain',
  'user_types',
  'title',
  'base_salary',
  'department',
  'allowances',
  'office_location',
  'start_date (YYYY-MM-DD)',
  'manager',
  'bank_name',
  'account_number',
  'bank_code',
];

export interface CsvUser {
  first_name?: string;
  last_name?: string;
  personal_email?: string;
  domain?: string;
  user_types?: string;
  title?: string;
  base_salary?: string;
  department?: string;
  allowances?: string;
  office_location?: string;
  start_date?: string;
  manager?: string;
  bank_name?: string;
  account_number?: string;
  bank_code?: string;
  email?: string;
}

const cell = (value: string | undefined) => (value === undefined ? '' : /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

/** A CSV in the template layout (instruction row optional, LF or CRLF). */
export function usersCsv(rows: CsvUser[], options: { update?: boolean; instruction?: boolean; eol?: string; bom?: boolean } = {}): string {
  const eol = options.eol ?? '\n';
  const columns = options.update ? ['email', ...IMPORT_COLUMNS] : IMPORT_COLUMNS;
  const keys = columns.map((c) => c.replace(/ \(.*\)$/, ''));
  const lines: string[] = [];
  if (options.instruction !== false) lines.push('Instructions: start_date must use the format YYYY-MM-DD');
  lines.push(columns.join(','));
  for (const row of rows) lines.push(keys.map((k) => cell((row as Record<string, string | undefined>)[k])).join(','));
  return `${options.bom ? '\ufeff' : ''}${lines.join(eol)}${eol}`;
}

/** `count` valid import rows for a company domain. */
export function generatedUsers(count: number, domain: string, tag = crypto.randomBytes(3).toString('hex')): CsvUser[] {
  return Array.from({ length: count }, (_, i) => ({
    first_name: `Bulk${tag}`,
    last_name: `Person${i}`,
    personal_email: `bulk.${tag}.${i}@personal.test`,
    domain,
    user_types: 'Full-time',
    title: 'Engineer',
    base_salary: '250000.00',
    department: 'Engineering',
    allowances: '15000.50',
    office_location: 'Lagos',
    start_date: '2024-02-01',
    bank_name: 'Bank',
    account_number: '0012345678',
  }));
}

let userSeq = 0;
/** A valid U3 body on `company`'s domain, with a personal e-mail no other body of this run has. */
export function newUserBody(company: { domain: string }, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  userSeq += 1;
  return {
    first_name: 'Ada',
    last_name: 'Obi',
    personal_email: `ada.${userSeq}.${process.pid}@personal.test`,
    domain_name: company.domain,
    user_types: 'Full-time',
    start_date: '2024-01-15',
    ...overrides,
  };
}

/** Creates a user through U3 (expects 200) and returns the User object. */
export async function createUserViaApi(app: App, company: TestCompany, overrides: Record<string, unknown> = {}) {
  const res = await as(app, company).post('/api/users', newUserBody(company, overrides));
  expect(res.statusCode, res.body).toBe(200);
  return res.json().user as Record<string, unknown> & { id: number; email: string };
}

/**
 * Gives a user every optional field (timestamps with microseconds, money, arrays, a manager, a
 * console role kept aside while suspended): the serializers' tests compare such a user field by field.
 */
export async function setEveryField(db: Executor, userId: number, managerId: number): Promise<void> {
  await db
    .update(users)
    .set({
      managerId,
      emailVerifiedAt: sql`'2026-03-04 05:06:07.891234+00'::timestamptz` as unknown as Date,
      address: '1 Marina, Lagos',
      phone: '+2348012345678',
      documentPaths: ['a/b.pdf', 'c.png'],
      onboardingToken: 'tok-123',
      tokenExpiresAt: sql`'2026-12-31 23:59:59+00'::timestamptz` as unknown as Date,
      level: 'L4',
      title: 'Engineer',
      department: 'R&D',
      officeLocation: 'Lagos',
      baseSalary: '1234567.5',
      allowances: '10',
      annualRentPaid: '2000000.25',
      lifeAssurancePremium: '0',
      nin: '12345678901',
      taxId: 'TIN-1',
      stateOfResidence: 'LA',
      rsaPin: 'PEN100000000001',
      pfaCode: 'PFA1',
      nhfNumber: 'NHF1',
      nhfOptIn: true,
      gender: 'female',
      isExpatriate: true,
      paymentFrequency: 'monthly',
      startDate: '2024-02-29',
      // Exited (the day after is long past): is_active reads false whatever the stored flag.
      exitDate: '2026-02-27',
      exitReason: 'redundancy',
      bankName: 'Bank',
      accountNumber: '0123456789',
      bankCode: '058',
      accountName: 'RICH USER',
      bankAccountVerifiedAt: sql`'2026-01-02 03:04:05.1+00'::timestamptz` as unknown as Date,
      isSuspended: true,
      suspendedAt: sql`'2026-05-06 07:08:09.000001+00'::timestamptz` as unknown as Date,
      suspensionEndsAt: sql`'2026-06-06 00:00:00+00'::timestamptz` as unknown as Date,
      suspensionReason: 'leave',
      suspendedRoles: ['payroll'],
    })
    .where(eq(users.id, userId));
}
