// The demo company's people, as U3 request bodies: departments, user types, pay frequencies,
// managers and bank details that a Nigerian payroll would really hold. Used by seed.ts only.
import { nubanFor } from './modules/banks/index.js';

export { nubanCheckDigit } from './modules/banks/index.js';

import { isOneOf } from './platform/guards.js';

/** Real Nigerian banks with their CBN (NUBAN) bank codes, named as in the banks module's list (so U3 derives bank_code). */
export const DEMO_BANKS = [
  { name: 'Access Bank', code: '044' },
  { name: 'Guaranty Trust Bank', code: '058' },
  { name: 'First Bank of Nigeria', code: '011' },
  { name: 'Zenith Bank', code: '057' },
  { name: 'United Bank for Africa', code: '033' },
  { name: 'Fidelity Bank', code: '070' },
  { name: 'Union Bank of Nigeria', code: '032' },
  { name: 'Stanbic IBTC Bank', code: '221' },
  { name: 'Sterling Bank', code: '232' },
  { name: 'Wema Bank', code: '035' },
  { name: 'Ecobank Nigeria', code: '050' },
  { name: 'First City Monument Bank', code: '214' },
  { name: 'Polaris Bank', code: '076' },
  { name: 'Keystone Bank', code: '082' },
] as const;

/** A 10-digit account number that is a valid NUBAN for the bank; the serial is fixed by `seed`. */
export function nubanAccount(bankCode: string, seed: number): string {
  const serial = String((204_017_351 + seed * 7_919_773) % 1_000_000_000).padStart(9, '0');
  return nubanFor(bankCode, serial);
}

const USER_TYPES = ['Full-time', 'Part-time', 'Contract', 'Intern'] as const;
const FREQUENCIES = ['monthly', 'bi-weekly', 'weekly'] as const;

/** A cell of the table below that must be one of a fixed list (a typo fails loudly, at import). */
function oneOf<T extends string>(allowed: readonly T[], cell: string): T {
  if (!isOneOf(allowed, cell)) throw new Error(`Demo table: "${cell}" is not one of ${allowed.join(', ')}.`);
  return cell;
}

export interface DemoPerson {
  first: string;
  last: string;
  title: string;
  department: string;
  userType: (typeof USER_TYPES)[number];
  /** Monthly base salary and allowances in naira. */
  salary: number;
  allowances: number;
  frequency: (typeof FREQUENCIES)[number];
  office: string;
  start: string;
  roles?: string[];
  /** Index of the manager in DEMO_PEOPLE (created before their reports). */
  manager?: number;
  /** Invited, not yet onboarded: shows the console's Invited badge and is left out of the run. */
  invited?: boolean;
  annualRent?: number;
  lifeAssurance?: number;
}

const OFFICES: Record<string, string> = { LOS: 'Lagos, Victoria Island', ABV: 'Abuja, Wuse II', PHC: 'Port Harcourt, GRA' };

