// A payslip's shapes (docs/compliance.md, "Payslips"): what the layout reads of a paystub
// (PayslipSource, filled by payslips.service.ts from payslips.repo.ts) and the lines it decides
// (Payslip), which payslip.render.view.ts draws. Types only.

export interface PayslipSource {
  company: { name: string; address: string | null };
  employee: {
    firstName: string;
    lastName: string;
    employeeId: string;
    title: string | null;
    department: string | null;
    bankName: string | null;
    accountNumber: string | null;
  };
  paystub: {
    payPeriodStart: string;
    payPeriodEnd: string;
    status: string;
    transactionId: string;
    /** YYYY-MM-DD of paid_at, null while not paid. */
    paidOn: string | null;
    taxRegime: string;
    /** The PAYE authority's state (docs/payroll.md, "The tax year"); null when unknown. */
    payeState: { code: string; name: string } | null;
    taxableIncome: string;
    basicPay: string | null;
    housingPay: string | null;
    transportPay: string | null;
    otherAllowances: string;
    reimbursements: string;
    grossPay: string;
    taxWithheld: string;
    /** The year-end true-up included in taxWithheld (negative: a refund); absent = none. */
    taxTrueUp?: string;
    pension: string;
    nhf: string;
    nhis: string;
    netPay: string;
    employerPension: string;
    employerNhis: string;
    employerCost: string;
  };
  /** The run's payment date (null for P2 runs, which have none). */
  paymentDate: string | null;
  /** Custom contributions applied to this paystub, in the order they were applied. */
  customContributions: { name: string; employee: string; employer: string }[];
  /** Pay items (docs/payroll.md, "Pay items"), each on its own line; absent = none. */
  items?: {
    code: string;
    name: string;
    treatment: string;
    cash: boolean;
    amount: string;
    /** A repayment: its loan and the balance once this paystub repays it (payslips.repo.ts says how). */
    loan?: { id: number; balanceAfter: string };
  }[];
  /** Sums over the paystubs that count for the year to date (payslips.repo.ts says which). */
  ytd: {
    year: number;
    paystubs: number;
    gross: string;
    tax: string;
    pension: string;
    net: string;
    /** Opening year-to-date (docs/payroll.md, "Opening year-to-date"): paid before this service; absent = none recorded. */
    opening?: { gross: string; tax: string; pension: string };
  };
}

export interface PayslipLine {
  label: string;
  amount: string;
  /** A subtotal or total: drawn bold with a rule above. */
  total?: boolean;
}

export interface Payslip {
  filename: string;
  title: string;
  company: { name: string; initials: string; addressLines: string[] };
  employee: [string, string][];
  period: [string, string][];
  earnings: PayslipLine[];
  deductions: PayslipLine[];
  netPay: string;
  employer: PayslipLine[];
  /** Each loan this paystub repays with its remaining balance; empty when none. */
  loans: PayslipLine[];
  ytdTitle: string;
  ytd: PayslipLine[];
  footer: string;
}
