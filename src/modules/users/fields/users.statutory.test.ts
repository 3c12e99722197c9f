// Statutory fields of users: U3 → U2, U4 (set, change, clear with null), U8/U9 and the templates
// U12/U13, and every format refused with the documented 422 shape.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../../test/helpers/app.js';
import { createCompany, type TestCompany } from '../../../../test/helpers/factories.js';
import { as } from '../../../../test/helpers/http.js';
import { createUserViaApi, multipart, newUserBody } from '../../../../test/helpers/users.js';
import { outbox } from '../../../db/schema/index.js';

let ctx: TestContext;
let acme: TestCompany;

beforeAll(async () => {
  ctx = await createTestApp();
  acme = await createCompany(ctx.db, { name: 'Statutory Co' });
});
afterAll(() => ctx.close());

const api = () => as(ctx.app, acme);
const show = async (id: number) => (await api().get(`/api/users/${id}`)).json();

const FULL = {
  annual_rent_paid: '1200000',
  life_assurance_premium: 85000.5,
  nin: '12345678901',
  tax_id: '12345678-0001',
  state_of_residence: 'la',
  rsa_pin: 'pen 100123456789',
  pfa_code: 'stanbicibtc',
  nhf_number: 'nhf/123-45',
  nhf_opt_in: true,
  gender: 'Female',
  is_expatriate: 'false',
};
const STORED = {
  annual_rent_paid: '1200000.00',
  life_assurance_premium: '85000.50',
  nin: '12345678901',
  tax_id: '12345678-0001',
  state_of_residence: 'LA',
  rsa_pin: 'PEN100123456789',
  pfa_code: 'STANBICIBTC',
  nhf_number: 'NHF/123-45',
  nhf_opt_in: true,
  gender: 'female',
  is_expatriate: false,
};
const UNKNOWN = {
  annual_rent_paid: null,
  life_assurance_premium: null,
  nin: null,
  tax_id: null,
  state_of_residence: null,
  rsa_pin: null,
  pfa_code: null,
  nhf_number: null,
  nhf_opt_in: false,
  gender: null,
  is_expatriate: false,
  pension_exempt: false,
  pension_exempt_reason: null,
};

const upload = (url: string, csv: string) => {
  const form = multipart({}, [{ field: 'users_csv', filename: 'users.csv', contentType: 'text/csv', data: csv }]);
  return api().post(url, form.payload, { headers: form.headers });
};

describe('U3 → U2 and U1', () => {
  it('stores every field normalised and shows it', async () => {
    const user = await createUserViaApi(ctx.app, acme, FULL);
    expect(await show(user.id)).toMatchObject(STORED);
    const list = (await api().get('/api/users?per_page=1000')).json();
    expect(list.Resources.find((u: { id: number }) => u.id === user.id)).toMatchObject(STORED);
  });

  it('without them, every field is unknown (null) and the booleans false', async () => {
    const user = await createUserViaApi(ctx.app, acme);
    expect(await show(user.id)).toMatchObject(UNKNOWN);
  });
});

describe('U4', () => {
  it('sets, changes and clears with null; blank and absent leave a field unchanged', async () => {
    const user = await createUserViaApi(ctx.app, acme);
    const set = await api().put(`/api/users/${user.id}`, FULL);
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().user).toMatchObject(STORED);
    const change = await api().put(`/api/users/${user.id}`, {
      state_of_residence: 'FC',
      nhf_opt_in: false,
      annual_rent_paid: '1200000.00',
      nin: '',
    });
    expect(change.json().user).toMatchObject({ ...STORED, state_of_residence: 'FC', nhf_opt_in: false });
    const cleared = await api().put(`/api/users/${user.id}`, {
      annual_rent_paid: null,
      life_assurance_premium: null,
      nin: null,
      tax_id: null,
      state_of_residence: null,
      rsa_pin: null,
      pfa_code: null,
      nhf_number: null,
      gender: null,
    });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(await show(user.id)).toMatchObject(UNKNOWN);
  });

  it('tells the employee which statutory details changed (notify)', async () => {
    const user = await createUserViaApi(ctx.app, acme, { pfa_code: 'OAK' });
    await api().put(`/api/users/${user.id}`, { pfa_code: 'OAK', rsa_pin: 'PEN200000000001', notify: true });
    const mails = await ctx.db
      .select()
      .from(outbox)
      .where(eq(outbox.to, String(user.personal_email)));
    expect(mails.at(-1)?.text).toContain('updated: rsa_pin.');
  });

  it('accepts them as multipart fields too', async () => {
    const user = await createUserViaApi(ctx.app, acme);
    const form = multipart({ nin: '10987654321', is_expatriate: 'true', gender: 'male' });
    const res = await api().put(`/api/users/${user.id}`, form.payload, { headers: form.headers });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().user).toMatchObject({ nin: '10987654321', is_expatriate: true, gender: 'male' });
  });
});

