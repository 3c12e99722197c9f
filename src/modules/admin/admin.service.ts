// Operator use cases (docs/decisions.md, "Operator API and CLI"): create root companies, change
// their plan, access and vocabulary, issue and revoke their API token, read the e-mail outbox. Used
// by the /admin routes and, without HTTP, by the `payroll` CLI on the configured database.

import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { type FieldChange, recordAudit } from '../../platform/audit/index.js';
import type { AuthCache } from '../../platform/auth/authenticate.js';
import { createTokenService, issueToken, normaliseScopes } from '../../platform/auth/tokens.js';
import { uniqueViolation } from '../../platform/db-errors.js';
import { addFieldError, conflict, type FieldErrors, invalid, notFound } from '../../platform/errors.js';
import { isoTimestamp } from '../../platform/format.js';
import {
  type CompanyVocabularyService,
  isValidDomain,
  isValidRedirectHost,
  normalizeHost,
  normalizeHosts,
  normalizeNames,
  PLANS,
  type Plan,
  readCompanyStatutory,
  readRunApproval,
  setupCompany,
  writeCompanyStatutory,
  writeRunApproval,
} from '../companies/index.js';
import { adminRepo } from './admin.repo.js';
import { serializeAdminCompany } from './admin.serializer.js';

export const PAYMENT_FREQUENCIES = ['weekly', 'bi-weekly', 'monthly'] as const;

export interface CreateCompanyInput {
  name: string;
  domain: string;
  plan?: string;
  payment_frequency?: string;
  run_approval?: string;
  user_types?: string[];
  roles?: string[];
  redirect_domains?: string[];
  scopes?: string[];
}

export interface UpdateCompanyInput {
  /** Sector and registrations (companies.statutory.service.ts): read by readCompanyStatutory. */
  [statutory: string]: unknown;
  plan?: string;
  api_access?: boolean;
  add_domains?: string[];
  add_user_types?: string[];
  add_roles?: string[];
  redirect_domains?: string[];
  run_approval?: string;
}

export interface OutboxQuery {
  to?: string;
  limit?: number;
}

/** Checks scopes one by one so the operator sees every bad one; default `["all"]`. */
function validateScopes(scopes: readonly string[] | undefined, errors: FieldErrors): string[] {
  if (scopes === undefined) return ['all'];
  const { scopes: clean, unknown } = normaliseScopes(scopes);
  if (clean.length === 0) addFieldError(errors, 'scopes', 'The scopes field must name at least one scope.');
  for (const scope of unknown) addFieldError(errors, 'scopes', `The scope "${scope}" is invalid.`);
  return clean;
}

/** Runs a normalizer that throws a field-level validation error and collects its messages instead. */
function collect<T>(errors: FieldErrors, fallback: T, fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    const fields = (error as { fields?: FieldErrors }).fields;
    if (!fields) throw error;
    for (const [field, messages] of Object.entries(fields)) for (const message of messages) addFieldError(errors, field, message);
    return fallback;
  }
}

function parsePlan(plan: string | undefined, errors: FieldErrors): Plan | undefined {
  if (plan === undefined) return undefined;
  if (!(PLANS as readonly string[]).includes(plan)) addFieldError(errors, 'plan', 'The plan must be one of standard, premium, enterprise.');
  return plan as Plan;
}

function throwIfAny(errors: FieldErrors): void {
  if (Object.keys(errors).length) throw invalid(errors);
}

