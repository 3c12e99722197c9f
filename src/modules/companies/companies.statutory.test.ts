// A company's sector and registrations: C2 → C3/C1, C4 (set, clear, tax_ids replaced), PATCH
// /admin/companies/{id} for a root company, and every format refused with each family's shape.
import { companyBody, createChildViaApi } from '../../../test/helpers/companies.js';
import { describe, expect, test as shared } from '../../../test/helpers/fixtures.js';
import { as } from '../../../test/helpers/http.js';

const ADMIN_TOKEN = 'test-admin-token-statutory-0123456789';

// The fixture company is the parent of the children made here, and the root company the operator patches.
const test = shared
  .extend('appConfig', { scope: 'file' }, { adminToken: ADMIN_TOKEN })
  .extend('operator', { scope: 'file' }, async ({ ctx }) => as(ctx.app, { auth: { authorization: `Bearer ${ADMIN_TOKEN}` } }));

const DEFAULTS = {
  sector: 'private',
  rc_number: null,
  pencom_employer_code: null,
  nhf_employer_number: null,
  nsitf_number: null,
  itf_number: null,
  tax_ids: {},
};
const FULL = {
  sector: 'Public',
  rc_number: 'rc 1234567',
  pencom_employer_code: 'pr0000012345',
  nhf_employer_number: 'NHF/EMP/001',
  nsitf_number: 'NSITF-77',
  itf_number: 'ITF 8899',
  tax_ids: { la: 'lirs-123', FC: 'FCT/9', KN: null },
};
const STORED = {
  sector: 'public',
  rc_number: 'RC1234567',
  pencom_employer_code: 'PR0000012345',
  nhf_employer_number: 'NHF/EMP/001',
  nsitf_number: 'NSITF-77',
  itf_number: 'ITF 8899',
  tax_ids: { FC: 'FCT/9', LA: 'LIRS-123' },
};

describe('C2 → C3 and C1', () => {
  test('a child starts private with no registrations', async ({ ctx, company }) => {
    const child = await createChildViaApi(ctx.app, company);
    expect(child).toMatchObject(DEFAULTS);
  });

  test('stores every field normalised and shows it on C3 and C1', async ({ ctx, company, api }) => {
    const child = await createChildViaApi(ctx.app, company, FULL);
    expect(child).toMatchObject(STORED);
    expect((await api.get(`/api/companies/${child.id}`)).json()).toMatchObject(STORED);
    const listed = (await api.get('/api/companies?per_page=100')).json().data;
    expect(listed.find((c: { id: number }) => c.id === child.id)).toMatchObject(STORED);
  });
});

describe('C4', () => {
  test('sets, changes, clears (null or ""), and replaces tax_ids as a whole', async ({ ctx, company, api }) => {
    const child = await createChildViaApi(ctx.app, company);
    const set = await api.put(`/api/companies/${child.id}`, FULL);
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().company).toMatchObject(STORED);
    const changed = await api.put(`/api/companies/${child.id}`, { tax_ids: { OG: '55' }, rc_number: null, itf_number: '' });
    expect(changed.json().company).toMatchObject({ ...STORED, tax_ids: { OG: '55' }, rc_number: null, itf_number: null });
    const emptied = await api.put(`/api/companies/${child.id}`, { tax_ids: null, sector: 'private' });
    expect(emptied.json().company).toMatchObject({ sector: 'private', tax_ids: {}, nsitf_number: 'NSITF-77' });
  });

  test('refuses every bad format at once in the companies shape, and writes nothing', async ({ ctx, company, api }) => {
    const child = await createChildViaApi(ctx.app, company, { nsitf_number: 'KEEP' });
    const res = await api.put(`/api/companies/${child.id}`, {
      sector: 'government',
      rc_number: 'RC-12',
      pencom_employer_code: 'PR#1',
      nhf_employer_number: 'X'.repeat(31),
      itf_number: '@@',
      tax_ids: { ZZ: '1', LA: '' },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      error: 'Validation failed.',
      messages: {
        sector: ['The selected sector is invalid: use private or public.'],
        rc_number: ['The rc number field must be a CAC number: RC, BN or IT and up to 8 digits (e.g. RC123456).'],
        pencom_employer_code: ['The pencom employer code field must be at most 30 letters, digits, spaces, / or -.'],
        nhf_employer_number: ['The nhf employer number field must be at most 30 letters, digits, spaces, / or -.'],
        itf_number: ['The itf number field must be at most 30 letters, digits, spaces, / or -.'],
        'tax_ids.ZZ': ['ZZ is not a state code of GET /api/states.'],
        'tax_ids.LA': ['The payer ID for LA must be at most 30 letters, digits, spaces, / or -.'],
      },
    });
    expect((await api.get(`/api/companies/${child.id}`)).json()).toMatchObject({ ...DEFAULTS, nsitf_number: 'KEEP' });
    const notObject = await api.put(`/api/companies/${child.id}`, { tax_ids: ['LA'] });
    expect(notObject.json().messages).toEqual({
      tax_ids: ['The tax ids field must be an object of state code to payer ID (e.g. {"LA": "1234567"}).'],
    });
  });

  test('C2 refuses a bad one with the other problems, creating nothing', async ({ api }) => {
    const body = companyBody({ sector: 'ngo', tax_ids: { XX: 'A' } });
    const res = await api.post('/api/companies', body);
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().messages).sort()).toEqual(['sector', 'tax_ids.XX']);
    const listed = (await api.get('/api/companies?per_page=100')).json().data;
    expect(listed.some((c: { name: string }) => c.name === body.name)).toBe(false);
  });
});

describe('PATCH /admin/companies/{id}', () => {
  test('sets a root company’s sector and registrations, with the vocabulary changes in one transaction', async ({ company, operator }) => {
    const res = await operator.patch(`/admin/companies/${company.id}`, { ...FULL, plan: 'premium' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().company).toMatchObject({ ...STORED, plan: 'premium' });
    const bad = await operator.patch(`/admin/companies/${company.id}`, { plan: 'enterprise', rc_number: 'nope' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toEqual({ error: 'The rc number field must be a CAC number: RC, BN or IT and up to 8 digits (e.g. RC123456).' });
    const cleared = await operator.patch(`/admin/companies/${company.id}`, { rc_number: null, tax_ids: {} });
    expect(cleared.json().company).toMatchObject({ ...STORED, plan: 'premium', rc_number: null, tax_ids: {} });
  });

  test('refuses unknown fields still', async ({ company, operator }) => {
    const res = await operator.patch(`/admin/companies/${company.id}`, { nin: '1' });
    expect(res.statusCode).toBe(422);
  });
});
