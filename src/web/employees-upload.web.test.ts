// Console: bulk upload of employees (docs/console.md, "People"): the users bulk service behind a
// multipart form, its row report with the columns named by their labels, dry run, the CSRF field
// checked before anything is read, the template, an empty or missing file.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/helpers/app.js';
import { createCompany, type TestCompany } from '../../test/helpers/factories.js';
import { anonymous, as } from '../../test/helpers/http.js';
import { multipart } from '../../test/helpers/users.js';
import { createAdmin, signIn, type WebClient } from '../../test/helpers/web.js';

let ctx: TestContext;
let acme: TestCompany;
let web: WebClient;

beforeAll(async () => {
  ctx = await createTestApp();
  acme = await createCompany(ctx.db, { name: 'Console Upload' });
  const admin = await createAdmin(ctx.db, acme.id, { roles: ['super-admin'], personalEmail: 'upload.admin@personal.test' });
  web = await signIn(ctx.app, admin.email);
}, 180_000);
afterAll(() => ctx?.close());

const csv = (rows: string[]) =>
  ['first_name,last_name,personal_email,domain,user_types,base_salary,start_date,rsa_pin', ...rows].join('\r\n');

function upload(fields: Record<string, string>, data?: string) {
  const body = multipart(
    { _csrf: web.csrf, ...fields },
    data === undefined ? [] : [{ field: 'users_csv', filename: 'staff.csv', contentType: 'text/csv', data }],
  );
  return as(ctx.app, anonymous).post('/console/employees/upload', body.payload, { headers: { cookie: web.cookie, ...body.headers } });
}

describe('Upload employees', () => {
  it('the page offers the form and both templates; the template downloads as CSV', async () => {
    const page = await web.get('/console/employees/upload');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('enctype="multipart/form-data"');
    const template = await web.get('/console/employees/upload/template.csv?kind=update');
    expect(template.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(template.body.split('\r\n')[1]).toMatch(/^email,first_name,/);
    expect((await web.get('/console/employees')).body).toContain('href="/console/employees/upload"');
  });

  it('a partial file: the good rows are created, the bad ones listed by line with labelled messages', async () => {
    const file = csv([
      `Kemi,Ade,kemi.ade@personal.test,${acme.domain},Full-time,200000,2026-01-05,`,
      `Tunde,Bello,tunde.bello@personal.test,${acme.domain},Full-time,200000,2026-01-05,PEN12`,
      `,Nameless,nameless@personal.test,${acme.domain},Full-time,1,2026-01-05,`,
    ]);
    const dry = await upload({ kind: 'create', dry_run: 'true' }, file);
    expect(dry.statusCode).toBe(200);
    expect(dry.body).toContain('1 of 3 rows succeeded.');
    expect(dry.body).toContain('Dry run: some rows are invalid. Nothing was saved.');
    expect(dry.body).toContain('1 row is valid');
    const before = (await as(ctx.app, acme).get('/api/users')).json().totalResults;
    expect(before).toBe(1);

    const res = await upload({ kind: 'create' }, file);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Some users were created; see failures.');
    expect(res.body).toContain('2 rows were refused');
    expect(res.body).toContain('1 row succeeded');
    expect(res.body).toContain('<td>3</td><td><ul><li>RSA PIN: The RSA PIN field must be PEN followed by 12 digits.</li></ul>');
    expect(res.body).toContain('<li>First name: The First name field is required.</li>');
    expect(res.body).not.toContain('rsa_pin');
    const list = (await as(ctx.app, acme).get('/api/users')).json();
    expect(list.totalResults).toBe(2);
    const kemi = list.Resources.find((u: { personal_email: string }) => u.personal_email === 'kemi.ade@personal.test');
    expect(res.body).toContain(`href="/console/employees/${kemi.id}/edit"`);
  });

  it('refuses a missing or empty file and a forged form (nothing written)', async () => {
    expect((await upload({ kind: 'create' })).statusCode).toBe(422);
    expect((await upload({ kind: 'create' }, '')).statusCode).toBe(422);
    const forged = multipart({ _csrf: 'forged', kind: 'create' }, [
      { field: 'users_csv', filename: 'x.csv', data: csv([`Zed,Forged,zed@personal.test,${acme.domain},Full-time,1,2026-01-05,`]) },
    ]);
    const res = await as(ctx.app, anonymous).post('/console/employees/upload', forged.payload, {
      headers: { cookie: web.cookie, ...forged.headers },
    });
    expect(res.statusCode).toBe(403);
    const emails = (await as(ctx.app, acme).get('/api/users')).json().Resources.map((u: { personal_email: string }) => u.personal_email);
    expect(emails).not.toContain('zed@personal.test');
  });
});
