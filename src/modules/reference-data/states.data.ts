// The 36 states of Nigeria and the Federal Capital Territory, with the authority that collects
// PAYE for each (an employee's PAYE goes to the state where they are resident: PITA s.2 and the
// First Schedule's "relevant tax authority"). Codes: ISO 3166-2:NG (the two letters after "NG-").
// Authority names: each state's revenue service as it names itself (its revenue law and website),
// as of 2025-06; most are "<State> State Internal Revenue Service" after the reforms that followed
// the Personal Income Tax (Amendment) Act 2011, a few keep "Board of Internal Revenue". The FCT's
// is the FCT Internal Revenue Service (FCT-IRS Act 2015). Source and date: docs/statutory-data.md.
export interface StateEntry {
  code: string;
  name: string;
  tax_authority: string;
}

const service = (state: string) => `${state} State Internal Revenue Service`;

export const STATES_AS_OF = '2025-06-30';

export const STATES: readonly StateEntry[] = [
  { code: 'AB', name: 'Abia', tax_authority: service('Abia') },
  { code: 'AD', name: 'Adamawa', tax_authority: service('Adamawa') },
  { code: 'AK', name: 'Akwa Ibom', tax_authority: service('Akwa Ibom') },
  { code: 'AN', name: 'Anambra', tax_authority: service('Anambra') },
  { code: 'BA', name: 'Bauchi', tax_authority: service('Bauchi') },
  { code: 'BY', name: 'Bayelsa', tax_authority: 'Bayelsa State Board of Internal Revenue' },
  { code: 'BE', name: 'Benue', tax_authority: service('Benue') },
  { code: 'BO', name: 'Borno', tax_authority: service('Borno') },
  { code: 'CR', name: 'Cross River', tax_authority: service('Cross River') },
  { code: 'DE', name: 'Delta', tax_authority: 'Delta State Board of Internal Revenue' },
  { code: 'EB', name: 'Ebonyi', tax_authority: service('Ebonyi') },
  { code: 'ED', name: 'Edo', tax_authority: service('Edo') },
  { code: 'EK', name: 'Ekiti', tax_authority: service('Ekiti') },
  { code: 'EN', name: 'Enugu', tax_authority: service('Enugu') },
  { code: 'FC', name: 'Federal Capital Territory', tax_authority: 'FCT Internal Revenue Service' },
  { code: 'GO', name: 'Gombe', tax_authority: service('Gombe') },
  { code: 'IM', name: 'Imo', tax_authority: service('Imo') },
  { code: 'JI', name: 'Jigawa', tax_authority: service('Jigawa') },
  { code: 'KD', name: 'Kaduna', tax_authority: service('Kaduna') },
  { code: 'KN', name: 'Kano', tax_authority: service('Kano') },
  { code: 'KT', name: 'Katsina', tax_authority: service('Katsina') },
  { code: 'KE', name: 'Kebbi', tax_authority: service('Kebbi') },
  { code: 'KO', name: 'Kogi', tax_authority: service('Kogi') },
  { code: 'KW', name: 'Kwara', tax_authority: service('Kwara') },
  { code: 'LA', name: 'Lagos', tax_authority: service('Lagos') },
  { code: 'NA', name: 'Nasarawa', tax_authority: service('Nasarawa') },
  { code: 'NI', name: 'Niger', tax_authority: service('Niger') },
  { code: 'OG', name: 'Ogun', tax_authority: service('Ogun') },
  { code: 'ON', name: 'Ondo', tax_authority: service('Ondo') },
  { code: 'OS', name: 'Osun', tax_authority: service('Osun') },
  { code: 'OY', name: 'Oyo', tax_authority: service('Oyo') },
  { code: 'PL', name: 'Plateau', tax_authority: service('Plateau') },
  { code: 'RI', name: 'Rivers', tax_authority: service('Rivers') },
  { code: 'SO', name: 'Sokoto', tax_authority: service('Sokoto') },
  { code: 'TA', name: 'Taraba', tax_authority: service('Taraba') },
  { code: 'YO', name: 'Yobe', tax_authority: service('Yobe') },
  { code: 'ZA', name: 'Zamfara', tax_authority: service('Zamfara') },
];
