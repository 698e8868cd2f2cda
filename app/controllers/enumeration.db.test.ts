// No account enumeration through the pages that take an address (issue 11, item 11): sign-up, the
// password sign-in, the reset request (/auth/passwd) and the email link answer a known and an unknown
// address with the same status, the same body (the address itself aside) and in the same timing class,
// through the pages' own actions, the shop's real better-auth and its real outbox messenger (so a mail
// rendered and written for the known address only is in the measurement, as in production).
// Timing: warm-up, then known and unknown interleaved (the order swapped every pair, so neither side
// always runs second), compared by medians; the bound catches a difference in kind (a password hash or a
// mail on one path only), not the noise of a busy two-core machine.
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { RouterContextProvider } from 'react-router';
// (Aliased: React's hook rule reads any use… call in app/ as a hook.)
import { useTestDatabase as testDatabase } from '#tests/use-test-database';
import { identityTestServices, signUpConfirmed, TEST_ORIGIN } from '#tests/identity';
import { answerOf } from '#tests/route-answers';
import { outboxMessenger } from '#server/messenger';
import type { ShopServices } from '#server/services';
import { outboundMessages } from '#db/schema';
import { createRateLimiter, createShopAuth, type RateLimiter } from '#modules/identity/server';
import { shopRequestContext } from '#server/context';
import { action as signUpAction } from '~/routes/auth/sign-up';
import { action as signInAction } from '~/routes/auth/sign-in';
import { action as passwdAction } from '~/routes/auth/passwd';

/** Timed attempts per side after the warm-up. */
const SAMPLES = 16;
const WARM_UP = 3;
/** The slower side's median over the faster one's: a hash or a mail on one side only is far beyond it. */
const TIMING_CLASS_RATIO = 3;

const PASSWORD = 'password-1234';
const handle = testDatabase('enumeration', { poolSize: 4 });
let services: ShopServices;
let limiter: RateLimiter;
let known: { email: string };

beforeAll(async () => {
  // The limits are raised so that every attempt reaches the endpoint (the limits answer a known and an
  // unknown account alike before it runs: abuse.db.test.ts).
  const base = identityTestServices(handle, {
    SIGN_IN_ATTEMPTS_PER_MINUTE: '1000',
    SIGN_UP_ATTEMPTS_PER_MINUTE: '1000',
    SIGN_IN_ATTEMPTS_PER_ACCOUNT_PER_15_MINUTES: '1000',
    AUTH_MAILS_PER_ACCOUNT_PER_HOUR: '1000',
    AUTH_MAILS_PER_ADDRESS_PER_HOUR: '10000',
  });
  // As server/main.ts wires them: the outbox messenger (render, insert, notify) and the shared limiter.
  const messenger = outboxMessenger(handle.db, base.config);
  limiter = createRateLimiter({ db: handle.db, logger: base.logger, keyPrefix: `test:${randomUUID()}:` });
  const auth = createShopAuth({ db: handle.db, config: base.config, logger: base.logger, messenger, limiter });
  services = { ...base, auth, messenger, limiter };
  known = await signUpConfirmed(auth, base.config.AUTH_SECRET, {
    email: `known-${randomUUID().slice(0, 8)}@example.jp`,
    password: PASSWORD,
    name: '登録済み',
  });
});
afterAll(async () => {
  await limiter?.close();
});

let sequence = 0;
const unknownAddress = () => `unknown-${randomUUID().slice(0, 8)}-${++sequence}@example.jp`;

/** A route module's action (called here with the request, the context and no params). */
type PageAction = (args: never) => Promise<unknown>;

let client = 0;
/**
 * A form posted to a page's action, each from a client address of its own: better-auth's coarse
 * limits (3 reset or email-link requests per address, not settings) would otherwise answer 429.
 */
async function post(action: PageAction, path: string, fields: Record<string, string>) {
  const n = ++client;
  const clientIp = `10.11.${(n >> 8) & 255}.${n & 255}`;
  const context = new RouterContextProvider();
  context.set(shopRequestContext, { requestId: 'test', nonce: 'n', member: null, services });
  const request = new Request(`${TEST_ORIGIN}${path}`, {
    method: 'POST',
    headers: { 'x-shop-client-ip': clientIp },
    body: new URLSearchParams(fields),
  });
  const { status, location, body } = answerOf(await action({ request, context, params: {} } as never));
  return { status, location, body };
}

/** An answer with the address it was asked about taken out (the page repeats what was typed). */
const withoutAddress = (answer: unknown, email: string) =>
  JSON.parse(JSON.stringify(answer).replaceAll(email, '<address>')) as unknown;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

