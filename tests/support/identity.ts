// A member signed up and confirmed through better-auth's own endpoints, for tests whose subject is
// not identity: sign-up (which starts no session), then the confirmation link's token — minted with
// the shop's secret exactly as the confirmation mail carries it — on GET /verify-email, which signs
// the member in. The mail itself is tested in modules/identity/email-flows.db.test.ts. Also the codes
// of an authenticator app, for pages that ask for the second factor.
import { createEmailVerificationToken } from 'better-auth/api';
import { createOTP } from '@better-auth/utils/otp';
import { base32 } from '@better-auth/utils/base32';
import type { ShopAuth } from '#modules/identity/server';

export interface ConfirmedMember {
  id: string;
  email: string;
  /** `name=value` of the session cookie, for a Cookie header. */
  cookie: string;
  /** The unsigned session token (sessions.token). */
  rawToken: string;
}

/**
 * @example const member = await signUpConfirmed(auth, config.AUTH_SECRET, { email, password, name })
 */
export async function signUpConfirmed(
  auth: ShopAuth,
  secret: string,
  body: { email: string; password: string; name: string },
  headers: Headers = new Headers({ 'x-shop-client-ip': '127.0.0.1' }),
): Promise<ConfirmedMember> {
  const signedUp = await auth.api.signUpEmail({ body, headers, asResponse: true });
  if (!signedUp.ok) throw new Error(`sign-up failed: ${signedUp.status} ${await signedUp.text()}`);
  const { user } = (await signedUp.json()) as { user: { id: string } };
  const token = await createEmailVerificationToken(secret, body.email.toLowerCase(), undefined, 3600, {
    userId: user.id,
  });
  const verified = await auth.handler(
    new Request(`${(await auth.$context).baseURL}/verify-email?token=${token}`, { headers }),
  );
  if (!verified.ok) throw new Error(`confirmation failed: ${verified.status} ${await verified.text()}`);
  const cookie = verified.headers
    .getSetCookie()
    .map((line) => line.split(';')[0]!)
    .find((pair) => pair.includes('session_token=') && !pair.endsWith('='));
  if (!cookie) throw new Error('confirmation started no session');
  const rawToken = decodeURIComponent(cookie.slice(cookie.indexOf('=') + 1)).split('.')[0]!;
  return { id: user.id, email: body.email.toLowerCase(), cookie, rawToken };
}

/**
 * The code an authenticator app shows now for an otpauth:// URI (the member's TOTP secret).
 * @example await totpCodeOf('otpauth://totp/…?secret=JBSWY3DP…') // '492039'
 */
export async function totpCodeOf(totpUri: string): Promise<string> {
  const secret = base32.decode(new URL(totpUri).searchParams.get('secret')!);
  return createOTP(secret, { digits: 6, period: 30 }).totp();
}

/**
 * A code that is none of the ones verify accepts now (the current period and its neighbours).
 * @example await wrongTotpCodeOf(totpUri) !== await totpCodeOf(totpUri)
 */
export async function wrongTotpCodeOf(totpUri: string): Promise<string> {
  const secret = base32.decode(new URL(totpUri).searchParams.get('secret')!);
  const otp = createOTP(secret, { digits: 6, period: 30 });
  const counter = Math.floor(Date.now() / 30_000);
  const near = new Set([await otp.hotp(counter - 1), await otp.hotp(counter), await otp.hotp(counter + 1)]);
  for (let n = 0; ; n++) {
    const code = String((314159 + n * 7919) % 1_000_000).padStart(6, '0');
    if (!near.has(code)) return code;
  }
}
