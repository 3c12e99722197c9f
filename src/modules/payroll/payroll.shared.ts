// Small pieces shared by the payroll routes: error schema and number formatting.
import { Type } from 'typebox';

export const ErrorSchema = Type.Object({ error: Type.String() });
export const errorResponses = { '4xx': ErrorSchema, '5xx': ErrorSchema };

/** Numeric column text ("1234.5") → JSON number with two places (1234.5 prints as 1234.5). */
export const num = (value: string | number | null): number => (value === null ? 0 : Number(value));
