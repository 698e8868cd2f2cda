// The password policy from the settings (specification section 5): rules, modes and the published format.
import { describe, it, expect } from 'vitest';
import {
  checkPassword,
  passwordPolicyOf,
  passwordRules,
  readPasswordPolicy,
  PasswordPolicyError,
  UNSUPPORTED_POLICY_VERSION,
  type PasswordPolicySettings,
} from './password-policy';
import { birthdaySchema, isStrictDate, nicknameSchemaOf } from './forms';

const settings = (over: Partial<PasswordPolicySettings> = {}): PasswordPolicySettings => ({
  PASSWORD_POLICY_MODE: 'enforce',
  PASSWORD_MIN_LENGTH: 8,
  PASSWORD_MAX_LENGTH: undefined,
  PASSWORD_REQUIRE_LOWERCASE: false,
  PASSWORD_REQUIRE_UPPERCASE: false,
  PASSWORD_REQUIRE_NUMERIC: false,
  PASSWORD_REQUIRE_NON_ALPHANUMERIC: false,
  ...over,
});

describe('the password policy', () => {
  it('defaults to 8 characters and never goes below the library floor of 6', () => {
    expect(passwordPolicyOf(settings()).minLength).toBe(8);
    expect(passwordPolicyOf(settings({ PASSWORD_MIN_LENGTH: 4 })).minLength).toBe(6);
  });

  it('names each unmet rule and refuses in mode enforce', () => {
    const policy = passwordPolicyOf(
      settings({
        PASSWORD_MAX_LENGTH: 12,
        PASSWORD_REQUIRE_LOWERCASE: true,
        PASSWORD_REQUIRE_UPPERCASE: true,
        PASSWORD_REQUIRE_NUMERIC: true,
        PASSWORD_REQUIRE_NON_ALPHANUMERIC: true,
      }),
    );
    expect(checkPassword(policy, 'Abcdef1!')).toMatchObject({ acceptable: true, unmet: [] });
    const weak = checkPassword(policy, 'abcdefgh');
    expect(weak.acceptable).toBe(false);
    expect(weak.unmet.sort()).toEqual(['nonAlphanumeric', 'numeric', 'uppercase']);
    expect(weak.message).toBe('パスワードの条件を満たしていません（英大文字・数字・記号）。');
    expect(checkPassword(policy, 'Abcdefgh1!xyz').unmet).toEqual(['maxLength']);
    expect(passwordRules(policy, '').map((r) => r.label)).toEqual([
      '8〜12文字',
      '英小文字',
      '英大文字',
      '数字',
      '記号',
    ]);
  });

  it('in mode warn accepts unmet rules but not the library limits; mode off checks length only', () => {
    const warn = passwordPolicyOf(settings({ PASSWORD_POLICY_MODE: 'warn', PASSWORD_REQUIRE_NUMERIC: true }));
    expect(checkPassword(warn, 'abcdefgh')).toMatchObject({ acceptable: true, unmet: ['numeric'] });
    expect(checkPassword(warn, 'abc').acceptable).toBe(false);
    const off = passwordPolicyOf(settings({ PASSWORD_POLICY_MODE: 'off', PASSWORD_REQUIRE_NUMERIC: true }));
    expect(passwordRules(off, 'abcdef').map((r) => r.requirement)).toEqual(['minLength']);
    expect(checkPassword(off, 'abcdef').acceptable).toBe(true);
  });

  it('reads a published policy of schema version 1 only', () => {
    const published = JSON.parse(JSON.stringify(passwordPolicyOf(settings())));
    expect(readPasswordPolicy(published)).toEqual(published);
    expect(() => readPasswordPolicy({ ...published, schemaVersion: 2 })).toThrow(PasswordPolicyError);
    try {
      readPasswordPolicy({ ...published, schemaVersion: 2 });
    } catch (error) {
      expect((error as PasswordPolicyError).code).toBe(UNSUPPORTED_POLICY_VERSION);
    }
    expect(() => readPasswordPolicy({ ...published, minLength: 3 })).toThrow(PasswordPolicyError);
  });
});

describe('nickname and birthday rules', () => {
  it('refuses a forbidden word however it is written', () => {
    const schema = nicknameSchemaOf({ maxLength: 20, forbiddenWords: ['運営', 'admin'] });
    for (const name of ['運営です', 'ＡＤＭＩＮ', 'the Admin'])
      expect([name, schema.safeParse(name).success]).toEqual([name, false]);
    expect(schema.safeParse('ひくぞう').success).toBe(true);
  });

  it('pads year, month and day and accepts only real dates up to today in Japan', () => {
    const today = new Date('2026-11-23T16:00:00Z'); // 2026-11-24 01:00 in Tokyo
    const birthday = birthdaySchema(today);
    expect(birthday.parse({ year: '2000', month: '2', day: '9' })).toBe('2000-02-09');
    expect(birthday.parse({ year: '2026', month: '11', day: '24' })).toBe('2026-11-24');
    expect(birthday.safeParse({ year: '2026', month: '11', day: '25' }).success).toBe(false);
    expect(birthday.safeParse({ year: '2001', month: '2', day: '29' }).success).toBe(false);
    expect(birthday.safeParse({ year: '1899', month: '12', day: '31' }).success).toBe(false);
    expect(isStrictDate('2000-02-29')).toBe(true);
    expect(isStrictDate('1900-02-29')).toBe(false);
    expect(isStrictDate('2000-2-9')).toBe(false);
  });
});