interface Flow {
  name: string;
  title: string;
  action: PageAction;
  path: string;
  /** The form, for this address. */
  fields(email: string): Record<string, string>;
  /** What both sides read, the address taken out (a partial match where the answer has more). */
  answer: Record<string, unknown>;
  /** The mail the known address's owner gets each time (none for a refused sign-in). */
  ownerMail?: string;
}

const FLOWS: Flow[] = [
  {
    name: 'sign-up',
    title:
      'sign-up: 「確認メールを送信しました」 for both; the owner of the known address gets the account-exists mail',
    action: signUpAction,
    path: '/auth/sign_up',
    fields: (email) => ({ name: 'だれか', email, password: 'other-pass-9876', agreeToTerms: 'on' }),
    answer: { status: 200, location: null, body: { sent: { email: '<address>' } } },
    ownerMail: 'account-exists',
  },
  {
    name: 'sign-in',
    title: 'password sign-in: the same refusal for a wrong password and for an address without an account',
    action: signInAction,
    path: '/auth/sign_in',
    fields: (email) => ({ email, password: 'wrong-pass-0000' }),
    answer: { status: 401, location: null, body: { email: '<address>', captcha: null } },
  },
  {
    name: 'password reset',
    title: 'reset request (/auth/passwd): the same sentence; only the owner gets the link',
    action: passwdAction,
    path: '/auth/passwd',
    fields: (email) => ({ email }),
    answer: { status: 200, location: null, body: { sent: '<address>' } },
    ownerMail: 'password-reset',
  },
  {
    name: 'email link',
    title: 'email link (/auth/sign_in, intent=email-link): the same answer; only the owner gets the link',
    action: signInAction,
    path: '/auth/sign_in',
    fields: (email) => ({ intent: 'email-link', email }),
    answer: { status: 200, location: null, body: { emailLink: { sent: '<address>' } } },
    ownerMail: 'magic-link',
  },
];

/**
 * Medians in milliseconds of the known address's and new unknown addresses' attempts, after checking
 * that every answer is the same (sign-up's unknown side needs a new address every time; so do all).
 */
async function measure(flow: Flow) {
  const times = { known: [] as number[], unknown: [] as number[] };
  let reference: unknown;
  for (let round = 0; round < WARM_UP + SAMPLES; round++) {
    const sides = round % 2 === 0 ? (['known', 'unknown'] as const) : (['unknown', 'known'] as const);
    for (const side of sides) {
      const email = side === 'known' ? known.email : unknownAddress();
      const started = performance.now();
      const answer = await post(flow.action, flow.path, flow.fields(email));
      const elapsed = performance.now() - started;
      const seen = withoutAddress(answer, email);
      reference ??= seen;
      expect(seen, `${flow.name}: the ${side} address, round ${round}`).toEqual(reference);
      if (round >= WARM_UP) times[side].push(elapsed);
    }
  }
  const result = { known: median(times.known), unknown: median(times.unknown) };
  const ratio = Math.max(result.known, result.unknown) / Math.min(result.known, result.unknown);
  console.info(
    `${flow.name}: median known ${result.known.toFixed(1)} ms, unknown ${result.unknown.toFixed(1)} ms (×${ratio.toFixed(2)})`,
  );
  return { ratio, reference };
}

const mailsTo = async (email: string) =>
  (await handle.db.select().from(outboundMessages).where(eq(outboundMessages.recipient, email))).map(
    (message) => message.template,
  );

describe('a known and an unknown address get the same answer, in the same time class', () => {
  for (const flow of FLOWS) {
    it(flow.title, async () => {
      const before = (await mailsTo(known.email)).length;
      const { ratio, reference } = await measure(flow);
      expect(reference).toMatchObject(flow.answer);
      // The known side really did its work: a mail to the owner every time.
      expect((await mailsTo(known.email)).slice(before)).toEqual(
        Array<string>(flow.ownerMail ? WARM_UP + SAMPLES : 0).fill(flow.ownerMail ?? ''),
      );
      expect(ratio).toBeLessThan(TIMING_CLASS_RATIO);
    });
  }

  it('sends nothing to the unknown addresses but the sign-up confirmations', async () => {
    const rows = await handle.db.select().from(outboundMessages);
    const toUnknown = rows.filter((row) => row.recipient.startsWith('unknown-'));
    expect(new Set(toUnknown.map((row) => row.template))).toEqual(new Set(['verify-email']));
  });
});
