// The carriers a prize ships with (ヤマト運輸, 佐川急便, 日本郵便): names, tracking numbers as operators type them, tracking pages.
import { z } from 'zod';

/** The carriers' stable codes (stored with a shipped request, used in the API and in CSV files). */
export const CARRIER_CODES = ['yamato', 'sagawa', 'japanpost'] as const;
export type CarrierCode = (typeof CARRIER_CODES)[number];

export interface Carrier {
  code: CarrierCode;
  /** The company's name as members know it. */
  name: string;
  /** What the carrier calls the number on its label, for form labels and messages. */
  numberLabel: string;
  /** The accepted format, in Japanese, for hints and error messages. */
  format: string;
  /** Other ways operators write the carrier (a CSV from the label software, a hand-made sheet). */
  aliases: readonly string[];
}

/**
 * The three carriers. Formats are the carriers' own lengths, digits only once hyphens are removed:
 * ヤマト運輸 12 digits; 佐川急便 10 or 12; 日本郵便 11 to 13 (ゆうパック, ゆうパケット, 書留…) or an
 * international item number of the UPU S10 form (EJ123456789JP). Check digits are not verified: a
 * carrier's rule mis-stated here would refuse a real parcel, and the tracking page shows a mistyped one.
 * @example CARRIERS.yamato.name // 'ヤマト運輸'
 */
export const CARRIERS: Readonly<Record<CarrierCode, Carrier>> = Object.freeze({
  yamato: {
    code: 'yamato',
    name: 'ヤマト運輸',
    numberLabel: '送り状番号',
    format: '12桁の数字',
    aliases: ['ヤマト', 'クロネコヤマト', 'Yamato Transport'],
  },
  sagawa: {
    code: 'sagawa',
    name: '佐川急便',
    numberLabel: 'お問い合せ送り状番号',
    format: '10桁または12桁の数字',
    aliases: ['佐川', 'Sagawa Express'],
  },
  japanpost: {
    code: 'japanpost',
    name: '日本郵便',
    numberLabel: 'お問い合わせ番号',
    format: '11〜13桁の数字、または国際郵便の英字2文字・数字9桁・英字2文字（例: EJ123456789JP）',
    aliases: ['ゆうパック', 'ゆうパケット', '郵便局', 'Japan Post'],
  },
});

const FORMATS: Record<CarrierCode, RegExp> = {
  yamato: /^\d{12}$/,
  sagawa: /^(?:\d{10}|\d{12})$/,
  japanpost: /^(?:\d{11,13}|[A-Z]{2}\d{9}[A-Z]{2})$/,
};

/** Dashes people type between digit groups: hyphen-minus, hyphens and dashes, minus signs, the long-vowel mark ー. */
const DASHES = /[-\u2010-\u2015\u2212\u30fc\uff0d\uff70]/g;
/** Longer than any carrier's number with every group separated: not worth reading further. */
const MAX_TYPED_LENGTH = 40;

/** Codes of a tracking number's refusals; `checkTrackingNumber` gives the Japanese message beside the code. */
export const TRACKING_NUMBER_ERROR_CODES = ['TRACKING_NUMBER_REQUIRED', 'TRACKING_NUMBER_FORMAT'] as const;
export type TrackingNumberErrorCode = (typeof TRACKING_NUMBER_ERROR_CODES)[number];

const foldForLookup = (text: string) => text.normalize('NFKC').replace(/\s+/g, '').toLowerCase();
const CARRIER_BY_NAME = new Map<string, CarrierCode>(
  Object.values(CARRIERS).flatMap((carrier) =>
    [carrier.code, carrier.name, ...carrier.aliases].map((name) => [foldForLookup(name), carrier.code] as const),
  ),
);

/**
 * The carrier an operator wrote, by code, Japanese name or a common other name (full-width,
 * spaces and case forgiven), or null.
 * @example carrierFromText('佐川急便') // 'sagawa'
 * @example carrierFromText(' ＹＡＭＡＴＯ ') // 'yamato'
 */
export function carrierFromText(text: string): CarrierCode | null {
  return CARRIER_BY_NAME.get(foldForLookup(text)) ?? null;
}

/**
 * A tracking number in the one form the shop stores: full-width digits and letters made half-width,
 * spaces and hyphens (any dash, ー included) removed, letters upper-case.
 * @example normalizeTrackingNumber('１２３４－５６７８－９０１２') // '123456789012'
 */
