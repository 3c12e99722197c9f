// P1's listed paystub as the JSON text the API sends, written by PostgreSQL (docs/decisions.md,
// "Answers written as JSON text"), for a PostgreSQL server (paystubs.service.ts says when): the SQL
// of its parts, which paystubs.listed-text.repo.ts selects and keeps.
//
// The JS path (paystubs.read.repo.ts, then paystubs.serializer.ts and the route's fast-json-stringify)
// reads the page, its users, its records and its items in four statements, keys their rows, turns
// every numeric text into a number and serializes a ~30 KB nested body: 1.3-1.4 ms of the server's
// single thread per page of 20 (docs/benchmarks.md, "P1 filtered by one run"). Here PostgreSQL writes
// each paystub's text, with its items, user and contribution nested, on the database's core, and the
// server only joins the texts into the paginator's envelope.
//
// The text is byte for byte what the route's serializer writes for serializePaystub + user +
// contribution (ListedPaystub's key order; paystubs.json.test.ts holds the two equal on both
// databases). Value formats: db/json-text.ts; amounts are JSON numbers there (`number`: the
// serializer's columnToNumber), regular_gross is gross_pay - irregular_gross (subtractMoney, exact),
// a paystub's user is the company's user of that id or null, and every list keeps the JS path's
// order (items by position, records by id).
import { type SQL, sql } from 'drizzle-orm';
import { aliasJson, jsonObject, jsonValueOf } from '../../db/json-text.js';
import { exitedSql, LAGOS_TODAY_SQL } from '../users/index.js';
import { LOAN_BALANCE_AFTER } from './paystubs.read.repo.js';

/** A column of an alias of the statement below (p: the paystub, i: an item, r: a record, u/ut: the user and type). */
const c = (name: string) => sql.raw(name);
const { int, str, num, bool, at, day } = aliasJson;

/** A JSON array of `element` over `from` in `order`, `[]` when it has no row. */
const arrayOf = (element: SQL, order: string, from: SQL) =>
  sql`coalesce((SELECT '[' || string_agg(${element}, ',' ORDER BY ${c(order)}) || ']' ${from}), '[]')`;

// The item's loan balance computed once per item: the number's text reads its value up to thirteen
// times. OFFSET 0 keeps the LATERAL subquery a subquery; without it PostgreSQL pulls it up and writes
// the balance's correlated subquery into each of those places (thirteen subplans, each set up on
// every execution and run two or three times for a loan's item).
const items = arrayOf(
  jsonObject([
    ['type', str('i.code')],
    ['name', str('i.name')],
    ['amount', num('i.amount')],
    ['taxable_amount', num('i.taxable_amount')],
    ['taxable', bool('i.taxable')],
    ['pensionable', bool('i.pensionable')],
    ['regular', bool('i.regular')],
    ['cash', bool('i.cash')],
    ['treatment', str('i.treatment')],
    ['description', str('i.description')],
    ['origin_period', str('i.origin_period')],
    ['loan_id', int('i.loan_id')],
    ['loan_balance_after', num('b.balance')],
  ]),
  'i.position',
  sql`FROM paystub_items i CROSS JOIN LATERAL (SELECT (${LOAN_BALANCE_AFTER})::numeric AS balance OFFSET 0) b
      WHERE i.paystub_id = p.id AND i.company_id = p.company_id`,
);

const records = arrayOf(
  jsonObject([
    ['id', int('r.id')],
    ['contribution_id', int('r.contribution_id')],
    ['custom_contribution_id', int('r.custom_contribution_id')],
    ['user_id', int('r.user_id')],
    ['name', str('r.name')],
    ['employee_contribution', num('r.employee_contribution')],
    ['employer_contribution', num('r.employer_contribution')],
    ['created_at', at('r.created_at')],
    ['updated_at', at('r.updated_at')],
  ]),
  'r.id',
  sql`FROM custom_contribution_records r WHERE r.company_id = p.company_id AND r.contribution_id = p.id`,
);

