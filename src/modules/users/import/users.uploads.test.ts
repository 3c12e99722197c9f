// Upload limits of U4 (documents) and U8/U9 (CSV): files per request and per user, one CSV per
// request, a declared Content-Length over the limit refused before the body is read, and no
// temporary file left behind. Memory under parallel uploads is measured in test/process/uploads.test.ts.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestAppWithDataDir, type TestContext } from '../../../../test/helpers/app.js';
import { createCompany, createUsers, type TestCompany } from '../../../../test/helpers/factories.js';
import { as } from '../../../../test/helpers/http.js';
import { type FormFile, generatedUsers, multipart, usersCsv } from '../../../../test/helpers/users.js';
import { users } from '../../../db/schema/index.js';

let ctx: TestContext & { dataDir: string };
let acme: TestCompany;
let dataDir: string;

beforeAll(async () => {
  ctx = await createTestAppWithDataDir();
  dataDir = ctx.dataDir;
  acme = await createCompany(ctx.db, { name: 'Upload Co' });
});
afterAll(() => ctx?.close());

const pdf = (size = 200) => Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(size, 1)]);
const documents = (count: number, size?: number): FormFile[] =>
  Array.from({ length: count }, (_, i) => ({ field: 'documents', filename: `d${i}.pdf`, contentType: 'application/pdf', data: pdf(size) }));
const put = (id: number, files: FormFile[]) => {
  const form = multipart({}, files);
  return as(ctx.app, acme).put(`/api/users/${id}`, form.payload, { headers: form.headers });
};
const storedDocuments = async (id: number) => (await ctx.db.select().from(users).where(eq(users.id, id)))[0].documentPaths ?? [];
const leftovers = () => (fs.existsSync(path.join(dataDir, 'uploads')) ? fs.readdirSync(path.join(dataDir, 'uploads')) : []);

describe('U4 documents', () => {
  it('takes at most 5 documents per request', async () => {
    const [user] = await createUsers(ctx.db, acme.id, [{}]);
    const res = await put(user.id, documents(6));
    expect([res.statusCode, res.json()]).toEqual([422, { error: { documents: ['The documents field must not have more than 5 items.'] } }]);
    expect(await storedDocuments(user.id)).toEqual([]);
    expect((await put(user.id, documents(5))).statusCode).toBe(200);
    expect(await storedDocuments(user.id)).toHaveLength(5);
    expect(leftovers()).toEqual([]);
  });

  it('keeps at most 20 documents per user, checked under the row lock', async () => {
    const [user] = await createUsers(ctx.db, acme.id, [{}]);
    for (let i = 0; i < 3; i++) expect((await put(user.id, documents(5))).statusCode).toBe(200);
    // Two parallel uploads of 5 onto 15: only one fits.
    const both = await Promise.all([put(user.id, documents(5)), put(user.id, documents(5))]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 422]);
    const refused = both.find((r) => r.statusCode === 422);
    expect(refused?.json()).toEqual({ error: { documents: ['A user may have at most 20 documents.'] } });
    expect(await storedDocuments(user.id)).toHaveLength(20);
    const folder = path.join(dataDir, 'documents', String(acme.id), String(user.id));
    expect(fs.readdirSync(folder)).toHaveLength(20);
    expect(leftovers()).toEqual([]);
  });

  it('refuses a declared Content-Length over the request limit before reading the body', async () => {
    const [user] = await createUsers(ctx.db, acme.id, [{}]);
    const form = multipart({}, documents(1));
    const res = await as(ctx.app, acme).put(`/api/users/${user.id}`, form.payload, {
      headers: { ...form.headers, 'content-length': String(200 * 1024 * 1024) },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().error.documents[0]).toMatch(/must not be greater than 5120 kilobytes each, at most 5 per request/);
    expect(await storedDocuments(user.id)).toEqual([]);
  });
});

describe('U8 CSV upload', () => {
  const upload = (files: FormFile[]) => {
    const form = multipart({}, files);
    return as(ctx.app, acme).post('/api/users/bulk-create', form.payload, { headers: form.headers });
  };
  const csvFile = (csv: string): FormFile => ({ field: 'users_csv', filename: 'users.csv', contentType: 'text/csv', data: csv });

  it('takes exactly one file', async () => {
    const csv = usersCsv(generatedUsers(1, acme.domain));
    const res = await upload([csvFile(csv), csvFile(csv)]);
    expect([res.statusCode, res.json()]).toEqual([422, { errors: { users_csv: ['The users csv field must be a single file.'] } }]);
    expect(leftovers()).toEqual([]);
  });

  it('refuses a declared Content-Length over 5 MiB with the size message', async () => {
    const form = multipart({}, [csvFile(usersCsv(generatedUsers(1, acme.domain)))]);
    const res = await as(ctx.app, acme).post('/api/users/bulk-create', form.payload, {
      headers: { ...form.headers, 'content-length': String(50 * 1024 * 1024) },
    });
    expect([res.statusCode, res.json()]).toEqual([
      422,
      { errors: { users_csv: ['The users csv field must not be greater than 5120 kilobytes.'] } },
    ]);
  });

  it('treats columns named after Object.prototype members as unknown columns', async () => {
    const rows = generatedUsers(2, acme.domain);
    const csv = usersCsv(rows, { instruction: false }).replace(/\n/, ',toString,constructor,__proto__\n');
    const res = await upload([csvFile(csv)]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().summary).toBe('2 of 2 rows succeeded.');
    expect(leftovers()).toEqual([]);
  });
});

describe('temp files of uploads cut off by a crash', () => {
  it('are removed when a server becomes ready, younger ones (another instance mid-upload) are kept', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'users-sweep-'));
    const uploads = path.join(dir, 'uploads');
    fs.mkdirSync(uploads);
    const stale = path.join(uploads, 'stale.upload');
    const young = path.join(uploads, 'young.upload');
    const unrelated = path.join(uploads, 'notes.txt');
    for (const file of [stale, young, unrelated]) fs.writeFileSync(file, 'x');
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    fs.utimesSync(stale, twoHoursAgo, twoHoursAgo);
    fs.utimesSync(unrelated, twoHoursAgo, twoHoursAgo);
    const other = await createTestApp({ dataDir: dir }, ctx.testDb);
    try {
      expect(fs.existsSync(stale)).toBe(false);
      expect(fs.existsSync(young)).toBe(true);
      expect(fs.existsSync(unrelated)).toBe(true);
    } finally {
      await other.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
