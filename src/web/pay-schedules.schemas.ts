// Schemas of the Pay schedules pages: the schedule form, the schedule in the path, the notice.
import { Type } from 'typebox';

export const Form = Type.Object({
  _csrf: Type.Optional(Type.String({ maxLength: 200 })),
  name: Type.Optional(Type.String({ maxLength: 200 })),
  frequency: Type.Optional(Type.String({ maxLength: 20 })),
  pay_day: Type.Optional(Type.String({ maxLength: 40 })),
  first_period_start: Type.Optional(Type.String({ maxLength: 20 })),
  create_days_before: Type.Optional(Type.String({ maxLength: 5 })),
});
export const IdParams = Type.Object({ id: Type.String({ maxLength: 12, pattern: '^[0-9]{1,12}$' }) });
export const DoneQuery = Type.Object({ done: Type.Optional(Type.String({ maxLength: 20 })) });
export const CsrfBody = Type.Object({ _csrf: Type.Optional(Type.String({ maxLength: 200 })) });
