// Payslips over HTTP against a real database: two paid runs (January, February) of one company.
// The PDF's text (pdftotext) names the employee, shows ₦ amounts, the last four digits of the
// account only and a year to date equal to the sum of the paystubs; the run's ZIP (unzip) holds one
// valid PDF per paystub; the signed link of the paid e-mail works without a token for that payslip
// only (tampered, other paystub, expired, garbage refused as pages); tenancy 404/403; the console's
// Download payslips and per-paystub links through the session (its company only).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers/app.js';
import { createCompany, createUsers, type TestCompany } from '../../../test/helpers/factories.js';
import { as, anonymous as noCredentials } from '../../../test/helpers/http.js';
import { drainJobs, fundWallet, runBody, setBankAccounts } from '../../../test/helpers/payroll-runs.js';
import { createAdmin, signIn } from '../../../test/helpers/web.js';
import { queryRows } from '../../db/client.js';
import { createLinkSigner } from '../../platform/signed-links.js';
import { naira } from '../../tax-engine/money.js';
import { createPayslipLinks } from '../paystubs/index.js';

let ctx: TestContext;
let acme: TestCompany;
let other: TestCompany;
let staff: Awaited<ReturnType<typeof createUsers>>;
let janRun: string;
let febRun: string;
let tmp: string;

interface Stub {
  id: number;
  user_id: number;
  gross_pay: string;
  tax_withheld: string;
  pension_contribution: string;
  net_pay: string;
  pay_period_end: string;
}

function pdfText(pdf: Buffer): string {
  const out = spawnSync('pdftotext', ['-layout', '-', '-'], { input: pdf });
  if (out.status !== 0) throw new Error(`pdftotext: ${out.stderr.toString()}`);
  return out.stdout.toString();
}

const pageCount = (pdf: Buffer) => {
  const out = spawnSync('pdfinfo', ['-'], { input: pdf }).stdout.toString();
  return Number(/Pages:\s+(\d+)/.exec(out)?.[1]);
};

async function paidRun(start: string, end: string, paymentDate: string, boss: { email: string }): Promise<string> {
  const created = await as(ctx.app, acme).post(
    '/api/payroll-runs',
    runBody({ pay_period_start: start, pay_period_end: end, payment_date: paymentDate }),
  );
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json().run.id as string;
  expect((await as(ctx.app, acme).post(`/api/payroll-runs/${id}/approve`, { approver_email: boss.email })).statusCode).toBe(200);
  expect((await as(ctx.app, acme).post(`/api/payroll-runs/${id}/pay`, {})).statusCode).toBe(202);
  await drainJobs(ctx.app);
  return id;
}

const stubsOf = (runId: string) =>
  queryRows<Stub>(
    ctx.db,
    sql`SELECT id, user_id, gross_pay::text AS gross_pay, tax_withheld::text AS tax_withheld, pension_contribution::text AS pension_contribution,
               net_pay::text AS net_pay, pay_period_end::text AS pay_period_end
        FROM paystubs WHERE transaction_id = ${runId} ORDER BY user_id`,
  );

beforeAll(async () => {
  ctx = await createTestApp({ sandboxTransferDelaySeconds: 0, walletVerifyDelaySeconds: 0 });
  acme = await createCompany(ctx.db, { name: 'Acme Payslips Ltd', runApproval: 'token' }); // the token approves
  other = await createCompany(ctx.db, { name: 'Other Payslips Ltd' });
  await ctx.db.execute(sql`UPDATE companies SET address = ${'12 Marina Road\nLagos Island, Lagos'} WHERE id = ${acme.id}`);
  const [boss] = await createUsers(ctx.db, acme.id, [{ firstName: 'Boss', lastName: 'Admin', roles: ['admin'], baseSalary: '0' }]);
  staff = await createUsers(ctx.db, acme.id, [
    { firstName: 'Adaeze', lastName: 'Okafor', baseSalary: '300000.00' },
    { firstName: 'Bola', lastName: 'Tinubu', baseSalary: '250000.50' },
  ]);
  await ctx.db.execute(sql`UPDATE users SET title = 'Senior Accountant', department = 'Finance' WHERE id = ${staff[0].id}`);
  await setBankAccounts(
    ctx.db,
    staff.map((u) => u.id),
  );
  await fundWallet(ctx.app, ctx.db, acme, 5_000_000);
  janRun = await paidRun('2026-01-01', '2026-01-31', '2026-01-28', boss);
  febRun = await paidRun('2026-02-01', '2026-02-28', '2026-02-26', boss);
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'payslips-'));
}, 180_000);
afterAll(async () => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  await ctx?.close();
});

