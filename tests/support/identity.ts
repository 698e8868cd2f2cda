// Identity for tests: the shop's services with the real better-auth on a test database (mails and
// text messages captured), a page's view of a signed-in request, a member signed up and confirmed
// through better-auth's own endpoints, and the codes of an authenticator app. Confirmation: sign-up
// (which starts no session), then the confirmation link's token — minted with the shop's secret exactly
// as the confirmation mail carries it — on GET /verify-email, which signs the member in. The mail itself
// is tested in modules/identity/email-flows.db.test.ts.
import { createEmailVerificationToken } from 'better-auth/api';
import { createOTP } from '@better-auth/utils/otp';
import { base32 } from '@better-auth/utils/base32';
import { loadConfig } from '#server/config';
import { createLogger } from '#server/logger';
import type { ShopServices } from '#server/services';
import { capturingMessenger, createShopAuth, toSessionMember, type ShopAuth } from '#modules/identity/server';
import { createMaintenanceCache } from '#modules/shop';
import type { ShopRequest } from '#server/context';
import type { TestDatabaseHandle } from './use-test-database';
import { sendWelcomeMail } from '#server/mailbox';

/** The shop's address in identity tests: links in captured mails and requests' origins use it. */
export const TEST_ORIGIN = 'http://shop.test';

/** Services whose messenger keeps every mail and text message identity sends (`messenger.sent`). */
export type IdentityTestServices = ShopServices & { messenger: ReturnType<typeof capturingMessenger> };

/**
 * The services a page or better-auth sees, on the file's test database: the test settings plus
 * `settings` (a shop rule under test, a provider's keys), a silent logger, a capturing messenger,
 * and LINE linking when `wiring.line` points it at a stand-in.
 * Call it in beforeAll or later (the database opens in useTestDatabase's beforeAll).
 * @example beforeAll(() => { services = identityTestServices(handle, { SITE_NAME: 'テストショップ' }) })
 */
export function identityTestServices(
  handle: TestDatabaseHandle,
  settings: Record<string, string> = {},
  wiring: Pick<Parameters<typeof createShopAuth>[0], 'line' | 'onMemberCreated'> = {},
): IdentityTestServices {
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: handle.dataDir,
    PUBLIC_ORIGIN: TEST_ORIGIN,
    AUTH_SECRET: 'identity-test-secret-identity-test-secret-01',
    LOG_LEVEL: 'silent',
    ...settings,
  });
  const logger = createLogger('silent');
  const messenger = capturingMessenger();
  const auth = createShopAuth({
    db: handle.db,
    config,
    logger,
    messenger,
    line: wiring.line,
    onMemberCreated: async (created) => {
      await wiring.onMemberCreated?.(created);
      await sendWelcomeMail(handle.db, config, created.memberId);
    },
  });
  // The maintenance switch read every time: a test that switches it sees it at once.
  const maintenance = createMaintenanceCache(handle.db, { maxAgeMs: 0 });
  return { config, database: handle, db: handle.db, auth, logger, buildId: 'test', maintenance, messenger };
}

/**
 * A page's view of a request with this Cookie header: the member as the server resolves it, or null.
 * @example const shop = await memberRequest(services, member.cookie); await profileAction(shop, request)
 */
export async function memberRequest(services: ShopServices, cookie: string): Promise<ShopRequest> {
  const session = await services.auth.api.getSession({ headers: new Headers({ cookie }) });
  return {
    requestId: 'test',
    nonce: 'n',
    member: session ? toSessionMember(session.user as typeof session.user & { role?: string }) : null,
    services,
  };
}

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
