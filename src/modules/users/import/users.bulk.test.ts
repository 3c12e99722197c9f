import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../../test/helpers/app.js';
import { createCompany, createUsers, type TestCompany } from '../../../../test/helpers/factories.js';
import { as } from '../../../../test/helpers/http.js';
import { type CsvUser, generatedUsers, multipart, usersCsv } from '../../../../test/helpers/users.js';
import { outbox, users } from '../../../db/schema/index.js';

let ctx: TestContext;
let acme: TestCompany;
let other: TestCompany;

beforeAll(async () => {
  ctx = await createTestApp();
  acme = await createCompany(ctx.db, { name: 'Bulk Co' });
  other = await createCompany(ctx.db);
});
afterAll(() => ctx.close());

const upload = (url: string, csv: string | Buffer, fields: Record<string, string> = {}, company = acme, field = 'users_csv') => {
  const form = multipart(fields, [{ field, filename: 'users.csv', contentType: 'text/csv', data: csv }]);
  return as(ctx.app, company).post(url, form.payload, { headers: form.headers });
};
const countUsers = async (companyId: number) =>
  (await ctx.db.select({ n: sql<number>`count(*)` }).from(users).where(eq(users.companyId, companyId)))[0].n;

describe('U8 bulk create', () => {
  it('creates every valid row, reports failures by file line, in the documented shape', async () => {
    const rows: CsvUser[] = generatedUsers(3, acme.domain);
    rows.splice(1, 0, { ...rows[0], personal_email: 'not-an-email', start_date: '15/01/2024' });
    rows.push({ ...generatedUsers(1, acme.domain)[0], domain: 'nope.test', manager: 'ghost@nowhere.test' });
    const res = await upload('/api/users/bulk-create', usersCsv(rows, { eol: '\r\n', bom: true }), {}, acme);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.status).toBe('partial');
    expect(body.summary).toBe('3 of 5 rows succeeded.');
    expect(body.successes.map((s: { row: number }) => s.row)).toEqual([3, 5, 6]);
    for (const s of body.successes) {
      expect(s.id).toEqual(expect.any(Number));
      expect(s.email).toMatch(new RegExp(`@${acme.domain}$`));
    }
    expect(body.failures).toEqual([
      {
        row: 4,
        errors: {
          personal_email: ['The personal email field must be a valid email address.'],
          start_date: ['The start date field must match the format Y-m-d.'],
        },
      },
      { row: 7, errors: { domain: ['Domain name does not exist for the specified company.'] } },
    ]);
    const stored = await ctx.db.select().from(users).where(eq(users.id, body.successes[0].id));
    expect(stored[0]).toMatchObject({ accountNumber: '0012345678', baseSalary: '250000.00', allowances: '15000.50', isActive: false });
    expect(stored[0].onboardingToken?.length).toBeGreaterThanOrEqual(32);
  });

  it('accepts a file without instruction row, LF, mixed-case headers; notify sends invitations in the same transaction', async () => {
    const csv = usersCsv(generatedUsers(4, acme.domain), { instruction: false }).replace('first_name,last_name', 'First_Name,LAST_NAME');
    const res = await upload('/api/users/bulk-create?notify=true', csv);
    expect(res.json().status).toBe('success');
    expect(res.json().successes.map((s: { row: number }) => s.row)).toEqual([2, 3, 4, 5]);
    const emails = await ctx.db.select().from(outbox).where(eq(outbox.companyId, acme.id));
    const created = await ctx.db.select().from(users).where(eq(users.id, res.json().successes[0].id));
    expect(emails.some((m) => m.to === created[0].personalEmail && m.text.includes(`/onboarding/${created[0].onboardingToken}`))).toBe(
      true,
    );
  });

  it('dry_run validates everything and writes nothing', async () => {
    const before = await countUsers(acme.id);
    const rows = generatedUsers(3, acme.domain);
    rows[2].user_types = 'Astronaut';
    const res = await upload('/api/users/bulk-create?dry_run=true', usersCsv(rows));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'partial', summary: '2 of 3 rows succeeded.' });
    expect(res.json().successes[0]).toMatchObject({ row: 3, id: null });
    expect(res.json().failures).toEqual([
      { row: 5, errors: { user_types: ['The user type entered does not exist for the specified company.'] } },
    ]);
    expect(await countUsers(acme.id)).toBe(before);
  });

  it('reports an existing active personal e-mail and duplicates within the file as row failures; status failed', async () => {
    const [active] = await createUsers(ctx.db, acme.id, [{ isActive: true }]);
    const [row] = generatedUsers(1, acme.domain);
    const res = await upload(
      '/api/users/bulk-create',
      usersCsv([
        { ...row, personal_email: active.personalEmail },
        { ...row, first_name: '' },
      ]),
    );
    expect(res.json()).toMatchObject({ status: 'failed', summary: '0 of 2 rows succeeded.', successes: [] });
    expect(res.json().failures).toEqual([
      { row: 3, errors: { personal_email: ['User already exists and is active.'] } },
      { row: 4, errors: { first_name: ['The first name field is required.'] } },
    ]);
    const dup = generatedUsers(2, acme.domain);
    dup[1].personal_email = dup[0].personal_email;
    const twice = await upload('/api/users/bulk-create', usersCsv(dup));
    expect(twice.json().failures).toEqual([
      { row: 4, errors: { personal_email: ['The personal email appears more than once in this file.'] } },
    ]);
  });

  it('answers 422 {errors: {users_csv: [...]}} for missing, empty, binary, oversized and over-long files, and bad headers', async () => {
    const expect422 = async (res: Awaited<ReturnType<typeof upload>>, message: string) => {
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json()).toEqual({ errors: { users_csv: [message] } });
    };
    await expect422(await upload('/api/users/bulk-create', 'x', {}, acme, 'other_field'), 'The users csv field is required.');
    const notMultipart = await as(ctx.app, acme).post('/api/users/bulk-create', { users_csv: 'a' });
    await expect422(notMultipart, 'The users csv field is required.');
    await expect422(await upload('/api/users/bulk-create', ''), 'The users csv file is empty.');
    await expect422(
      await upload('/api/users/bulk-create', Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00])),
      'The users csv field must be a file of type: csv, txt.',
    );
    await expect422(
      await upload('/api/users/bulk-create', Buffer.from([0x61, 0xff, 0xfe, 0x0a])),
      'The users csv file must be UTF-8 encoded.',
    );
    await expect422(
      await upload('/api/users/bulk-create', 'a,b\n1,2\n'),
      'The users csv file must have a header row with the columns: first_name, last_name, personal_email, domain, user_types, start_date.',
    );
    await expect422(
      await upload('/api/users/bulk-create', 'first_name,last_name\nA,B\n'),
      'The users csv file is missing the columns: personal_email, domain, user_types, start_date.',
    );
    await expect422(await upload('/api/users/bulk-create', usersCsv([])), 'The users csv file contains no data rows.');
    const big = `${usersCsv([])}${'x'.repeat(5 * 1024 * 1024)}`;
    await expect422(await upload('/api/users/bulk-create', big), 'The users csv field must not be greater than 5120 kilobytes.');
    const before = await countUsers(acme.id);
    const many = usersCsv(generatedUsers(10_001, acme.domain));
    await expect422(await upload('/api/users/bulk-create', many), 'The users csv file must not contain more than 10000 rows.');
    expect(await countUsers(acme.id)).toBe(before);
    await expect422(
      await upload('/api/users/bulk-create', `${usersCsv([])}"unclosed,quote\n`),
      expect.stringContaining('The users csv file is not valid CSV') as unknown as string,
    );
  });

  it('answers 404 Target company not found. and 403 for a company that is not ours (query or form field)', async () => {
    const csv = usersCsv(generatedUsers(1, other.domain));
    const missing = await upload('/api/users/bulk-create?company_id=99999999', csv);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: 'Target company not found.' });
    const missingForm = await upload('/api/users/bulk-create', csv, { company_id: '99999999' });
    expect(missingForm.statusCode).toBe(404);
    const forbidden = await upload('/api/users/bulk-create', csv, { company_id: String(other.id) });
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json()).toEqual({ error: 'Unauthorized or invalid company ID.' });
    const differ = await upload(`/api/users/bulk-create?company_id=${acme.id}`, csv, { company_id: String(other.id) });
    expect(differ.statusCode).toBe(400);
    expect(await countUsers(other.id)).toBe(0);
  });

  it('imports 10,000 rows in chunks with unique e-mails and employee ids', async () => {
    const company = await createCompany(ctx.db);
    const rows = generatedUsers(10_000, company.domain).map((r, i) => ({ ...r, last_name: `Same${i % 3}` }));
    const started = Date.now();
    const res = await upload('/api/users/bulk-create', usersCsv(rows), {}, company);
    const seconds = (Date.now() - started) / 1000;
    expect(res.statusCode).toBe(200);
    expect(res.json().summary).toBe('10000 of 10000 rows succeeded.');
    const stored = await ctx.db
      .select({ email: users.email, employeeId: users.employeeId })
      .from(users)
      .where(eq(users.companyId, company.id));
    expect(new Set(stored.map((u) => u.email)).size).toBe(10_000);
    expect(new Set(stored.map((u) => u.employeeId)).size).toBe(10_000);
    console.log(`bulk create on ${ctx.testDb.database.kind}: 10000 rows in ${seconds.toFixed(2)} s`);
  }, 180_000);
});