/** `vocabulary` is the companies module's service (passed in: a module never builds another's). */
export function createAdminService(deps: { db: Db; authCache: AuthCache; config: Config; vocabulary: CompanyVocabularyService }) {
  const { db, authCache, config, vocabulary } = deps;
  const tokens = createTokenService({ db, authCache, config });

  async function view(companyId: number) {
    return serializeAdminCompany(await vocabulary.profile(companyId));
  }

  function tokenView(issued: { token: string; scopes: string[]; lastUsedAt: Date }) {
    const expiresAt = tokens.expiresAt(issued.lastUsedAt);
    return { token: issued.token, expires_at: isoTimestamp(expiresAt) as string, scopes: issued.scopes };
  }

  async function createCompany(input: CreateCompanyInput) {
    const errors: FieldErrors = {};
    const name = typeof input.name === 'string' ? input.name.trim() : '';
    if (!name) addFieldError(errors, 'name', 'The name field is required.');
    else if (name.length > 255) addFieldError(errors, 'name', 'The name field must not be greater than 255 characters.');
    const domain = typeof input.domain === 'string' ? normalizeHost(input.domain) : '';
    if (!isValidDomain(domain)) addFieldError(errors, 'domain', 'The domain field must be a valid domain name.');
    const plan = parsePlan(input.plan, errors) ?? 'standard';
    const frequency = input.payment_frequency ?? 'monthly';
    if (!(PAYMENT_FREQUENCIES as readonly string[]).includes(frequency)) {
      addFieldError(errors, 'payment_frequency', 'The payment frequency must be one of weekly, bi-weekly, monthly.');
    }
    const userTypes = input.user_types && collect(errors, [], () => normalizeNames(input.user_types ?? [], 'user_types'));
    const roles = input.roles && collect(errors, [], () => normalizeNames(input.roles ?? [], 'roles'));
    if (userTypes && input.user_types?.length === 0)
      addFieldError(errors, 'user_types', 'The user types field must name at least one user type.');
    if (roles && input.roles?.length === 0) addFieldError(errors, 'roles', 'The roles field must name at least one role.');
    const redirects = collect(errors, [], () => normalizeHosts(input.redirect_domains ?? [], 'redirect_domains', isValidRedirectHost));
    const scopes = validateScopes(input.scopes, errors);
    const runApproval = readRunApproval({ run_approval: input.run_approval }, errors);
    throwIfAny(errors);

    try {
      const { companyId, issued } = await db.transaction(async (tx) => {
        const company = await setupCompany(tx, {
          name,
          domain,
          plan,
          paymentFrequency: frequency,
          status: 'approved',
          isActive: true,
          apiAccess: true,
          userTypes,
          roles,
          redirectDomains: redirects,
          runApproval,
        });
        // The domain must not be another company's extra e-mail domain either.
        await vocabulary.addDomains(company.id, [domain], tx);
        return { companyId: company.id, issued: await issueToken(tx, company.id, scopes) };
      });
      return { company: await view(companyId), ...tokenView(issued) };
    } catch (error) {
      const constraint = uniqueViolation(error);
      if (constraint === 'companies_domain_key' || constraint === 'company_domains_name_key')
        throw conflict(`The domain ${domain} is already used by another company.`);
      if (constraint) throw conflict('The company could not be created because it conflicts with an existing one.');
      throw error;
    }
  }

  /** All changes in one transaction: a bad domain leaves the plan unchanged too. */
  async function updateCompany(companyId: number, input: UpdateCompanyInput) {
    const errors: FieldErrors = {};
    const plan = parsePlan(input.plan, errors);
    const domains = collect(errors, [], () => normalizeHosts(input.add_domains ?? [], 'add_domains', isValidDomain));
    const userTypes = collect(errors, [], () => normalizeNames(input.add_user_types ?? [], 'add_user_types'));
    const roles = collect(errors, [], () => normalizeNames(input.add_roles ?? [], 'add_roles'));
    const redirects =
      input.redirect_domains &&
      collect(errors, [], () => normalizeHosts(input.redirect_domains ?? [], 'redirect_domains', isValidRedirectHost));
    const statutory = readCompanyStatutory(input, errors);
    const runApproval = readRunApproval({ run_approval: input.run_approval }, errors);
    throwIfAny(errors);

    await db.transaction(async (tx) => {
      if (!(await adminRepo.lockCompany(tx, companyId))) throw notFound('Company not found.');
      if (plan) await vocabulary.setPlan(companyId, plan, tx);
      if (input.api_access !== undefined) await vocabulary.setApiAccess(companyId, input.api_access, tx);
      if (domains.length) await vocabulary.addDomains(companyId, domains, tx);
      if (userTypes.length) await vocabulary.addUserTypes(companyId, userTypes, tx);
      if (roles.length) await vocabulary.addRoles(companyId, roles, tx);
      if (redirects) await vocabulary.setRedirectDomains(companyId, redirects, tx);
      await writeCompanyStatutory(tx, companyId, statutory);
      if (runApproval) await writeRunApproval(tx, companyId, runApproval);
      // The operator's request as given (the before state is several tables; not read for this).
      const asked = Object.entries(input).filter(([, value]) => value !== undefined);
      await recordAudit(tx, [
        {
          companyId,
          action: 'company.updated',
          target: { type: 'company', id: companyId },
          changes: Object.fromEntries(asked.map(([field, value]): [string, FieldChange] => [field, [null, value]])),
        },
      ]);
    });
    // Cleared again after commit: a request between the first clear and the commit re-cached the old row.
    authCache.clear();
    return { company: await view(companyId) };
  }

  async function requireCompany(companyId: number) {
    if (!(await adminRepo.companyExists(db, companyId))) throw notFound('Company not found.');
  }

  /** A fresh token; the previous one stops working in the same transaction. */
  async function generateToken(companyId: number, input: { scopes?: string[] } = {}) {
    const errors: FieldErrors = {};
    const scopes = validateScopes(input.scopes, errors);
    throwIfAny(errors);
    await requireCompany(companyId);
    return tokenView(await tokens.issue(companyId, scopes));
  }

  async function revokeToken(companyId: number) {
    await requireCompany(companyId);
    const revoked = await tokens.revoke(companyId);
    return { message: revoked > 0 ? 'Token revoked.' : 'The company has no active token.' };
  }

  async function listOutbox(query: OutboxQuery = {}) {
    const limit = Math.min(Math.max(query.limit ?? 100, 1), 1000);
    const to = query.to?.trim();
    const rows = await adminRepo.outbox(db, to, limit);
    return {
      messages: rows.map((row) => ({
        id: row.id,
        to: row.to,
        subject: row.subject,
        text: row.text,
        created_at: isoTimestamp(row.createdAt) as string,
        sent_at: isoTimestamp(row.sentAt),
      })),
    };
  }

  return { createCompany, updateCompany, generateToken, revokeToken, listOutbox, view };
}

export type AdminService = ReturnType<typeof createAdminService>;
