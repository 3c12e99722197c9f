// TypeBox schemas of /api/pay-schedules (docs/payroll-runs.md, "Pay schedules"). Bodies are typed
// loosely where pay-schedules.validation.ts gives the field's own 422 message.
import { Type } from 'typebox';
import { CompanyIdInput } from '../../platform/schemas.js';

const Include = Type.Union(
  [
    Type.Object(
      {
        user_types: Type.Optional(Type.Array(Type.String({ maxLength: 100 }), { maxItems: 100 })),
        departments: Type.Optional(Type.Array(Type.String({ maxLength: 100 }), { maxItems: 100 })),
        user_ids: Type.Optional(Type.Array(Type.Integer({ minimum: 1, maximum: 2_147_483_647 }), { maxItems: 10_000 })),
      },
      { additionalProperties: false },
    ),
    Type.Null(),
  ],
  { description: 'who the runs pay: every given filter must match (null: every active employee)' },
);

const fields = {
  company_id: CompanyIdInput,
  name: Type.String({ maxLength: 100 }),
  frequency: Type.String({ maxLength: 20, description: 'monthly, weekly or bi-weekly: the company’s payment frequency' }),
  pay_day: Type.Union([Type.String({ maxLength: 20 }), Type.Integer({ minimum: 1, maximum: 31 })], {
    description: 'last_working_day, a day of the month 1-31 (monthly), or a weekday monday … sunday (weekly, bi-weekly)',
  }),
  first_period_start: Type.String({ maxLength: 10, description: 'YYYY-MM-DD; monthly: day 1-28' }),
  create_days_before: Type.Integer({ minimum: 0, maximum: 60, description: 'default 5' }),
  include: Include,
  active: Type.Boolean(),
};

export const CreateBody = Type.Object({
  company_id: fields.company_id,
  name: Type.Optional(fields.name),
  frequency: Type.Optional(fields.frequency),
  pay_day: Type.Optional(fields.pay_day),
  first_period_start: Type.Optional(fields.first_period_start),
  create_days_before: Type.Optional(fields.create_days_before),
  include: Type.Optional(fields.include),
  active: Type.Optional(fields.active),
});
export const UpdateBody = CreateBody;

const Upcoming = Type.Object({
  pay_period_start: Type.String(),
  pay_period_end: Type.String(),
  payment_date: Type.String({ description: 'moved to the working day before a weekend or public holiday' }),
  creation_date: Type.String({ description: 'the Lagos day the draft run is created (06:00)' }),
});
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

export const ScheduleSchema = Type.Object(
  {
    id: Type.Integer(),
    company_id: Type.Integer(),
    name: Type.String(),
    frequency: Type.String(),
    pay_day: Type.Union([Type.String(), Type.Integer()]),
    first_period_start: Type.String(),
    create_days_before: Type.Integer(),
    include: Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()]),
    active: Type.Boolean(),
    next_period: Nullable(Upcoming),
    next_creation_at: Nullable(Type.String()),
    upcoming: Type.Array(Upcoming, { description: 'the next 3 runs it will create' }),
    runs: Type.Optional(
      Type.Array(
        Type.Object({
          pay_period_start: Type.String(),
          pay_period_end: Type.String(),
          payment_date: Type.String(),
          run_id: Nullable(Type.String()),
          error: Nullable(Type.String({ description: 'why the run could not be created' })),
          created_at: Type.String(),
        }),
        { description: 'GET one: the latest 12 periods it made, newest first' },
      ),
    ),
    created_at: Type.String(),
    updated_at: Type.String(),
  },
  { $id: 'PaySchedule' },
);

export const ScheduleAnswer = Type.Object({ message: Type.String(), pay_schedule: Type.Ref('PaySchedule') });
export const ListAnswer = Type.Object({ message: Type.String(), data: Type.Array(Type.Ref('PaySchedule')) });
export const CompanyQuery = Type.Object({ company_id: CompanyIdInput });
export const IdParams = Type.Object({ id: Type.Integer({ minimum: 1 }) });