describe('formats refused with 422 {error: {field: [..]}} and nothing written', () => {
  const cases: [string, unknown, string][] = [
    ['annual_rent_paid', '-5', 'The annual rent paid field must be at least 0.'],
    ['annual_rent_paid', '12.345', 'The annual rent paid field must have at most 2 decimal places.'],
    ['life_assurance_premium', 'lots', 'The life assurance premium field must be a number.'],
    ['nin', '1234567890', 'The nin field must be 11 digits.'],
    ['nin', '1234567890A', 'The nin field must be 11 digits.'],
    ['tax_id', 'X'.repeat(21), 'The tax id field must not be greater than 20 characters.'],
    // docs/statutory-data.md, "tax_id": an 11-digit NIN or a legacy TIN (10 digits or NNNNNNNN-NNNN).
    ['tax_id', 'N-1234567-0001', 'The tax id field must be an 11-digit NIN or a TIN of 10 digits or NNNNNNNN-NNNN.'],
    ['tax_id', '123456789', 'The tax id field must be an 11-digit NIN or a TIN of 10 digits or NNNNNNNN-NNNN.'],
    ['tax_id', '123456789012', 'The tax id field must be an 11-digit NIN or a TIN of 10 digits or NNNNNNNN-NNNN.'],
    ['tax_id', '1234567-00001', 'The tax id field must be an 11-digit NIN or a TIN of 10 digits or NNNNNNNN-NNNN.'],
    ['tax_id', 'TIN1234567', 'The tax id field must be an 11-digit NIN or a TIN of 10 digits or NNNNNNNN-NNNN.'],
    ['state_of_residence', 'Lagos', 'The selected state of residence is invalid: use a state code of GET /api/states (e.g. LA, FC, KN).'],
    ['state_of_residence', 'XX', 'The selected state of residence is invalid: use a state code of GET /api/states (e.g. LA, FC, KN).'],
    ['rsa_pin', 'PEN12345', 'The rsa pin field must be PEN followed by 12 digits.'],
    ['rsa_pin', '100123456789', 'The rsa pin field must be PEN followed by 12 digits.'],
    ['pfa_code', 'NOPE', 'The selected pfa code is invalid: use a code of GET /api/pfas.'],
    ['nhf_number', 'NHF#1', 'The nhf number field must be at most 20 letters, digits, / or -.'],
    ['nhf_number', '1'.repeat(21), 'The nhf number field must be at most 20 letters, digits, / or -.'],
    ['nhf_opt_in', 'yes', 'The nhf opt in field must be true or false.'],
    ['gender', 'other', 'The selected gender is invalid: use male or female.'],
    ['is_expatriate', 'maybe', 'The is expatriate field must be true or false.'],
  ];

  it.each(cases)('U3 %s = %j', async (field, value, message) => {
    const res = await api().post('/api/users', newUserBody(acme, { [field]: value }));
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toEqual({ error: { [field]: [message] } });
  });

  it('tax_id: an 11-digit NIN or a legacy TIN is accepted (spaces dropped); a stored older value is kept until changed', async () => {
    for (const [sent, stored] of [
      ['12345678901', '12345678901'],
      ['1234567890', '1234567890'],
      ['12345678-0001', '12345678-0001'],
      [' 1234 5678 901 ', '12345678901'],
    ]) {
      const user = await createUserViaApi(ctx.app, acme, { tax_id: sent });
      expect((await show(user.id)).tax_id).toBe(stored);
    }
    // A value stored before the rule (docs/statutory-data.md) is not rewritten: other edits leave it.
    const old = await createUserViaApi(ctx.app, acme);
    await ctx.db.execute(sql`UPDATE users SET tax_id = 'N-1234567-0001' WHERE id = ${old.id}`);
    const res = await api().put(`/api/users/${old.id}`, { nin: '12345678901' });
    expect(res.statusCode, res.body).toBe(200);
    expect((await show(old.id)).tax_id).toBe('N-1234567-0001');
  });

  it('U4 reports every bad field at once and changes nothing', async () => {
    const user = await createUserViaApi(ctx.app, acme, { nin: '12345678901' });
    const body = Object.fromEntries(cases.map(([field, value]) => [field, value]));
    const res = await api().put(`/api/users/${user.id}`, body);
    expect(res.statusCode).toBe(422);
    const last = new Map(cases.map(([field, , message]) => [field, message]));
    expect(res.json()).toEqual({ error: Object.fromEntries([...last].map(([field, message]) => [field, [message]])) });
    expect(await show(user.id)).toMatchObject({ ...UNKNOWN, nin: '12345678901' });
  });

  it('null is no clear for booleans (they are never unknown)', async () => {
    const user = await createUserViaApi(ctx.app, acme, { nhf_opt_in: true });
    expect((await api().put(`/api/users/${user.id}`, { nhf_opt_in: null })).json().user.nhf_opt_in).toBe(true);
  });
});

