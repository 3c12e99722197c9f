// A company's vocabulary: the e-mail domains, user types, roles and wallet redirect hosts it may use,
// plus the two operator switches (plan, API access). Shared by the operator API (/admin), the CLI and
// the web console so that every path applies the same validation and the same "in use" protection.
import { isIPv4 } from 'node:net';
import type { Db, Executor } from '../../db/client.js';
import type { AuthCache } from '../../platform/auth/authenticate.js';
import { uniqueViolation } from '../../platform/db-errors.js';
import { conflict, invalid, notFound } from '../../platform/errors.js';
import type { CompanyRow } from './companies.repo.js';
import { type VocabularyKind, vocabularyRepo } from './company-vocabulary.repo.js';

export const PLANS = ['standard', 'premium', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];

export interface CompanyProfile {
  company: CompanyRow;
  domains: string[];
  userTypes: string[];
  roles: string[];
  redirectDomains: string[];
}

// RFC 1123 host names: labels of 1-63 letters/digits/hyphens, no leading/trailing hyphen, at most
// 253 characters. E-mail domains need at least one dot; redirect hosts may also be `localhost` or an
// IPv4 address (developers point top-up redirects at a local page).
const LABEL = '(?!-)[a-z0-9-]{1,63}(?<!-)';
const DOTTED_HOST = new RegExp(`^${LABEL}(\\.${LABEL})+$`);
const NAME_MAX = 100;

export function normalizeHost(value: string): string {
  return value.trim().toLowerCase().replace(/\.$/, '');
}

export function isValidDomain(host: string): boolean {
  return host.length <= 253 && DOTTED_HOST.test(host) && !/^[0-9.]+$/.test(host);
}

export function isValidRedirectHost(host: string): boolean {
  return host === 'localhost' || isIPv4(host) || isValidDomain(host);
}

/** Trims, lower-cases and validates host names; all failures are reported together under `field`. */
export function normalizeHosts(values: readonly string[], field: string, valid: (host: string) => boolean): string[] {
  const hosts: string[] = [];
  const errors: string[] = [];
  for (const value of values) {
    const host = typeof value === 'string' ? normalizeHost(value) : '';
    if (!valid(host)) errors.push(`"${String(value)}" is not a valid host name.`);
    else if (!hosts.includes(host)) hosts.push(host);
  }
  if (errors.length) throw invalid({ [field]: errors });
  return hosts;
}

/** User type and role names: trimmed, 1-100 printable characters, duplicates dropped. */
export function normalizeNames(values: readonly string[], field: string): string[] {
  const names: string[] = [];
  const errors: string[] = [];
  for (const value of values) {
    const name = typeof value === 'string' ? value.trim() : '';
    // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point.
    if (!name || name.length > NAME_MAX || /[\u0000-\u001f\u007f]/.test(name)) {
      errors.push(`"${String(value)}" must be 1 to ${NAME_MAX} printable characters.`);
    } else if (!names.includes(name)) names.push(name);
  }
  if (errors.length) throw invalid({ [field]: errors });
  return names;
}

/** How each kind of vocabulary is read from input and talked about in errors. */
const KINDS: Record<
  VocabularyKind,
  { field: string; normalize: (values: readonly string[], field: string) => string[]; key: (value: string) => string; notFound: string }
> = {
  domains: {
    field: 'domains',
    normalize: (values, field) => normalizeHosts(values, field, isValidDomain),
    key: normalizeHost,
    notFound: 'Domain not found.',
  },
  userTypes: { field: 'user_types', normalize: normalizeNames, key: (value) => value.trim(), notFound: 'User type not found.' },
  roles: { field: 'roles', normalize: normalizeNames, key: (value) => value.trim(), notFound: 'Role not found.' },
  redirectDomains: {
    field: 'redirect_domains',
    normalize: (values, field) => normalizeHosts(values, field, isValidRedirectHost),
    key: normalizeHost,
    notFound: 'Redirect domain not found.',
  },
};

const IN_USE: Partial<Record<VocabularyKind, (value: string) => string>> = {
  domains: (host) => `The domain ${host} is used by users of this company and cannot be removed.`,
  userTypes: (name) => `The user type ${name} is assigned to users of this company and cannot be removed.`,
  roles: (name) => `The role ${name} is held by users of this company and cannot be removed.`,
};

const domainTaken = (name: string) => conflict(`The domain ${name} is already used by another company.`);

