// The TypeBox schemas of the Loans and advances forms (loans.routes.ts and loans.actions.routes.ts):
// the id in the path (an employee's or a loan's), the New loan or advance form, and an active loan's
// Skip, Settle and Write off forms.
import { Type } from 'typebox';

export const Params = Type.Object({ id: Type.String({ maxLength: 20 }) });
export const LoanForm = Type.Object({
  _csrf: Type.Optional(Type.String({ maxLength: 200 })),
  kind: Type.Optional(Type.String({ maxLength: 20 })),
  principal: Type.Optional(Type.String({ maxLength: 30 })),
  instalment: Type.Optional(Type.String({ maxLength: 30 })),
  start_period: Type.Optional(Type.String({ maxLength: 10 })),
  interest_rate_annual: Type.Optional(Type.String({ maxLength: 20 })),
  confirm: Type.Optional(Type.String({ maxLength: 10 })),
});
export const ActionForm = Type.Object({
  _csrf: Type.Optional(Type.String({ maxLength: 200 })),
  period: Type.Optional(Type.String({ maxLength: 10 })),
  confirm: Type.Optional(Type.String({ maxLength: 10 })),
});
