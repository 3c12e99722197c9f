import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompanyVocabularyService } from '../../src/modules/companies/index.js';
import { AuthCache } from '../../src/platform/auth/authenticate.js';
import { DomainError } from '../../src/platform/errors.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { createCompany, createUsers } from '../helpers/factories.js';

let testDb: TestDatabase;
let vocab: ReturnType<typeof createCompanyVocabularyService>;
const cache = new AuthCache();

async function rejection(promise: Promise<unknown>): Promise<DomainError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('expected a DomainError');
}

beforeAll(async () => {
  testDb = await createTestDatabase();
  vocab = createCompanyVocabularyService({ db: testDb.database.db, authCache: cache });
});
afterAll(() => testDb.close());

describe('company vocabulary', () => {
  it('profiles a company with its defaults', async () => {
    const company = await createCompany(testDb.database.db, { redirectDomains: ['Pay.Example.com'] });
    const profile = await vocab.profile(company.id);
    expect(profile.company.id).toBe(company.id);
    expect(profile.domains).toEqual([company.domain]);
    expect(profile.userTypes).toEqual(['Full-time', 'Part-time', 'Contract', 'Intern']);
    expect(profile.roles).toEqual(['super-admin', 'admin', 'finance', 'manager', 'user']);
    expect(profile.redirectDomains).toEqual(['pay.example.com']);
    expect((await rejection(vocab.profile(999_999))).code).toBe('not_found');
  });

  it("adds and removes domains, lower-cased and validated, never another company's", async () => {
    const a = await createCompany(testDb.database.db);
    const b = await createCompany(testDb.database.db);
    expect(await vocab.addDomains(a.id, [' Mail.Acme-Group.NG. ', 'mail.acme-group.ng'])).toEqual(['mail.acme-group.ng']);
    expect((await vocab.profile(a.id)).domains).toEqual([a.domain, 'mail.acme-group.ng']);
    const bad = await rejection(vocab.addDomains(a.id, ['no_underscores.ng', 'localhost', '-x.ng', '1.2.3.4']));
    expect(bad.code).toBe('validation');
    expect(bad.fields?.domains).toHaveLength(4);
    expect((await rejection(vocab.addDomains(b.id, ['mail.acme-group.ng']))).code).toBe('conflict');
    expect((await rejection(vocab.addDomains(b.id, [a.domain]))).message).toBe(
      `The domain ${a.domain} is already used by another company.`,
    );
    expect((await rejection(vocab.removeDomain(a.id, a.domain))).code).toBe('conflict');
    expect((await rejection(vocab.removeDomain(a.id, 'nope.ng'))).code).toBe('not_found');
    await vocab.removeDomain(a.id, 'MAIL.acme-group.ng');
    expect((await vocab.profile(a.id)).domains).toEqual([a.domain]);
  });

  it('refuses to remove a domain, user type or role in use, and allows it once unused', async () => {
    const a = await createCompany(testDb.database.db);
    await vocab.addDomains(a.id, ['second.test']);
    await createUsers(testDb.database.db, a.id, [{ userType: 'Contract', roles: ['finance'] }]);
    const type = await rejection(vocab.removeUserType(a.id, 'Contract'));
    expect(type.code).toBe('conflict');
    expect(type.message).toBe('The user type Contract is assigned to users of this company and cannot be removed.');
    expect((await rejection(vocab.removeRole(a.id, 'finance'))).message).toBe(
      'The role finance is held by users of this company and cannot be removed.',
    );
    await vocab.removeUserType(a.id, 'Intern');
    await vocab.removeRole(a.id, 'manager');
    await vocab.removeDomain(a.id, 'second.test');
    const profile = await vocab.profile(a.id);
    expect(profile.userTypes).not.toContain('Intern');
    expect(profile.roles).not.toContain('manager');
    expect((await rejection(vocab.removeRole(a.id, 'manager'))).code).toBe('not_found');
    expect((await rejection(vocab.removeUserType(a.id, 'Intern'))).code).toBe('not_found');
  });

  it('adds user types and roles, rejecting blank names', async () => {
    const a = await createCompany(testDb.database.db);
    expect(await vocab.addUserTypes(a.id, [' Consultant ', 'Consultant'])).toEqual(['Consultant']);
    expect(await vocab.addRoles(a.id, ['auditor', 'user'])).toEqual(['auditor', 'user']);
    const profile = await vocab.profile(a.id);
    expect(profile.userTypes.filter((t) => t === 'Consultant')).toHaveLength(1);
    expect(profile.roles.filter((r) => r === 'user')).toHaveLength(1);
    expect(profile.roles).toContain('auditor');
    expect((await rejection(vocab.addRoles(a.id, ['  ']))).fields?.roles).toHaveLength(1);
    expect((await rejection(vocab.addUserTypes(a.id, ['x'.repeat(101)]))).code).toBe('validation');
  });

  it('manages redirect domains (add, remove, replace)', async () => {
    const a = await createCompany(testDb.database.db);
    await vocab.addRedirectDomains(a.id, ['LOCALHOST', 'shop.example.com', '127.0.0.1']);
    expect((await vocab.profile(a.id)).redirectDomains).toEqual(['localhost', 'shop.example.com', '127.0.0.1']);
    expect((await rejection(vocab.addRedirectDomains(a.id, ['300.1.1.1']))).code).toBe('validation');
    await vocab.removeRedirectDomain(a.id, 'localhost');
    expect((await rejection(vocab.removeRedirectDomain(a.id, 'localhost'))).code).toBe('not_found');
    expect(await vocab.setRedirectDomains(a.id, ['a.example.com', 'b.example.com'])).toEqual(['a.example.com', 'b.example.com']);
    expect((await vocab.profile(a.id)).redirectDomains).toEqual(['a.example.com', 'b.example.com']);
    expect((await rejection(vocab.setRedirectDomains(a.id, ['https://x.com/path']))).code).toBe('validation');
    expect((await vocab.profile(a.id)).redirectDomains).toEqual(['a.example.com', 'b.example.com']);
    await vocab.setRedirectDomains(a.id, []);
    expect((await vocab.profile(a.id)).redirectDomains).toEqual([]);
  });

  it('sets plan and API access and clears the auth cache', async () => {
    const a = await createCompany(testDb.database.db);
    cache.set('x', undefined);
    await vocab.setPlan(a.id, 'premium');
    expect(cache.get('x')).toBeNull();
    expect((await vocab.profile(a.id)).company.plan).toBe('premium');
    cache.set('x', undefined);
    await vocab.setApiAccess(a.id, false);
    expect(cache.get('x')).toBeNull();
    expect((await vocab.profile(a.id)).company.apiAccess).toBe(false);
    expect((await rejection(vocab.setPlan(a.id, 'gold' as 'premium'))).code).toBe('validation');
    expect((await rejection(vocab.setPlan(999_999, 'premium'))).code).toBe('not_found');
    expect((await rejection(vocab.setApiAccess(999_999, true))).code).toBe('not_found');
  });
});
