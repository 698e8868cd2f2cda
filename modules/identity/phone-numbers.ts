// Phone numbers as members type them, read once into E.164 (+819012345678) for storage, SMS and
// sign-in; shown back in the national format (090-1234-5678). Pure: pages, the API and better-auth's
// phoneNumber plugin (phone.server.ts) share this one rule (docs/decisions/017).
import { z } from 'zod';
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';

/** Which numbers may receive the shop's SMS codes; from the PHONE_COUNTRIES setting. */
export interface PhoneNumberPolicy {
  /** ISO 3166 country codes whose mobile numbers are accepted; the first is the default for numbers typed without +. */
  countries: readonly string[];
}

export const PHONE_NUMBER_MESSAGES = {
  required: '電話番号を入力してください。',
  invalid: '電話番号の形式が正しくありません。',
  notMobile: 'SMSを受け取れる携帯電話の番号（070・080・090など）を入力してください。',
  foreign: '日本の携帯電話の番号を入力してください。',
  country: 'この国・地域の電話番号はご利用いただけません。',
} as const;

/** Dashes members type between groups: hyphen-minus, hyphens, minus signs, the long-vowel mark ー. */
const DASHES = /[\u2010-\u2015\u2212\u30fc\uff0d\uff70]/g;

/**
 * Reads what a member typed (090-1234-5678, 09012345678, full-width ０９０…, +81 90 1234 5678) into
 * E.164, or says why not: mobile numbers only (landlines, 050 IP phones, 0120 and 020 cannot take an
 * SMS code), and only the countries of the policy.
 */
export function readPhoneNumber(
  input: string,
  policy: PhoneNumberPolicy,
): { ok: true; e164: string } | { ok: false; message: string } {
  const text = input
    .normalize('NFKC')
    .replace(DASHES, '-')
    .replace(/[\s\u3000]+/g, ' ')
    .trim();
  if (!text) return { ok: false, message: PHONE_NUMBER_MESSAGES.required };
  if (text.length > 32 || !/^\+?[\d\-() ]+$/.test(text)) return { ok: false, message: PHONE_NUMBER_MESSAGES.invalid };
  const defaultCountry = (policy.countries[0] ?? 'JP') as CountryCode;
  // A number typed with + is international; without, it is read in the default country (0 90 …).
  const parsed = parsePhoneNumberFromString(text, text.startsWith('+') ? undefined : defaultCountry);
  if (!parsed || !parsed.isValid()) return { ok: false, message: PHONE_NUMBER_MESSAGES.invalid };
  if (!parsed.country || !policy.countries.includes(parsed.country))
    return {
      ok: false,
      message:
        policy.countries.length === 1 && policy.countries[0] === 'JP'
          ? PHONE_NUMBER_MESSAGES.foreign
          : PHONE_NUMBER_MESSAGES.country,
    };
  const type = parsed.getType();
  // Some countries (US, CA) do not tell mobile from fixed numbers; their carriers deliver SMS to both.
  if (type !== 'MOBILE' && type !== 'FIXED_LINE_OR_MOBILE')
    return { ok: false, message: PHONE_NUMBER_MESSAGES.notMobile };
  return { ok: true, e164: parsed.number };
}

/**
 * The zod schema of a phone number field: a string in, E.164 out.
 * @example phoneNumberSchema({ countries: ['JP'] }).parse('０９０-1234-5678') // '+819012345678'
 */
export function phoneNumberSchema(policy: PhoneNumberPolicy) {
  return z.string({ error: PHONE_NUMBER_MESSAGES.required }).transform((value, context) => {
    const read = readPhoneNumber(value, policy);
    if (read.ok) return read.e164;
    context.addIssue({ code: 'custom', message: read.message });
    return z.NEVER;
  });
}

/** True for a number already in the one form the shop stores (what better-auth's endpoints take). */
export function isStoredPhoneNumber(value: string, policy: PhoneNumberPolicy): boolean {
  const read = readPhoneNumber(value, policy);
  return read.ok && read.e164 === value;
}

/**
 * How a stored number is shown: a Japanese number as Japanese members write it (090-1234-5678),
 * any other in the international format (+1 415 555 2671).
 * @example formatPhoneNumber('+819012345678') // '090-1234-5678'
 */
export function formatPhoneNumber(e164: string): string {
  const parsed = parsePhoneNumberFromString(e164);
  if (!parsed) return e164;
  return parsed.country === 'JP' ? parsed.formatNational() : parsed.formatInternational();
}

/**
 * The number with its middle hidden, for pages: the last four digits and the first group stay.
 * @example maskPhoneNumber('+819012345678') // '090-****-5678'
 */
export function maskPhoneNumber(e164: string): string {
  const shown = formatPhoneNumber(e164);
  const digits = shown.replace(/\D/g, '').length;
  let seen = 0;
  const firstGroupEnd = shown.search(/[\s-]/);
  return shown.replace(/\d/g, (digit, offset: number) => {
    seen += 1;
    const inFirstGroup = firstGroupEnd > 0 && offset < firstGroupEnd;
    return inFirstGroup || seen > digits - 4 ? digit : '*';
  });
}

/** The SMS code a member types: 6 digits (full-width and spaces forgiven). */
export const phoneCodeSchema = z
  .string({ error: '認証コードを入力してください。' })
  .transform((value) => value.normalize('NFKC').replace(/\s+/g, ''))
  .pipe(
    z
      .string()
      .min(1, '認証コードを入力してください。')
      .regex(/^\d{6}$/, '認証コードは6桁の数字で入力してください。'),
  );
