// Child companies (C1-C6, docs/companies-invoices.md, "The companies and invoices rules"). A
// company acts on the companies below it in the `created_by` tree (children, grandchildren, ...);
// anything else, itself included, is "not found".

import type { Config } from '../../config.js';
import type { Db, Executor } from '../../db/client.js';
import { diffFields, recordAudit } from '../../platform/audit/index.js';
import type { AuthCache } from '../../platform/auth/authenticate.js';
import { uniqueViolation } from '../../platform/db-errors.js';
import { addFieldError, DomainError, type FieldErrors, forbidden, invalid, notFound } from '../../platform/errors.js';
import { parseRowId } from '../../platform/input-safety.js';
import type { Mailer } from '../../platform/mail/outbox.js';
import { lastPageOf, pageOffset } from '../../platform/paginator.js';
import type { RateLimitStore } from '../../platform/ratelimit/limiter.js';
import { recordEvent } from '../webhooks/index.js';
import type { CompanyRow } from './companies.repo.js';
import { companiesRepo } from './companies.repo.js';
import { serializeCompany } from './companies.serializer.js';
import { writeCompanyStatutory } from './companies.statutory.service.js';
import { validateCreate, validateUpdate } from './companies.validation.js';

/** company.activated / company.deactivated with the company as C3 answers it (docs/webhooks.md). */
const announce = (tx: Executor, row: CompanyRow | undefined, type: 'company.activated' | 'company.deactivated') =>
  row ? recordEvent(tx, row.id, type, serializeCompany(row)) : Promise.resolve(0);

import { setupCompany } from './company-setup.service.js';

export const COMPANY_NOT_FOUND = 'Company not found or does not belong to the current company.';
export const CANNOT_DEACTIVATE_SELF = 'A company cannot deactivate itself.';
const TAKEN = (field: string) => `The ${field.replace(/_/g, ' ')} has already been taken.`;
/**
 * The super admin's derived company e-mail can clash with a concurrent create; such a transaction
 * is retried. (The company code cannot clash: the repo takes the next free one as it inserts.)
 */
const EMAIL_RETRIES = 5;

export interface CompaniesDeps {
  db: Db;
  config: Pick<Config, 'publicUrl' | 'rateLimit'>;
  limiter: Pick<RateLimitStore, 'peek' | 'take'>;
  mailer: Mailer;
  authCache: Pick<AuthCache, 'clear'>;
}

/** Path ids that are not positive integers name no company: 404 like any other unknown id. */
function parseId(raw: string | number): number {
  const id = parseRowId(String(raw));
  if (id === undefined) throw notFound(COMPANY_NOT_FOUND);
  return id;
}

/** The field whose "already taken" message answers a unique-index violation of a lost race. */
function raceField(constraint: string | undefined, fieldOf: Record<string, string>): string | undefined {
  return constraint ? fieldOf[constraint] : undefined;
}

