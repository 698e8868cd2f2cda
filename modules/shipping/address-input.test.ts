// The one address schema: what members type becomes one form; each field says in Japanese what is wrong;
// the postal code must belong to the prefecture and the city.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { propertyRuns, testSettings } from '#tests/settings';
import { JAPANESE_PARSE, fieldMessages } from '#modules/kernel';
import { addressInputSchema, readAddressPhone } from './address-input';

const typed = {
  name: '山田　太郎',
  nameKana: 'やまだ　ﾀﾛｳ',
  postalCode: '〒１００ー０００１',
  prefecture: '東京都',
  city: '千代田区',
  town: '千代田１ー１',
  building: '',
  phone: '０９０ー１２３４ー５６７８',
};

/** The message per field, as the API and the page show them. */
function messages(input: Record<string, unknown>): Record<string, string> {
  const result = addressInputSchema.safeParse(input, JAPANESE_PARSE);
  return result.success ? {} : fieldMessages(result.error, 'body');
}

describe('addressInputSchema', () => {
  it('reads a typed address into one form', () => {
    expect(addressInputSchema.parse(typed)).toEqual({
      name: '山田 太郎',
      nameKana: 'ヤマダ タロウ',
      postalCode: '1000001',
      prefecture: '東京都',
      city: '千代田区',
      town: '千代田1-1',
      building: null,
      phone: '090-1234-5678',
    });
    expect(addressInputSchema.parse({ ...typed, building: 'ＡＢＣハイツ１０１', isDefault: true })).toMatchObject({
      building: 'ABCハイツ101',
      isDefault: true,
    });
  });

  it('says which field is missing, in Japanese', () => {
    expect(messages({})).toEqual({
      name: '氏名を入力してください。',
      nameKana: 'フリガナを入力してください。',
      postalCode: '郵便番号を入力してください。',
      prefecture: '都道府県を選んでください。',
      city: '市区町村を入力してください。',
      town: '町域・番地を入力してください。',
      phone: '電話番号を入力してください。',
    });
    expect(messages({ ...typed, name: '　 ', town: '' })).toEqual({
      name: '氏名を入力してください。',
      town: '町域・番地を入力してください。',
    });
  });

  it('refuses bad values field by field', () => {
    expect(messages({ ...typed, postalCode: '100-001' })).toEqual({
      postalCode: '郵便番号は7桁の数字で入力してください（例: 100-0001）。',
    });
    expect(messages({ ...typed, nameKana: 'Yamada' })).toEqual({
      nameKana: 'フリガナはカタカナで入力してください（ひらがなも使えます）。',
    });
    expect(messages({ ...typed, nameKana: '山田' }).nameKana).toContain('カタカナ');
    expect(messages({ ...typed, prefecture: '東京' })).toEqual({ prefecture: '都道府県を選んでください。' });
    expect(messages({ ...typed, name: 'あ'.repeat(31) })).toEqual({ name: '氏名は30文字以内で入力してください。' });
    expect(messages({ ...typed, building: 'あ'.repeat(81) })).toEqual({
      building: '建物名・部屋番号は80文字以内で入力してください。',
    });
    expect(messages({ ...typed, town: '千代田1-1 🏠' }).town).toContain('絵文字');
    expect(messages({ ...typed, name: 'x'.repeat(100_000) })).toEqual({ name: '氏名は30文字以内で入力してください。' });
    expect(messages({ ...typed, phone: '12345' }).phone).toContain('電話番号の形式');
    expect(messages({ ...typed, city: 42 })).toEqual({ city: '市区町村を入力してください。' });
  });

  it('checks the postal code against the prefecture and the city', () => {
    expect(messages({ ...typed, prefecture: '大阪府' })).toEqual({
      prefecture: '郵便番号 100-0001 は東京都の番号です。郵便番号か都道府県をご確認ください。',
    });
    expect(messages({ ...typed, city: '中央区' })).toEqual({
      city: '郵便番号 100-0001 の市区町村は「千代田区」です。郵便番号か市区町村をご確認ください。',
    });
    expect(messages({ ...typed, postalCode: '000-0000' })).toEqual({
      postalCode: 'この郵便番号は見つかりませんでした。番号をご確認ください。',
    });
  });

  it('accepts the city written with the prefecture, without its 郡, or run on into the town', () => {
    const yonaguni = { ...typed, postalCode: '907-1801', prefecture: '沖縄県', town: '与那国123' };
    expect(addressInputSchema.safeParse({ ...yonaguni, city: '八重山郡与那国町' }).success).toBe(true);
    expect(addressInputSchema.safeParse({ ...yonaguni, city: '与那国町' }).success).toBe(true);
    expect(addressInputSchema.safeParse({ ...typed, city: '東京都千代田区' }).success).toBe(true);
    const sapporo = { ...typed, postalCode: '060-0001', prefecture: '北海道', town: '中央区北1条西1' };
    expect(addressInputSchema.safeParse({ ...sapporo, city: '札幌市' }).success).toBe(true);
    expect(addressInputSchema.safeParse({ ...sapporo, city: '札幌市北区', town: '北1条西1' }).success).toBe(false);
  });
});

