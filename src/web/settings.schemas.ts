// Schemas of the Settings page's query string and its vocabulary and payroll forms.
import { Type } from 'typebox';
import { SETTING_FIELDS } from './settings.view.js';

export const DoneQuery = Type.Object({ done: Type.Optional(Type.String({ maxLength: 40 })) });

export const VocabularyBody = Type.Object({
  _csrf: Type.Optional(Type.String({ maxLength: 200 })),
  kind: Type.Union([Type.Literal('domains'), Type.Literal('user-types'), Type.Literal('roles'), Type.Literal('redirect-domains')]),
  value: Type.String({ maxLength: 300 }),
});

export const PayrollBody = Type.Object({
  _csrf: Type.Optional(Type.String({ maxLength: 200 })),
  ...Object.fromEntries(SETTING_FIELDS.map((f) => [f, Type.Optional(Type.String({ maxLength: 50 }))])),
});