describe('GET /api/paystubs/{id}/payslip', () => {
  it('answers one A4 page naming the employee, with ₦ amounts, the last 4 digits and the year to date', async () => {
    const [jan] = await stubsOf(janRun);
    const [feb] = await stubsOf(febRun);
    expect(feb.user_id).toBe(staff[0].id);
    const res = await as(ctx.app, acme).get(`/api/paystubs/${feb.id}/payslip`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="payslip-${staff[0].employeeId}-2026-02-28.pdf"`);
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pageCount(res.rawPayload)).toBe(1);
    const text = pdfText(res.rawPayload);
    const [{ account_number }] = await queryRows<{ account_number: string }>(
      ctx.db,
      sql`SELECT account_number FROM users WHERE id = ${staff[0].id}`,
    );
    for (const expected of [
      'Acme Payslips Ltd',
      '12 Marina Road',
      'Adaeze Okafor',
      staff[0].employeeId,
      'Senior Accountant',
      'Finance',
      'Access Bank',
      `•••• ${account_number.slice(-4)}`,
      '1 Feb 2026 – 28 Feb 2026',
      '26 Feb 2026',
      febRun,
      'Nigeria Tax Act 2025',
      'YEAR TO DATE, 2026 (2 PAYSLIPS)',
      naira(feb.net_pay),
      naira(feb.gross_pay),
    ])
      expect(text).toContain(expected);
    expect(text).not.toContain(account_number);
    expect(text).toMatch(/₦\d{1,3}(,\d{3})*\.\d{2}/);
    // Year to date: January + February of this employee, exact.
    const ytd = await queryRows<{ gross: string; tax: string; pension: string; net: string }>(
      ctx.db,
      sql`SELECT sum(gross_pay)::text AS gross, sum(tax_withheld)::text AS tax, sum(pension_contribution)::text AS pension, sum(net_pay)::text AS net
          FROM paystubs WHERE id IN (${jan.id}, ${feb.id})`,
    );
    const ytdBlock = text.slice(text.indexOf('YEAR TO DATE'));
    for (const figure of [ytd[0].gross, ytd[0].tax, ytd[0].pension, ytd[0].net]) expect(ytdBlock).toContain(naira(figure));
    // January's own payslip counts January only.
    const janText = pdfText((await as(ctx.app, acme).get(`/api/paystubs/${jan.id}/payslip`)).rawPayload);
    expect(janText).toContain('YEAR TO DATE, 2026 (1 PAYSLIP)');
  });

  it("is 404 for an unknown id, another company's paystub, a non-numeric id; 403 for another company_id", async () => {
    const [feb] = await stubsOf(febRun);
    for (const [who, url] of [
      [acme, '/api/paystubs/99999999/payslip'],
      [acme, '/api/paystubs/abc/payslip'],
      [other, `/api/paystubs/${feb.id}/payslip`],
    ] as const) {
      const res = await as(ctx.app, who).get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toEqual({ error: 'Paystub not found.' });
    }
    const forbidden = await as(ctx.app, other).get(`/api/paystubs/${feb.id}/payslip?company_id=${acme.id}`);
    expect(forbidden.statusCode).toBe(403);
    expect(JSON.stringify(forbidden.json())).not.toContain('Adaeze');
  });
});

describe('GET /api/payroll-runs/{id}/payslips', () => {
  it('streams a ZIP with one valid PDF per paystub of the run', async () => {
    const res = await as(ctx.app, acme).get(`/api/payroll-runs/${febRun}/payslips`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="payslips-${febRun}.zip"`);
    const file = path.join(tmp, 'feb.zip');
    fs.writeFileSync(file, res.rawPayload);
    const test = spawnSync('unzip', ['-tq', file]);
    expect(test.status, test.stdout.toString()).toBe(0);
    const names = spawnSync('unzip', ['-Z1', file]).stdout.toString().trim().split('\n');
    expect(names).toEqual(staff.map((user) => `payslip-${user.employeeId}-2026-02-28.pdf`));
    for (const [i, name] of names.entries()) {
      const pdf = spawnSync('unzip', ['-p', file, name], { maxBuffer: 10_000_000 }).stdout;
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
      expect(pdfText(pdf)).toContain(`${staff[i].firstName} ${staff[i].lastName}`);
    }
  });

  it('stops rendering when the client goes away mid-download, and the server keeps serving', async () => {
    const server = await createTestApp({}, ctx.testDb);
    try {
      await server.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = server.app.server.address() as AddressInfo;
      await new Promise<void>((resolve, reject) => {
        const request = http.get({ host: '127.0.0.1', port, path: `/api/payroll-runs/${janRun}/payslips`, headers: acme.auth }, (res) => {
          expect(res.statusCode).toBe(200);
          res.once('data', () => {
            request.destroy();
            resolve();
          });
        });
        request.on('error', (error) => (request.destroyed ? undefined : reject(error)));
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      const after = await as(server.app, acme).get(`/api/payroll-runs/${janRun}/payslips`);
      expect(after.statusCode).toBe(200);
      expect(after.rawPayload.subarray(0, 2).toString()).toBe('PK');
    } finally {
      await server.close();
    }
  });

  it("is 404 for an unknown run and another company's run, before any byte of a ZIP", async () => {
    for (const [who, url] of [
      [acme, '/api/payroll-runs/PR-20260101-ZZZZZZ/payslips'],
      [other, `/api/payroll-runs/${febRun}/payslips`],
    ] as const) {
      const res = await as(ctx.app, who).get(url);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: 'Payroll run not found.' });
    }
  });
});

