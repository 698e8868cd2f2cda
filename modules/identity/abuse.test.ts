// The abuse guard's pure parts: how accounts and client addresses become keys, and the Turnstile
// check against the local stand-in (its answer shape, the secret, single-use tokens).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTurnstileStandin, type TurnstileStandin } from '#devtools/standins/turnstile';
import { accountKey, addressKey, normaliseAccount, GUARDED_AUTH_PATHS } from './abuse.server';
import { verifyTurnstile } from './turnstile.server';
import { AUTH_ERROR_MESSAGES, authErrorMessage } from './messages';
import { CAPTCHA_FORM_FIELD } from './constants';
import { CAPTCHA_FIELD_NAME } from '~/components/Captcha';

describe('accounts and addresses as keys', () => {
  it('normalises emails and Japanese phone numbers, and hashes them', () => {
    expect(normaliseAccount('email', ' Taro@Example.JP ')).toBe('taro@example.jp');
    expect(normaliseAccount('email', 'ｔａｒｏ@example.jp')).toBe('taro@example.jp');
    for (const spelling of ['090-1234-5678', '09012345678', '+81 90 1234 5678', '０９０１２３４５６７８'])
      expect(normaliseAccount('phoneNumber', spelling)).toBe('+819012345678');
    expect(accountKey('email', 'TARO@example.jp')).toBe(accountKey('email', 'taro@example.jp'));
    expect(accountKey('email', 'taro@example.jp')).not.toContain('taro');
    expect(accountKey('email', 'x')).not.toBe(accountKey('phoneNumber', 'x'));
  });

  it('keys IPv4 as it is, an IPv6 address by its /64, and no address as unknown', () => {
    expect(addressKey('192.0.2.1')).toBe('192.0.2.1');
    expect(addressKey('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(addressKey('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:2::9')).toBe(addressKey('2001:0db8:0001:0002:ffff::1'));
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey(undefined)).toBe('unknown');
    expect(addressKey('unknown')).toBe('unknown');
    expect(addressKey('not-an-address; drop table')).toBe('unknown');
  });

  it('watches every sensitive endpoint the shop offers or will offer', () => {
    for (const path of [
      '/sign-in/email',
      '/sign-up/email',
      '/request-password-reset',
      '/reset-password',
      '/sign-in/magic-link',
      '/magic-link/verify',
      '/phone-number/send-otp',
      '/phone-number/verify',
      '/sign-in/phone-number',
      '/two-factor/verify-totp',
      '/two-factor/verify-backup-code',
      '/one-time-token/verify',
    ])
      expect(GUARDED_AUTH_PATHS[path], path).toBeDefined();
  });
});

describe('Japanese words and the form field', () => {
  it('has a message for each of the guard’s codes', () => {
    expect(authErrorMessage('CAPTCHA_REQUIRED')).toBe(
      '短時間に何度も失敗したため、確認のためチェックを完了してください。',
    );
    expect(AUTH_ERROR_MESSAGES.CAPTCHA_INVALID).toBeDefined();
    expect(authErrorMessage('TOO_MANY_REQUESTS', 429)).toBe(
      '試行回数が多すぎます。しばらく時間をおいてからお試しください。',
    );
  });
  it('names the hidden field as the actions read it', () => {
    expect(CAPTCHA_FIELD_NAME).toBe(CAPTCHA_FORM_FIELD);
  });
});

describe('verifyTurnstile against the stand-in', () => {
  let standin: TurnstileStandin;
  beforeAll(async () => {
    standin = await startTurnstileStandin({ secretKey: 'the-secret' });
  });
  afterAll(async () => {
    await standin?.close();
  });
  const verify = (token: string | undefined, secretKey = 'the-secret') =>
    verifyTurnstile(token, '192.0.2.7', { secretKey, verifyUrl: standin.verifyUrl, timeoutMs: 10_000 });

  it('accepts a pass token once, with the remote address', async () => {
    const token = standin.passToken();
    expect(await verify(token)).toEqual({ success: true, errorCodes: [] });
    expect(standin.calls.at(-1)).toEqual({ response: token, remoteip: '192.0.2.7', success: true });
    expect(await verify(token)).toEqual({ success: false, errorCodes: ['timeout-or-duplicate'] });
  });

  it('refuses other tokens, a wrong secret, and no token without asking', async () => {
    expect(await verify('fail-123')).toEqual({ success: false, errorCodes: ['invalid-input-response'] });
    expect(await verify(standin.passToken(), 'other-secret')).toEqual({
      success: false,
      errorCodes: ['invalid-input-secret'],
    });
    const calls = standin.calls.length;
    expect(await verify(undefined)).toEqual({ success: false, errorCodes: ['missing-input-response'] });
    expect(await verify('pass-' + 'x'.repeat(3000))).toMatchObject({ success: false });
    expect(standin.calls.length).toBe(calls);
  });

  it('fails when siteverify cannot be reached', async () => {
    const unreachable = await verifyTurnstile('pass-x', undefined, {
      secretKey: 'the-secret',
      verifyUrl: 'http://127.0.0.1:9/turnstile/v0/siteverify',
      timeoutMs: 10_000,
    });
    expect(unreachable).toEqual({ success: false, errorCodes: ['network-error'] });
  });

  it('serves a widget script with the explicit-render API', async () => {
    const script = await (await fetch(standin.scriptUrl)).text();
    expect(script).toContain('window.turnstile');
    expect(script).toMatch(/render\(target, params/);
  });
});
