// The shapes of /api/audit-events (docs/audit.md, "Reading the log"): an event, a page of them,
// and the filters both routes take.
import { Type } from 'typebox';
import { CompanyIdInput } from '../../platform/schemas.js';
import { ACTOR_TYPES } from './audit.service.js';

const Nullable = Type.Union([Type.Null(), Type.String()]);
const Change = Type.Array(Type.Unknown(), { minItems: 2, maxItems: 2, description: '[before, after]' });
export const AuditEventSchema = Type.Object(
  {
    id: Type.String({ description: 'aud_…' }),
    seq: Type.Union([Type.Null(), Type.Integer()], {
      description: "the event's place in its company's chain (1, 2, ...); null until the sealer chains it, seconds after its commit",
    }),
    occurred_at: Type.String(),
    company_id: Type.Integer(),
    actor: Type.Object({ type: Type.String({ enum: [...ACTOR_TYPES] }), id: Type.String(), email: Nullable }),
    action: Type.String(),
    target: Type.Object({ type: Type.String(), id: Type.String() }),
    changes: Type.Record(Type.String(), Change),
    request_id: Nullable,
    ip: Nullable,
    user_agent: Nullable,
    hash: Type.Union([Type.Null(), Type.String()], { description: 'sha256 of prev_hash and the canonical event; null until sealed' }),
    prev_hash: Type.Union([Type.Null(), Type.String()], { description: "the previous event's hash in the chain; null until sealed" }),
  },
  { $id: 'AuditEvent' },
);
export const Filter = (description: string) => Type.Optional(Type.String({ maxLength: 200, description }));
export const Filters = {
  company_id: CompanyIdInput,
  actor_type: Filter(`one of ${ACTOR_TYPES.join(', ')}`),
  actor_id: Filter("the actor's id (a token id, a console user's id)"),
  action: Filter('an action (user.updated) or a prefix (user.*)'),
  target_type: Filter('user, payroll_run, invoice, ...'),
  target_id: Filter("the target's id"),
  from: Filter('a date or an ISO time: events at or after it'),
  to: Filter('a date (the whole day) or an ISO time: events before it'),
};
/** The 200 answer of GET /api/audit-events. */
export const AuditPage = Type.Object({ data: Type.Array(Type.Ref('AuditEvent')), next_cursor: Nullable });
