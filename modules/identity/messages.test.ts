// Every identity and client code of the specification's error catalogue (section 8) has its own
// Japanese words, none of them the generic fallback.
import { describe, it, expect } from 'vitest';
import { AUTH_ERROR_MESSAGES, authErrorMessage, GENERIC_AUTH_ERROR } from './messages';

const SPECIFICATION_CODES = [
  // identity provider codes
  'missing-recaptcha-token',
  'invalid-app-credential',
  'password-does-not-meet-requirements',
  'multi-factor-auth-required',
  'user-not-found',
  'network-request-failed',
  'no-auth-event',
  'email-already-in-use',
  'wrong-password',
  'too-many-requests',
  'expired-action-code',
  'requires-recent-login',
  'unsupported-password-policy-schema-version',
  'provider-already-linked',
  'no-such-provider',
  'user-mismatch',
  // client codes
  'argument-error',
  'internal-error',
  'invalid-user-token',
  'tenant-id-mismatch',
  'unauthorized-domain',
  'popup-blocked',
  'popup-closed-by-user',
  'cancelled-popup-request',
  'web-storage-unsupported',
  'auth-domain-config-required',
  'invalid-api-key',
  'invalid-emulator-scheme',
  'emulator-config-failed',
  'operation-not-supported-in-this-environment',
  'missing-multi-factor-info',
  'account-exists-with-different-credential',
  'already-initialized',
];

describe('the identity error catalogue', () => {
  it.each(SPECIFICATION_CODES)('auth/%s has Japanese words of its own', (code) => {
    const message = AUTH_ERROR_MESSAGES[`auth/${code}`];
    expect(message).toBeDefined();
    expect(message).toMatch(/[ぁ-んァ-ヶ一-龠]/);
    expect(authErrorMessage(`auth/${code}`)).toBe(message);
  });

  it('answers the generic words for an unknown code and the limit words for any 429', () => {
    expect(authErrorMessage('SOMETHING_NEW')).toBe(GENERIC_AUTH_ERROR);
    expect(authErrorMessage('INVALID_EMAIL_OR_PASSWORD', 429)).toBe(AUTH_ERROR_MESSAGES.TOO_MANY_REQUESTS);
  });
});
