// Users (docs/users.md, docs/banks.md): descriptions and request examples.
import type { OperationDoc } from './types.js';

const CSV_UPLOAD = {
  required: true,
  content: {
    'multipart/form-data': {
      schema: {
        type: 'object',
        required: ['users_csv'],
        properties: {
          users_csv: {
            type: 'string',
            format: 'binary',
            description: 'The CSV file (the template of GET /api/users/import-template or update-template)',
          },
          company_id: { type: 'integer', minimum: 1, description: 'Target company (default: the authenticated one)' },
        },
      },
    },
  },
};

const YTD_CSV_UPLOAD = {
  required: true,
  content: {
    'multipart/form-data': {
      schema: {
        type: 'object',
        required: ['year_to_date_csv'],
        properties: {
          year_to_date_csv: {
            type: 'string',
            format: 'binary',
            description: 'The CSV file: email,year,gross_pay,taxable_pay,tax_withheld,employee_pension,nhf,nhis,months',
          },
          company_id: { type: 'integer', minimum: 1, description: 'Target company (default: the authenticated one)' },
          dry_run: { type: 'boolean', description: 'Check every row and save nothing' },
        },
      },
    },
  },
};

const NEW_EMPLOYEE = {
  first_name: 'Chiamaka',
  last_name: 'Okafor',
  personal_email: 'chiamaka.okafor@example.com',
  domain_name: 'adebayo-logistics.ng',
  user_types: 'Full-time',
  title: 'Logistics Coordinator',
  department: 'Operations',
  office_location: 'Ikeja, Lagos',
  base_salary: '350000.00',
  allowances: '75000.00',
  start_date: '2024-03-01',
  manager_email: 'tunde.adeyemi@adebayo-logistics.ng',
  bank_name: 'Guaranty Trust Bank',
  account_number: '2119371247',
  roles: ['user'],
  is_active: true,
  notify: true,
  nin: '12345678901',
  state_of_residence: 'LA',
  rsa_pin: 'PEN100234567890',
  pfa_code: 'STANBIC',
  gender: 'female',
};

