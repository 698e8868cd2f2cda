// Address text as members type it, made one form (pure, also for the browser): the 47 prefectures,
// the field limits, postal codes (full-width digits, any dash, 〒, spaces), katakana for フリガナ.

/** The 47 prefectures in JIS X 0401 order (01 北海道 … 47 沖縄県): the form's list and the only accepted values. */
export const PREFECTURES = [
  '北海道',
  '青森県',
  '岩手県',
  '宮城県',
  '秋田県',
  '山形県',
  '福島県',
  '茨城県',
  '栃木県',
  '群馬県',
  '埼玉県',
  '千葉県',
  '東京都',
  '神奈川県',
  '新潟県',
  '富山県',
  '石川県',
  '福井県',
  '山梨県',
  '長野県',
  '岐阜県',
  '静岡県',
  '愛知県',
  '三重県',
  '滋賀県',
  '京都府',
  '大阪府',
  '兵庫県',
  '奈良県',
  '和歌山県',
  '鳥取県',
  '島根県',
  '岡山県',
  '広島県',
  '山口県',
  '徳島県',
  '香川県',
  '愛媛県',
  '高知県',
  '福岡県',
  '佐賀県',
  '長崎県',
  '熊本県',
  '大分県',
  '宮崎県',
  '鹿児島県',
  '沖縄県',
] as const;
export type Prefecture = (typeof PREFECTURES)[number];

export const isPrefecture = (value: string): value is Prefecture => (PREFECTURES as readonly string[]).includes(value);

/** How many addresses one member's book holds (docs/product.md: up to 5). */
export const MAX_ADDRESSES_PER_MEMBER = 5;

/**
 * Longest value of each field, in characters after normalisation: room for real addresses (a long
 * 町域 with 丁目・番地・号, a building with its room), short enough for the carriers' label software,
 * which the fulfilment desk cuts into their own columns.
 */
export const ADDRESS_FIELD_LIMITS = {
  name: 30,
  nameKana: 60,
  city: 40,
  town: 80,
  building: 80,
} as const;

/** The fields' Japanese names, for labels and messages alike. */
export const ADDRESS_FIELD_LABELS = {
  name: '氏名',
  nameKana: 'フリガナ',
  postalCode: '郵便番号',
  prefecture: '都道府県',
  city: '市区町村',
  town: '町域・番地',
  building: '建物名・部屋番号',
  phone: '電話番号',
} as const;

/** Every dash members type between digits: hyphens, minus signs, dashes, the long-vowel mark ー and its half-width ｰ. */
const DASHES = /[\u002d\u2010-\u2015\u2212\u30fc\uff0d\uff70]/g;

/**
 * One line of text as stored: NFKC (full-width letters and digits to half-width, half-width kana to
 * full-width), tabs and line breaks made spaces, invisible and control characters dropped, runs of
 * spaces (also 　) made one, trimmed.
 * @example normalizeAddressText('　東京都　　千代田区 ') // '東京都 千代田区'
 */
export function normalizeAddressText(value: string): string {
  return value
    .normalize('NFKC')
    .replace(/\s+/g, ' ')
    .replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff]/g, '')
    .replace(/ {2,}/g, ' ')
    .trim();
}

/**
 * 町域・番地 and 建物名: normalised text, and a dash between digits (１ー２－３, 1―2) written as '-'.
 * The long-vowel mark stays where it is a letter (ハイツー, メゾン・ド・ボヌール).
 * @example normalizeStreetText('丸の内１ー２－３') // '丸の内1-2-3'
 */
export function normalizeStreetText(value: string): string {
  return normalizeAddressText(value).replace(/(?<=\d)\s*[\u002d\u2010-\u2015\u2212\u30fc\uff0d\uff70]\s*(?=\d)/g, '-');
}

/**
 * フリガナ in full-width katakana: hiragana and half-width katakana (ﾔﾏﾀﾞ) become katakana, spaces
 * one half-width space. Other characters are left for the schema to refuse.
 * @example toKatakana('やまだ　ﾀﾛｳ') // 'ヤマダ タロウ'
 */
export function toKatakana(value: string): string {
  return normalizeAddressText(value).replace(/[\u3041-\u3096\u309d\u309e]/g, (ch) =>
    String.fromCharCode(ch.charCodeAt(0) + 0x60),
  );
}

/** Full-width katakana with the long-vowel mark, the middle dot and spaces between words. */
export const KATAKANA_ONLY = /^[\u30a1-\u30f6\u30fc\u30fb\u30fd\u30fe]+(?: [\u30a1-\u30f6\u30fc\u30fb\u30fd\u30fe]+)*$/;

/**
 * The 7 digits of a postal code as members write it (〒100-0001, １００ー０００１, 100 0001), or null
 * when it is not 7 digits.
 * @example readPostalCode('〒１００－０００１') // '1000001'
 */
export function readPostalCode(value: string): string | null {
  const digits = value
    .normalize('NFKC')
    .replace(/[〒\s]/g, '')
    .replace(DASHES, '');
  return /^\d{7}$/.test(digits) ? digits : null;
}

/** @example formatPostalCode('1000001') // '100-0001' */
export const formatPostalCode = (digits: string) => `${digits.slice(0, 3)}-${digits.slice(3)}`;

/** What a postal look-up fills into the address form: shared by the page's script and its action. */
export interface PostalFill {
  prefecture: string;
  /** null when the code's towns lie in more than one city (the member writes it). */
  city: string | null;
  /** '' when the code covers several towns (offered in `towns`) or a whole city. */
  town: string;
  towns: string[];
  /** Said to the member (a live region): what was filled and what to write next. */
  message: string;
}

/**
 * The form's fill for the places of one postal code (at least one).
 * @example postalFill([{ prefecture: '東京都', city: '千代田区', town: '千代田' }]).message // '東京都千代田区千代田を入力しました。番地を続けて入力してください。'
 */
export function postalFill(places: readonly { prefecture: string; city: string; town: string }[]): PostalFill {
  const first = places[0];
  if (!first) throw new RangeError('postalFill: no place');
  const towns = [...new Set(places.map((p) => p.town).filter(Boolean))];
  const city = places.every((p) => p.city === first.city) ? first.city : null;
  const town = towns.length === 1 ? towns[0]! : '';
  return {
    prefecture: first.prefecture,
    city,
    town,
    towns: towns.length > 1 ? towns : [],
    message:
      towns.length > 1
        ? `${first.prefecture}${city ?? ''}の住所です。町域を選んで番地を続けて入力してください。`
        : `${first.prefecture}${first.city}${town}を入力しました。番地を続けて入力してください。`,
  };
}