// The embedded user: public fields only; is_active as the User object says it (false once exited, docs/users.md "Leavers").
// The type's name by its key, not a join: with a join the generic plan hashed the user and scanned
// every user type for each paystub of the page. Looked up only for a user who has a type: while
// user_types is a few pages, PostgreSQL reads it whole for each lookup (a sequential scan costs less
// than the index by its estimate), ~12 µs a user, about half of writing a page's users
// (docs/benchmarks.md, "P1's users without a type").
const userTypeName = sql`CASE WHEN u.user_type_id IS NOT NULL THEN (SELECT ut.name FROM user_types ut WHERE ut.id = u.user_type_id) END`;
/** Whether the user `u` is active today, as the User object says it (false once exited: docs/users.md, "Leavers"). */
export const userActiveToday = sql`(u.is_active AND NOT ${exitedSql(c('u.exit_date'), LAGOS_TODAY_SQL)})`;
const user = sql`coalesce((SELECT ${jsonObject([
  ['id', int('u.id')],
  ['employee_id', str('u.employee_id')],
  ['first_name', str('u.first_name')],
  ['last_name', str('u.last_name')],
  ['email', str('u.email')],
  ['personal_email', str('u.personal_email')],
  ['unique_id', str('u.unique_id')],
  ['user_types', jsonValueOf(userTypeName, 'string')],
  ['title', str('u.title')],
  ['department', str('u.department')],
  ['level', str('u.level')],
  ['office_location', str('u.office_location')],
  ['payment_frequency', str('u.payment_frequency')],
  ['is_active', sql`CASE WHEN ${userActiveToday} THEN 'true' ELSE 'false' END`],
  ['company_id', int('u.company_id')],
  ['deleted_at', at('u.deleted_at')],
])} FROM users u WHERE u.id = p.user_id AND u.company_id = p.company_id), 'null')`;

const contribution = jsonObject([
  ['id', int('p.id')],
  ['paystub_id', int('p.id')],
  ['employee_id', int('p.user_id')],
  ['company_id', int('p.company_id')],
  ['pay_period_start', day('p.pay_period_start')],
  ['pay_period_end', day('p.pay_period_end')],
  ['employee_pension_contribution', num('p.pension_contribution')],
  ['employer_pension_contribution', num('p.employer_pension_contribution')],
  ['nhf_contribution', num('p.nhf_contribution')],
  ['pit_contribution', num('p.tax_withheld')],
  ['nhis_employee_contribution', num('p.nhis_contribution')],
  ['nhis_employer_contribution', num('p.nhis_employer_contribution')],
  ['employer_cost', num('p.employer_cost')],
  ['tax_regime', str('p.tax_regime')],
  ['custom_contribution_records', records],
  ['created_at', at('p.created_at')],
  ['updated_at', at('p.updated_at')],
]);

/** Where approval said the net pay goes (docs/payroll-runs.md, "Payment destinations"): null before approval. */
const paymentDestination = sql`CASE WHEN p.destination_pinned_at IS NULL THEN 'null' ELSE ${jsonObject([
  ['bank_code', str('p.destination_bank_code')],
  ['bank_name', str('p.destination_bank_name')],
  ['account_last4', jsonValueOf(sql`right(p.destination_account_number, 4)`, 'string')],
  ['account_name', str('p.destination_account_name')],
])} END`;

/** The listed paystub `p`'s fields before its user (ListedPaystub's order), as an object's text without its closing brace. */
const headJson = sql`left(${jsonObject([
  ['id', int('p.id')],
  ['user_id', int('p.user_id')],
  ['company_id', int('p.company_id')],
  ['pay_period_start', day('p.pay_period_start')],
  ['pay_period_end', day('p.pay_period_end')],
  ['taxable_income', num('p.taxable_income')],
  ['reimbursements', num('p.reimbursements')],
  ['other_allowances', num('p.other_allowances')],
  ['gross_pay', num('p.gross_pay')],
  ['net_pay', num('p.net_pay')],
  ['tax_withheld', num('p.tax_withheld')],
  ['tax_true_up', num('p.tax_true_up')],
  ['pension_contribution', num('p.pension_contribution')],
  ['nhf_contribution', num('p.nhf_contribution')],
  ['nhis_contribution', num('p.nhis_contribution')],
  ['other_deductions', num('p.other_deductions')],
  ['paye_state', str('p.paye_state')],
  ['regular_gross', jsonValueOf(sql`(p.gross_pay - p.irregular_gross)`, 'number')],
  ['irregular_gross', num('p.irregular_gross')],
  ['off_cycle', bool('p.off_cycle')],
  ['items', items],
  ['status', str('p.status')],
  ['transaction_id', str('p.transaction_id')],
  ['paid_at', at('p.paid_at')],
  ['payment_reference', str('p.payment_reference')],
  ['failure_reason', str('p.failure_reason')],
  ['hold_reason', str('p.hold_reason')],
  ['payment_destination', paymentDestination],
  ['created_at', at('p.created_at')],
  ['updated_at', at('p.updated_at')],
])}, -1)`;

/**
 * The three parts of the listed paystub `p`'s text (ListedPaystub: the Paystub's fields, then user
 * and contribution), joined by listedText: `head` and `contribution` depend only on the paystub, its
 * items and its records, and may be kept (paystubs.listed-text.repo.ts); `user` is written on every
 * read (is_active depends on the day, and the user is not the paystub's to stamp).
 */
export const listedJson = { head: headJson, user, contribution };

/** A listed paystub's text from its parts. */
export function listedText(head: string, userText: string, contributionText: string): string {
  return `${head},"user":${userText},"contribution":${contributionText}}`;
}
