// Small HTTP helpers for the tests: no automatic redirects, cookies carried by hand.
import http from 'node:http';
import {} from 'vitest';
import { testShop } from './test-shop';

let ownShopUrl: string | null = null;

/** The shop these helpers talk to: the shared test shop, or the file's own one (useShopAt). */
export const shopUrl = () => ownShopUrl ?? testShop().url;

/**
 * Points every helper of this file at a shop of its own (tests/support/own-shop.ts), for a test that changes
 * shop-wide state (maintenance, settings, clocks), which must never reach files running beside it.
 * @example useShopAt(own.base); afterAll(() => useShopAt(null))
 */
export function useShopAt(base: string | null): void {
  ownShopUrl = base;
}

export interface PageResponse {
  status: number;
  headers: Headers;
  body: string;
  location: string | null;
}

/** @example const page = await get('/shop', { cookie }) */
export async function get(
  path: string,
  options: { cookie?: string; headers?: Record<string, string> } = {},
): Promise<PageResponse> {
  const response = await fetch(shopUrl() + path, {
    redirect: 'manual',
    headers: { ...(options.cookie ? { cookie: options.cookie } : {}), ...options.headers },
  });
  return {
    status: response.status,
    headers: response.headers,
    body: await response.text(),
    location: response.headers.get('location'),
  };
}

/** Posts a form the way a browser without JavaScript does (same-origin Origin header by default). */
export async function postForm(
  path: string,
  fields: Record<string, string>,
  options: { cookie?: string; origin?: string | null } = {},
): Promise<PageResponse> {
  const origin = options.origin === undefined ? shopUrl() : options.origin;
  const response = await fetch(shopUrl() + path, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(origin ? { origin } : {}),
      ...(options.cookie ? { cookie: options.cookie } : {}),
    },
    body: new URLSearchParams(fields).toString(),
  });
  return {
    status: response.status,
    headers: response.headers,
    body: await response.text(),
    location: response.headers.get('location'),
  };
}

/** The cookie header a browser would send back, from a response's Set-Cookie lines. */
export function cookieFrom(headers: Headers): string {
  return headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .filter((pair) => !pair.endsWith('='))
    .join('; ');
}

/** A POST from another loopback address (127.0.0.x), so rate limits keyed on the address start fresh. */
export function postFromAddress(
  localAddress: string,
  path: string,
  body: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  const url = new URL(shopUrl() + path);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port: url.port,
        path: url.pathname + url.search,
        method: 'POST',
        localAddress,
        headers: { ...headers, host: url.host, 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

let sequence = 0;
/** A unique address for a new test member. */
export const uniqueEmail = (label: string) => `${label}-${Date.now().toString(36)}-${++sequence}@example.jp`;

export const titleOf = (html: string) => html.match(/<title>([^<]*)<\/title>/)?.[1] ?? null;
export const canonicalOf = (html: string) => html.match(/<link rel="canonical" href="([^"]*)"/)?.[1] ?? null;
export const robotsMetaOf = (html: string) => html.match(/<meta name="robots" content="([^"]*)"/)?.[1] ?? null;

/**
 * The newest link of one /auth/action mode in the mails to an address, read from the developer
 * outbox (GET /dev/outbox.json, on with the sandbox); waits briefly for the mail to be queued.
 * @example const link = await mailLinkTo(email, 'verifyEmail')
 */
export async function mailLinkTo(email: string, mode: string): Promise<string> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const response = await fetch(`${shopUrl()}/dev/outbox.json?to=${encodeURIComponent(email)}`);
    if (response.ok) {
      const { messages } = (await response.json()) as { messages: { links?: string[] }[] };
      for (const message of messages)
        for (const link of message.links ?? []) if (link.includes(`mode=${mode}&`)) return link;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no ${mode} mail to ${email} in the outbox`);
}

/**
 * Signs up through the form as a member would: the form, then the confirmation mail's link from the
 * outbox, then its button. Answers the button's response (302 to the `redirect` path, with the
 * session cookie), or the form's own answer when it refused (400, 429).
 * @example const page = await signUpByForm({ name, email, password, agreeToTerms: 'on' }); const cookie = cookieFrom(page.headers)
 */
export async function signUpByForm(fields: Record<string, string>): Promise<PageResponse> {
  const sent = await postForm('/auth/sign_up', fields);
  if (sent.status !== 200 || !sent.body.includes('確認メールを送信しました')) return sent;
  const link = new URL(await mailLinkTo(fields.email!, 'verifyEmail'));
  return postForm(link.pathname + link.search, {});
}

/** A member signed up through the form, with their session as the cookie (pages) and the bearer (API). */
export interface SignedUpMember {
  email: string;
  cookie: string;
  bearer: string;
}

/** @example const alice = await signUpMember('bonus-alice'); await memberApi('/me/wallet', { member: alice }) */
export async function signUpMember(label: string, password = `${label}-pass-1`): Promise<SignedUpMember> {
  const email = uniqueEmail(label);
  const page = await signUpByForm({ name: label, email, password, agreeToTerms: 'on' });
  const cookie = cookieFrom(page.headers);
  const bearer = /session_token=([^;]+)/.exec(cookie)?.[1];
  if (!bearer) throw new Error(`no session cookie for ${label}`);
  return { email, cookie, bearer };
}

/**
 * Calls /api/v1 as the member (Bearer) or as a visitor, with an optional Idempotency-Key; the body parsed.
 * @example const { status, body } = await memberApi('/me/login-bonus', { member, method: 'POST', key: 'k1' })
 */
export async function memberApi(
  path: string,
  options: { member?: { bearer: string }; method?: string; key?: string; json?: unknown } = {},
) {
  const headers: Record<string, string> = {};
  if (options.member) headers.authorization = `Bearer ${options.member.bearer}`;
  if (options.key) headers['idempotency-key'] = options.key;
  if (options.json !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${shopUrl()}/api/v1${path}`, {
    method: options.method ?? 'GET',
    headers,
    body: options.json === undefined ? undefined : JSON.stringify(options.json),
    redirect: 'manual',
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

/**
 * Moves the test shop's farm clock forward (FARM_CLOCK_ADJUSTABLE in tests/support/global-shop.ts): the
 * only way a test ripens a crop. The clock is the shop's, so every later farm test sees it moved too.
 * @example await advanceFarmClock(30)
 */
export async function advanceFarmClock(minutes: number): Promise<void> {
  const response = await fetch(`${shopUrl()}/dev/farm-clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: shopUrl() },
    body: JSON.stringify({ advanceMinutes: minutes }),
  });
  if (response.status !== 200) throw new Error(`POST /dev/farm-clock answered ${response.status}`);
}
