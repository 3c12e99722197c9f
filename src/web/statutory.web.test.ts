// Console: an employee's statutory details and the company's registrations, shown and edited over
// HTTP (inject), round-tripping through the API (U2, C-side through the operator's view of Settings).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/helpers/app.js';
import { createCompany, type TestCompany } from '../../test/helpers/factories.js';
import { as } from '../../test/helpers/http.js';
import { createUserViaApi } from '../../test/helpers/users.js';
import { createAdmin, signIn, type WebClient } from '../../test/helpers/web.js';
import { parseTaxIdLines } from './statutory.routes.js';

let ctx: TestContext;
let acme: TestCompany;
let other: TestCompany;
let web: WebClient;

beforeAll(async () => {
  ctx = await createTestApp();
  acme = await createCompany(ctx.db, { name: 'Console Statutory' });
  other = await createCompany(ctx.db, { name: 'Elsewhere' });
  const admin = await createAdmin(ctx.db, acme.id, { personalEmail: 'stat.admin@personal.test' });
  web = await signIn(ctx.app, admin.email);
}, 180_000);
afterAll(() => ctx?.close());

const EMPTY = {
  state_of_residence: '',
  pfa_code: '',
  gender: '',
  nin: '',
  tax_id: '',
  rsa_pin: '',
  nhf_number: '',
  annual_rent_paid: '',
  life_assurance_premium: '',
  nhf_opt_in: 'false',
  is_expatriate: 'false',
  pension_exempt: 'false',
  pension_exempt_reason: '',
};

