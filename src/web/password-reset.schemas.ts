// Schemas of the forgot-password forms and of the e-mailed link's path.
import { Type } from 'typebox';

export const AskBody = Type.Object({
  _csrf: Type.Optional(Type.String({ maxLength: 200 })),
  email: Type.Optional(Type.String({ maxLength: 320 })),
});

export const Params = Type.Object({ token: Type.String({ minLength: 1, maxLength: 100 }) });

export const ResetBody = Type.Object({
  _csrf: Type.Optional(Type.String({ maxLength: 200 })),
  password: Type.Optional(Type.String({ maxLength: 1024 })),
  password_confirmation: Type.Optional(Type.String({ maxLength: 1024 })),
});