describe('the signed link of the paid e-mail', () => {
  const linkOf = async (userId: number, runEnd: string) => {
    const [user] = await queryRows<{ personal_email: string }>(ctx.db, sql`SELECT personal_email FROM users WHERE id = ${userId}`);
    const mails = await queryRows<{ text: string }>(ctx.db, sql`SELECT text FROM outbox WHERE "to" = ${user.personal_email} ORDER BY id`);
    const mail = mails.find((m) => m.text.includes(runEnd));
    const match = /(https?:\/\/\S+\/payslips\/(\S+))/.exec(mail?.text ?? '');
    expect(match, mail?.text).not.toBeNull();
    return { url: new URL(match?.[1] ?? ''), token: match?.[2] ?? '' };
  };

  it('serves that payslip inline without a token', async () => {
    const { url } = await linkOf(staff[0].id, '2026-02-28');
    expect(url.origin).toBe(ctx.app.deps.config.publicUrl);
    const res = await as(ctx.app, noCredentials).get(url.pathname);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toMatch(/^inline; filename="payslip-/);
    const text = pdfText(res.rawPayload);
    expect(text).toContain('Adaeze Okafor');
    expect(text).toContain('1 Feb 2026 – 28 Feb 2026');
    expect(text).not.toContain('Bola');
  });

  it("refuses a tampered signature, another paystub's id, an expired link and garbage, as pages", async () => {
    const { token } = await linkOf(staff[0].id, '2026-02-28');
    const [id, expiry, signature] = token.split('.');
    const [, bolaFeb] = await stubsOf(febRun);
    const flipped = `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`;
    for (const bad of [`${id}.${expiry}.${flipped}`, `${bolaFeb.id.toString(36)}.${expiry}.${signature}`, 'nonsense', `${token}x`]) {
      const res = await as(ctx.app, noCredentials).get(`/payslips/${encodeURIComponent(bad)}`);
      expect(res.statusCode, bad).toBe(404);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.body).toContain('This payslip link is not valid.');
    }
    const links = createPayslipLinks(ctx.app.deps.config.publicUrl);
    const old = new URL(await links.url(ctx.db, Number.parseInt(id, 36), new Date(Date.now() - 31 * 24 * 3600 * 1000)));
    const expired = await as(ctx.app, noCredentials).get(old.pathname);
    expect(expired.statusCode).toBe(410);
    expect(expired.body).toContain('This payslip link has expired');
    // Signed now by the same key (from the table, as another instance would): valid.
    const fresh = new URL(await createPayslipLinks('http://other.instance').url(ctx.db, bolaFeb.id));
    const ok = await as(ctx.app, noCredentials).get(fresh.pathname);
    expect(ok.statusCode).toBe(200);
    expect(pdfText(ok.rawPayload)).toContain('Bola Tinubu');
  });

  it('is rate limited per client IP', async () => {
    const limited = await createTestApp({ rateLimit: { unauthenticated: 2 } }, ctx.testDb);
    try {
      const codes: number[] = [];
      for (let i = 0; i < 3; i++)
        codes.push((await as(limited.app, noCredentials).get('/payslips/nonsense', { remoteAddress: '10.9.9.9' })).statusCode);
      expect(codes).toEqual([404, 404, 429]);
    } finally {
      await limited.close();
    }
  });
});

