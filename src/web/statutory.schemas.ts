// Schemas of the statutory forms (an employee's details, the company's registrations) and of the
// employee's page.
import { Type } from 'typebox';
import { COMPANY_FORM_FIELDS, EMPLOYEE_FORM_FIELDS, REASON_FIELD } from './statutory.view.js';

const FormBody = (fields: readonly string[]) =>
  Type.Object({
    _csrf: Type.Optional(Type.String({ maxLength: 200 })),
    ...Object.fromEntries(
      fields.map((f) => [f, Type.Optional(Type.String({ maxLength: f === 'tax_ids' ? 4000 : f === REASON_FIELD ? 1000 : 100 }))]),
    ),
  });

export const EmployeeBody = FormBody(EMPLOYEE_FORM_FIELDS);
export const CompanyBody = FormBody(COMPANY_FORM_FIELDS);
export const Params = Type.Object({ id: Type.String({ maxLength: 20 }) });
export const DoneQuery = Type.Object({ done: Type.Optional(Type.String({ maxLength: 10 })) });
