// The TypeBox schemas shared by the Developers → Webhooks forms (developers.routes.ts and
// developers.actions.routes.ts): the CSRF field every form posts, an endpoint's id in the path, and
// the body of an endpoint's actions.
import { Type } from 'typebox';

export const Csrf = { _csrf: Type.Optional(Type.String({ maxLength: 200 })) };
export const IdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) });

/** What an endpoint's action posts: `disabled` for Enable/Disable, `confirm` from a confirmation page. */
export const ActionBody = Type.Object({
  ...Csrf,
  disabled: Type.Optional(Type.String({ maxLength: 10 })),
  confirm: Type.Optional(Type.String({ maxLength: 10 })),
});
