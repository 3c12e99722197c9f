// The snapshot a paystub keeps of what it was computed from (docs/statutory-data.md): the employee's
// statutory identity and the period's basic, housing and transport amounts, so that a later edit of
// the employee or of the settings never rewrites an earlier month's schedules. Pure.
import type { EngineSettings } from '../../tax-engine/engine.types.js';
import { divRound, type Kobo, koboToString, RATE_SCALE, toRate } from '../../tax-engine/money.js';

/** The user's fields a snapshot copies (absent or null: unknown when the paystub was computed). */
export interface SnapshotUser {
  state_of_residence?: string | null;
  pfa_code?: string | null;
  rsa_pin?: string | null;
  nhf_number?: string | null;
}

export interface PaystubSnapshot {
  stateOfResidence: string | null;
  pfaCode: string | null;
  rsaPin: string | null;
  nhfNumber: string | null;
  /** T × basic_percentage, rounded half-up to the kobo once (decimal string). */
  basicPay: string;
  housingPay: string;
  transportPay: string;
}

/** The run's salary split as rates (percent × 10^4), parsed once per run. */
export interface SalarySplit {
  basic: bigint;
  housing: bigint;
  transport: bigint;
}

export function salarySplit(settings: EngineSettings): SalarySplit {
  const rate = (value: string) => toRate(value) ?? 0n;
  return {
    basic: rate(settings.basicPercentage),
    housing: rate(settings.housingPercentage),
    transport: rate(settings.transportPercentage),
  };
}

// RATE_SCALE is 100 % (a rate is percent × 10^4).
const share = (t: Kobo, rate: bigint) => koboToString(divRound(t * rate, RATE_SCALE));

export function paystubSnapshot(user: SnapshotUser, taxableIncome: Kobo, split: SalarySplit): PaystubSnapshot {
  return {
    stateOfResidence: user.state_of_residence ?? null,
    pfaCode: user.pfa_code ?? null,
    rsaPin: user.rsa_pin ?? null,
    nhfNumber: user.nhf_number ?? null,
    basicPay: share(taxableIncome, split.basic),
    housingPay: share(taxableIncome, split.housing),
    transportPay: share(taxableIncome, split.transport),
  };
}
