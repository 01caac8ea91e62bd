import { randomInt } from 'node:crypto';
import type { LIVE_CALL_COUNTRIES, LIVE_CALL_PHONE_TYPES } from './live-call-router.schema';

type Country = (typeof LIVE_CALL_COUNTRIES)[number];
type PhoneType = (typeof LIVE_CALL_PHONE_TYPES)[number];

const digits = (n: number) => Array.from({ length: n }, () => randomInt(10)).join('');

/**
 * Prefixes of each country's numbers by type. Where a country reserves numbers for drama and
 * documentation (the US and Canada's 555-01xx, the UK's Ofcom ranges, Australia's ACMA ranges), a
 * number comes from them; elsewhere from the type's usual prefix. Then random digits to the length.
 */
const PLANS: Record<Country, Record<PhoneType, { prefix: () => string; length: number }>> = {
  US: { local: { prefix: () => `+1${200 + randomInt(700)}55501`, length: 12 }, toll_free: { prefix: () => '+180055501', length: 12 }, mobile: { prefix: () => `+1${200 + randomInt(700)}55501`, length: 12 } },
  CA: { local: { prefix: () => '+141655501', length: 12 }, toll_free: { prefix: () => '+188855501', length: 12 }, mobile: { prefix: () => '+160455501', length: 12 } },
  GB: { local: { prefix: () => '+442079460', length: 13 }, toll_free: { prefix: () => '+448081570', length: 13 }, mobile: { prefix: () => '+447700900', length: 13 } },
  AU: { local: { prefix: () => '+61255550', length: 12 }, toll_free: { prefix: () => '+611800160', length: 13 }, mobile: { prefix: () => '+61491570', length: 12 } },
  NZ: { local: { prefix: () => '+6499', length: 11 }, toll_free: { prefix: () => '+64800', length: 12 }, mobile: { prefix: () => '+6421', length: 12 } },
  DE: { local: { prefix: () => '+4930', length: 13 }, toll_free: { prefix: () => '+49800', length: 14 }, mobile: { prefix: () => '+49151', length: 14 } },
  NL: { local: { prefix: () => '+3120', length: 12 }, toll_free: { prefix: () => '+31800', length: 12 }, mobile: { prefix: () => '+316', length: 12 } },
  SE: { local: { prefix: () => '+468', length: 12 }, toll_free: { prefix: () => '+4620', length: 12 }, mobile: { prefix: () => '+4670', length: 12 } },
  CH: { local: { prefix: () => '+4144', length: 12 }, toll_free: { prefix: () => '+41800', length: 12 }, mobile: { prefix: () => '+4179', length: 12 } },
};

/** A number a live call router can be registered with (`generate_phone_number`): E.164, of the country and type. */
export function generatePhoneNumber(country: Country, type: PhoneType): string {
  const plan = PLANS[country][type];
  const prefix = plan.prefix();
  return prefix + digits(plan.length - prefix.length);
}
