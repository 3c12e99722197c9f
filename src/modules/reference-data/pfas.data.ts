// The Pension Fund Administrators licensed by the National Pension Commission (PenCom), from
// PenCom's list of licensed operators ("Licensed PFAs", pencom.gov.ng) as it stood on PFAS_AS_OF,
// written from that list without a live download (the repository is built offline); check it
// against PenCom's current list when the industry changes (mergers rename PFAs: Access ARM,
// Tangerine APT, CardinalStone). The codes are this service's own stable identifiers, short
// upper-case abbreviations of each PFA's name: PenCom's contribution schedules name the PFA, and
// the code is what an employee record and a remittance schedule key on here. A renamed PFA keeps
// its code; a PFA that loses its licence is removed only together with a migration of the users
// holding its code. Source and date are also in docs/statutory-data.md.
export interface PfaEntry {
  code: string;
  name: string;
}

export const PFAS_AS_OF = '2025-06-30';

export const PFAS: readonly PfaEntry[] = [
  { code: 'ACCESSARM', name: 'Access ARM Pensions Limited' },
  { code: 'CARDINALSTONE', name: 'CardinalStone Pensions Limited' },
  { code: 'CITIZENS', name: 'Citizens Pensions Limited' },
  { code: 'CRUSADER', name: 'Crusader Sterling Pensions Limited' },
  { code: 'FCMB', name: 'FCMB Pensions Limited' },
  { code: 'FIDELITY', name: 'Fidelity Pension Managers Limited' },
  { code: 'GTPML', name: 'Guaranty Trust Pension Managers Limited' },
  { code: 'LEADWAY', name: 'Leadway PFA Limited' },
  { code: 'NLPC', name: 'NLPC Pension Fund Administrators Limited' },
  { code: 'NORRENBERGER', name: 'Norrenberger Pensions Limited' },
  { code: 'NPF', name: 'NPF Pensions Limited' },
  { code: 'NUPEMCO', name: 'Nigerian University Pension Management Company Limited' },
  { code: 'OAK', name: 'Oak Pensions Limited' },
  { code: 'PAL', name: 'Pensions Alliance Limited' },
  { code: 'PREMIUM', name: 'Premium Pension Limited' },
  { code: 'RADIX', name: 'Radix Pension Managers Limited' },
  { code: 'STANBICIBTC', name: 'Stanbic IBTC Pension Managers Limited' },
  { code: 'TANGERINEAPT', name: 'Tangerine APT Pensions Limited' },
  { code: 'TRUSTFUND', name: 'Trustfund Pensions Limited' },
  { code: 'VERITAS', name: 'Veritas Glanvills Pensions Limited' },
];
