// A member who set up TOTP cannot skip it with a sign-in method that has no second step: an email
// link opens no session for them (the password and the code do); other members' links still work.
import { describe, it, expect, beforeAll } from 'vitest';
import { createOTP } from '@better-auth/utils/otp';
import { base32 } from '@better-auth/utils/base32';
import { useTestDatabase } from '#tests/use-test-database';
import {
  identityTestServices,
  signUpConfirmed,
  TEST_ORIGIN as ORIGIN,
  type IdentityTestServices,
} from '#tests/identity';

const PASSWORD = 'password-1234';
const handle = useTestDatabase('passwordless_2fa', { poolSize: 4 });
let services: IdentityTestServices;

beforeAll(() => {
  services = identityTestServices(handle);
});

let sequence = 0;
async function call(path: string, init: { body?: unknown; cookie?: string; query?: Record<string, string> }) {
  const url = new URL(`${ORIGIN}/api/auth${path}`);
  for (const [k, v] of Object.entries(init.query ?? {})) url.searchParams.set(k, v);
  const headers = new Headers({ origin: ORIGIN, 'x-shop-client-ip': `10.50.0.${++sequence % 250}` });
  if (init.cookie) headers.set('cookie', init.cookie);
  if (init.body !== undefined) headers.set('content-type', 'application/json');
  const response = await services.auth.handler(
    new Request(url, {
      method: init.body === undefined ? 'GET' : 'POST',
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    }),
  );
  const cookie = response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0]!)
    .find((pair) => pair.includes('session_token=') && !pair.endsWith('='));
  const text = await response.text();
  const code = text.startsWith('{') ? ((JSON.parse(text) as { code?: string }).code ?? null) : null;
  return { status: response.status, cookie, location: response.headers.get('location'), code };
}

async function emailLinkSignIn(email: string) {
  await call('/sign-in/magic-link', { body: { email } });
  const mail = [...services.messenger.sent].reverse().find((m) => m.to === email && m.template === 'magic-link')!;
  const token = new URL(mail.vars.url!).searchParams.get('oobCode')!;
  return call('/magic-link/verify', { query: { token } });
}

describe('passwordless sign-in and the second factor', () => {
  it('opens no session by email link for a member with TOTP, and does for one without', async () => {
    const plain = await signUpConfirmed(services.auth, services.config.AUTH_SECRET, {
      email: `plain-${Date.now().toString(36)}@example.jp`,
      password: PASSWORD,
      name: 'ふつう',
    });
    expect((await emailLinkSignIn(plain.email)).cookie).toBeDefined();

    const guarded = await signUpConfirmed(services.auth, services.config.AUTH_SECRET, {
      email: `guarded-${Date.now().toString(36)}@example.jp`,
      password: PASSWORD,
      name: 'まもり',
    });
    const enabled = await services.auth.api.enableTwoFactor({
      body: { password: PASSWORD },
      headers: new Headers({ cookie: guarded.cookie }),
    });
    if (!('totpURI' in enabled)) throw new Error('TOTP was not offered');
    const secret = base32.decode(new URL(enabled.totpURI).searchParams.get('secret')!);
    const code = await createOTP(secret, { digits: 6, period: 30 }).totp();
    await services.auth.api.verifyTOTP({ body: { code }, headers: new Headers({ cookie: guarded.cookie }) });

    const refused = await emailLinkSignIn(guarded.email);
    expect(refused.cookie).toBeUndefined();
    expect([refused.status, refused.code]).toEqual([403, 'SECOND_FACTOR_NEEDS_PASSWORD']);
  });
});