export function createCompanyVocabularyService(deps: { db: Db; authCache: AuthCache }) {
  const { db, authCache } = deps;

  async function requireCompany(executor: Executor, companyId: number) {
    const company = await vocabularyRepo.company(executor, companyId);
    if (!company) throw notFound('Company not found.');
    return company;
  }

  async function profile(companyId: number, executor: Executor = db): Promise<CompanyProfile> {
    const company = await requireCompany(executor, companyId);
    const [domains, types, roleNames, redirects] = await Promise.all(
      (['domains', 'userTypes', 'roles', 'redirectDomains'] as const).map((kind) => vocabularyRepo.list(executor, companyId, kind)),
    );
    return { company, domains, userTypes: types, roles: roleNames, redirectDomains: redirects };
  }

  /**
   * Adds values of one kind, in the caller's transaction or a new one. An e-mail domain another
   * company already uses (as its primary domain or an extra one) is refused: company e-mails are
   * globally unique, so two companies sharing a domain would steal each other's addresses.
   */
  async function add(kind: VocabularyKind, companyId: number, values: readonly string[], executor?: Executor): Promise<string[]> {
    const names = KINDS[kind].normalize(values, KINDS[kind].field);
    if (!names.length) return [];
    const run = async (tx: Executor) => {
      await requireCompany(tx, companyId);
      if (kind === 'domains') {
        // company_domains holds every company's domains, primary ones included (migration 0064).
        const taken = await vocabularyRepo.domainTakenByOther(tx, companyId, names);
        if (taken) throw domainTaken(taken);
      }
      try {
        await vocabularyRepo.add(tx, companyId, kind, names);
      } catch (error) {
        // The unique index on lower(name) is the real check: of two companies claiming one domain
        // at the same time, the second insert fails and gets the same answer as the check above.
        if (kind === 'domains' && uniqueViolation(error) === 'company_domains_name_key') {
          throw domainTaken(names.length === 1 ? names[0] : names.join(', '));
        }
        throw error;
      }
      await vocabularyRepo.touch(tx, companyId);
      return names;
    };
    return executor ? run(executor) : db.transaction(run);
  }

  /** Removes one value; refused while a live user uses it, or when it is the primary domain. */
  async function remove(kind: VocabularyKind, companyId: number, value: string): Promise<void> {
    const key = KINDS[kind].key(value);
    await db.transaction(async (tx) => {
      const company = await requireCompany(tx, companyId);
      const inUse = IN_USE[kind];
      if (!inUse) {
        if (!(await vocabularyRepo.deleteValue(tx, companyId, kind, key))) throw notFound(KINDS[kind].notFound);
      } else {
        const id = await vocabularyRepo.lockEntry(tx, companyId, kind, key);
        if (id === undefined) throw notFound(KINDS[kind].notFound);
        if (kind === 'domains' && company.domain === key) {
          throw conflict(`The domain ${key} is the company's primary domain and cannot be removed.`);
        }
        if (await vocabularyRepo.inUse(tx, companyId, kind, id, key)) throw conflict(inUse(key));
        await vocabularyRepo.deleteEntry(tx, kind, id);
      }
      await vocabularyRepo.touch(tx, companyId);
    });
  }

  /** Replaces the whole list (the operator API's `redirect_domains`); an empty list clears it. */
  async function setRedirectDomains(companyId: number, values: readonly string[], executor?: Executor): Promise<string[]> {
    const hosts = normalizeHosts(values, 'redirect_domains', isValidRedirectHost);
    const run = async (tx: Executor) => {
      await requireCompany(tx, companyId);
      await vocabularyRepo.replace(tx, companyId, 'redirectDomains', hosts);
      await vocabularyRepo.touch(tx, companyId);
      return hosts;
    };
    return executor ? run(executor) : db.transaction(run);
  }

  /** The plan and API access are read with the token: the cache is cleared so they apply at once. */
  async function setSwitch(companyId: number, values: { plan?: Plan; apiAccess?: boolean }, executor: Executor): Promise<void> {
    if (!(await vocabularyRepo.updateCompany(executor, companyId, values))) throw notFound('Company not found.');
    authCache.clear();
  }

  async function setPlan(companyId: number, plan: Plan, executor: Executor = db): Promise<void> {
    if (!(PLANS as readonly string[]).includes(plan)) throw invalid({ plan: ['The selected plan is invalid.'] });
    await setSwitch(companyId, { plan }, executor);
  }

  type Add = (companyId: number, values: readonly string[], executor?: Executor) => Promise<string[]>;
  type Remove = (companyId: number, value: string) => Promise<void>;
  const adder =
    (kind: VocabularyKind): Add =>
    (companyId, values, executor) =>
      add(kind, companyId, values, executor);
  const remover =
    (kind: VocabularyKind): Remove =>
    (companyId, value) =>
      remove(kind, companyId, value);

  return {
    profile,
    addDomains: adder('domains'),
    removeDomain: remover('domains'),
    addUserTypes: adder('userTypes'),
    removeUserType: remover('userTypes'),
    addRoles: adder('roles'),
    removeRole: remover('roles'),
    addRedirectDomains: adder('redirectDomains'),
    removeRedirectDomain: remover('redirectDomains'),
    setRedirectDomains,
    setPlan,
    setApiAccess: (companyId: number, enabled: boolean, executor: Executor = db) => setSwitch(companyId, { apiAccess: enabled }, executor),
  };
}

export type CompanyVocabularyService = ReturnType<typeof createCompanyVocabularyService>;
