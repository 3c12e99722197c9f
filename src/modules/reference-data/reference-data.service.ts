// Reference lists every company shares: the states with their tax authorities and the licensed
// PFAs. Data files in this folder (states.data.ts, pfas.data.ts), not tables: they change with
// the law or the industry, through a reviewed commit, never per company.
import { PFAS, PFAS_AS_OF } from './pfas.data.js';
import { STATES, STATES_AS_OF } from './states.data.js';

export const STATES_SOURCE =
  "ISO 3166-2:NG state codes; each state's tax authority as named in its revenue law and on its website (docs/statutory-data.md)";
export const PFAS_SOURCE = 'National Pension Commission (PenCom), list of licensed Pension Fund Administrators (docs/statutory-data.md)';

const stateCodes = new Set(STATES.map((state) => state.code));
const pfaCodes = new Set(PFAS.map((pfa) => pfa.code));

/** A state code (AB … ZA, FC for the FCT), upper-case. */
export const isStateCode = (code: string): boolean => stateCodes.has(code);
/** A PFA code of GET /api/pfas, upper-case. */
export const isPfaCode = (code: string): boolean => pfaCodes.has(code);

export const stateByCode = (code: string) => STATES.find((state) => state.code === code);
export const pfaByCode = (code: string) => PFAS.find((pfa) => pfa.code === code);

export function createReferenceDataService() {
  return {
    states: () => ({ data: [...STATES], source: STATES_SOURCE, as_of: STATES_AS_OF }),
    pfas: () => ({ data: [...PFAS], source: PFAS_SOURCE, as_of: PFAS_AS_OF }),
  };
}

export type ReferenceDataService = ReturnType<typeof createReferenceDataService>;