// first | last | title | department | user type | monthly salary | monthly allowances | pay frequency |
// office | start date | roles ("-": user) | manager's row ("-": none) | annual rent | life assurance | invited
const TABLE = `
Adaeze|Okonkwo|Managing Director|Executive|Full-time|1850000|350000|monthly|LOS|2019-02-04|super-admin|-|6000000|450000|
Babatunde|Adeyemi|Head of Finance|Finance|Full-time|1250000|220000|monthly|LOS|2019-06-17|finance,manager|0|3600000||
Chinedu|Eze|Head of Engineering|Engineering|Full-time|1400000|200000|monthly|LOS|2020-01-13|manager|0||240000|
Funmilayo|Bakare|Head of People|People|Full-time|980000|150000|monthly|LOS|2020-03-02|admin,manager|0|2400000||
Ibrahim|Musa|Head of Operations|Operations|Full-time|1050000|180000|monthly|ABV|2020-08-24|manager|0|||
Ngozi|Nwosu|Head of Sales|Sales|Full-time|1100000|250000|monthly|LOS|2021-01-11|manager|0||180000|
Oluwaseun|Adebayo|Accountant|Finance|Full-time|620000|80000|monthly|LOS|2021-05-03|-|1|1800000||
Aisha|Bello|Payroll Officer|Finance|Full-time|540000|60000|monthly|ABV|2022-02-14|finance|1|||
Emeka|Obi|Senior Software Engineer|Engineering|Full-time|950000|120000|monthly|LOS|2021-09-06|-|2|2200000|120000|
Temitope|Ogunleye|Software Engineer|Engineering|Full-time|720000|90000|monthly|LOS|2022-07-18|-|2|||
Kelechi|Anyanwu|QA Engineer|Engineering|Contract|480000|40000|bi-weekly|PHC|2023-03-06|-|2|||
Yetunde|Alabi|Product Designer|Engineering|Full-time|680000|85000|monthly|LOS|2022-11-01|-|2|1500000||
Segun|Afolabi|Data Analyst|Engineering|Part-time|310000|20000|monthly|ABV|2024-01-15|-|2|||
Hauwa|Abdullahi|HR Officer|People|Full-time|450000|55000|monthly|ABV|2022-04-11|-|3|||
Chiamaka|Udeh|Recruiter|People|Contract|390000|30000|bi-weekly|LOS|2023-08-21|-|3|||
Musa|Danjuma|Logistics Officer|Operations|Full-time|360000|45000|weekly|ABV|2021-10-04|-|4|||
Blessing|Etim|Warehouse Supervisor|Operations|Full-time|410000|50000|bi-weekly|PHC|2022-06-27|-|4|||
Tunde|Ojo|Driver|Operations|Contract|180000|25000|weekly|LOS|2023-05-15|-|4|||
Grace|Okafor|Facilities Officer|Operations|Part-time|210000|15000|bi-weekly|PHC|2024-02-05|-|4|||
Bukola|Adewale|Customer Support Lead|Customer Support|Full-time|520000|60000|monthly|LOS|2021-12-06|manager|4|||
Samuel|Akpan|Support Agent|Customer Support|Part-time|190000|10000|weekly|PHC|2024-06-03|-|19|||
Ifeanyi|Okeke|Sales Executive|Sales|Full-time|430000|120000|monthly|LOS|2022-09-12|-|5|||
Zainab|Lawal|Sales Executive|Sales|Full-time|430000|120000|monthly|ABV|2023-01-09|-|5||60000|
Uchenna|Nnamdi|Key Account Manager|Sales|Full-time|760000|140000|monthly|LOS|2021-04-19|-|5|2000000||
Amina|Garba|Engineering Intern|Engineering|Intern|150000|0|monthly|LOS|2026-09-01|-|2|||invited
Chukwuemeka|Ibe|Sales Intern|Sales|Intern|150000|0|monthly|ABV|2026-09-01|-|5|||invited
`;

const optionalNumber = (cell: string) => (cell === '' ? undefined : Number(cell));

/** Row 0 is the console administrator; rows 1-5 head the departments. Managers precede their reports. */
export const DEMO_PEOPLE: DemoPerson[] = TABLE.trim()
  .split('\n')
  .map((line) => {
    const [first, last, title, department, userType, salary, allowances, frequency, office, start, roles, manager, rent, life, status] =
      line.split('|');
    return {
      first,
      last,
      title,
      department,
      userType: oneOf(USER_TYPES, userType),
      salary: Number(salary),
      allowances: Number(allowances),
      frequency: oneOf(FREQUENCIES, frequency),
      office: OFFICES[office],
      start,
      roles: roles === '-' ? undefined : roles.split(','),
      manager: manager === '-' ? undefined : Number(manager),
      invited: status === 'invited',
      annualRent: optionalNumber(rent),
      lifeAssurance: optionalNumber(life),
    };
  });

/** Where each demo office is: the employee's state of residence for PAYE (a state code of GET /api/states). */
const OFFICE_STATES: Record<string, string> = {
  'Lagos, Victoria Island': 'LA',
  'Abuja, Wuse II': 'FC',
  'Port Harcourt, GRA': 'RI',
};
const DEMO_PFAS = ['ACCESSARM', 'LEADWAY', 'FCMB', 'FIDELITY', 'GTPML', 'NLPC', 'CRUSADER'] as const;

/**
 * A demo person's statutory identifiers as U3 fields: state of residence, PFA, RSA PIN (PEN + 12
 * digits) and NHF number. Fictitious but of the checked formats (docs/statutory-data.md).
 */
export function demoStatutory(person: DemoPerson, index: number): Record<string, string> {
  const serial = String(100_200_300_400 + index * 7_919_311)
    .padStart(12, '0')
    .slice(-12);
  return {
    state_of_residence: OFFICE_STATES[person.office] ?? 'LA',
    pfa_code: DEMO_PFAS[index % DEMO_PFAS.length],
    rsa_pin: `PEN${serial}`,
    nhf_number: `NHF${String(2_004_100 + index * 313).padStart(8, '0')}`,
  };
}
