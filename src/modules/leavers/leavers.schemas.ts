// Request and response schemas of the leavers routes (docs/users.md, "Leavers"). The bodies' fields
// are read and checked by leavers.planner.ts (every problem at once, Laravel-like messages); the
// schema documents them and refuses only what no field rule could read.
import { Type } from 'typebox';
import { CompanyIdInput } from '../../platform/schemas.js';
import { EXIT_REASONS } from '../users/index.js';

export const TerminateBody = Type.Object({
  company_id: CompanyIdInput,
  exit_date: Type.Optional(
    Type.String({ description: 'The last day of employment, YYYY-MM-DD (paid pro rata up to and including it); not before start_date' }),
  ),
  reason: Type.Optional(Type.String({ enum: [...EXIT_REASONS], description: 'Why the employment ends' })),
  // Read by the planner (an object with items) and the final-pay step (the items), for their messages.
  final_pay: Type.Optional(
    Type.Unknown({
      description:
        'an off-cycle draft (reason final_pay) created with the exit: {items: [{type, amount, description?, origin_period?}], payment_date? (default: the exit date)}',
    }),
  ),
});

export const ReinstateBody = Type.Object({ company_id: CompanyIdInput });

/** Both actions answer the user as U2 shows it, with its exit (or none after a reinstatement). */
export const LeaverAnswer = Type.Object({
  message: Type.String(),
  user: Type.Ref('User'),
  final_pay_run: Type.Optional(
    Type.Object(
      {},
      { additionalProperties: true, description: 'terminate with final_pay: the off-cycle draft, as GET /api/payroll-runs/{id} shows it' },
    ),
  ),
});