export function normalizeTrackingNumber(text: string): string {
  return text.normalize('NFKC').replace(DASHES, '').replace(/\s+/g, '').toUpperCase();
}

/** The message when a number fits another carrier: say which, so the operator checks the carrier, not the digits. */
function formatMessage(carrier: CarrierCode, normalized: string): string {
  const { name, numberLabel, format } = CARRIERS[carrier];
  const fits = CARRIER_CODES.filter((other) => other !== carrier && FORMATS[other].test(normalized));
  const expected = `${name}の${numberLabel}は${format}です（ハイフンは省略できます）。`;
  return fits.length
    ? `${expected}入力された番号は${fits.map((other) => CARRIERS[other].name).join('・')}の形式です。運送会社をご確認ください。`
    : expected;
}

/**
 * Reads a tracking number typed for a carrier: the stored form, or a stable code and a Japanese
 * message that names the expected format (and the carrier whose format it is, when it is another's).
 * @example checkTrackingNumber('yamato', '1234-5678-9012') // { ok: true, trackingNumber: '123456789012' }
 * @example checkTrackingNumber('yamato', 'EJ123456789JP') // { ok: false, code: 'TRACKING_NUMBER_FORMAT', message: 'ヤマト運輸の送り状番号は12桁の数字です（…）。入力された番号は日本郵便の形式です。運送会社をご確認ください。' }
 */
export function checkTrackingNumber(
  carrier: CarrierCode,
  text: string,
): { ok: true; trackingNumber: string } | { ok: false; code: TrackingNumberErrorCode; message: string } {
  const normalized = typeof text === 'string' ? normalizeTrackingNumber(text) : '';
  if (!normalized)
    return {
      ok: false,
      code: 'TRACKING_NUMBER_REQUIRED',
      message: `${CARRIERS[carrier].numberLabel}を入力してください。`,
    };
  if (text.length > MAX_TYPED_LENGTH || !FORMATS[carrier].test(normalized))
    return { ok: false, code: 'TRACKING_NUMBER_FORMAT', message: formatMessage(carrier, normalized) };
  return { ok: true, trackingNumber: normalized };
}

/**
 * The carrier's public tracking page for a number (opened by the member from the request's timeline).
 * @example trackingUrl('sagawa', '123456789012') // 'https://k2k.sagawa-exp.co.jp/p/web/okurijosearch.do?okurijoNo=123456789012'
 */
export function trackingUrl(carrier: CarrierCode, trackingNumber: string): string {
  const number = normalizeTrackingNumber(trackingNumber);
  switch (carrier) {
    case 'yamato':
      // number00 is the count of numbers asked (the form takes up to ten: number01…number10).
      return `https://toi.kuronekoyamato.co.jp/cgi-bin/tneko?${new URLSearchParams({ number00: '1', number01: number })}`;
    case 'sagawa':
      return `https://k2k.sagawa-exp.co.jp/p/web/okurijosearch.do?${new URLSearchParams({ okurijoNo: number })}`;
    case 'japanpost':
      return `https://trackings.post.japanpost.jp/services/srv/search/direct?${new URLSearchParams({ reqCodeNo1: number, locale: 'ja' })}`;
  }
}

/**
 * The one input of marking a request shipped (the desk's form, the API, each CSV row): a carrier code
 * and a tracking number as typed, out as the stored form.
 * @example shipmentTrackingSchema.parse({ carrier: 'yamato', trackingNumber: '１２３４-５６７８-９０１２' }) // { carrier: 'yamato', trackingNumber: '123456789012' }
 */
export const shipmentTrackingSchema = z
  .object({
    carrier: z.enum(CARRIER_CODES, { error: '運送会社を選んでください。' }),
    trackingNumber: z.string({ error: '追跡番号を入力してください。' }),
  })
  .transform((input, context) => {
    const checked = checkTrackingNumber(input.carrier, input.trackingNumber);
    if (checked.ok) return { carrier: input.carrier, trackingNumber: checked.trackingNumber };
    context.addIssue({ code: 'custom', path: ['trackingNumber'], message: checked.message });
    return z.NEVER;
  });
export type ShipmentTracking = z.output<typeof shipmentTrackingSchema>;
