// Request and response schemas of the /api/invoices routes (docs/reference.md, I1-I7). The bodies
// are read and checked by invoices.validation.ts; these document them.
import { Type } from 'typebox';
import { CompanyIdInput as CompanyId, errorResponses, FieldsError, MoneyInput, NullableString } from '../../platform/schemas.js';
import type { TenancyMessages } from '../../platform/types.js';
import { INVOICE_NOT_FOUND } from './invoices.service.js';

/** Invoices name no 403 text in the published interface; this one says what was refused. */
export const INVOICES_TENANCY: TenancyMessages = { forbidden: "You do not have permission to access this company's invoices." };

/** The route config every invoice route shares: its tenancy, family and not-found message. */
export const base = { tenancy: INVOICES_TENANCY, family: 'plain' as const, notFoundMessage: INVOICE_NOT_FOUND };

export const InvoiceSchema = Type.Object(
  {
    id: Type.Integer(),
    company_id: Type.Integer(),
    user_id: Type.Integer(),
    transaction_id: Type.String(),
    description: Type.String(),
    service_date: Type.String(),
    provider_name: Type.String(),
    total_amount: Type.String(),
    amount_requested: Type.String(),
    amount_paid: Type.String(),
    balance: Type.String(),
    status: Type.String({ description: 'unpaid, pending (approved, awaiting payment), partially_paid, paid' }),
    approval_status: Type.String({ description: 'pending, manager_approved, rejected, approved, denied' }),
    category_name: Type.String(),
    subcategory_name: NullableString,
    payment_method: Type.String({ description: 'self or provider' }),
    user_email: Type.String(),
    relationship_manager_email: NullableString,
    finance_approver_email: NullableString,
    approved_by_manager_email: NullableString,
    comment: NullableString,
    manager_comment: NullableString,
    finance_comment: NullableString,
    manager_decided_at: NullableString,
    finance_decided_at: NullableString,
    created_at: Type.String(),
    updated_at: Type.String(),
  },
  { $id: 'Invoice' },
);

export const errors = errorResponses(FieldsError);
export const Params = Type.Object({ transaction_id: Type.String() });
const Money = (description: string) => Type.Optional(MoneyInput(description));
const Str = (description?: string) => Type.Optional(Type.String({ description }));
const OptStr = (description?: string) => Type.Optional(Type.Union([Type.Null(), Type.String()], { description }));
export const Result = Type.Object({ message: Type.String(), invoice: Type.Ref('Invoice') });

const invoiceFields = {
  company_id: CompanyId,
  user_email: Str('Company or personal e-mail of a (non-deleted) employee of the target company'),
  description: Str(),
  service_date: Str('YYYY-MM-DD, not in the future'),
  provider_name: Str(),
  total_amount: Money('Greater than 0, at most 2 decimals'),
  amount_requested: Money('Greater than 0, at most total_amount'),
  category_name: Str(),
  subcategory_name: OptStr(),
  payment_method: Str('self (default) or provider'),
  relationship_manager_email: OptStr(),
  comment: OptStr(),
};

export const ListQuery = Type.Object({
  company_id: CompanyId,
  transaction_id: Str(),
  status: Str('unpaid, pending, partially_paid, paid'),
  approval_status: Str('pending, manager_approved, rejected, approved, denied'),
  sort: Str(
    'created_at (default), updated_at, service_date, total_amount, amount_requested, balance, status, approval_status, provider_name, category_name, transaction_id, id',
  ),
  order: Str('asc or desc (default)'),
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10 })),
  page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
});
export const InvoicesPage = Type.Object({
  message: Type.String(),
  invoices: Type.Array(Type.Ref('Invoice')),
  meta: Type.Object({ current_page: Type.Integer(), per_page: Type.Integer(), total: Type.Integer(), last_page: Type.Integer() }),
});
export const CompanyQuery = Type.Object({ company_id: CompanyId });
export const CreateBody = Type.Object(invoiceFields);
export const UpdateBody = Type.Object({ ...invoiceFields, amount_paid: Money('One payment, added to earlier ones; at most the balance') });
export const ManagerDecisionBody = Type.Object({
  company_id: CompanyId,
  manager_email: Str('Required'),
  decision: Str('approve or reject (required)'),
  comment: OptStr(),
  notify_finance: Type.Optional(Type.Boolean()),
  finance_approver_email: OptStr('Required when notify_finance is true and decision is approve'),
});
export const FinanceDecisionBody = Type.Object({
  company_id: CompanyId,
  finance_approver_email: Str('Required'),
  decision: Str('approve or deny (required)'),
  comment: OptStr(),
});