export function createCompaniesService(deps: CompaniesDeps) {
  const { db, config, mailer, authCache, limiter } = deps;
  /**
   * The "already taken" answers of C2 and C4 confirm that a personal e-mail (of any company's user),
   * a domain, a registration id or a code exists. Each such answer costs the caller one unit of this
   * bucket, shared by C2 and C4; an empty bucket refuses every C2 and C4 of the caller with 429
   * before anything is checked, so that probing is slowed to RATE_LIMIT_TAKEN_ANSWERS per window
   * (docs/companies-invoices.md, C2 enumeration; docs/security.md).
   */
  const TAKEN_BUCKET = 'companies.taken';
  async function takenBudget(callerId: number): Promise<void> {
    const bucket = await limiter.peek(TAKEN_BUCKET, String(callerId), config.rateLimit.takenAnswers);
    if (bucket.remaining === 0) {
      throw new DomainError('rate_limited', 'Too many requests.', undefined, { 'Retry-After': String(bucket.retryAfterSeconds) });
    }
  }
  async function spendTakenAnswer(callerId: number): Promise<void> {
    await limiter.take(TAKEN_BUCKET, String(callerId), config.rateLimit.takenAnswers);
  }
  /** A lost race on a unique index answers like the pre-check would, and costs the same unit. */
  async function raceToValidation(callerId: number, error: unknown, fieldOf: Record<string, string>): Promise<void> {
    const field = raceField(uniqueViolation(error), fieldOf);
    if (!field) return;
    await spendTakenAnswer(callerId);
    throw invalid({ [field]: [TAKEN(field)] });
  }

  async function reachable(actingId: number, rawId: string | number) {
    const id = parseId(rawId);
    const company = await companiesRepo.findDescendant(db, actingId, id);
    if (!company) throw notFound(COMPANY_NOT_FOUND);
    return company;
  }

  return {
    /** True before the first company exists: the demo seed runs only then (src/seed.ts). */
    async noneYet(): Promise<boolean> {
      return (await companiesRepo.countAll(db)) === 0;
    },

    /** C1: companies created by the caller, or by one of its descendants named in `company_id`. */
    async list(callerId: number, query: { page?: number; per_page?: number; company_id?: number | string }) {
      let ownerId = callerId;
      if (query.company_id !== undefined && query.company_id !== '') {
        const id = parseId(query.company_id);
        if (id !== callerId && !(await companiesRepo.isDescendant(db, callerId, id))) throw notFound(COMPANY_NOT_FOUND);
        ownerId = id;
      }
      const perPage = query.per_page ?? 10;
      const page = query.page ?? 1;
      const { rows, total } = await companiesRepo.pageCreatedBy(db, ownerId, pageOffset(page, perPage), perPage);
      return {
        data: rows.map(serializeCompany),
        current_page: page,
        per_page: perPage,
        last_page: lastPageOf(total, perPage),
        total,
      };
    },

    /** C2: the company, its vocabularies and settings, its invited super admin: one transaction. */
    async create(callerId: number, body: Record<string, unknown>) {
      await takenBudget(callerId);
      const { input, errors } = validateCreate(body);
      // Uniqueness of the values that are well-formed, reported together with the format errors.
      const domain = typeof body.domain_name === 'string' ? body.domain_name.trim().toLowerCase() : undefined;
      const registrationId = typeof body.registration_id === 'string' ? body.registration_id.trim() : undefined;
      const taken = await companiesRepo.takenCompanyValues(db, {
        domain: domain || undefined,
        registrationId: registrationId || undefined,
      });
      const takenFields: string[] = [];
      if (taken.domain && !errors.domain_name) takenFields.push('domain_name');
      if (taken.registrationId) takenFields.push('registration_id');
      if (!errors.personal_email && (await companiesRepo.personalEmailTaken(db, String(body.personal_email).trim()))) {
        takenFields.push('personal_email');
      }
      for (const field of takenFields) addFieldError(errors, field, TAKEN(field));
      if (takenFields.length > 0) await spendTakenAnswer(callerId);
      if (!input || Object.keys(errors).length > 0) throw invalid(errors);

      for (let attempt = 1; ; attempt++) {
        try {
          return await db.transaction(async (tx) => {
            // Definitive checks under a lock on the personal e-mail; the unique indexes on
            // companies guard domain and registration id against a concurrent twin.
            const fields: FieldErrors = {};
            if (await companiesRepo.lockAndCheckPersonalEmail(tx, input.personalEmail))
              addFieldError(fields, 'personal_email', TAKEN('personal_email'));
            const again = await companiesRepo.takenCompanyValues(tx, { domain: input.domain, registrationId: input.registrationId });
            if (again.domain) addFieldError(fields, 'domain_name', TAKEN('domain_name'));
            if (again.registrationId) addFieldError(fields, 'registration_id', TAKEN('registration_id'));
            if (Object.keys(fields).length > 0) {
              await spendTakenAnswer(callerId);
              throw invalid(fields);
            }

            const created = await setupCompany(tx, {
              name: input.name,
              domain: input.domain,
              createdBy: callerId,
              address: input.address,
              phone: input.phone,
              registrationId: input.registrationId,
              emailTemplate: input.emailTemplate,
              paymentFrequency: input.paymentFrequency,
              runApproval: input.runApproval,
              status: 'pending review',
              isActive: false,
              plan: 'standard',
            });
            const company = (await writeCompanyStatutory(tx, created.id, input.statutory)) ?? created;
            const admin = await companiesRepo.createSuperAdmin(tx, company, input);
            const link = `${config.publicUrl}/onboarding/${admin.onboardingToken}`;
            await mailer.send(tx, {
              companyId: company.id,
              to: admin.personalEmail,
              subject: `You are invited to administer ${company.name}`,
              text: [
                `Hello ${admin.firstName},`,
                '',
                `${company.name} has been set up on the payroll service and you are its super administrator.`,
                `Your company e-mail is ${admin.email} and your employee ID is ${admin.employeeId}.`,
                '',
                'Set your password and activate your account here (the link expires in 7 days):',
                link,
                '',
                'The company stays pending review until its parent company activates it.',
              ].join('\n'),
            });
            await recordEvent(tx, company.id, 'company.created', serializeCompany(company));
            return { success: 'Company created successfully.', company: serializeCompany(company) };
          });
        } catch (error) {
          const constraint = uniqueViolation(error);
          if (constraint === 'users_email_key' && attempt < EMAIL_RETRIES) continue;
          await raceToValidation(callerId, error, {
            companies_domain_key: 'domain_name',
            companies_registration_id_key: 'registration_id',
            company_domains_company_name_key: 'domain_name',
            company_domains_name_key: 'domain_name',
          });
          throw error;
        }
      }
    },

    /** C3 */
    async show(callerId: number, rawId: string | number) {
      return serializeCompany(await reachable(callerId, rawId));
    },

    /** C4: 404 before any validation, so a stranger learns nothing about the values in use. */
    async update(callerId: number, rawId: string | number, body: Record<string, unknown>) {
      await takenBudget(callerId);
      const id = parseId(rawId);
      try {
        return await db.transaction(async (tx) => {
          const company = await companiesRepo.findDescendant(tx, callerId, id, true);
          if (!company) throw notFound(COMPANY_NOT_FOUND);
          const { input, errors } = validateUpdate(body);
          const taken = await companiesRepo.takenCompanyValues(
            tx,
            {
              domain: errors.domain ? undefined : input.domain,
              registrationId: input.registrationId,
              code: errors.code ? undefined : input.code,
            },
            id,
          );
          if (taken.registrationId) addFieldError(errors, 'registration_id', TAKEN('registration_id'));
          if (taken.code) addFieldError(errors, 'code', TAKEN('code'));
          if (taken.domain) addFieldError(errors, 'domain', TAKEN('domain'));
          if (taken.registrationId || taken.code || taken.domain) await spendTakenAnswer(callerId);
          if (Object.keys(errors).length > 0) throw invalid(errors);
          if (Object.keys(input).length === 0) return { message: 'Company updated successfully.', company: serializeCompany(company) };
          const updated = await companiesRepo.update(tx, id, input);
          // A new domain becomes usable for employee e-mails; existing employees keep theirs.
          if (input.domain && input.domain !== company.domain) await companiesRepo.addDomain(tx, id, input.domain);
          await recordAudit(tx, [
            {
              companyId: id,
              action: 'company.updated',
              target: { type: 'company', id },
              changes: diffFields(serializeCompany(company), serializeCompany(updated)),
            },
          ]);
          return { message: 'Company updated successfully.', company: serializeCompany(updated) };
        });
      } catch (error) {
        await raceToValidation(callerId, error, {
          companies_domain_key: 'domain',
          companies_registration_id_key: 'registration_id',
          companies_code_key: 'code',
          company_domains_name_key: 'domain',
        });
        throw error;
      }
    },

    /** C5: the child's token is refused from its very next request (auth cache cleared). */
    async deactivate(callerId: number, rawId: string | number) {
      const id = parseId(rawId);
      if (id === callerId) throw forbidden(CANNOT_DEACTIVATE_SELF);
      await reachable(callerId, id);
      await db.transaction(async (tx) => announce(tx, await companiesRepo.setActive(tx, id, false), 'company.deactivated'));
      authCache.clear();
      return { message: 'Company deactivated successfully.' };
    },

    /** C6: activates, approves a company pending review, and restores its API access at once. */
    async activate(callerId: number, rawId: string | number) {
      const company = await reachable(callerId, rawId);
      await db.transaction(async (tx) => announce(tx, await companiesRepo.setActive(tx, company.id, true), 'company.activated'));
      authCache.clear();
      return { message: 'Company activated successfully.' };
    },
  };
}

export type CompaniesService = ReturnType<typeof createCompaniesService>;
