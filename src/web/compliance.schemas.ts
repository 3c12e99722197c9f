// Schemas of the Compliance page: the month shown, the Record filing form, a schedule's download.
import { Type } from 'typebox';

export const MonthQuery = Type.Object({
  month: Type.Optional(Type.String({ maxLength: 10 })),
  done: Type.Optional(Type.String({ maxLength: 20 })),
});
export const FilingBody = Type.Object({
  _csrf: Type.Optional(Type.String({ maxLength: 200 })),
  kind: Type.Optional(Type.String({ maxLength: 20 })),
  month: Type.Optional(Type.String({ maxLength: 10 })),
  authority: Type.Optional(Type.String({ maxLength: 40 })),
  amount: Type.Optional(Type.String({ maxLength: 30 })),
  paid_on: Type.Optional(Type.String({ maxLength: 20 })),
  receipt_reference: Type.Optional(Type.String({ maxLength: 200 })),
});
export const FileQuery = Type.Object({
  month: Type.Optional(Type.String({ maxLength: 10 })),
  state: Type.Optional(Type.String({ maxLength: 40 })),
  pfa_code: Type.Optional(Type.String({ maxLength: 40 })),
});
export const FileParams = Type.Object({ file: Type.String({ maxLength: 20 }) });
