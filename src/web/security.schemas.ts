// Schemas of the Security → API pages' query strings and forms.
import { Type } from 'typebox';

export const DoneQuery = Type.Object({ done: Type.Optional(Type.String({ maxLength: 40 })) });

export const GenerateBody = Type.Object({
  _csrf: Type.Optional(Type.String({ maxLength: 200 })),
  scopes: Type.Optional(Type.Array(Type.String({ maxLength: 100 }), { maxItems: 200 })),
  confirm: Type.Optional(Type.String({ maxLength: 10 })),
});

/** The scopes of the token to regenerate, carried from the Generate form (one or several). */
export const RegenerateQuery = Type.Object({
  scopes: Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Array(Type.String({ maxLength: 100 }), { maxItems: 200 })])),
});

export const InvalidateBody = Type.Object({ _csrf: Type.Optional(Type.String({ maxLength: 200 })), confirm: Type.Optional(Type.String()) });
