// A company's own pay item types (owned by src/modules/pay-items); created by
// migrations/0201_pay_item_types.sql. The built-in types are in code (src/tax-engine/pay-items.ts).
import { boolean, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

export const payItemTypes = pgTable(
  'pay_item_types',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    treatment: text('treatment').$type<'earning' | 'deduction'>().notNull(),
    taxable: boolean('taxable').notNull(),
    pensionable: boolean('pensionable').notNull(),
    nhfBase: boolean('nhf_base').notNull(),
    nsitfBase: boolean('nsitf_base').notNull(),
    regular: boolean('regular').notNull(),
    cash: boolean('cash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('pay_item_types_company_code_key').on(t.companyId, t.code)],
);
