// Schemas of the sign-in page and form and of the unlock link.
import { Type } from 'typebox';

export const LoginQuery = Type.Object({
  next: Type.Optional(Type.String({ maxLength: 2000 })),
  signed_out: Type.Optional(Type.String()),
  unlocked: Type.Optional(Type.String()),
  reset: Type.Optional(Type.String()),
});

export const LoginBody = Type.Object({
  _csrf: Type.Optional(Type.String({ maxLength: 200 })),
  email: Type.Optional(Type.String({ maxLength: 320 })),
  password: Type.Optional(Type.String({ maxLength: 1024 })),
  next: Type.Optional(Type.String({ maxLength: 2000 })),
});

export const UnlockParams = Type.Object({ token: Type.String({ maxLength: 200 }) });
export const CsrfBody = Type.Object({ _csrf: Type.Optional(Type.String({ maxLength: 200 })) });
