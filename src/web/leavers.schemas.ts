// Schemas of the Terminate and Reinstate forms and of the employee in their path.
import { Type } from 'typebox';

export const Params = Type.Object({ id: Type.String({ maxLength: 20 }) });
export const TerminateForm = Type.Object({
  _csrf: Type.Optional(Type.String({ maxLength: 200 })),
  exit_date: Type.Optional(Type.String({ maxLength: 20 })),
  reason: Type.Optional(Type.String({ maxLength: 40 })),
  confirm: Type.Optional(Type.String({ maxLength: 10 })),
});
export const CsrfBody = Type.Object({ _csrf: Type.Optional(Type.String({ maxLength: 200 })) });
