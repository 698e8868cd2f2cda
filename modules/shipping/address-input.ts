// The one input schema of an address (氏名 … 電話番号), shared by the JSON API and the page's action:
// Japanese messages per field, text made one form, the postal code checked against the prefecture
// and the city with Japan Post's data.
import { z } from 'zod';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import {
  ADDRESS_FIELD_LABELS as LABELS,
  ADDRESS_FIELD_LIMITS as LIMITS,
  KATAKANA_ONLY,
  formatPostalCode,
  isPrefecture,
  normalizeAddressText,
  normalizeStreetText,
  readPostalCode,
  toKatakana,
} from './address-text';
import { placesOfPostalCode, type PostalPlace } from './postal';

/** An address as stored (sealed) and shown: text in one form, the postal code as 7 digits, the phone as 090-1234-5678. */
export interface AddressFields {
  name: string;
  nameKana: string;
  postalCode: string;
  prefecture: string;
  city: string;
  town: string;
  building: string | null;
  phone: string;
}

export const ADDRESS_MESSAGES = {
  postalCodeFormat: '郵便番号は7桁の数字で入力してください（例: 100-0001）。',
  postalCodeUnknown: 'この郵便番号は見つかりませんでした。番号をご確認ください。',
  prefecture: '都道府県を選んでください。',
  nameKana: 'フリガナはカタカナで入力してください（ひらがなも使えます）。',
  phoneFormat: '電話番号の形式が正しくありません（例: 090-1234-5678、03-1234-5678）。',
  phoneForeign: '日本国内の電話番号を入力してください。',
  phoneKind: '配送業者から連絡のとれる携帯電話・固定電話の番号を入力してください（0120・0570などは使えません）。',
  emoji: '絵文字や記号の一部は配送伝票に印字できないため使えません。',
} as const;

const required = (label: string) => `${label}を入力してください。`;
const tooLong = (label: string, max: number) => `${label}は${max}文字以内で入力してください。`;
/** Carriers' label printers cannot print pictographs; they are refused rather than lost on the label. */
const PICTOGRAPH = /\p{Extended_Pictographic}/u;

/** A required line of text in one form (NFKC, spaces), at most `max` characters. */
function textField(label: string, max: number, normalize: (value: string) => string = normalizeAddressText) {
  return z
    .string({ error: required(label) })
    .max(max * 4, tooLong(label, max))
    .transform(normalize)
    .pipe(
      z
        .string()
        .min(1, required(label))
        .max(max, tooLong(label, max))
        .refine((v) => !PICTOGRAPH.test(v), ADDRESS_MESSAGES.emoji),
    )
    .meta({ description: `${label}（${max}文字以内）` });
}

/**
 * 郵便番号 as typed (〒, full-width digits, any dash, spaces): 7 digits out.
 * @example postalCodeSchema.parse('〒１００ー０００１') // '1000001'
 */
export const postalCodeSchema = z
  .string({ error: required(LABELS.postalCode) })
  .max(40, ADDRESS_MESSAGES.postalCodeFormat)
  .transform((value, context) => {
    if (value.trim() === '') {
      context.addIssue({ code: 'custom', message: required(LABELS.postalCode) });
      return z.NEVER;
    }
    const digits = readPostalCode(value);
    if (digits) return digits;
    context.addIssue({ code: 'custom', message: ADDRESS_MESSAGES.postalCodeFormat });
    return z.NEVER;
  })
  .meta({ description: '郵便番号（7桁。〒・ハイフン・全角数字も可）', examples: ['100-0001'] });

/**
 * A Japanese phone number a carrier can call (mobile, landline, 050), as typed with or without
 * dashes, in full or half width, or +81: written back as 090-1234-5678 / 03-1234-5678.
 * @example readAddressPhone('０３（１２３４）５６７８') // { ok: true, phone: '03-1234-5678' }
 */
export function readAddressPhone(value: string): { ok: true; phone: string } | { ok: false; message: string } {
  const text = value
    .normalize('NFKC')
    .replace(/[\u2010-\u2015\u2212\u30fc\uff70]/g, '-')
    .replace(/\s+/g, '');
  if (!text) return { ok: false, message: required(LABELS.phone) };
  if (text.length > 24 || !/^\+?[\d\-()]+$/.test(text)) return { ok: false, message: ADDRESS_MESSAGES.phoneFormat };
  const parsed = parsePhoneNumberFromString(text, 'JP');
  if (!parsed || !parsed.isValid()) return { ok: false, message: ADDRESS_MESSAGES.phoneFormat };
  if (parsed.country !== 'JP') return { ok: false, message: ADDRESS_MESSAGES.phoneForeign };
  const kind = parsed.getType();
  if (kind !== 'MOBILE' && kind !== 'FIXED_LINE' && kind !== 'FIXED_LINE_OR_MOBILE' && kind !== 'VOIP')
    return { ok: false, message: ADDRESS_MESSAGES.phoneKind };
  return { ok: true, phone: parsed.formatNational() };
}

const phoneSchema = z
  .string({ error: required(LABELS.phone) })
  .max(40, ADDRESS_MESSAGES.phoneFormat)
  .transform((value, context) => {
    const read = readAddressPhone(value);
    if (read.ok) return read.phone;
    context.addIssue({ code: 'custom', message: read.message });
    return z.NEVER;
  })
  .meta({ description: '電話番号（携帯・固定・050。ハイフンの有無・全角は問いません）', examples: ['090-1234-5678'] });

