// The refusals and the codes' shape: normalising what a member types, generating readable codes.
import { randomInt } from 'node:crypto';

export const PROMO_REFUSAL_CODES = [
  'PROMO_CODE_INVALID',
  'PROMO_CODE_UNKNOWN',
  'PROMO_CODE_NOT_YET_VALID',
  'PROMO_CODE_EXPIRED',
  'PROMO_CODE_USED_UP',
  'PROMO_CODE_ALREADY_REDEEMED',
  'PROMO_CODE_NOT_NEW_MEMBER',
  'PROMO_CODE_RANK_TOO_LOW',
  'PROMO_CODE_RATE_LIMITED',
] as const;
export type PromoRefusalCode = (typeof PROMO_REFUSAL_CODES)[number];

/** The operators' refusals: a code that already exists, a code that is not there. */
export const PROMO_ADMIN_REFUSAL_CODES = ['PROMO_CODE_TAKEN', 'PROMO_CODE_NOT_FOUND'] as const;
export type PromoAdminRefusalCode = (typeof PROMO_ADMIN_REFUSAL_CODES)[number];

/** A normalised code: 4 to 32 letters and digits. */
export const PROMO_CODE_MAX_LENGTH = 32;
const CODE_PATTERN = /^[A-Z0-9]{4,32}$/;

/**
 * What the member typed, as stored: NFKC (full-width letters and digits become half-width), upper case,
 * without spaces (any kind) or hyphens/dashes (any kind, ー included). Null when nothing usable is left.
 * @example normalizePromoCode(' ａｂｃ－１２３ ') === 'ABC123'
 */
export function normalizePromoCode(input: string): string | null {
  const code = input
    .normalize('NFKC')
    .toUpperCase()
    .replace(/[\s\-‐‑‒–—―−ー_]/gu, '');
  return CODE_PATTERN.test(code) ? code : null;
}

/** The generated codes' alphabet: no 0/O, 1/I (nor L), easy to read aloud and to type. */
export const PROMO_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const GENERATED_CODE_LENGTH = 10;
export const MAX_BATCH_SIZE = 5000;

/** A random code from the readable alphabet (crypto random). */
export function randomPromoCode(length = GENERATED_CODE_LENGTH): string {
  let code = '';
  for (let i = 0; i < length; i++) code += PROMO_CODE_ALPHABET[randomInt(PROMO_CODE_ALPHABET.length)];
  return code;
}
