import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../../test/helpers/app.js';
import { createCompany, createUsers, type TestCompany } from '../../../../test/helpers/factories.js';
import { users } from '../../../db/schema/index.js';
import { createOnboardingService, type OnboardingService } from './users.onboarding.service.js';
import { hashPassword, validatePassword, verifyPassword } from './users.passwords.rules.js';

let ctx: TestContext;
let acme: TestCompany;
let service: OnboardingService;
const GOOD = 'Correct-Horse-42';

beforeAll(async () => {
  ctx = await createTestApp();
  acme = await createCompany(ctx.db);
  service = createOnboardingService({ db: ctx.db });
});
afterAll(() => ctx.close());

async function invitedUser(token: string, expiresInMs = 7 * 86_400_000) {
  const [user] = await createUsers(ctx.db, acme.id, [{ isActive: false }]);
  await ctx.db
    .update(users)
    .set({ onboardingToken: token, tokenExpiresAt: new Date(Date.now() + expiresInMs), onboardingCompleted: false })
    .where(eq(users.id, user.id));
  return user;
}

describe('password rules (docs/users.md, "The users rules")', () => {
  it('accepts a 12+ character password with an upper-case letter and a symbol', () => {
    expect(validatePassword(GOOD, GOOD)).toBeUndefined();
  });

  it('reports every broken rule with Laravel-like messages', () => {
    expect(validatePassword(undefined, undefined)).toEqual({ password: ['The password field is required.'] });
    expect(validatePassword('', '')).toEqual({ password: ['The password field is required.'] });
    expect(validatePassword(123456789012, 123456789012)).toEqual({ password: ['The password field must be a string.'] });
    expect(validatePassword('short', 'other')).toEqual({
      password: [
        'The password field must be at least 12 characters.',
        'The password field must contain at least one uppercase letter.',
        'The password field must contain at least one symbol.',
        'The password field confirmation does not match.',
      ],
    });
    expect(validatePassword('alllowercase-123', 'alllowercase-123')).toEqual({
      password: ['The password field must contain at least one uppercase letter.'],
    });
    expect(validatePassword('NoSymbolsHere123', 'NoSymbolsHere123')).toEqual({
      password: ['The password field must contain at least one symbol.'],
    });
    expect(validatePassword(GOOD, undefined)).toEqual({ password: ['The password field confirmation does not match.'] });
  });

  it('hashes with argon2id and verifies', async () => {
    const hash = await hashPassword(GOOD);
    expect(hash.startsWith('$argon2id$')).toBe(true);
    expect(await verifyPassword(hash, GOOD)).toBe(true);
    expect(await verifyPassword(hash, 'wrong')).toBe(false);
    expect(await verifyPassword('garbage', GOOD)).toBe(false);
    expect(await verifyPassword(null, GOOD)).toBe(false);
  });
});

describe('onboarding service', () => {
  it('finds an open link, completes it once, then no longer matches', async () => {
    const token = `open${'x'.repeat(40)}`;
    const user = await invitedUser(token);
    expect(await service.find(token)).toEqual({
      userId: user.id,
      companyId: acme.id,
      firstName: user.firstName,
      email: user.email,
      state: 'open',
    });
    expect(await service.complete(token, GOOD, GOOD)).toEqual({ userId: user.id });
    const [row] = await ctx.db.select().from(users).where(eq(users.id, user.id));
    expect(row.isActive).toBe(true);
    expect(row.onboardingCompleted).toBe(true);
    expect(row.emailVerifiedAt).toBeInstanceOf(Date);
    expect(row.onboardingToken).toBeNull();
    expect(row.tokenExpiresAt).toBeNull();
    expect(await verifyPassword(row.passwordHash, GOOD)).toBe(true);
    // Completed: the link is gone.
    expect(await service.find(token)).toBeUndefined();
    await expect(service.complete(token, GOOD, GOOD)).rejects.toMatchObject({ code: 'not_found', message: 'Onboarding link not found.' });
  });

  it('does not match a completed user whose token is still stored', async () => {
    const token = `done${'x'.repeat(40)}`;
    const user = await invitedUser(token);
    await ctx.db.update(users).set({ onboardingCompleted: true }).where(eq(users.id, user.id));
    expect(await service.find(token)).toBeUndefined();
    await expect(service.complete(token, GOOD, GOOD)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('does not match a deleted user', async () => {
    const token = `gone${'x'.repeat(40)}`;
    const user = await invitedUser(token);
    await ctx.db.update(users).set({ deletedAt: new Date() }).where(eq(users.id, user.id));
    expect(await service.find(token)).toBeUndefined();
    await expect(service.complete(token, GOOD, GOOD)).rejects.toMatchObject({ code: 'not_found', message: 'Onboarding link not found.' });
  });

  it('reports an expired link and refuses to complete it', async () => {
    const token = `late${'x'.repeat(40)}`;
    const user = await invitedUser(token, -1000);
    expect((await service.find(token))?.state).toBe('expired');
    await expect(service.complete(token, GOOD, GOOD)).rejects.toMatchObject({
      code: 'bad_request',
      message: 'This onboarding link has expired.',
    });
    const [row] = await ctx.db.select().from(users).where(eq(users.id, user.id));
    expect(row.isActive).toBe(false);
    expect(row.passwordHash).toBeNull();
  });

  it('validates the password before anything else and writes nothing', async () => {
    const token = `weak${'x'.repeat(40)}`;
    const user = await invitedUser(token);
    await expect(service.complete(token, 'weak', 'weak')).rejects.toMatchObject({
      code: 'validation',
      fields: { password: expect.arrayContaining(['The password field must be at least 12 characters.']) },
    });
    const [row] = await ctx.db.select().from(users).where(eq(users.id, user.id));
    expect(row.onboardingToken).toBe(token);
    expect(row.isActive).toBe(false);
  });

  it('lets exactly one of two concurrent completions win', async () => {
    const token = `race${'x'.repeat(40)}`;
    await invitedUser(token);
    const results = await Promise.allSettled([service.complete(token, GOOD, GOOD), service.complete(token, GOOD, GOOD)]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
  });

  it('answers undefined for an unknown or empty token', async () => {
    expect(await service.find('nope')).toBeUndefined();
    expect(await service.find('')).toBeUndefined();
  });
});
