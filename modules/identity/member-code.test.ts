// The member ID: stable per account, unambiguous characters only, different across accounts.
import { describe, it, expect } from 'vitest';
import { memberCode, MEMBER_CODE_ALPHABET } from './member-code';

describe('memberCode', () => {
  it('is stable, formatted XXXXX-XXXXX and free of look-alike characters', () => {
    const code = memberCode('QbX3lO0Ii1abcdef');
    expect(code).toBe(memberCode('QbX3lO0Ii1abcdef'));
    expect(code).toMatch(/^[2-9A-HJKMNP-Z]{5}-[2-9A-HJKMNP-Z]{5}$/);
    expect(MEMBER_CODE_ALPHABET).not.toMatch(/[01ILO]/);
  });

  it('differs between accounts (no collision among 20,000 ids)', () => {
    const codes = new Set(Array.from({ length: 20_000 }, (_, i) => memberCode(`member-${i}`)));
    expect(codes.size).toBe(20_000);
  });
});