describe('console: Download payslips and the payslip of each paystub', () => {
  it('links them on the run page and serves them through the session, for its company only', async () => {
    const admin = await signIn(ctx.app, (await createAdmin(ctx.db, acme.id, { firstName: 'Console', lastName: 'Admin' })).email);
    const stranger = await signIn(ctx.app, (await createAdmin(ctx.db, other.id, { firstName: 'Other', lastName: 'Admin' })).email);
    const stubs = await stubsOf(febRun);
    const page = await admin.get(`/console/payroll/${febRun}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`href="/console/payroll/${febRun}/payslips.zip"`);
    expect(page.body).toContain('Download payslips');
    for (const stub of stubs) expect(page.body).toContain(`href="/console/paystubs/${stub.id}/payslip"`);

    const zip = await admin.get(`/console/payroll/${febRun}/payslips.zip`);
    expect(zip.statusCode).toBe(200);
    expect(zip.headers['content-type']).toBe('application/zip');
    const file = path.join(tmp, 'console.zip');
    fs.writeFileSync(file, zip.rawPayload);
    expect(spawnSync('unzip', ['-Z1', file]).stdout.toString().trim().split('\n')).toHaveLength(stubs.length);

    const one = await admin.get(`/console/paystubs/${stubs[0].id}/payslip`);
    expect(one.statusCode).toBe(200);
    expect(one.headers['content-type']).toBe('application/pdf');
    expect(pdfText(one.rawPayload)).toContain('Adaeze Okafor');

    for (const url of [
      `/console/payroll/${febRun}/payslips.zip`,
      `/console/paystubs/${stubs[0].id}/payslip`,
      '/console/paystubs/abc/payslip',
    ]) {
      const res = await stranger.get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.body).not.toContain('Adaeze');
    }
    const anonymous = await as(ctx.app, noCredentials).get(`/console/paystubs/${stubs[0].id}/payslip`);
    expect([302, 303]).toContain(anonymous.statusCode);
  });
});

describe('the signing key', () => {
  it('is shared through the table, and one made in a rolled-back transaction is never kept', async () => {
    const signer = createLinkSigner('test-rollback');
    const expires = new Date(Date.now() + 3_600_000);
    await expect(
      ctx.db.transaction(async (tx) => {
        await signer.sign(tx, 7, expires);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    const token = await signer.sign(ctx.db, 7, expires);
    // Another instance (a fresh signer) reads the committed key: the token checks out.
    expect(await createLinkSigner('test-rollback').verify(ctx.db, token, new Date())).toEqual({ ok: true, id: 7 });
    expect(await createLinkSigner('another-purpose').verify(ctx.db, token, new Date())).toEqual({ ok: false, reason: 'invalid' });
  });
});