describe('U9 bulk update', () => {
  it('updates by email, leaves empty cells unchanged, re-derives e-mail, reports unknown and duplicate emails', async () => {
    const [a, b] = await createUsers(ctx.db, acme.id, [
      { firstName: 'Upd', lastName: 'One' },
      { firstName: 'Upd', lastName: 'Two' },
    ]);
    const rows: CsvUser[] = [
      { email: a.email, title: 'Director', base_salary: '999999.99' },
      { email: b.email.toUpperCase(), last_name: 'Renamed' },
      { email: 'nobody@nowhere.test', title: 'x' },
      { email: a.email, title: 'again' },
      { email: '', title: 'x' },
      { email: b.email, start_date: 'yesterday' },
    ];
    const res = await upload('/api/users/bulk-update', usersCsv(rows, { update: true }));
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.status).toBe('partial');
    expect(body.summary).toBe('2 of 6 rows succeeded.');
    expect(body.successes).toEqual([
      { row: 3, id: a.id, email: a.email },
      { row: 4, id: b.id, email: `upd.renamed@${acme.domain}` },
    ]);
    expect(body.failures).toEqual([
      { row: 5, errors: { email: ['No user with this email exists in the company.'] } },
      { row: 6, errors: { email: ['The email appears more than once in this file.'] } },
      { row: 7, errors: { email: ['The email field is required.'] } },
      {
        row: 8,
        errors: {
          email: ['The email appears more than once in this file.'],
          start_date: ['The start date field must match the format Y-m-d.'],
        },
      },
    ]);
    const [storedA] = await ctx.db.select().from(users).where(eq(users.id, a.id));
    expect(storedA).toMatchObject({ title: 'Director', baseSalary: '999999.99', firstName: 'Upd', lastName: 'One' });
  });

  it('never touches another company’s users and supports dry_run', async () => {
    const [foreign] = await createUsers(ctx.db, other.id, [{}]);
    const res = await upload('/api/users/bulk-update', usersCsv([{ email: foreign.email, title: 'Hacked' }], { update: true }));
    expect(res.json().failures).toEqual([{ row: 3, errors: { email: ['No user with this email exists in the company.'] } }]);
    const [mine] = await createUsers(ctx.db, acme.id, [{}]);
    const dry = await upload('/api/users/bulk-update?dry_run=true', usersCsv([{ email: mine.email, title: 'Dry' }], { update: true }));
    expect(dry.json().status).toBe('success');
    const [stored] = await ctx.db
      .select()
      .from(users)
      .where(and(eq(users.id, mine.id)));
    expect(stored.title).toBeNull();
    const missingKey = await upload('/api/users/bulk-update', usersCsv(generatedUsers(1, acme.domain)));
    expect(missingKey.statusCode).toBe(422);
    expect(missingKey.json()).toEqual({ errors: { users_csv: ['The users csv file must have a header row with the columns: email.'] } });
  });
});

