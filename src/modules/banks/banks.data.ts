// Nigerian banks that pay salaries into NUBAN accounts, with the code their account numbers are
// checked against (docs/banks.md names the source and its date). `code` is what the API shows and
// stores: the CBN's 3-digit code for commercial, merchant and non-interest banks (and for the few
// microfinance banks that have one), and the 6-digit NUBAN institution code ("9" + the CBN's
// 5-digit code) for the other microfinance banks. `paystack` is the code Paystack's API takes for
// the same bank when it differs. `aliases` are the short names people type in a bank_name.

export type BankKind = 'commercial' | 'merchant' | 'non-interest' | 'microfinance';

export interface BankEntry {
  name: string;
  code: string;
  kind: BankKind;
  paystack?: string;
  aliases?: readonly string[];
}

export const BANK_DATA_SOURCE = {
  source: "Paystack's bank list for Nigeria (GET https://api.paystack.co/bank?country=nigeria) and the CBN NUBAN code table",
  capturedOn: '2026-11-23',
} as const;

export const BANK_ENTRIES: readonly BankEntry[] = [
  // Commercial banks (CBN 3-digit codes).
  { name: 'Access Bank', code: '044', kind: 'commercial', aliases: ['Access Bank Plc', 'Access'] },
  // Diamond Bank merged into Access in 2019; its old accounts keep their 063 NUBANs, so a bare
  // "Access" is ambiguous and gets no code.
  { name: 'Access Bank (Diamond)', code: '063', kind: 'commercial', aliases: ['Diamond', 'Diamond Bank', 'Access'] },
  { name: 'Citibank Nigeria', code: '023', kind: 'commercial', aliases: ['Citibank', 'Citi'] },
  { name: 'Ecobank Nigeria', code: '050', kind: 'commercial', aliases: ['Ecobank'] },
  { name: 'Fidelity Bank', code: '070', kind: 'commercial' },
  { name: 'First Bank of Nigeria', code: '011', kind: 'commercial', aliases: ['First Bank', 'FirstBank', 'FBN'] },
  { name: 'First City Monument Bank', code: '214', kind: 'commercial', aliases: ['FCMB'] },
  { name: 'Globus Bank', code: '103', kind: 'commercial', paystack: '00103' },
  { name: 'Guaranty Trust Bank', code: '058', kind: 'commercial', aliases: ['GTBank', 'GTB', 'GT Bank', 'GTCO', 'Guaranty Trust'] },
  { name: 'Keystone Bank', code: '082', kind: 'commercial' },
  { name: 'Optimus Bank', code: '107', kind: 'commercial' },
  { name: 'Parallex Bank', code: '104', kind: 'commercial' },
  { name: 'Polaris Bank', code: '076', kind: 'commercial', aliases: ['Skye Bank'] },
  { name: 'PremiumTrust Bank', code: '105', kind: 'commercial', aliases: ['Premium Trust Bank'] },
  { name: 'Providus Bank', code: '101', kind: 'commercial' },
  { name: 'Signature Bank', code: '106', kind: 'commercial' },
  { name: 'Stanbic IBTC Bank', code: '221', kind: 'commercial', aliases: ['Stanbic', 'Stanbic IBTC'] },
  { name: 'Standard Chartered Bank', code: '068', kind: 'commercial', aliases: ['Standard Chartered', 'StanChart'] },
  { name: 'Sterling Bank', code: '232', kind: 'commercial' },
  { name: 'SunTrust Bank', code: '100', kind: 'commercial' },
  { name: 'Titan Trust Bank', code: '102', kind: 'commercial', aliases: ['Titan Bank'] },
  { name: 'Union Bank of Nigeria', code: '032', kind: 'commercial', aliases: ['Union Bank', 'UBN'] },
  { name: 'United Bank for Africa', code: '033', kind: 'commercial', aliases: ['UBA'] },
  { name: 'Unity Bank', code: '215', kind: 'commercial' },
  { name: 'Wema Bank', code: '035', kind: 'commercial', aliases: ['ALAT', 'ALAT by Wema'] },
  { name: 'Zenith Bank', code: '057', kind: 'commercial' },
  // Non-interest banks.
  { name: 'Jaiz Bank', code: '301', kind: 'non-interest' },
  { name: 'TAJ Bank', code: '302', kind: 'non-interest', aliases: ['TAJBank'] },
  { name: 'Lotus Bank', code: '303', kind: 'non-interest' },
  // Merchant banks.
  { name: 'Coronation Merchant Bank', code: '559', kind: 'merchant', aliases: ['Coronation'] },
  { name: 'FSDH Merchant Bank', code: '501', kind: 'merchant', aliases: ['FSDH'] },
  { name: 'Greenwich Merchant Bank', code: '562', kind: 'merchant', aliases: ['Greenwich'] },
  { name: 'Rand Merchant Bank', code: '502', kind: 'merchant', aliases: ['RMB'] },
  // Microfinance banks with a CBN 3-digit code.
  { name: 'Accion Microfinance Bank', code: '602', kind: 'microfinance', aliases: ['Accion'] },
  { name: 'Ekondo Microfinance Bank', code: '098', kind: 'microfinance', aliases: ['Ekondo'] },
  { name: 'Rubies Microfinance Bank', code: '125', kind: 'microfinance', aliases: ['Rubies'] },
  { name: 'VFD Microfinance Bank', code: '566', kind: 'microfinance', aliases: ['VFD', 'V Bank', 'VBank'] },
  // Microfinance banks with a 6-digit NUBAN code ("9" + the CBN's 5-digit code Paystack uses).
  { name: 'Baobab Microfinance Bank', code: '950992', kind: 'microfinance', paystack: '50992', aliases: ['Baobab'] },
  { name: 'Bowen Microfinance Bank', code: '950931', kind: 'microfinance', paystack: '50931' },
  { name: 'FairMoney Microfinance Bank', code: '951318', kind: 'microfinance', paystack: '51318', aliases: ['FairMoney'] },
  { name: 'Kuda Microfinance Bank', code: '950211', kind: 'microfinance', paystack: '50211', aliases: ['Kuda', 'Kuda Bank'] },
  { name: 'Mint Microfinance Bank', code: '950304', kind: 'microfinance', paystack: '50304', aliases: ['Mint MFB'] },
  { name: 'Moniepoint Microfinance Bank', code: '950515', kind: 'microfinance', paystack: '50515', aliases: ['Moniepoint'] },
  { name: 'NPF Microfinance Bank', code: '950629', kind: 'microfinance', paystack: '50629' },
  { name: 'Safe Haven Microfinance Bank', code: '951113', kind: 'microfinance', paystack: '51113', aliases: ['Safe Haven'] },
  { name: 'Sparkle Microfinance Bank', code: '951310', kind: 'microfinance', paystack: '51310', aliases: ['Sparkle'] },
  { name: 'Unilag Microfinance Bank', code: '951316', kind: 'microfinance', paystack: '51316' },
];
