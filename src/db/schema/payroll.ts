import { integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * One row per company from its creation (payroll-engine.md, "contribution settings").
 * Values are kept as the API's strings; the payroll service parses them into engine settings.
 */
export const contributionSettings = pgTable(
  'contribution_settings',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull(),
    taxRegime: text('tax_regime').notNull().default('auto'),
    basicPercentage: text('basic_percentage').notNull().default('40'),
    housingPercentage: text('housing_percentage').notNull().default('30'),
    transportPercentage: text('transport_percentage').notNull().default('20'),
    pensionEnabled: text('pension_enabled').notNull().default('true'),
    employeePensionRate: text('employee_pension_rate').notNull().default('8'),
    employerPensionRate: text('employer_pension_rate').notNull().default('10'),
    nhfEnabled: text('nhf_enabled').notNull().default('true'),
    nhfRate: text('nhf_rate').notNull().default('2.5'),
    nhisEnabled: text('nhis_enabled').notNull().default('false'),
    nhisEmployeeRate: text('nhis_employee_rate').notNull().default('5'),
    nhisEmployerRate: text('nhis_employer_rate').notNull().default('10'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('contribution_settings_company_key').on(t.companyId)],
);
