// The users' side of the tax year's rules (docs/statutory-data.md; docs/payroll.md, "The tax year"):
// pension_exempt and its reason through U3, U4, U8 and U9, and the history of the state of residence
// written in the same transaction as every change of state_of_residence (creates, updates, imports).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../../test/helpers/app.js';
import { createCompany, type TestCompany } from '../../../../test/helpers/factories.js';
import { as } from '../../../../test/helpers/http.js';
import { createUserViaApi, multipart, newUserBody } from '../../../../test/helpers/users.js';
import { queryRows, sql } from '../../../db/client.js';

let ctx: TestContext;
let acme: TestCompany;

beforeAll(async () => {
  ctx = await createTestApp();
  acme = await createCompany(ctx.db, { name: 'Tax Year Users' });
});
afterAll(() => ctx.close());

const api = () => as(ctx.app, acme);
const show = async (id: number) => (await api().get(`/api/users/${id}`)).json();
const upload = (url: string, csv: string) => {
  const form = multipart({}, [{ field: 'users_csv', filename: 'users.csv', contentType: 'text/csv', data: csv }]);
  return api().post(url, form.payload, { headers: form.headers });
};
/** The user's state history: [state, effective_from is today in Nigeria]. */
const history = async (userId: number) =>
  (
    await queryRows<{ state: string | null; today: boolean }>(
      ctx.db,
      sql`SELECT state, effective_from = ((now() AT TIME ZONE 'UTC') + interval '1 hour')::date AS today
          FROM user_state_history WHERE user_id = ${userId} ORDER BY effective_from, id`,
    )
  ).map((row) => [row.state, row.today]);

const REQUIRED = { pension_exempt_reason: ['The pension exempt reason field is required when pension exempt is true.'] };
const REASON = 'Less than 3 months to retirement (Pension Reform Act 2014 exemption)';

describe('pension_exempt and pension_exempt_reason', () => {
  it('U3: stored with its reason and shown on U2 and U1; false by default with no reason', async () => {
    const user = await createUserViaApi(ctx.app, acme, { pension_exempt: 'true', pension_exempt_reason: `  ${REASON}  ` });
    expect(await show(user.id)).toMatchObject({ pension_exempt: true, pension_exempt_reason: REASON });
    const list = (await api().get('/api/users?per_page=1000')).json();
    expect(list.Resources.find((u: { id: number }) => u.id === user.id)).toMatchObject({
      pension_exempt: true,
      pension_exempt_reason: REASON,
    });
    const plain = await createUserViaApi(ctx.app, acme);
    expect(await show(plain.id)).toMatchObject({ pension_exempt: false, pension_exempt_reason: null });
  });

  it.each([
    ['exempt without a reason', { pension_exempt: true }, REQUIRED],
    ['exempt with a blank reason', { pension_exempt: 1, pension_exempt_reason: '   ' }, REQUIRED],
    [
      'a reason over 200 characters',
      { pension_exempt: true, pension_exempt_reason: 'x'.repeat(201) },
      { pension_exempt_reason: ['The pension exempt reason field must not be greater than 200 characters.'] },
    ],
    ['not a boolean', { pension_exempt: 'maybe' }, { pension_exempt: ['The pension exempt field must be true or false.'] }],
  ])('U3 refuses %s (422, nothing written)', async (_label, fields, errors) => {
    const body = newUserBody(acme, fields);
    const res = await api().post('/api/users', body);
    expect([res.statusCode, res.json()]).toEqual([422, { error: errors }]);
    const rows = await queryRows(ctx.db, sql`SELECT 1 FROM users WHERE personal_email = ${String(body.personal_email)}`);
    expect(rows).toEqual([]);
  });

  it('U3: a reason without the exemption is not kept; 200 characters are', async () => {
    const user = await createUserViaApi(ctx.app, acme, { pension_exempt: false, pension_exempt_reason: 'Covered by another scheme' });
    expect(await show(user.id)).toMatchObject({ pension_exempt: false, pension_exempt_reason: null });
    const long = await createUserViaApi(ctx.app, acme, { pension_exempt: true, pension_exempt_reason: 'y'.repeat(200) });
    expect((await show(long.id)).pension_exempt_reason).toBe('y'.repeat(200));
  });

  it('U4: set with a reason, reason alone changed, clearing the reason of an exempt employee refused, ending the exemption clears it', async () => {
    const user = await createUserViaApi(ctx.app, acme);
    expect((await api().put(`/api/users/${user.id}`, { pension_exempt: true })).json()).toEqual({ error: REQUIRED });
    const set = await api().put(`/api/users/${user.id}`, { pension_exempt: true, pension_exempt_reason: REASON });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().user).toMatchObject({ pension_exempt: true, pension_exempt_reason: REASON });
    const reworded = await api().put(`/api/users/${user.id}`, { pension_exempt_reason: 'Covered by the Armed Forces scheme' });
    expect(reworded.json().user).toMatchObject({ pension_exempt: true, pension_exempt_reason: 'Covered by the Armed Forces scheme' });
    const cleared = await api().put(`/api/users/${user.id}`, { pension_exempt_reason: null });
    expect([cleared.statusCode, cleared.json()]).toEqual([422, { error: REQUIRED }]);
    // null leaves a boolean unchanged (docs/statutory-data.md): still exempt.
    expect((await api().put(`/api/users/${user.id}`, { pension_exempt: null })).json().user.pension_exempt).toBe(true);
    const ended = await api().put(`/api/users/${user.id}`, { pension_exempt: false });
    expect(ended.statusCode, ended.body).toBe(200);
    expect(ended.json().user).toMatchObject({ pension_exempt: false, pension_exempt_reason: null });
  });

  it('U8 creates with them (a row without its reason fails alone); U9 sets and ends an exemption', async () => {
    const tag = Date.now();
    const head = 'first_name,last_name,personal_email,domain,user_types,start_date,pension_exempt (true/false),pension_exempt_reason';
    const row = (n: number, cells: string) => `Exempt,Person${n},ex.${tag}.${n}@personal.test,${acme.domain},Full-time,2024-01-01,${cells}`;
    const csv = [head, row(1, `true,${REASON}`), row(2, 'true,'), row(3, 'false,Ignored')].join('\n');
    const res = await upload('/api/users/bulk-create', csv);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().failures).toEqual([{ row: 3, errors: REQUIRED }]);
    const [exempt, plain] = res.json().successes;
    expect(await show(exempt.id)).toMatchObject({ pension_exempt: true, pension_exempt_reason: REASON });
    expect(await show(plain.id)).toMatchObject({ pension_exempt: false, pension_exempt_reason: null });

    const update = ['email,pension_exempt,pension_exempt_reason', `${exempt.email},false,`, `${plain.email},true,Retires in February`].join(
      '\n',
    );
    const updated = await upload('/api/users/bulk-update', update);
    expect(updated.json().failures, updated.body).toEqual([]);
    expect(await show(exempt.id)).toMatchObject({ pension_exempt: false, pension_exempt_reason: null });
    expect(await show(plain.id)).toMatchObject({ pension_exempt: true, pension_exempt_reason: 'Retires in February' });
    const missing = await upload('/api/users/bulk-update', `email,pension_exempt\n${exempt.email},true\n`);
    expect(missing.json().failures).toEqual([{ row: 2, errors: REQUIRED }]);
  });
});

