// "Already taken" answers of C2 and C4 share one per-caller allowance, RATE_LIMIT_TAKEN_ANSWERS per
// window (docs/companies-invoices.md, C2 enumeration): C4's domain, code and registration id
// answers confirm values in use just as C2's do.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers/app.js';
import { companyBody, createChildViaApi } from '../../../test/helpers/companies.js';
import { createCompany, type TestCompany } from '../../../test/helpers/factories.js';
import { as } from '../../../test/helpers/http.js';

const ALLOWANCE = 3;
const TOO_MANY = [429, { error: 'Too many requests.' }];

let ctx: TestContext;
let other: TestCompany;

beforeAll(async () => {
  ctx = await createTestApp({ rateLimit: { takenAnswers: ALLOWANCE } });
  other = await createCompany(ctx.db, { registrationId: `RC-TAKEN-${process.pid}-${Date.now()}` });
});
afterAll(() => ctx.close());

const put = (who: TestCompany, id: number, body: Record<string, unknown>) => as(ctx.app, who).put(`/api/companies/${id}`, body);
const post = (who: TestCompany, body: Record<string, unknown>) => as(ctx.app, who).post('/api/companies', body);

describe('C4 "already taken" answers are rationed like C2', () => {
  it('after RATE_LIMIT_TAKEN_ANSWERS taken answers on C4, the next C4 and C2 of that caller are 429 with Retry-After', async () => {
    const prober = await createCompany(ctx.db);
    const child = await createChildViaApi(ctx.app, prober);
    // A valid C4 and a C4 with only format errors cost nothing.
    expect((await put(prober, child.id, { name: 'Renamed Child' })).statusCode).toBe(200);
    expect((await put(prober, child.id, { code: 'x' })).statusCode).toBe(422);
    // A registration id nobody holds is no taken answer either.
    expect((await put(prober, child.id, { registration_id: `RC-FREE-${process.pid}-${Date.now()}` })).statusCode).toBe(200);
    const answers = [
      await put(prober, child.id, { domain: other.domain }),
      await put(prober, child.id, { code: other.code }),
      await put(prober, child.id, { domain: other.domain.toUpperCase(), code: other.code }),
    ];
    expect(answers.map((res) => [res.statusCode, res.json().messages])).toEqual([
      [422, { domain: ['The domain has already been taken.'] }],
      [422, { code: ['The code has already been taken.'] }],
      [422, { code: ['The code has already been taken.'], domain: ['The domain has already been taken.'] }],
    ]);

    // The allowance is spent: every C4 of the caller, even valid or on an unknown id, and every C2.
    for (const refused of [
      await put(prober, child.id, { domain: other.domain }),
      await put(prober, child.id, { name: 'Valid Again' }),
      await put(prober, 999_999_999, { name: 'Nobody' }),
      await post(prober, companyBody()),
    ]) {
      expect([refused.statusCode, refused.json()]).toEqual(TOO_MANY);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    }

    // Another caller has its own allowance.
    const bystander = await createCompany(ctx.db);
    const itsChild = await createChildViaApi(ctx.app, bystander);
    expect((await put(bystander, itsChild.id, { code: other.code })).statusCode).toBe(422);
    expect((await put(bystander, itsChild.id, { name: 'Fine' })).statusCode).toBe(200);
  });

  it('C2 and C4 share the allowance: C2 taken answers make C4 refuse, too', async () => {
    const prober = await createCompany(ctx.db);
    const child = await createChildViaApi(ctx.app, prober);
    for (let i = 0; i < ALLOWANCE - 1; i++) {
      expect((await post(prober, companyBody({ domain_name: other.domain }))).statusCode).toBe(422);
    }
    expect((await put(prober, child.id, { code: other.code })).statusCode).toBe(422);
    const refused = await put(prober, child.id, { name: 'After' });
    expect([refused.statusCode, refused.json()]).toEqual(TOO_MANY);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect([(await post(prober, companyBody())).statusCode]).toEqual([429]);
  });
});
