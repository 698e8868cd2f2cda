// Debian's Chromium driven by playwright-core (no browser download), at phone and desktop sizes,
// with axe-core for accessibility checks.
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { expect, beforeAll, afterAll } from 'vitest';
import { createOTP } from '@better-auth/utils/otp';
import { base32 } from '@better-auth/utils/base32';
import { cookieFrom, mailLinkTo, signUpByForm, uniqueEmail } from '#tests/http';
import { testShop } from '#tests/test-shop';
import { scaledTimeout } from '#tests/settings';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export const VIEWPORTS = {
  phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 },
  desktop: { viewport: { width: 1280, height: 860 }, isMobile: false, hasTouch: false, deviceScaleFactor: 1 },
} as const;
export type ViewportName = keyof typeof VIEWPORTS;

export function launchChromium(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium is not installed at ${CHROMIUM_PATH}: run "apt-get install -y chromium" (.ci/run does it).`,
    );
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

/**
 * A fresh context (no cookies, no storage); page errors and console errors are collected. The login bonus
 * sheet of the day's first page (decision 060) is marked as already offered today unless `loginBonusSheet`
 * is set, so journeys about something else are not interrupted by it.
 */
export async function openContext(
  browser: Browser,
  viewport: ViewportName,
  baseURL: string,
  options: { loginBonusSheet?: boolean } = {},
) {
  const context: BrowserContext = await browser.newContext({
    ...VIEWPORTS[viewport],
    baseURL,
    locale: 'ja-JP',
    timezoneId: 'Asia/Tokyo',
    bypassCSP: false,
  });
  // Playwright's own 30 s for each wait is a fixed limit; on a busy CI machine the waits scale with the
  // test's time limits (TEST_TIMEOUT_SCALE), as every other limit does.
  context.setDefaultTimeout(scaledTimeout(60_000));
  if (!options.loginBonusSheet)
    await context.addInitScript(() => {
      const day = new Intl.DateTimeFormat('en-CA', {
        timeZone: 'Asia/Tokyo',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
      }).format(new Date());
      try {
        window.localStorage.setItem('oripa.loginBonusOffered', day);
      } catch {
        // about:blank and other opaque origins have no storage
      }
    });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    // 400 and 404 are answers the journeys provoke on purpose (a form with errors, the not-found page)
    // The resource's address goes with it, so a failure says which request was refused.
    if (message.type() === 'error' && !/status of (400|404)\b/.test(message.text()))
      problems.push(`console.error: ${message.text()}${message.location().url ? ` (${message.location().url})` : ''}`);
  });
  return { context, page, problems };
}

/**
 * Where the journeys' screenshots go: TEST_SCREENSHOTS names a folder (or is 1 for
 * test-results/screenshots). Unset, as in `npm test` and CI, none are taken: they are for a person to
 * look at, no test reads them, and a full-page phone picture costs a second of both cores.
 */
export const SCREENSHOTS_DIR = ((value) =>
  !value || value === '0' ? undefined : value === '1' ? 'test-results/screenshots' : value)(
  process.env.TEST_SCREENSHOTS,
);

/**
 * A screenshot for a person to look at, when TEST_SCREENSHOTS is set (see SCREENSHOTS_DIR).
 * @example await screenshot(page, 'phone-10-result.png', { fullPage: true })
 */
export async function screenshot(target: Page | Locator, name: string, options: { fullPage?: boolean } = {}) {
  if (!SCREENSHOTS_DIR) return;
  fs.mkdirSync(SCREENSHOTS_DIR, { recursive: true });
  const file = path.join(SCREENSHOTS_DIR, name);
  await ('goto' in target ? target.screenshot({ path: file, ...options }) : target.screenshot({ path: file }));
}

const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Finite CSS animations and transitions still running in the page (an endless spinner does not count). */
const runningAnimations = (page: Page) =>
  page.evaluate(
    () =>
      document
        .getAnimations()
        .filter((a) => a.playState === 'running' && Number.isFinite(a.effect?.getComputedTiming().endTime ?? Infinity))
        .length,
  );

/**
 * Runs axe-core in the page (evaluated, so our CSP does not need loosening) and fails on serious or critical
 * violations. It first lets the page's finite animations end (polled on the test's own clock, a few seconds at
 * most): a colour caught mid-fade is not the colour a member reads. A check that must see a moment inside an
 * animation (its page clock paused, stepped while axe runs) passes `{ settle: false }`: for the check's
 * length every CSS animation and transition jumps to its end (a constructed style sheet, which the CSP
 * allows), so a card the stepped clock turns while axe reads the page is read as it lands, not mid-turn.
 */
export async function expectNoSeriousAxeViolations(page: Page, label: string, options: { settle?: boolean } = {}) {
  if (options.settle !== false)
    for (let polls = 0; polls < 50 && (await runningAnimations(page)) > 0; polls++)
      await new Promise((resolve) => setTimeout(resolve, 100));
  const violations = (await page.evaluate(
    async ({ source, settled }) => {
      new Function(source)();
      const axe = (
        window as unknown as {
          axe: {
            run(
              ctx: Document,
              options: object,
            ): Promise<{ violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[] }>;
          };
        }
      ).axe;
      const ends = new CSSStyleSheet();
      if (!settled) {
        ends.replaceSync(
          '*,*::before,*::after{animation-duration:0s!important;animation-delay:0s!important;transition-duration:0s!important;transition-delay:0s!important}',
        );
        document.adoptedStyleSheets = [...document.adoptedStyleSheets, ends];
      }
      try {
        const result = await axe.run(document, { resultTypes: ['violations'] });
        return result.violations.map((v) => ({
          id: v.id,
          impact: v.impact,
          help: v.help,
          targets: v.nodes.slice(0, 3).map((n) => n.target.join(' ')),
        }));
      } finally {
        document.adoptedStyleSheets = document.adoptedStyleSheets.filter((sheet) => sheet !== ends);
      }
    },
    { source: axeSource, settled: options.settle !== false },
  )) as { id: string; impact: string; help: string; targets: string[] }[];
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious, `${label}: ${JSON.stringify(serious, null, 2)}`).toEqual([]);
}

/**
 * Runs a page task (axe queues its work on setTimeout) while the page's paused clock is stepped 5 ms at
 * a time, at most one second in all: the task's own timers fire, a reveal's landing seconds away does not.
 */
export async function withClockStepping(page: Page, task: Promise<void>) {
  let settled = false;
  const outcome = task.then(
    () => null,
    (error: unknown) => error,
  );
  void outcome.then(() => (settled = true));
  for (let stepped = 0; !settled; stepped += 5) {
    expect(stepped, 'the page task did not finish within one second of its clock').toBeLessThan(1_000);
    await page.clock.runFor(5);
  }
  const error = await outcome;
  if (error) throw error;
}

/**
 * A new member, signed up by the form, and a phone-size context already signed in as them.
 * @example const { context, page, problems } = await openSignedInPhone(shop, 'ボーナス確認', 'bonus-journey')
 */
export async function openSignedInPhone(
  shop: { browser: Browser; baseURL: string },
  nickname: string,
  label: string,
  options: { loginBonusSheet?: boolean } = {},
) {
  const signUp = await signUpByForm({
    name: nickname,
    email: uniqueEmail(label),
    password: `${label}-1`,
    agreeToTerms: 'on',
  });
  const opened = await openContext(shop.browser, 'phone', shop.baseURL, options);
  await addSessionCookies(opened.context, cookieFrom(signUp.headers), shop.baseURL);
  return opened;
}

/** Waits until React has hydrated the page (root sets data-hydrated). */
export async function waitForHydration(page: Page) {
  await page.waitForSelector('html[data-hydrated]', { timeout: 15_000 });
}

/**
 * One Chromium for the calling test file, launched before its tests and closed after them.
 * @example const shop = useBrowser(); ... openContext(shop.browser, 'phone', shop.baseURL)
 */
export function useBrowser() {
  const handle = { browser: undefined as unknown as Browser, baseURL: testShop().url };
  beforeAll(async () => {
    handle.browser = await launchChromium();
  });
  afterAll(async () => {
    await handle.browser?.close();
  });
  return handle;
}

/**
 * Puts a session's cookies (a Set-Cookie answer's, as cookieFrom reads them) into a browser context, so
 * its pages open signed in.
 * @example await addSessionCookies(context, cookieFrom(signUp.headers), shop.baseURL)
 */
export async function addSessionCookies(context: BrowserContext, cookie: string, baseURL: string) {
  await context.addCookies(
    cookie.split('; ').map((pair) => {
      const at = pair.indexOf('=');
      return {
        name: pair.slice(0, at),
        value: pair.slice(at + 1),
        domain: new URL(baseURL).hostname,
        path: '/',
        secure: true,
        httpOnly: true,
        sameSite: 'Lax' as const,
      };
    }),
  );
}

/**
 * Signs a new member up through the sign-up form, as a person would, and waits for the home page.
 * @example await signUpInBrowser(page, { name: 'ひく', email: `draw-${Date.now()}@example.jp` })
 */
export async function signUpInBrowser(page: Page, member: { name: string; email: string; password?: string }) {
  await page.goto('/auth/sign_up');
  await waitForHydration(page);
  await page.getByLabel('ニックネーム').fill(member.name);
  await page.getByLabel('メールアドレス').fill(member.email);
  await page.getByLabel('パスワード', { exact: true }).fill(member.password ?? 'strong-pass-2026');
  await page.getByRole('checkbox', { name: /利用規約/ }).check();
  await page.getByRole('button', { name: '登録する' }).click();
  await confirmSignUpInBrowser(page, member.email);
  await page.waitForURL((url) => url.pathname === '/');
}

/**
 * After the sign-up form: the 「確認メールを送信しました」 page, then the confirmation mail's link (read
 * from the developer outbox, as a member reads their mailbox) and its button, which signs in.
 * @example await confirmSignUpInBrowser(page, email); await page.waitForURL('**\/shop')
 */
export async function confirmSignUpInBrowser(page: Page, email: string) {
  await page.getByRole('heading', { name: '確認メールを送信しました' }).waitFor();
  const link = new URL(await mailLinkTo(email, 'verifyEmail'));
  await page.goto(link.pathname + link.search);
  await waitForHydration(page);
  await page.getByRole('button', { name: 'メールアドレスを確認する' }).click();
}

/**
 * The second factor the admin area asks a new staff member for: opened from an admin page, it sends
 * them to the security page, where they set up TOTP with their password and a first code.
 * @example await desk.page.goto('/admin'); await setUpStaffTotp(desk.page, password)
 */
export async function setUpStaffTotp(page: Page, password: string): Promise<void> {
  await page.waitForURL(/\/mypage\/settings\/security/);
  await waitForHydration(page);
  // better-auth counts 3 /two-factor/* calls per 10 seconds per address, and every journey comes from
  // 127.0.0.1: the set-up (two calls) starts in a window of its own, so it is never refused with 429.
  await page.waitForTimeout(10_500);
  await page.getByLabel('パスワード').fill(password);
  await page.getByRole('button', { name: '設定を始める' }).click();
  const manualKey = (await page.getByTestId('manual-key').textContent())!.trim();
  const secret = base32.decode(manualKey.replace(/\s+/g, ''));
  // Refused codes are retried as a person would: a code made at the very end of its 30-second window can
  // reach a busy server in the next one, and better-auth allows 3 /two-factor/* calls per 10 seconds per
  // address (other journeys set up staff from 127.0.0.1 too). Read the form's refusal, wait for the next
  // window (and the limit's), type the new code.
  const backupCodes = page.getByText(/バックアップコード/).first();
  const confirmForm = page.locator('form').filter({ has: page.getByRole('button', { name: '設定を完了する' }) });
  for (let attempt = 1; ; attempt++) {
    const code = await createOTP(secret, { digits: 6, period: 30 }).totp();
    await confirmForm.getByLabel('認証コード（6桁）').fill(code);
    // The answer to this press (a refusal from the last one may still be on the page until it arrives).
    await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST' && r.url().includes('/mypage/settings/security')),
      confirmForm.getByRole('button', { name: '設定を完了する' }).click(),
    ]);
    await backupCodes.or(confirmForm.getByRole('alert')).first().waitFor();
    if (await backupCodes.isVisible()) return;
    if (attempt >= 4) throw new Error(`the TOTP code was refused ${attempt} times: ${await confirmForm.textContent()}`);
    await page.waitForTimeout(Math.max(11_000, 30_000 - (Date.now() % 30_000) + 500));
  }
}
