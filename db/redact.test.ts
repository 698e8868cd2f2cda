// The redaction pattern: every spelling matched literally (an address's dots, a number's plus), the
// longest first so a number is replaced whole before a shorter spelling inside it, short ones skipped.
import { describe, expect, it } from 'vitest';
import { redactedJsonValue, spellingPattern } from './redact';

const redact = (text: string, spellings: string[]) => {
  const pattern = spellingPattern(spellings);
  return pattern ? text.replace(new RegExp(pattern, 'gi'), '〔削除〕') : text;
};

describe('spellingPattern', () => {
  it('matches the spellings literally and without case', () => {
    expect(redact('Mail A.B+1@Example.jp or a-b+1@example.jp', ['a.b+1@example.jp'])).toBe(
      'Mail 〔削除〕 or a-b+1@example.jp',
    );
    expect(redact('電話 +819012345678 / 090-1234-5678', ['+819012345678', '090-1234-5678'])).toBe(
      '電話 〔削除〕 / 〔削除〕',
    );
  });

  it('replaces the longest spelling first and skips spellings under three characters', () => {
    expect(redact('819012345678', ['819012345678', '9012'])).toBe('〔削除〕');
    expect(redact('山田さん', ['山田'])).toBe('山田さん');
    expect(spellingPattern(['ab', ''])).toBeNull();
  });
});

describe('redactedJsonValue', () => {
  it('redacts inside string values only: a spelling that is also a literal, a number or a key stays JSON', () => {
    const payload = {
      status: 'paid',
      amount: 12345,
      captured: true,
      refund: null,
      buyer: { email: 'Null@Example.jp', note: 'null さん 12345 true', tags: ['status', 'x'] },
    };
    const spellings = ['null', '12345', 'true', 'status', 'null@example.jp'];
    const redacted = redactedJsonValue(payload, spellings);
    expect(redacted).toEqual({
      status: 'paid',
      amount: 12345,
      captured: true,
      refund: null,
      buyer: {
        email: '〔退会により削除〕',
        note: '〔退会により削除〕 さん 〔退会により削除〕 〔退会により削除〕',
        tags: ['〔退会により削除〕', 'x'],
      },
    });
    expect(JSON.parse(JSON.stringify(redacted))).toEqual(redacted);
    expect(redactedJsonValue(payload, ['ab'])).toBe(payload);
  });
});