describe('readAddressPhone', () => {
  it.each([
    ['09012345678', '090-1234-5678'],
    ['090-1234-5678', '090-1234-5678'],
    ['０９０－１２３４－５６７８', '090-1234-5678'],
    ['090ー1234ー5678', '090-1234-5678'],
    ['+81 90 1234 5678', '090-1234-5678'],
    ['0312345678', '03-1234-5678'],
    ['03(1234)5678', '03-1234-5678'],
    ['０４６６－１２－３４５６', '0466-12-3456'],
    ['05012345678', '050-1234-5678'],
  ])('accepts %j as %j', (typed, phone) => {
    expect(readAddressPhone(typed)).toEqual({ ok: true, phone });
  });

  it.each([
    ['', '電話番号を入力してください。'],
    ['0901234567', '電話番号の形式が正しくありません（例: 090-1234-5678、03-1234-5678）。'],
    ['090-1234-5678 内線1', '電話番号の形式が正しくありません（例: 090-1234-5678、03-1234-5678）。'],
    ['+1 415 555 2671', '日本国内の電話番号を入力してください。'],
    [
      '0120-123-456',
      '配送業者から連絡のとれる携帯電話・固定電話の番号を入力してください（0120・0570などは使えません）。',
    ],
    [
      '0570-012-345',
      '配送業者から連絡のとれる携帯電話・固定電話の番号を入力してください（0120・0570などは使えません）。',
    ],
  ])('refuses %j', (typed, message) => {
    expect(readAddressPhone(typed)).toEqual({ ok: false, message });
  });
});

describe('addressInputSchema, every message at once', () => {
  it('says the prefecture does not match even while another field is refused, and survives any body', () => {
    expect(messages({ ...typed, prefecture: '大阪府', phone: '0120-123-456', name: '' })).toEqual({
      name: '氏名を入力してください。',
      prefecture: '郵便番号 100-0001 は東京都の番号です。郵便番号か都道府県をご確認ください。',
      phone: '配送業者から連絡のとれる携帯電話・固定電話の番号を入力してください（0120・0570などは使えません）。',
    });
    const odd = [
      null,
      'text',
      42,
      [],
      { postalCode: 1000001 },
      { ...typed, postalCode: 1000001 },
      { ...typed, city: 7 },
    ];
    for (const body of [...odd, { ...typed, prefecture: ['東京都'] }, { ...typed, town: null }])
      expect(addressInputSchema.safeParse(body).success).toBe(false);
  });
});

describe('addressInputSchema under a fuzzer', () => {
  it('answers any value with data or Japanese messages, never a throw', () => {
    const fieldValue = fc.oneof(
      fc.string(),
      fc.jsonValue(),
      fc.constantFrom('１００－０００１', '東京都', 1000001, ['東京都']),
    );
    const body = fc.oneof(
      fc.jsonValue(),
      fc.record(
        Object.fromEntries(Object.keys(typed).map((key) => [key, fieldValue])) as Record<string, fc.Arbitrary<unknown>>,
        { requiredKeys: [] },
      ),
      fc.record({ field: fc.constantFrom(...Object.keys(typed)), value: fieldValue }).map(({ field, value }) => ({
        ...typed,
        [field]: value,
      })),
    );
    fc.assert(
      fc.property(body, (value) => {
        const result = addressInputSchema.safeParse(value, JAPANESE_PARSE);
        if (!result.success)
          for (const issue of result.error.issues) expect(issue.message).toMatch(/[ぁ-んァ-ン一-龥]/);
      }),
      { numRuns: propertyRuns(300), seed: testSettings.propertySeed },
    );
  });
});
