// Who approves a company's payroll runs (docs/payroll-runs.md, "Approval"): `person` (the default:
// a token's approve only asks a named administrator, who approves in the console) or `token` (the
// token's approve approves at once, for platforms that run their own maker-checker). Set by a
// signed-in console administrator (Settings), the parent company (C2/C4 on a child) or the operator;
// no route lets a token set its own company's mode, because C2/C4 reach only companies below the caller.
import type { Db, Executor } from '../../db/client.js';
import { addFieldError, type FieldErrors, invalidField } from '../../platform/errors.js';
import { companiesRepo } from './companies.repo.js';

export const RUN_APPROVAL_MODES = ['person', 'token'] as const;
export type RunApproval = (typeof RUN_APPROVAL_MODES)[number];
export const RUN_APPROVAL_INVALID = 'The selected run approval is invalid: use person or token.';

export const isRunApproval = (value: unknown): value is RunApproval =>
  typeof value === 'string' && (RUN_APPROVAL_MODES as readonly string[]).includes(value);

/** `run_approval` of a request body: undefined when absent; a bad value goes into `errors`. */
export function readRunApproval(body: Record<string, unknown>, errors: FieldErrors): RunApproval | undefined {
  const raw = body.run_approval;
  if (raw === undefined) return undefined;
  const value = typeof raw === 'string' ? raw.trim().toLowerCase() : raw;
  if (isRunApproval(value)) return value;
  addFieldError(errors, 'run_approval', RUN_APPROVAL_INVALID);
  return undefined;
}

/** Writes the mode (inside the caller's transaction when given one). */
export async function writeRunApproval(executor: Executor, companyId: number, mode: RunApproval): Promise<void> {
  await companiesRepo.update(executor, companyId, { runApproval: mode });
}

/** The console's Settings: the signed-in administrator's own company. */
export function createRunApprovalService(deps: { db: Db }) {
  return {
    async set(companyId: number, raw: string | undefined): Promise<RunApproval> {
      if (!isRunApproval(raw)) throw invalidField('run_approval', RUN_APPROVAL_INVALID);
      await writeRunApproval(deps.db, companyId, raw);
      return raw;
    },
  };
}