export const USERS_OPERATIONS: Record<string, OperationDoc> = {
  'users.index': {
    description:
      'The users of the target company, in the SCIM-style list family (`Resources`, `totalResults`, `startIndex`, `itemsPerPage`). Page with `startIndex` and `count`, or `page` and `per_page`. `status=exited` lists only the users whose exit date has passed (leavers; `totalResults` counts them).',
  },
  'users.show': { description: 'One user of the target company, with bank details and statutory fields.' },
  'users.store': {
    description:
      'Creates an employee. `first_name`, `last_name`, `personal_email`, `domain_name` (one of the company’s e-mail domains), `user_types` (one of its user types) and `start_date` are required; the company e-mail is made from the name and the domain. Salary and allowances are naira per pay period. With `notify`, the employee is e-mailed an onboarding link; `is_active: true` creates an active account at once.',
    required: ['first_name', 'last_name', 'personal_email', 'domain_name', 'user_types', 'start_date'],
    body: NEW_EMPLOYEE,
  },
  'users.update': {
    description:
      'Changes the given fields of a user (JSON, or multipart/form-data with repeated `documents` files). A change of bank account is e-mailed to the employee and holds approved paystubs until a fresh approval (docs/payroll-runs.md, Payment destinations).',
    body: { title: 'Senior Logistics Coordinator', base_salary: '420000.00', bank_name: 'Access Bank', account_number: '2198568975' },
  },
  'users.destroy': { description: 'Soft-deletes a user: the account stops working; paystubs and records stay.' },
  'users.deactivate': { description: 'Deactivates a user: no sign-in, left out of new runs.' },
  'users.activate': { description: 'Activates a deactivated user.' },
  'users.suspend': {
    description:
      'Suspends a user for some minutes or hours, until a date, or indefinitely; a timed suspension ends by itself. With `clear_roles`, the roles are removed.',
    required: ['suspension_duration_type'],
    body: {
      suspension_duration_type: 'hours',
      suspension_duration_value: 48,
      suspension_reason: 'Pending disciplinary review',
      clear_roles: false,
    },
  },
  'users.unsuspend': {
    description: 'Ends a suspension now (`unsuspend_option: immediately`) or moves its end (`future`, with `new_unsuspension_time`).',
    body: { unsuspend_option: 'immediately' },
  },
  'users.bulk-create': {
    description:
      'Creates users from a CSV file (the import template’s columns). Rows succeed or fail on their own; the answer lists both, with the row number of each failure.',
    requestBody: CSV_UPLOAD,
    body: {
      users_csv:
        'first_name,last_name,personal_email,domain,user_types,title,base_salary,department,allowances,office_location,start_date (YYYY-MM-DD),manager,bank_name,account_number\r\nEmeka,Nwosu,emeka.nwosu@example.com,adebayo-logistics.ng,Full-time,Driver,180000.00,Operations,20000.00,Apapa,2025-01-06,tunde.adeyemi@adebayo-logistics.ng,Access Bank,2198568975\r\n',
    },
  },
  'users.bulk-update': {
    description: 'Updates users named by `email` from a CSV file (the update template’s columns); empty cells leave a field as it is.',
    requestBody: CSV_UPLOAD,
    body: { users_csv: 'email,title,base_salary\r\nemeka.nwosu@adebayo-logistics.ng,Senior Driver,210000.00\r\n' },
  },
  'users.import-template': {
    description: 'The CSV template for bulk create: an instruction row, then the header row.',
    responses: {
      '200':
        'first_name,last_name,personal_email,domain,user_types,title,base_salary,department,allowances,office_location,start_date (YYYY-MM-DD),manager,bank_name,account_number,bank_code\r\n',
    },
  },
  'users.update-template': {
    description: 'The CSV template for bulk update: the create template with `email` first.',
    responses: { '200': 'email,first_name,last_name,personal_email,domain,user_types,title,base_salary\r\n' },
  },
  'users.terminate': {
    description:
      'Records the end of a user’s employment: `exit_date` (the last day worked, not before `start_date`) and `reason` (`resignation`, `dismissal`, `redundancy`, `retirement`, `death`, `end_of_contract` or `other`). The regular run whose period covers the exit date pays salary and allowances pro rata up to and including it (the joiner rule mirrored); from the next day the user is exited: `is_active` false, no console sign-in, left out of later runs. Announced as `user.exited`. Refused (422) for a user already terminated, and for the company’s last active super-admin. Scope `users.terminate` (which also allows reinstate).',
    required: ['exit_date', 'reason'],
    body: { exit_date: '2026-03-17', reason: 'resignation' },
  },
  'users.reinstate': {
    description:
      'Undoes an exit: clears `exit_date` and `exit_reason`, as long as no paystub whose period covers the exit date has been paid (or is being paid): then 422. A run already created for that period keeps its pro rata paystub (cancel and create it again to pay the whole period). Announced as `user.reinstated`. Needs the scope `users.terminate`.',
    body: {},
  },
  'users.year-to-date.show': {
    description:
      'A user’s year to date in a tax year (2021 to 2100): `opening`, the figures recorded as paid before this service (null when none; `before_service` shows them, zeros when none), `paid_since`, the sums of the user’s paystubs of that year in the company except failed and cancelled ones, and `total`, the two added. Needs the scope `users.show`. See docs/payroll.md, “Opening year-to-date”.',
  },
  'users.year-to-date.update': {
    description:
      'Records (or replaces) a user’s opening year-to-date figures for a tax year: what they were paid and had withheld before this service paid them (another employer, or this employer before moving its payroll here). Every figure is required and at least 0 with at most 2 decimals; `months` (0 to 12) says how many months they cover. Under `tax_method: cumulative` they count as earlier periods of the year, so the rest of the year withholds up to the year’s liability; under `annualised` they change no tax. Payslips and the annual return show them on their own line. 422 for a bad figure or a year outside 2021 to 2100. Needs the scope `users.update`.',
    body: {
      gross_pay: 3000000,
      taxable_pay: 3000000,
      tax_withheld: 396120,
      employee_pension: 216000,
      nhf: 0,
      nhis: 0,
      months: 6,
    },
  },
  'users.year-to-date.import': {
    description:
      'Opening year-to-date figures from a CSV file with the columns `email,year,gross_pay,taxable_pay,tax_withheld,employee_pension,nhf,nhis,months` (header row required, any order). Row by row like the users import: each row is saved whole or fails on its own, reported with its line and column; `dry_run` checks every row and saves nothing. At most 10,000 rows and 5 MiB. Needs the scope `users.update`.',
    requestBody: YTD_CSV_UPLOAD,
    body: {
      year_to_date_csv:
        'email,year,gross_pay,taxable_pay,tax_withheld,employee_pension,nhf,nhis,months\r\nemeka.nwosu@adebayo-logistics.ng,2026,3000000.00,3000000.00,396120.00,216000.00,0,0,6\r\n',
    },
  },
  'users.verify-bank-account': {
    description:
      'Asks the payment provider for the holder’s name of the user’s account (NUBAN and bank code) and stores it with the time of the check; `name_matches` says whether it matches the user’s name.',
  },
};