describe('U12/U13 templates and U8/U9 CSV', () => {
  const COLUMNS = [
    'annual_rent_paid',
    'life_assurance_premium',
    'nin (11 digits)',
    'tax_id',
    'state_of_residence (code of GET /api/states)',
    'rsa_pin (PEN + 12 digits)',
    'pfa_code (code of GET /api/pfas)',
    'nhf_number',
    'nhf_opt_in (true/false)',
    'gender (male/female)',
    'is_expatriate (true/false)',
    'pension_exempt (true/false)',
    'pension_exempt_reason',
  ];

  it('the templates end with the statutory columns, after the existing ones', async () => {
    for (const [url, first] of [
      ['/api/users/import-template', 'first_name'],
      ['/api/users/update-template', 'email'],
    ]) {
      const header = (await api().get(url)).body.split('\r\n')[1].split(',');
      expect(header[0]).toBe(first);
      expect(header.indexOf('account_number')).toBeLessThan(header.indexOf('annual_rent_paid'));
      expect(header.slice(-COLUMNS.length)).toEqual(COLUMNS);
    }
  });

  it('U8 creates with them, U9 changes them, bad cells fail their row only', async () => {
    const tag = Date.now();
    const head = `first_name,last_name,personal_email,domain,user_types,start_date,${COLUMNS.join(',')}`;
    const row = (n: number, cells: string) => `Csv,Person${n},csv.${tag}.${n}@personal.test,${acme.domain},Full-time,2024-01-01,${cells}`;
    const csv = [
      head,
      row(1, '600000,,12345678901,1234567890,kn,PEN100000000001,leadway,NHF1,true,male,false,true,Retires in March'),
      row(2, ',,123,,ZZ,PEN1,NOPE,,perhaps,x,,,'),
      row(3, ',,,,,,,,,,,,'),
    ].join('\n');
    const res = await upload('/api/users/bulk-create', csv);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.successes.map((s: { row: number }) => s.row)).toEqual([2, 4]);
    expect(Object.keys(body.failures[0].errors).sort()).toEqual([
      'gender',
      'nhf_opt_in',
      'nin',
      'pfa_code',
      'rsa_pin',
      'state_of_residence',
    ]);
    const [first, blank] = body.successes;
    expect(await show(first.id)).toMatchObject({
      annual_rent_paid: '600000.00',
      nin: '12345678901',
      tax_id: '1234567890',
      state_of_residence: 'KN',
      rsa_pin: 'PEN100000000001',
      pfa_code: 'LEADWAY',
      nhf_number: 'NHF1',
      nhf_opt_in: true,
      gender: 'male',
      is_expatriate: false,
      pension_exempt: true,
      pension_exempt_reason: 'Retires in March',
    });
    expect(await show(blank.id)).toMatchObject(UNKNOWN);

    const update = [`email,${COLUMNS.join(',')}`, `${first.email},,250000,,,OY,,,,false,,true,,`, `${blank.email},,,,,,PEN12,,,,,,,`].join(
      '\n',
    );
    const updated = await upload('/api/users/bulk-update', update);
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json().failures).toEqual([{ row: 3, errors: { rsa_pin: ['The rsa pin field must be PEN followed by 12 digits.'] } }]);
    // Blank cells leave a field as it was.
    expect(await show(first.id)).toMatchObject({
      annual_rent_paid: '600000.00',
      life_assurance_premium: '250000.00',
      nin: '12345678901',
      state_of_residence: 'OY',
      pfa_code: 'LEADWAY',
      nhf_opt_in: false,
      gender: 'male',
      is_expatriate: true,
      pension_exempt: true,
      pension_exempt_reason: 'Retires in March',
    });
  });

  it('a dry run validates the columns and writes nothing', async () => {
    const user = await createUserViaApi(ctx.app, acme, { state_of_residence: 'LA' });
    const res = await upload('/api/users/bulk-update?dry_run=true', `email,state_of_residence\n${user.email},EN\n`);
    expect(res.json().status, res.body).toBe('success');
    expect((await show(user.id)).state_of_residence).toBe('LA');
  });
});