const prefectureSchema = z
  .string({ error: ADDRESS_MESSAGES.prefecture })
  .max(20, ADDRESS_MESSAGES.prefecture)
  .transform(normalizeAddressText)
  .refine(isPrefecture, ADDRESS_MESSAGES.prefecture)
  .meta({ description: '都道府県（47都道府県の名前、例: 東京都）', examples: ['東京都'] });

const nameKanaSchema = z
  .string({ error: required(LABELS.nameKana) })
  .max(LIMITS.nameKana * 4, tooLong(LABELS.nameKana, LIMITS.nameKana))
  .transform(toKatakana)
  .pipe(
    z
      .string()
      .min(1, required(LABELS.nameKana))
      .max(LIMITS.nameKana, tooLong(LABELS.nameKana, LIMITS.nameKana))
      .regex(KATAKANA_ONLY, ADDRESS_MESSAGES.nameKana),
  )
  .meta({ description: `フリガナ（${LIMITS.nameKana}文字以内。ひらがな・半角カナも可、全角カタカナで保存）` });

/** 建物名・部屋番号: optional; empty or absent is null. */
const buildingSchema = z
  .string()
  .max(LIMITS.building * 4, tooLong(LABELS.building, LIMITS.building))
  .nullish()
  .transform((value) => (value ? normalizeStreetText(value) : ''))
  .pipe(
    z
      .string()
      .max(LIMITS.building, tooLong(LABELS.building, LIMITS.building))
      .refine((v) => !PICTOGRAPH.test(v), ADDRESS_MESSAGES.emoji),
  )
  .transform((value) => value || null)
  .meta({ description: `建物名・部屋番号（任意、${LIMITS.building}文字以内）` });

/** Whether what the member wrote as 市区町村 (and on into 町域) starts with one of the code's cities. */
function cityMatches(places: readonly PostalPlace[], prefecture: string, city: string, town: string): boolean {
  const fold = (text: string) => text.replace(/\s/g, '').replace(/ヶ/g, 'ケ').replace(/ヵ/g, 'カ');
  let typed = fold(city + town);
  if (typed.startsWith(prefecture)) typed = typed.slice(prefecture.length);
  return places.some((place) => {
    const name = fold(place.city);
    // 郡 is often left out: 八重山郡与那国町 is written 与那国町.
    return typed.startsWith(name) || typed.startsWith(name.replace(/^.+?郡/, ''));
  });
}

/**
 * The address form and the API body (createAddress, updateAddress): every field read into one form,
 * and the postal code checked against the prefecture and the city. `isDefault: true` makes it the
 * member's usual address.
 * @example addressInputSchema.safeParse({ name: '山田 太郎', nameKana: 'やまだ たろう', postalCode: '１００-０００１', prefecture: '東京都', city: '千代田区', town: '千代田１ー１', phone: '09012345678' })
 */
export const addressInputSchema = z
  .object({
    name: textField(LABELS.name, LIMITS.name),
    nameKana: nameKanaSchema,
    postalCode: postalCodeSchema,
    prefecture: prefectureSchema,
    city: textField(LABELS.city, LIMITS.city),
    town: textField(LABELS.town, LIMITS.town, normalizeStreetText),
    building: buildingSchema,
    phone: phoneSchema,
    isDefault: z.boolean().optional(),
  })
  .superRefine(
    (address, context) => {
      // Runs after other fields' refusals too (`when`), so a field may still hold the raw input (a
      // number, an array): only a well-formed code and prefecture are compared.
      const { postalCode, prefecture, city, town } = address as Record<string, unknown>;
      if (typeof postalCode !== 'string' || !/^\d{7}$/.test(postalCode)) return;
      if (typeof prefecture !== 'string' || !isPrefecture(prefecture)) return;
      const places = placesOfPostalCode(postalCode);
      const shown = formatPostalCode(postalCode);
      if (places.length === 0) {
        context.addIssue({ code: 'custom', path: ['postalCode'], message: ADDRESS_MESSAGES.postalCodeUnknown });
        return;
      }
      const inPrefecture = places.filter((place) => place.prefecture === prefecture);
      if (inPrefecture.length === 0) {
        context.addIssue({
          code: 'custom',
          path: ['prefecture'],
          message: `郵便番号 ${shown} は${places[0]!.prefecture}の番号です。郵便番号か都道府県をご確認ください。`,
        });
        return;
      }
      if (typeof city !== 'string' || !city) return;
      if (!cityMatches(inPrefecture, prefecture, city, typeof town === 'string' ? town : '')) {
        const cities = [...new Set(inPrefecture.map((place) => place.city))].join('・');
        context.addIssue({
          code: 'custom',
          path: ['city'],
          message: `郵便番号 ${shown} の市区町村は「${cities}」です。郵便番号か市区町村をご確認ください。`,
        });
      }
    },
    // Also when another field (the phone, say) was refused: every message of the form at once.
    { when: (payload) => typeof payload.value === 'object' && payload.value !== null },
  );

export type AddressInput = z.output<typeof addressInputSchema>;

/** An address as it is sealed: the fields exactly, so a row that opens is a valid address. */
export const storedAddressSchema = z.object({
  name: z.string(),
  nameKana: z.string(),
  postalCode: z.string().regex(/^\d{7}$/),
  prefecture: z.string(),
  city: z.string(),
  town: z.string(),
  building: z.string().nullable(),
  phone: z.string(),
});

/** Exactly the address fields of an input or a book entry (without the book's flag, id and times). */
export const addressFieldsOf = (input: AddressFields): AddressFields => ({
  name: input.name,
  nameKana: input.nameKana,
  postalCode: input.postalCode,
  prefecture: input.prefecture,
  city: input.city,
  town: input.town,
  building: input.building,
  phone: input.phone,
});
