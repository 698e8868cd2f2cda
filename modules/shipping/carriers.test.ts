// Carriers: names, tracking numbers as typed (full-width, hyphens), another carrier's format refused by name, tracking pages.
import { describe, expect, it } from 'vitest';
import {
  CARRIERS,
  CARRIER_CODES,
  carrierFromText,
  checkTrackingNumber,
  normalizeTrackingNumber,
  shipmentTrackingSchema,
  trackingUrl,
} from './carriers';

describe('carriers', () => {
  it('names the three carriers in Japanese', () => {
    expect(CARRIER_CODES).toEqual(['yamato', 'sagawa', 'japanpost']);
    expect(CARRIER_CODES.map((code) => CARRIERS[code].name)).toEqual(['ヤマト運輸', '佐川急便', '日本郵便']);
  });

  it('reads a carrier by code, Japanese name or common name, forgiving width, case and spaces', () => {
    expect(carrierFromText('yamato')).toBe('yamato');
    expect(carrierFromText(' ＹＡＭＡＴＯ ')).toBe('yamato');
    expect(carrierFromText('ヤマト運輸')).toBe('yamato');
    expect(carrierFromText('クロネコヤマト')).toBe('yamato');
    expect(carrierFromText('佐川急便')).toBe('sagawa');
    expect(carrierFromText('SAGAWA')).toBe('sagawa');
    expect(carrierFromText('日本郵便')).toBe('japanpost');
    expect(carrierFromText('ゆうパック')).toBe('japanpost');
    expect(carrierFromText('Japan Post')).toBe('japanpost');
    expect(carrierFromText('西濃運輸')).toBeNull();
    expect(carrierFromText('')).toBeNull();
  });
});

describe('tracking numbers', () => {
  it('normalises full-width digits, hyphens of every kind and spaces', () => {
    expect(normalizeTrackingNumber('１２３４－５６７８－９０１２')).toBe('123456789012');
    expect(normalizeTrackingNumber('1234ー5678ー9012')).toBe('123456789012');
    expect(normalizeTrackingNumber('1234‐5678−9012')).toBe('123456789012');
    expect(normalizeTrackingNumber(' 1234 5678　9012 ')).toBe('123456789012');
    expect(normalizeTrackingNumber('ｅｊ１２３４５６７８９ｊｐ')).toBe('EJ123456789JP');
  });

  it.each([
    ['yamato', '1234-5678-9012', '123456789012'],
    ['yamato', '１２３４５６７８９０１２', '123456789012'],
    ['sagawa', '1234567890', '1234567890'],
    ['sagawa', '1234-5678-9012', '123456789012'],
    ['japanpost', '12345678901', '12345678901'],
    ['japanpost', '1234-5678-9012', '123456789012'],
    ['japanpost', '1234567890123', '1234567890123'],
    ['japanpost', 'ej123456789jp', 'EJ123456789JP'],
    ['japanpost', 'RR 123 456 789 JP', 'RR123456789JP'],
  ] as const)('accepts %s %s as %s', (carrier, typed, stored) => {
    expect(checkTrackingNumber(carrier, typed)).toEqual({ ok: true, trackingNumber: stored });
  });

  it('refuses a number in another carrier’s format, naming the expected format and whose format it is', () => {
    const yamato = checkTrackingNumber('yamato', 'EJ123456789JP');
    expect(yamato).toEqual({
      ok: false,
      code: 'TRACKING_NUMBER_FORMAT',
      message:
        'ヤマト運輸の送り状番号は12桁の数字です（ハイフンは省略できます）。入力された番号は日本郵便の形式です。運送会社をご確認ください。',
    });
    const sagawa = checkTrackingNumber('sagawa', '12345678901');
    expect(sagawa.ok || sagawa.message).toBe(
      '佐川急便のお問い合せ送り状番号は10桁または12桁の数字です（ハイフンは省略できます）。入力された番号は日本郵便の形式です。運送会社をご確認ください。',
    );
    const tenDigits = checkTrackingNumber('yamato', '1234567890');
    expect(tenDigits.ok || tenDigits.message).toMatch(/12桁の数字です.*佐川急便の形式です/);
    const japanpost = checkTrackingNumber('japanpost', '1234567890');
    expect(japanpost.ok || japanpost.message).toMatch(
      /^日本郵便のお問い合わせ番号は11〜13桁の数字、.*佐川急便の形式です/,
    );
  });

  it('refuses a number no carrier uses, and an empty one, without naming another carrier', () => {
    for (const typed of ['12345', '12345678901234', 'ABC-DEFG', '1234567890123A', '123456789012'.repeat(4)]) {
      const checked = checkTrackingNumber('yamato', typed);
      expect(checked).toEqual({
        ok: false,
        code: 'TRACKING_NUMBER_FORMAT',
        message: 'ヤマト運輸の送り状番号は12桁の数字です（ハイフンは省略できます）。',
      });
    }
    expect(checkTrackingNumber('sagawa', ' －－ ')).toEqual({
      ok: false,
      code: 'TRACKING_NUMBER_REQUIRED',
      message: 'お問い合せ送り状番号を入力してください。',
    });
  });

  it('links each carrier’s public tracking page with the stored number', () => {
    expect(trackingUrl('yamato', '1234-5678-9012')).toBe(
      'https://toi.kuronekoyamato.co.jp/cgi-bin/tneko?number00=1&number01=123456789012',
    );
    expect(trackingUrl('sagawa', '123456789012')).toBe(
      'https://k2k.sagawa-exp.co.jp/p/web/okurijosearch.do?okurijoNo=123456789012',
    );
    expect(trackingUrl('japanpost', 'EJ123456789JP')).toBe(
      'https://trackings.post.japanpost.jp/services/srv/search/direct?reqCodeNo1=EJ123456789JP&locale=ja',
    );
    // Whatever was stored, the query cannot be broken out of.
    expect(new URL(trackingUrl('sagawa', '1&x=2')).searchParams.get('okurijoNo')).toBe('1&X=2');
  });
});

describe('shipmentTrackingSchema', () => {
  it('gives the stored form', () => {
    expect(shipmentTrackingSchema.parse({ carrier: 'yamato', trackingNumber: '１２３４-５６７８-９０１２' })).toEqual({
      carrier: 'yamato',
      trackingNumber: '123456789012',
    });
  });

  it('puts the Japanese message on the field at fault', () => {
    const wrongFormat = shipmentTrackingSchema.safeParse({ carrier: 'yamato', trackingNumber: 'EJ123456789JP' });
    expect(wrongFormat.success).toBe(false);
    expect(wrongFormat.error?.issues).toEqual([
      expect.objectContaining({ path: ['trackingNumber'], message: expect.stringMatching(/日本郵便の形式です/) }),
    ]);
    const unknownCarrier = shipmentTrackingSchema.safeParse({ carrier: 'fedex', trackingNumber: '123456789012' });
    expect(unknownCarrier.error?.issues).toEqual([
      expect.objectContaining({ path: ['carrier'], message: '運送会社を選んでください。' }),
    ]);
    const missing = shipmentTrackingSchema.safeParse({ carrier: 'sagawa' });
    expect(missing.error?.issues).toEqual([
      expect.objectContaining({ path: ['trackingNumber'], message: '追跡番号を入力してください。' }),
    ]);
  });
});