describe('Idempotency-Key on a multipart upload', () => {
  const send = (csv: string, key: string) => {
    // A new random boundary every time, as a real client's retry would have.
    const form = multipart({}, [{ field: 'users_csv', filename: 'users.csv', contentType: 'text/csv', data: csv }]);
    return as(ctx.app, acme).post('/api/users/bulk-create', form.payload, { headers: { ...form.headers, 'idempotency-key': key } });
  };

  it('replays a retried file and refuses a different file of the same length', async () => {
    const [a, b] = generatedUsers(2, acme.domain);
    const fileA = usersCsv([{ ...a, first_name: 'Aaaa' }]);
    const fileB = usersCsv([{ ...a, first_name: 'Bbbb' }]);
    expect(fileA.length).toBe(fileB.length);
    const before = await countUsers(acme.id);
    const first = await send(fileA, 'bulk-key-1');
    expect(first.json()).toMatchObject({ status: 'success' });
    expect(first.statusCode).toBe(200);
    const retry = await send(fileA, 'bulk-key-1');
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json()).toEqual(first.json());
    const other = await send(fileB, 'bulk-key-1');
    expect(other.statusCode).toBe(409);
    expect(other.json()).toEqual({ error: 'Idempotency key reused with a different request.' });
    expect(await countUsers(acme.id)).toBe(before + 1);
    expect(b).toBeDefined();
  });
});