describe('employee statutory details', () => {
  it('the employees list links to the page, which shows what U3 stored', async () => {
    const user = await createUserViaApi(ctx.app, acme, { nin: '12345678901', state_of_residence: 'LA', pfa_code: 'OAK', nhf_opt_in: true });
    const list = await web.get('/console/employees');
    expect(list.body).toContain(`href="/console/employees/${user.id}/statutory"`);
    const res = await web.get(`/console/employees/${user.id}/statutory`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('value="12345678901"');
    expect(res.body).toContain('<option value="LA" selected>Lagos (LA)</option>');
    expect(res.body).toContain('<option value="OAK" selected>');
    expect(res.body).toMatch(/id="nhf_opt_in-yes" name="nhf_opt_in" value="true" checked/);
  });

  it('saves every field, and an emptied box makes it unknown; U2 shows the result', async () => {
    const user = await createUserViaApi(ctx.app, acme, { tax_id: '1234567890' });
    const saved = await web.post(`/console/employees/${user.id}/statutory`, {
      ...EMPTY,
      state_of_residence: 'FC',
      pfa_code: 'LEADWAY',
      gender: 'female',
      nin: '10987654321',
      rsa_pin: 'PEN100000000009',
      nhf_number: 'N-77',
      annual_rent_paid: '2400000',
      life_assurance_premium: '120000.50',
      nhf_opt_in: 'true',
      is_expatriate: 'true',
    });
    expect(saved.statusCode, saved.body.slice(0, 500)).toBe(303);
    expect(saved.headers.location).toBe(`/console/employees/${user.id}/statutory?done=1`);
    expect((await web.get(saved.headers.location as string)).body).toContain('Statutory details saved.');
    const shown = (await as(ctx.app, acme).get(`/api/users/${user.id}`)).json();
    expect(shown).toMatchObject({
      state_of_residence: 'FC',
      pfa_code: 'LEADWAY',
      gender: 'female',
      nin: '10987654321',
      tax_id: null,
      rsa_pin: 'PEN100000000009',
      nhf_number: 'N-77',
      annual_rent_paid: '2400000.00',
      life_assurance_premium: '120000.50',
      nhf_opt_in: true,
      is_expatriate: true,
    });
    await web.post(`/console/employees/${user.id}/statutory`, EMPTY);
    expect((await as(ctx.app, acme).get(`/api/users/${user.id}`)).json()).toMatchObject({
      nin: null,
      pfa_code: null,
      gender: null,
      nhf_opt_in: false,
    });
  });

  it('sets a pension exemption with its reason (required when exempt), and ends it', async () => {
    const user = await createUserViaApi(ctx.app, acme);
    const refused = await web.post(`/console/employees/${user.id}/statutory`, { ...EMPTY, pension_exempt: 'true' });
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain('The pension exempt reason field is required when pension exempt is true.');
    const reason = 'Less than 3 months to retirement';
    const saved = await web.post(`/console/employees/${user.id}/statutory`, {
      ...EMPTY,
      pension_exempt: 'true',
      pension_exempt_reason: reason,
    });
    expect(saved.statusCode, saved.body.slice(0, 500)).toBe(303);
    expect((await as(ctx.app, acme).get(`/api/users/${user.id}`)).json()).toMatchObject({
      pension_exempt: true,
      pension_exempt_reason: reason,
    });
    const page = await web.get(`/console/employees/${user.id}/statutory`);
    expect(page.body).toMatch(/id="pension_exempt-yes" name="pension_exempt" value="true" checked/);
    expect(page.body).toContain(`value="${reason}"`);
    // The form sends the reason back with "No": the exemption ends and its reason goes with it.
    await web.post(`/console/employees/${user.id}/statutory`, { ...EMPTY, pension_exempt: 'false', pension_exempt_reason: reason });
    expect((await as(ctx.app, acme).get(`/api/users/${user.id}`)).json()).toMatchObject({
      pension_exempt: false,
      pension_exempt_reason: null,
    });
  });

  it('shows the API’s messages for bad values, keeps what was typed, writes nothing', async () => {
    const user = await createUserViaApi(ctx.app, acme, { nin: '12345678901' });
    const res = await web.post(`/console/employees/${user.id}/statutory`, { ...EMPTY, nin: '123', rsa_pin: 'PEN1' });
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('The nin field must be 11 digits.');
    expect(res.body).toContain('The rsa pin field must be PEN followed by 12 digits.');
    expect(res.body).toContain('value="123"');
    expect((await as(ctx.app, acme).get(`/api/users/${user.id}`)).json().nin).toBe('12345678901');
  });

  it('another company’s employee is not found, and untouched', async () => {
    const stranger = await createUserViaApi(ctx.app, other, { nin: '55555555555' });
    expect((await web.get(`/console/employees/${stranger.id}/statutory`)).statusCode).toBe(404);
    expect((await web.post(`/console/employees/${stranger.id}/statutory`, { ...EMPTY, nin: '11111111111' })).statusCode).toBe(404);
    expect((await web.get('/console/employees/abc/statutory')).statusCode).toBe(404);
    expect((await as(ctx.app, other).get(`/api/users/${stranger.id}`)).json().nin).toBe('55555555555');
  });
});

describe('company registrations on Settings', () => {
  const FORM = {
    sector: 'public',
    rc_number: 'RC 765432',
    pencom_employer_code: 'PR0000099',
    nhf_employer_number: 'NHF-E-1',
    nsitf_number: 'NS/12',
    itf_number: 'ITF9',
    tax_ids: 'LA: 1234567\r\nfc = FCT-88\r\n',
  };

  it('saves, shows them on Settings and on C-side reads, and clears an emptied box', async () => {
    const saved = await web.post('/console/settings/statutory', FORM);
    expect(saved.statusCode, saved.body.slice(0, 500)).toBe(303);
    const page = (await web.get('/console/settings?done=statutory')).body;
    expect(page).toContain('Statutory registrations saved.');
    expect(page).toContain('value="RC765432"');
    expect(page).toContain('<option value="public" selected>Public</option>');
    expect(page).toContain('FC: FCT-88\nLA: 1234567');
    await web.post('/console/settings/statutory', { ...FORM, rc_number: '', tax_ids: 'LA: 1234567' });
    const again = (await web.get('/console/settings')).body;
    expect(again).not.toContain('RC765432');
    expect(again).not.toContain('FCT-88');
  });

  it('refuses a bad value with its message, keeping the typed values', async () => {
    const res = await web.post('/console/settings/statutory', { ...FORM, sector: 'ngo', tax_ids: 'ZZ: 1' });
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('The selected sector is invalid: use private or public.');
    expect(res.body).toContain('ZZ is not a state code of GET /api/states.');
    expect(res.body).toContain('ZZ: 1');
  });

  it('reads tax ID lines in the forms people type', () => {
    expect(parseTaxIdLines('LA: 1\nKN=2\n  OY 3  \n\nXX')).toEqual({ LA: '1', KN: '2', OY: '3', XX: '' });
  });
});
