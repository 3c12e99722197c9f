// Schemas of the opening year-to-date page: the employee in the path, the year shown, the form.
import { Type } from 'typebox';
import { FIELDS } from './year-to-date.view.js';

export const Params = Type.Object({ id: Type.String({ maxLength: 20 }) });
export const Query = Type.Object({
  year: Type.Optional(Type.String({ maxLength: 10 })),
  done: Type.Optional(Type.String({ maxLength: 10 })),
});
export const Form = Type.Object({
  _csrf: Type.Optional(Type.String({ maxLength: 200 })),
  year: Type.Optional(Type.String({ maxLength: 10 })),
  ...Object.fromEntries(FIELDS.map(([field]) => [field, Type.Optional(Type.String({ maxLength: 30 }))])),
  months: Type.Optional(Type.String({ maxLength: 5 })),
  confirm: Type.Optional(Type.String({ maxLength: 10 })),
});
