// Schema of the New off-cycle run form: parallel lists, one entry per employee row.
import { Type } from 'typebox';
import { CHOOSABLE } from './off-cycle.view.js';

const Many = (maxLength: number) =>
  Type.Optional(Type.Union([Type.String({ maxLength }), Type.Array(Type.String({ maxLength }), { maxItems: CHOOSABLE })]));
export const Body = Type.Object({
  _csrf: Type.Optional(Type.String()),
  reason: Type.Optional(Type.String({ maxLength: 20 })),
  payment_date: Type.Optional(Type.String({ maxLength: 20 })),
  // One entry per employee row, in page order (a form posts its fields in document order).
  user_id: Many(12),
  type: Many(40),
  amount: Many(40),
  // Longer than the service's 200 so that it, not a 400 page, says what is wrong.
  description: Many(1000),
});
export type BodyOf = {
  reason?: string;
  payment_date?: string;
  user_id?: string | string[];
  type?: string | string[];
  amount?: string | string[];
  description?: string | string[];
};