describe('history of the state of residence', () => {
  it('U3 records the first state; U4 each change (a clear too), not a write of the same state', async () => {
    const user = await createUserViaApi(ctx.app, acme, { state_of_residence: 'la' });
    expect(await history(user.id)).toEqual([['LA', true]]);
    await api().put(`/api/users/${user.id}`, { state_of_residence: 'LA', title: 'Accountant' });
    expect(await history(user.id)).toEqual([['LA', true]]);
    await api().put(`/api/users/${user.id}`, { state_of_residence: 'og' });
    await api().put(`/api/users/${user.id}`, { state_of_residence: null });
    expect(await history(user.id)).toEqual([
      ['LA', true],
      ['OG', true],
      [null, true],
    ]);
    const none = await createUserViaApi(ctx.app, acme);
    expect(await history(none.id)).toEqual([]);
  });

  it('a refused update writes no history (same transaction)', async () => {
    const user = await createUserViaApi(ctx.app, acme, { state_of_residence: 'KN' });
    const res = await api().put(`/api/users/${user.id}`, { state_of_residence: 'KD', nin: 'bad' });
    expect(res.statusCode).toBe(422);
    expect(await history(user.id)).toEqual([['KN', true]]);
  });

  it('U8 and U9 record the imported states; a dry run records nothing', async () => {
    const tag = Date.now();
    const head = 'first_name,last_name,personal_email,domain,user_types,start_date,state_of_residence';
    const row = (n: number, state: string) => `Moved,Person${n},mv.${tag}.${n}@personal.test,${acme.domain},Full-time,2024-01-01,${state}`;
    const created = await upload('/api/users/bulk-create', [head, row(1, 'EN'), row(2, '')].join('\n'));
    const [first, second] = created.json().successes;
    expect([await history(first.id), await history(second.id)]).toEqual([[['EN', true]], []]);
    await upload('/api/users/bulk-update?dry_run=true', `email,state_of_residence\n${first.email},AN\n`);
    expect(await history(first.id)).toEqual([['EN', true]]);
    const updated = await upload('/api/users/bulk-update', `email,state_of_residence\n${first.email},AN\n${second.email},ri\n`);
    expect(updated.json().failures, updated.body).toEqual([]);
    expect([await history(first.id), await history(second.id)]).toEqual([
      [
        ['EN', true],
        ['AN', true],
      ],
      [['RI', true]],
    ]);
  });
});
