// GET /api/states and GET /api/pfas: the lists, their source and date, any valid token.
import { createCompany } from '../../../test/helpers/factories.js';
import { describe, expect, test as shared } from '../../../test/helpers/fixtures.js';
import { anonymous, as } from '../../../test/helpers/http.js';

// A token with exactly the two scopes these lists need. (An extension of the shared `test`, not
// test.override: files share their worker's modules, and an override would reach later files.)
const test = shared.extend('company', { scope: 'file' }, async ({ ctx }) =>
  createCompany(ctx.db, { scopes: ['states.index', 'pfas.index'] }),
);

describe('GET /api/states', () => {
  test('lists the 36 states and the FCT with their tax authorities, source and date', async ({ api }) => {
    const res = await api.get('/api/states');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.data).toHaveLength(37);
    expect(new Set(body.data.map((s: { code: string }) => s.code)).size).toBe(37);
    for (const state of body.data) expect(state.code).toMatch(/^[A-Z]{2}$/);
    expect(body.data).toContainEqual({ code: 'LA', name: 'Lagos', tax_authority: 'Lagos State Internal Revenue Service' });
    expect(body.data).toContainEqual({ code: 'FC', name: 'Federal Capital Territory', tax_authority: 'FCT Internal Revenue Service' });
    expect(body.data).toContainEqual({ code: 'KN', name: 'Kano', tax_authority: 'Kano State Internal Revenue Service' });
    expect(body.as_of).toMatch(/^\d{4}-\d\d-\d\d$/);
    expect(body.source).toContain('ISO 3166-2:NG');
  });
});

describe('GET /api/pfas', () => {
  test('lists the licensed PFAs with unique upper-case codes, source and date', async ({ api }) => {
    const body = (await api.get('/api/pfas')).json();
    expect(body.data.length).toBeGreaterThanOrEqual(15);
    const codes = body.data.map((p: { code: string }) => p.code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const code of codes) expect(code).toMatch(/^[A-Z0-9]{2,20}$/);
    expect(body.data).toContainEqual({ code: 'STANBICIBTC', name: 'Stanbic IBTC Pension Managers Limited' });
    expect(body.source).toContain('PenCom');
    expect(body.as_of).toMatch(/^\d{4}-\d\d-\d\d$/);
  });

  test('needs a token', async ({ ctx }) => {
    for (const url of ['/api/pfas', '/api/states']) {
      const res = await as(ctx.app, anonymous).get(url);
      expect(res.statusCode).toBe(401);
    }
  });
});
