// Phone numbers as Japanese members type them, read into E.164; what cannot take an SMS code is
// refused in Japanese; shown back as 090-1234-5678 and masked as 090-****-5678.
import { describe, it, expect } from 'vitest';
import {
  PHONE_NUMBER_MESSAGES,
  formatPhoneNumber,
  isStoredPhoneNumber,
  maskPhoneNumber,
  phoneCodeSchema,
  phoneNumberSchema,
} from './phone-numbers';

const JAPAN = { countries: ['JP'] };

describe('phoneNumberSchema', () => {
  const accepted: [string, string][] = [
    ['090-1234-5678', '+819012345678'],
    ['09012345678', '+819012345678'],
    ['０９０１２３４５６７８', '+819012345678'],
    ['０９０－１２３４－５６７８', '+819012345678'],
    ['090ー1234ー5678', '+819012345678'],
    ['090‐1234‐5678', '+819012345678'],
    ['090 1234 5678', '+819012345678'],
    ['090　1234　5678', '+819012345678'],
    [' 090-1234-5678 ', '+819012345678'],
    ['(090)1234-5678', '+819012345678'],
    ['+81 90 1234 5678', '+819012345678'],
    ['+819012345678', '+819012345678'],
    ['＋８１　９０－１２３４－５６７８', '+819012345678'],
    ['+81 090 1234 5678', '+819012345678'],
    ['080-9876-5432', '+818098765432'],
    ['070-1111-2222', '+817011112222'],
  ];
  for (const [typed, e164] of accepted) {
    it(`reads ${JSON.stringify(typed)} as ${e164}`, () => {
      expect(phoneNumberSchema(JAPAN).parse(typed)).toBe(e164);
    });
  }

  const refused: [string, unknown, string][] = [
    ['a landline', '03-1234-5678', PHONE_NUMBER_MESSAGES.notMobile],
    ['an IP phone (050)', '050-1234-5678', PHONE_NUMBER_MESSAGES.notMobile],
    ['a free dial', '0120-123-456', PHONE_NUMBER_MESSAGES.notMobile],
    ['an M2M number (020)', '020-1234-5678', PHONE_NUMBER_MESSAGES.notMobile],
    ['a digit short', '090-1234-567', PHONE_NUMBER_MESSAGES.invalid],
    ['a digit too many', '090-1234-56789', PHONE_NUMBER_MESSAGES.invalid],
    ['letters', '090-abcd-5678', PHONE_NUMBER_MESSAGES.invalid],
    ['an email', 'member@example.jp', PHONE_NUMBER_MESSAGES.invalid],
    ['something very long', '0'.repeat(40), PHONE_NUMBER_MESSAGES.invalid],
    ['an empty field', '', PHONE_NUMBER_MESSAGES.required],
    ['only spaces', '　 ', PHONE_NUMBER_MESSAGES.required],
    ['no field at all', undefined, PHONE_NUMBER_MESSAGES.required],
    ['a US number', '+1 415 555 2671', PHONE_NUMBER_MESSAGES.foreign],
    ['a UK mobile', '+44 7400 123456', PHONE_NUMBER_MESSAGES.foreign],
  ];
  for (const [name, typed, message] of refused) {
    it(`refuses ${name} in Japanese`, () => {
      const parsed = phoneNumberSchema(JAPAN).safeParse(typed);
      expect(parsed.success).toBe(false);
      expect(parsed.error!.issues[0]!.message).toBe(message);
    });
  }

  it('accepts foreign mobile numbers only where the setting allows their country', () => {
    const wider = { countries: ['JP', 'US', 'GB'] };
    expect(phoneNumberSchema(wider).parse('+1 415 555 2671')).toBe('+14155552671');
    expect(phoneNumberSchema(wider).parse('+44 7400 123456')).toBe('+447400123456');
    expect(phoneNumberSchema(wider).parse('090-1234-5678')).toBe('+819012345678');
    const refused = phoneNumberSchema(wider).safeParse('+33 6 12 34 56 78');
    expect(refused.error!.issues[0]!.message).toBe(PHONE_NUMBER_MESSAGES.country);
    // A UK landline is still no place for an SMS code.
    expect(phoneNumberSchema(wider).safeParse('+44 20 7946 0958').error!.issues[0]!.message).toBe(
      PHONE_NUMBER_MESSAGES.notMobile,
    );
  });

  it('isStoredPhoneNumber takes only the one stored form', () => {
    expect(isStoredPhoneNumber('+819012345678', JAPAN)).toBe(true);
    expect(isStoredPhoneNumber('09012345678', JAPAN)).toBe(false);
    expect(isStoredPhoneNumber('+81 90 1234 5678', JAPAN)).toBe(false);
    expect(isStoredPhoneNumber('+81312345678', JAPAN)).toBe(false);
  });
});

describe('showing a number', () => {
  it('formats Japanese numbers the Japanese way and others internationally', () => {
    expect(formatPhoneNumber('+819012345678')).toBe('090-1234-5678');
    expect(formatPhoneNumber('+14155552671')).toBe('+1 415 555 2671');
  });

  it('masks the middle, keeping the first group and the last four digits', () => {
    expect(maskPhoneNumber('+819012345678')).toBe('090-****-5678');
    expect(maskPhoneNumber('+818098765432')).toBe('080-****-5432');
    expect(maskPhoneNumber('+14155552671')).toBe('+1 *** *** 2671');
  });
});

describe('phoneCodeSchema', () => {
  it('takes 6 digits, full-width and spaced ones too', () => {
    expect(phoneCodeSchema.parse('123456')).toBe('123456');
    expect(phoneCodeSchema.parse('１２３４５６')).toBe('123456');
    expect(phoneCodeSchema.parse('123 456')).toBe('123456');
  });

  it('refuses anything else in Japanese', () => {
    expect(phoneCodeSchema.safeParse('').error!.issues[0]!.message).toBe('認証コードを入力してください。');
    for (const code of ['12345', '1234567', 'abcdef', '12345a'])
      expect(phoneCodeSchema.safeParse(code).error!.issues[0]!.message).toBe(
        '認証コードは6桁の数字で入力してください。',
      );
  });
});
