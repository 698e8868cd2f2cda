// Settings: read from the environment once at start, validated by zod; a bad value stops the start.
import { z } from 'zod';
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';

const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

// A DNS host name with an optional port, as Merpay's SDK takes its hosts (it adds https:// itself).
const merpayHost =
  /^(?=.{1,253}(?::\d{1,5})?$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*(?::\d{1,5})?$/;

/**
 * A comma-separated list of whole numbers from 0 to `max` (at most `maxEntries`); "0" alone is the empty list.
 * @example coinList('X', 100, 5).parse('1, 2') // [1, 2]
 */
function coinList(name: string, max: number, maxEntries: number) {
  return z.string().transform((text, context) => {
    if (text.trim() === '0') return [] as number[];
    const entries = text.split(',').map((entry) => entry.trim());
    for (const entry of entries)
      if (!/^\d{1,13}$/.test(entry) || Number(entry) > max)
        context.addIssue({ code: 'custom', message: `${entry || '(empty)'} is not a whole number from 0 to ${max}` });
    if (entries.length > maxEntries)
      context.addIssue({ code: 'custom', message: `at most ${maxEntries} entries in ${name}` });
    return entries.map(Number);
  });
}

/** Paths the shop itself answers outside the pages; a route rule may not take them. */
const ROUTE_RULE_RESERVED = /^\/(?:api|admin|assets|builds|dev|healthz?)(?:\/|$)/;

/**
 * ROUTE_REDIRECTS: a JSON object of route rules with a redirect (specification section 4), from a page
 * path to a path on this site (an internal navigation) or an absolute https URL (a full page load; http
 * only on this machine). Paths are compared as the guards compare them: lower case, no trailing slash.
 * @example routeRedirects.parse('{"/lp/spring":"https://campaign.example.jp/spring"}')
 */
const routeRedirects = z.string().transform((text, context) => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    context.addIssue({ code: 'custom', message: 'must be a JSON object of "/path": "target"' });
    return {} as Record<string, string>;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    context.addIssue({ code: 'custom', message: 'must be a JSON object of "/path": "target"' });
    return {} as Record<string, string>;
  }
  const rules: Record<string, string> = {};
  const entries = Object.entries(parsed as Record<string, unknown>);
  if (entries.length > 200) context.addIssue({ code: 'custom', message: 'at most 200 route rules' });
  for (const [from, to] of entries) {
    if (!/^\/[a-z0-9._~%/-]{0,200}$/.test(from) || from.includes('//') || (from !== '/' && from.endsWith('/')))
      context.addIssue({
        code: 'custom',
        message: `${from}: the path must be lower case, start with / and not end with /`,
      });
    else if (ROUTE_RULE_RESERVED.test(from))
      context.addIssue({ code: 'custom', message: `${from}: /api, /admin, /assets, /builds and /dev are not pages` });
    if (typeof to !== 'string' || !isRouteRedirectTarget(to))
      context.addIssue({
        code: 'custom',
        message: `${from}: the target must be a path on this site (/…) or an https URL`,
      });
    else rules[from] = to;
  }
  return rules;
});

/**
 * A route rule's target: a path on this site, or an absolute https URL (http on this machine only).
 * @example isRouteRedirectTarget('https://example.jp/a') // true; isRouteRedirectTarget('//evil.example') // false
 */
export function isRouteRedirectTarget(target: string): boolean {
  if (target.length > 2000 || /[\u0000-\u001f\u007f\\\s]/.test(target)) return false;
  if (target.startsWith('/')) return !target.startsWith('//');
  if (!URL.canParse(target)) return false;
  const url = new URL(target);
  if (url.username || url.password) return false;
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
}

/**
 * A Prismic repository name, or its document API endpoint: https, or http on this machine (a stand-in).
 * @example isPrismicRepository('stella-shop') // true; isPrismicRepository('http://example.com/api/v2') // false
 */
function isPrismicRepository(value: string): boolean {
  if (/^[a-z0-9][a-z0-9-]{0,62}$/.test(value)) return true;
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  return (
    (url.protocol === 'https:' || (url.protocol === 'http:' && loopback)) &&
    /\/api\/v2\/?$/.test(url.pathname) &&
    !url.search &&
    !url.username
  );
}

const environmentSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  /** PostgreSQL: migrate as this URL's role (the owner), serve as DATABASE_URL's (`npm run db:roles`, docs/decisions/010). */
  DATABASE_MIGRATION_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  DATA_DIR: z.string().min(1).default('.data'),
  PUBLIC_ORIGIN: z
    .string()
    .url()
    .refine(
      (v) => /^https?:\/\/[^/]+$/.test(v.replace(/\/$/, '')),
      'must be an origin such as https://example.jp (no path)',
    )
    .optional(),
  SITE_NAME: z.string().min(1).max(60).default('オリパ ステラ'),
  SITE_TAGLINE: z.string().min(1).max(120).default('オリパ ステラ｜公平・透明なオンラインオリパ'),
  /** The meta description of pages that have none of their own (search results show it under the title). */
  SITE_DESCRIPTION: z
    .string()
    .min(1)
    .max(300)
    .default(
      'オリパ ステラは、ポケモンカードやワンピースカードのオンラインオリパ。排出率と残り口数をいつでも公開し、抽選結果を後から検証できる、公平で透明なオリパをお届けします。',
    ),
  /** Where pages, special pages, banners and notices come from (docs/decisions/041): the built-in store or Prismic. */
  CONTENT_SOURCE: z.enum(['builtin', 'prismic']).default('builtin'),
  /** The Prismic repository: its name (stella-shop) or its document API endpoint (https://stella-shop.cdn.prismic.io/api/v2). */
  PRISMIC_REPOSITORY: z
    .string()
    .refine(
      isPrismicRepository,
      'must be a Prismic repository name (e.g. stella-shop) or its https://…/api/v2 endpoint',
    )
    .optional(),
  /** A permanent access token of the repository's Content API (needed when the API is private). */
  PRISMIC_ACCESS_TOKEN: z
    .string()
    .regex(/^[\x21-\x7e]{8,2000}$/, 'must be the access token from the repository’s API & Security settings')
    .optional(),
  AUTH_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DEMO_DATA: booleanFlag.default(true),
  TRUST_PROXY: booleanFlag.default(false),
  PASSWORD_MIN_LENGTH: z.coerce.number().int().min(6).max(128).default(8),
  /** The shop's own password rules: off (library limits only), warn (told, accepted) or enforce (refused). */
  PASSWORD_POLICY_MODE: z.enum(['off', 'warn', 'enforce']).default('enforce'),
  /** Optional maximum password length (at most 128, better-auth's limit). */
  PASSWORD_MAX_LENGTH: z.coerce.number().int().min(6).max(128).optional(),
  PASSWORD_REQUIRE_LOWERCASE: booleanFlag.default(false),
  PASSWORD_REQUIRE_UPPERCASE: booleanFlag.default(false),
  PASSWORD_REQUIRE_NUMERIC: booleanFlag.default(false),
  PASSWORD_REQUIRE_NON_ALPHANUMERIC: booleanFlag.default(false),
  /** Route rules with a redirect beyond the specification's four (JSON "/path": "/target" or "https://…"); README "Settings". */
  ROUTE_REDIRECTS: routeRedirects.default({}),
  /** The LINE campaign /mypage/backfromlinecampaign rewards (its id, e.g. line-friends-2026); unset: no campaign. */
  LINE_CAMPAIGN_ID: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a short id (letters, digits, - and _)')
    .optional(),
  /** Free coins a member gets once for linking LINE through the campaign page (0: none). */
  LINE_CAMPAIGN_REWARD_COINS: z.coerce.number().int().min(0).max(100_000).default(0),
  /** The longest nickname (shown on rankings and the winners feed). */
  NICKNAME_MAX_LENGTH: z.coerce.number().int().min(4).max(40).default(20),
  /** Words a nickname may not contain, comma-separated (compared after NFKC and lower-casing). */
  NICKNAME_FORBIDDEN_WORDS: z
    .string()
    .max(20_000)
    .default('運営,公式,管理者,admin,staff,support')
    .transform((text) =>
      text
        .split(',')
        .map((w) => w.trim())
        .filter(Boolean),
    ),
  /** Minutes a sign-in counts as recent for sensitive changes (email, unlinking, 退会); older asks for the password again. */
  REAUTH_MAX_AGE_MINUTES: z.coerce.number().int().min(1).max(1440).default(10),
  SIGN_IN_ATTEMPTS_PER_MINUTE: z.coerce.number().int().min(1).max(1000).default(10),
  SIGN_UP_ATTEMPTS_PER_MINUTE: z.coerce.number().int().min(1).max(1000).default(10),
  /** Countries whose mobile numbers may take the shop's SMS codes (ISO 3166, comma-separated; the first is the default for numbers typed without +). */
  PHONE_COUNTRIES: z
    .string()
    .default('JP')
    .transform((v) => v.split(',').map((c) => c.trim().toUpperCase()))
    .pipe(z.array(z.string().regex(/^[A-Z]{2}$/, 'must be ISO 3166 country codes such as JP,US')).min(1)),
  /** One-time tokens for the app's web view, per member and per client address (each writes a row). */
  APP_HANDOFF_PER_MINUTE: z.coerce.number().int().min(1).max(1000).default(10),
  /** Rate-limit counts shared by every instance in Redis (redis://…); the database counts them when unset. */
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\/\S+$/, 'must be a Redis URL such as redis://127.0.0.1:6379')
    .optional(),
  /** Password and code checks per account (email or phone number) per 15 minutes, all sign-in methods together. */
  SIGN_IN_ATTEMPTS_PER_ACCOUNT_PER_15_MINUTES: z.coerce.number().int().min(1).max(1000).default(20),
  /** Sign-in mails (password reset, email link, email code) per account per hour. */
  AUTH_MAILS_PER_ACCOUNT_PER_HOUR: z.coerce.number().int().min(1).max(1000).default(5),
  /** Sign-in mails per client address per hour. */
  AUTH_MAILS_PER_ADDRESS_PER_HOUR: z.coerce.number().int().min(1).max(10_000).default(20),
  /** Text messages (codes) per phone number per hour. */
  SMS_PER_NUMBER_PER_HOUR: z.coerce.number().int().min(1).max(1000).default(5),
  /** Text messages per client address per hour. */
  SMS_PER_ADDRESS_PER_HOUR: z.coerce.number().int().min(1).max(10_000).default(10),
  /** Failed password or code checks (per account, or per address) after which a captcha is required. */
  CAPTCHA_AFTER_FAILURES: z.coerce.number().int().min(1).max(1000).default(3),
  /** The window in which those failures are counted. */
  CAPTCHA_FAILURE_WINDOW_MINUTES: z.coerce.number().int().min(1).max(1440).default(15),
  /** Cloudflare Turnstile; the captcha is off when unset (then only the limits apply). Both or neither. */
  TURNSTILE_SITE_KEY: z
    .string()
    .regex(/^[\w-]{1,200}$/, 'must be the Turnstile site key')
    .optional(),
  TURNSTILE_SECRET_KEY: z
    .string()
    .regex(/^[\w.-]{1,200}$/, 'must be the Turnstile secret key')
    .optional(),
  /** A local Turnstile stand-in's siteverify URL (devtools/standins/turnstile); only with PAYMENT_SANDBOX. */
  TURNSTILE_VERIFY_URL: z.string().url().optional(),
  BUILD_POLL_SECONDS: z.coerce.number().int().min(10).max(86400).default(300),
  JOBS_ENABLED: booleanFlag.default(true),
  /**
   * How long an instance trusts its copy of the maintenance switch (pages, the API's edge, health): every
   * instance sees a change within this time; the draw and the checkout read it exactly (decision 025).
   */
  MAINTENANCE_CACHE_SECONDS: z.coerce.number().min(0).max(60).default(2),
  // Visitors' public pages (home, genres, packs, notices) are rendered once per this many seconds per
  // instance; 0 renders every request (decision 048).
  PAGE_CACHE_SECONDS: z.coerce.number().int().min(0).max(60).default(5),
  /** Encode the home page's images into the cache after start (off in test shops: it competes for the cores). */
  IMAGE_WARM_UP: booleanFlag.default(true),
  /**
   * Give the memory native code has freed (image encoding above all) back to the system this often, and
   * a moment after start-up and after image encodes; 0 only then, -1 never (decision 047).
   */
  MEMORY_TRIM_SECONDS: z.coerce.number().int().min(-1).max(3600).default(60),
  IMAGE_CACHE_MAX_MB: z.coerce.number().int().min(1).max(1_048_576).default(1024),
  /** Days a prize waits for the member's choice before it is converted to coins. */
  PRIZE_DECISION_DAYS: z.coerce.number().int().min(1).max(365).default(14),
  /** Days a kept prize waits for a shipping request before it is converted (reminders 7 days and 1 day before). */
  KEPT_PRIZE_STORAGE_DAYS: z.coerce.number().int().min(8).max(3650).default(60),
  /** Coins a shipping request costs (a ledger entry; refunded when the request is canceled). */
  SHIPPING_FEE_COINS: z.coerce.number().int().min(0).max(1_000_000).default(0),
  /** The fewest prizes one shipping request may hold. */
  SHIPPING_MIN_PRIZES: z.coerce.number().int().min(1).max(200).default(1),
  /** 発送予定日: business days after the acceptance day (weekends, holidays and closed days not counted). */
  SHIPPING_BUSINESS_DAYS: z.coerce.number().int().min(0).max(60).default(5),
  /** The shop's own closed days (年末年始, 夏季休業…), comma-separated JST dates YYYY-MM-DD. */
  SHIPPING_CLOSED_DAYS: z
    .string()
    .default('')
    .transform((text, context) => {
      const days = text
        .split(',')
        .map((day) => day.trim())
        .filter(Boolean);
      for (const day of days) {
        const [year, month, date] = day.split('-').map(Number);
        const real = new Date(Date.UTC(year ?? 0, (month ?? 1) - 1, date ?? 0));
        if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || real.toISOString().slice(0, 10) !== day)
          context.addIssue({ code: 'custom', message: `${day} is not a date YYYY-MM-DD` });
      }
      return [...new Set(days)].sort();
    }),
  /** Requests from this hour (Japan time) on are accepted on the next business day. */
  SHIPPING_CUTOFF_HOUR: z.coerce.number().int().min(0).max(24).default(15),
  /** Free coins a member gets, once, when a request has not shipped by the end of its 発送予定日 (0: none). */
  SHIPPING_LATE_COMPENSATION_COINS: z.coerce.number().int().min(0).max(1_000_000).default(100),
  /**
   * The desk's shipped-CSV import: the largest file (bytes) and the most rows one import may hold. The
   * request body limit (256 KiB) caps the file, so the setting stays below it.
   */
  SHIPPING_CSV_MAX_BYTES: z.coerce.number().int().min(1_000).max(240_000).default(200_000),
  SHIPPING_CSV_MAX_ROWS: z.coerce.number().int().min(1).max(10_000).default(2_000),
  /**
   * The contact form (/contact): the largest image taken per attachment (bytes, before re-encoding;
   * three at most, so the form's own body limit is three of these and 64 KiB), posts per client
   * address per hour (every post, counted before the body is read), and inquiries per email address
   * per day (docs/decisions/024).
   */
  CONTACT_IMAGE_MAX_BYTES: z.coerce.number().int().min(50_000).max(10_000_000).default(5_000_000),
  CONTACT_POSTS_PER_ADDRESS_PER_HOUR: z.coerce.number().int().min(1).max(10_000).default(20),
  CONTACT_INQUIRIES_PER_EMAIL_PER_DAY: z.coerce.number().int().min(1).max(1_000).default(5),
  /**
   * The pack editor (decision 030): the largest image taken (bytes, before re-encoding), the words
   * 景品表示法 forbids in a pack's copy (comma-separated, matched after NFKC), and the costs its margin
   * counts: the payment providers' fee (percent of sales) and shipping one prize (yen).
   */
  PACK_IMAGE_MAX_BYTES: z.coerce.number().int().min(50_000).max(20_000_000).default(8_000_000),
  PACK_FORBIDDEN_WORDS: z
    .string()
    .default('必ず当たる,必ず,確定,100%,絶対,全員当選,損しない')
    .transform((s) =>
      s
        .split(',')
        .map((w) => w.trim())
        .filter(Boolean),
    ),
  PAYMENT_FEE_PERCENT: z.coerce.number().min(0).max(50).default(3.6),
  SHIPPING_COST_PER_PRIZE_YEN: z.coerce.number().int().min(0).max(100_000).default(300),
  /** A prize worth at least this many coins is named in a conversion's confirmation (with S賞 and above). */
  PRIZE_HIGHLIGHT_COINS: z.coerce.number().int().min(1).max(100_000_000).default(10_000),
  /**
   * A conversion's confirmation names, card by card, every prize worth at least this many coins
   * (decision 057), beside every tier above the pack's lowest CONVERT_CONFIRM_NAMED_ABOVE_LOWEST_TIERS.
   */
  CONVERT_CONFIRM_NAMED_MIN_COINS: z.coerce.number().int().min(1).max(100_000_000).default(1_000),
  /**
   * How many of a pack's lowest tiers a conversion may take unnamed (2: in S・A・B・C, A賞 and better are
   * named one by one); the same tiers make 保管 the first choice on a result and in a card's sheet (decision 057).
   */
  CONVERT_CONFIRM_NAMED_ABOVE_LOWEST_TIERS: z.coerce.number().int().min(0).max(20).default(2),
  /** Seconds in which a member's own conversion can be undone exactly (元に戻す, decision 057). */
  CONVERT_UNDO_SECONDS: z.coerce.number().int().min(1).max(300).default(10),
  /**
   * An operator's coin adjustment larger than this many coins (either sign) waits for a second admin's
   * approval before it is applied (decision 026); up to it, it is applied at once.
   */
  COIN_ADJUSTMENT_APPROVAL_THRESHOLD: z.coerce.number().int().min(0).max(100_000_000).default(10_000),
  /**
   * An operator's mail present (decision 052): the most free coins one member may receive from it (the form
   * refuses more), and the total (recipients counted at sending × coins) above which another admin approves
   * before it is sent.
   */
  MAIL_PRESENT_MAX_COINS_PER_MEMBER: z.coerce.number().int().min(1).max(100_000).default(3_000),
  MAIL_PRESENT_APPROVAL_THRESHOLD_COINS: z.coerce.number().int().min(0).max(10_000_000_000).default(100_000),
  /**
   * Fraud signals (decision 029), raised by the job risk.signals: lots drawn, coins spent on draws and
   * yen of purchases credited in 24 hours at or above which a member is flagged, and how many accounts
   * on one device (client address and browser), one shipping address or one phone number flag each.
   */
  RISK_DRAWS_PER_24H: z.coerce.number().int().min(1).max(10_000_000).default(1_000),
  RISK_COINS_PER_24H: z.coerce.number().int().min(1).max(1_000_000_000).default(1_000_000),
  RISK_SPEND_JPY_PER_24H: z.coerce.number().int().min(1).max(1_000_000_000).default(300_000),
  RISK_ACCOUNTS_PER_DEVICE: z.coerce.number().int().min(2).max(1_000).default(3),
  RISK_ACCOUNTS_PER_ADDRESS: z.coerce.number().int().min(2).max(1_000).default(2),
  RISK_ACCOUNTS_PER_PHONE: z.coerce.number().int().min(2).max(1_000).default(2),
  /** Lifetime of paid coins (資金決済法: keep within 180 days for the exemption). */
  PAID_COIN_EXPIRY_DAYS: z.coerce.number().int().min(1).max(180).default(180),
  /** Lifetime of free coins unless a grant says otherwise. */
  FREE_COIN_EXPIRY_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  /**
   * The daily login bonus (decision 033): free coins for day 1, 2, … of a streak of Japan-time days,
   * comma-separated positive integers; "0" turns the bonus off.
   */
  LOGIN_BONUS_STREAK_COINS: z
    .string()
    .default('10,10,20,20,30,30,100')
    .transform((text, context) => {
      if (text.trim() === '0') return [] as number[];
      const coins = text.split(',').map((entry) => entry.trim());
      for (const entry of coins)
        if (!/^[1-9]\d{0,5}$/.test(entry))
          context.addIssue({
            code: 'custom',
            message: `${entry || '(empty)'} is not a coin amount from 1 to 999999 (or "0" alone to turn the bonus off)`,
          });
      if (coins.length > 31) context.addIssue({ code: 'custom', message: 'at most 31 days in the streak table' });
      return coins.map(Number);
    }),
  /** After the table's last day: start it again (repeat) or keep giving its last amount (hold). */
  LOGIN_BONUS_AFTER_TABLE: z.enum(['repeat', 'hold']).default('repeat'),
  /** The welcome mail's sign-up gift in free coins (decision 034); 0: a welcome mail without a gift. */
  SIGNUP_GIFT_COINS: z.coerce.number().int().min(0).max(1_000_000).default(0),
  /** Days a new member has to claim the sign-up gift from the welcome mail. */
  SIGNUP_GIFT_CLAIM_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  /**
   * Levels (decision 037): cumulative exp at which level 2, 3, … is reached, comma-separated, strictly
   * rising; unset: 1,000 × (level − 1)² up to level 100; "0": no levels.
   */
  LEVEL_EXP_THRESHOLDS: coinList('LEVEL_EXP_THRESHOLDS', 1_000_000_000_000, 1000)
    .optional()
    .refine(
      (list) => !list || list.every((exp, i) => exp > (i === 0 ? 0 : list[i - 1]!)),
      'thresholds must rise strictly (level 2 first)',
    ),
  /**
   * Free coins attached to the level-up mail of level 2, 3, …, comma-separated (the last amount repeats
   * for higher levels); unset: 10 × the level, 100 × at every tenth level; "0": mails without coins.
   */
  LEVEL_REWARDS: coinList('LEVEL_REWARDS', 1_000_000, 1000).optional(),
  /** Free coins attached to the rank-up mail for レギュラー, ブロンズ, シルバー, ゴールド, プラチナ, ダイヤモンド (6 amounts; 0 = none). */
  RANK_UP_REWARDS: coinList('RANK_UP_REWARDS', 1_000_000, 6)
    .default([0, 100, 300, 1000, 3000, 10000])
    .refine((list) => list.length === 6, 'give 6 amounts, one per rank from レギュラー to ダイヤモンド'),
  /** Days a level-up or rank-up attachment may be claimed in the mailbox. */
  PROGRESSION_REWARD_CLAIM_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  /**
   * Invitations (decision 038): free coins each of the inviter and the invitee receive once the invitee has
   * verified a phone number and made a first purchase; 0 grants nothing (the states are still shown).
   */
  INVITATION_REWARD_COINS: z.coerce.number().int().min(0).max(1_000_000).default(500),
  /** Rewarded invitations per inviter per Japan-time month; beyond it an invitation is 上限のため対象外. */
  INVITATION_MONTHLY_CAP: z.coerce.number().int().min(0).max(10_000).default(10),
  /** Days the members have to claim an invitation reward in the mailbox. */
  INVITATION_CLAIM_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  /**
   * Friends (decision 045): friends a member may have, counting the requests they sent that still wait.
   * The farm's own rules (seeds, caps, pause) are edited in /admin/farm, not here (decision 044).
   */
  FRIENDS_LIMIT: z.coerce.number().int().min(1).max(1000).default(30),
  /** Days before a member may ask again someone who declined their friend request. */
  FRIEND_DECLINED_COOLDOWN_DAYS: z.coerce.number().int().min(0).max(365).default(7),
  /** Farm and friend actions one member may send per minute (every instance counts together). */
  FARM_ACTIONS_PER_MINUTE: z.coerce.number().int().min(1).max(10_000).default(60),
  /**
   * Tests and demos only: lets this machine move the farm's clock forward (POST /dev/farm-clock, with the
   * developer tools: a loopback origin and a request from this machine). Refused on an https shop.
   */
  FARM_CLOCK_ADJUSTABLE: booleanFlag.default(false),
  /** Monthly purchase cap per member in JPY (Japan time calendar month). */
  PURCHASE_MONTHLY_CAP_JPY: z.coerce.number().int().min(1).max(100_000_000).default(500_000),
  /** Monthly purchase cap for members who declared they are under 18. */
  MINOR_PURCHASE_MONTHLY_CAP_JPY: z.coerce.number().int().min(0).max(100_000_000).default(10_000),
  /** Minutes a started checkout may take before it is expired (its amount counts against the cap meanwhile). */
  CHECKOUT_EXPIRY_MINUTES: z.coerce.number().int().min(5).max(1440).default(60),
  /**
   * The sandbox payment method and the local stand-ins of every provider (development, demo, tests).
   * Default: on for http://localhost (or 127.0.0.1) origins, a developer's machine; off otherwise.
   */
  PAYMENT_SANDBOX: booleanFlag.optional(),
  /** The seller named on the confirmation screen and receipts (特定商取引法). */
  SELLER_NAME: z.string().min(1).max(120).default('株式会社ステラトレーディング（デモ）'),
  /**
   * The facts the shop's first legal pages state (written once into the content store on start when
   * missing, decision 039; edit the pages in /admin/content afterwards).
   */
  SELLER_ADDRESS: z.string().min(1).max(200).default('〒100-0005 東京都千代田区丸の内0-0-0（デモ表示）'),
  SELLER_REPRESENTATIVE: z.string().min(1).max(60).default('星野 光（デモ）'),
  SELLER_CONTACT_EMAIL: z.email().optional(),
  /** 古物営業法: the issuing 公安委員会 and the permit number (digits), shown in every page's footer. */
  KOBUTSU_COMMISSION: z.string().min(1).max(40).default('東京都公安委員会'),
  KOBUTSU_PERMIT_NUMBER: z
    .string()
    .regex(/^\d{6,15}$/, 'must be the permit number, digits only (e.g. 301234567890)')
    .default('000000000000'),
  /** The native app's return address after an app checkout, e.g. oripastella://checkout/complete. */
  APP_RETURN_URL: z
    .string()
    .regex(/^[a-z][a-z0-9+.-]*:\/\/\S+$/, 'must be an app URL such as oripastella://checkout/complete')
    .default('oripastella://checkout/complete'),
  STRIPE_SECRET_KEY: z
    .string()
    .regex(/^(sk|rk)_(test|live)_\w+$/, 'must be a Stripe secret key (sk_live_… or sk_test_…)')
    .optional(),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_\w+$/, 'must be a Stripe webhook signing secret (whsec_…)')
    .optional(),
  /** LINE Login channel for linking LINE accounts (/app/checkout/linelink). */
  LINE_CHANNEL_ID: z
    .string()
    .regex(/^\d{6,20}$/, 'must be the LINE Login channel ID (digits)')
    .optional(),
  LINE_CHANNEL_SECRET: z
    .string()
    .regex(/^[0-9a-f]{32}$/i, 'must be the 32-character LINE channel secret')
    .optional(),
  /** Social sign-in (modules/identity/social.server.ts): a provider is offered only when both its keys are set. */
  GOOGLE_CLIENT_ID: z.string().min(1).max(300).optional(),
  GOOGLE_CLIENT_SECRET: z.string().min(1).max(300).optional(),
  FACEBOOK_CLIENT_ID: z
    .string()
    .regex(/^\d{5,25}$/, 'must be the Facebook App ID (digits)')
    .optional(),
  FACEBOOK_CLIENT_SECRET: z.string().min(1).max(300).optional(),
  GITHUB_CLIENT_ID: z.string().min(1).max(300).optional(),
  GITHUB_CLIENT_SECRET: z.string().min(1).max(300).optional(),
  /** X (Twitter) OAuth 2.0 client of the app (not the OAuth 1.0a API key). */
  TWITTER_CLIENT_ID: z.string().min(1).max(300).optional(),
  TWITTER_CLIENT_SECRET: z.string().min(1).max(300).optional(),
  PAYPAY_API_KEY: z.string().min(8).optional(),
  PAYPAY_API_SECRET: z.string().min(8).optional(),
  PAYPAY_MERCHANT_ID: z.string().min(1).max(100).optional(),
  /** true: PayPay's production API; otherwise its sandbox. */
  PAYPAY_PRODUCTION: booleanFlag.default(false),
  AMAZONPAY_PUBLIC_KEY_ID: z
    .string()
    .regex(/^(SANDBOX-|LIVE-)?[A-Z0-9]{10,40}$/, 'must be the Amazon Pay public key id (e.g. LIVE-AEXAMPLE…)')
    .optional(),
  /** The PEM private key itself, or use AMAZONPAY_PRIVATE_KEY_FILE. */
  AMAZONPAY_PRIVATE_KEY: z.string().includes('PRIVATE KEY', { message: 'must be a PEM private key' }).optional(),
  AMAZONPAY_PRIVATE_KEY_FILE: z
    .string()
    .min(1)
    .refine((file) => fs.existsSync(file), 'file not found')
    .optional(),
  AMAZONPAY_STORE_ID: z
    .string()
    .startsWith('amzn1.application-oa2-client.', 'must be the Amazon Pay store id (amzn1.application-oa2-client.…)')
    .optional(),
  /** Comma-separated SNS topic ARNs whose IPNs are accepted (recommended). */
  AMAZONPAY_SNS_TOPIC_ARNS: z.string().optional(),
  PAIDY_SECRET_KEY: z
    .string()
    .regex(/^sk_(live|test)_\w+$/, 'must be a Paidy secret key (sk_live_… or sk_test_…)')
    .optional(),
  PAIDY_PUBLIC_KEY: z
    .string()
    .regex(/^pk_(live|test)_\w+$/, 'must be a Paidy public key (pk_live_… or pk_test_…)')
    .optional(),
  /** Merpay's API host name from the contract (no scheme or path); the adapter calls https://<host>/v1/…. */
  MERPAY_API_HOST: z
    .string()
    .regex(merpayHost, 'must be a host name without scheme or path (e.g. api.example.jp)')
    .optional(),
  /** Merpay's authentication host name; tokens come from https://<host>/jp/v1/token. */
  MERPAY_AUTH_HOST: z
    .string()
    .regex(merpayHost, 'must be a host name without scheme or path (e.g. auth.example.jp)')
    .optional(),
  /** OAuth2 client credentials Merpay issues for the Online payments API. */
  MERPAY_CLIENT_ID: z.string().min(1).max(200).optional(),
  MERPAY_CLIENT_SECRET: z.string().min(8).max(500).optional(),
  /** Outbound mail over SMTP (modules/messaging): smtp://user:pass@host:587 (STARTTLS) or smtps://…:465. Unset: mail is held. */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^\s/]+(:\d{1,5})?\/?(\?\S*)?$/, 'must be smtp://user:pass@host:port or smtps://…')
    .refine((v) => URL.canParse(v) && new URL(v).hostname !== '', 'must name a host')
    .optional(),
  /** The sender of every mail, e.g. `オリパ ステラ <no-reply@example.jp>`; needed with SMTP_URL. */
  MAIL_FROM: z
    .string()
    .max(200)
    .regex(
      /^(?:[^<>\r\n@]*<[^\s<>@]+@[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+)$/,
      'must be an address, e.g. no-reply@example.jp or オリパ ステラ <no-reply@example.jp>',
    )
    .optional(),
  /** SMS through Twilio: the account (AC…) and its auth token, and TWILIO_FROM or TWILIO_MESSAGING_SERVICE_SID. */
  TWILIO_ACCOUNT_SID: z
    .string()
    .regex(/^AC[0-9a-f]{32}$/, 'must be the Twilio Account SID (AC and 32 hex digits)')
    .optional(),
  TWILIO_AUTH_TOKEN: z
    .string()
    .regex(/^[0-9a-f]{32}$/, 'must be the 32-character Twilio auth token')
    .optional(),
  /** The sending number in E.164 form, e.g. +815012345678. */
  TWILIO_FROM: z
    .string()
    .regex(/^\+[1-9]\d{7,14}$/, 'must be a phone number in E.164 form, e.g. +815012345678')
    .optional(),
  TWILIO_MESSAGING_SERVICE_SID: z
    .string()
    .regex(/^MG[0-9a-f]{32}$/, 'must be a Twilio Messaging Service SID (MG and 32 hex digits)')
    .optional(),
  /** Days the outbox keeps the bodies of sent, held and failed messages (their links carry one-time codes). */
  OUTBOX_RETENTION_DAYS: z.coerce.number().int().min(1).max(365).default(7),
  /**
   * The keys that seal members' addresses at rest (AES-256-GCM, docs/decisions/019): comma-separated
   * `keyId:base64` of 32 random bytes each; the first seals, every one opens. Unset: a key generated
   * once into DATA_DIR/address-keys (a developer's machine); required on an https origin.
   */
  ADDRESS_ENCRYPTION_KEYS: z
    .string()
    .max(10_000)
    .transform((text, context) => {
      const read = readAddressKeys(text);
      if (typeof read === 'string') {
        context.addIssue({ code: 'custom', message: read });
        return z.NEVER;
      }
      return read;
    })
    .optional(),
});

export type ShopConfig = Omit<
  z.infer<typeof environmentSchema>,
  'PUBLIC_ORIGIN' | 'AUTH_SECRET' | 'ADDRESS_ENCRYPTION_KEYS'
> & {
  PUBLIC_ORIGIN: string;
  AUTH_SECRET: string;
  /** ADDRESS_ENCRYPTION_KEYS read, or the generated local key: the first seals, every one opens. */
  addressKeyring: readonly AddressKeySetting[];
  /** Absolute path of DATA_DIR. */
  dataDir: string;
  /** True when the embedded PGlite database is used (no DATABASE_URL). */
  embeddedDatabase: boolean;
  /** True when the public origin is https: cookies, HSTS. */
  httpsOrigin: boolean;
  /** PAYMENT_SANDBOX resolved: on by default only for http://localhost-style origins. */
  paymentSandbox: boolean;
  /** Cloudflare Turnstile (or its local stand-in in the sandbox) when both keys are set. */
  turnstile?: TurnstileSettings;
  /** Developer pages such as /dev/outbox: on exactly when the sandbox is (never on a real shop). */
  devToolsEnabled: boolean;
  /**
   * Sandbox only: a social provider's real host → its local stand-in (server/social-standins.ts), for the
   * providers that have no keys. The browser is sent to the stand-in's address instead of the real host.
   */
  socialStandinHosts?: Readonly<Record<string, string>>;
};

/** One key of ADDRESS_ENCRYPTION_KEYS: its id (kept beside every sealed address) and its 32 bytes. */
export interface AddressKeySetting {
  readonly id: string;
  readonly secret: Buffer;
}

/** Where the captcha widget comes from and where its tokens are checked. */
export interface TurnstileSettings {
  siteKey: string;
  secretKey: string;
  /** Cloudflare's siteverify, or the stand-in's (TURNSTILE_VERIFY_URL, sandbox only). */
  verifyUrl: string;
  /** The widget's script (Cloudflare's, or the stand-in's beside its siteverify). */
  scriptUrl: string;
}

export const TURNSTILE_SCRIPT_URL = 'https://challenges.cloudflare.com/turnstile/v0/api.js';
export const TURNSTILE_SITEVERIFY_URL = 'https://challenges.cloudflare.com/turnstile/v0/siteverify';
/** Sign-in provider keys that only work together (README "Social sign-in"). */
const SIGN_IN_KEY_PAIRS = [
  ['GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_SECRET'],
  ['FACEBOOK_CLIENT_ID', 'FACEBOOK_CLIENT_SECRET'],
  ['GITHUB_CLIENT_ID', 'GITHUB_CLIENT_SECRET'],
  ['TWITTER_CLIENT_ID', 'TWITTER_CLIENT_SECRET'],
  ['LINE_CHANNEL_ID', 'LINE_CHANNEL_SECRET'],
] as const;

/** Settings whose value never appears in a configuration error. */
const SECRET_SETTINGS = new Set(['ADDRESS_ENCRYPTION_KEYS', 'PRISMIC_ACCESS_TOKEN']);

/** A configuration error that names the offending variables; main prints it and exits 1. */
export class ConfigError extends Error {}

/**
 * Reads and validates the environment. The auth secret, when not given, is generated once and kept
 * in DATA_DIR/auth-secret (mode 600) so `npm start` works on a fresh machine without a secret in
 * the repository; production deployments should set AUTH_SECRET.
 * @example const config = loadConfig(process.env)
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): ShopConfig {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = environmentSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0] ?? '?');
      // Key material never reaches a log: the message says what is wrong without the value.
      const shown = SECRET_SETTINGS.has(name) ? '(hidden)' : JSON.stringify(env[name] ?? '');
      return `  ${name}=${shown}: ${issue.message}`;
    });
    throw new ConfigError(`Invalid settings in the environment:\n${lines.join('\n')}`);
  }
  const values = parsed.data;
  if (values.DATABASE_MIGRATION_URL && !values.DATABASE_URL) {
    throw new ConfigError(
      'Invalid settings in the environment:\n  DATABASE_MIGRATION_URL: needs DATABASE_URL (the embedded database has no roles)',
    );
  }
  if (values.PASSWORD_MAX_LENGTH !== undefined && values.PASSWORD_MAX_LENGTH < values.PASSWORD_MIN_LENGTH) {
    throw new ConfigError(
      `Invalid settings in the environment:\n  PASSWORD_MAX_LENGTH=${values.PASSWORD_MAX_LENGTH}: below PASSWORD_MIN_LENGTH (${values.PASSWORD_MIN_LENGTH})`,
    );
  }
  if (values.CONTENT_SOURCE === 'prismic' && !values.PRISMIC_REPOSITORY)
    throw new ConfigError(
      'Invalid settings in the environment:\n  PRISMIC_REPOSITORY: required with CONTENT_SOURCE=prismic (the repository name, e.g. stella-shop, or its https://…/api/v2 endpoint; docs/prismic/README.md)',
    );
  const halfConfigured = messagingSettingsProblems(values);
  if (halfConfigured.length > 0)
    throw new ConfigError(
      `Invalid settings in the environment:\n${halfConfigured.map((line) => `  ${line}`).join('\n')}`,
    );
  // A provider's keys come in pairs: one without the other is a mistake, not "off".
  const halfPairs = SIGN_IN_KEY_PAIRS.filter(([id, secret]) => Boolean(values[id]) !== Boolean(values[secret]));
  if (halfPairs.length > 0) {
    const lines = halfPairs.map(
      ([id, secret]) => `  ${values[id] ? secret : id}: needs to be set with ${values[id] ? id : secret}`,
    );
    throw new ConfigError(`Invalid settings in the environment:\n${lines.join('\n')}`);
  }
  const dataDir = path.resolve(values.DATA_DIR);
  const publicOrigin = (values.PUBLIC_ORIGIN ?? `http://localhost:${values.PORT}`).replace(/\/$/, '');
  // A key in DATA_DIR sits beside the database it protects: good enough for a developer's machine only.
  if (!values.ADDRESS_ENCRYPTION_KEYS && publicOrigin.startsWith('https://'))
    throw new ConfigError(
      'Invalid settings in the environment:\n  ADDRESS_ENCRYPTION_KEYS: required on an https shop (住所の暗号鍵を設定してください): ' +
        "keyId:base64 of 32 random bytes, e.g. `node -e \"console.log('k1:' + crypto.randomBytes(32).toString('base64'))\"` (docs/decisions/019)",
    );
  if (values.FARM_CLOCK_ADJUSTABLE && publicOrigin.startsWith('https://'))
    throw new ConfigError(
      'Invalid settings in the environment:\n  FARM_CLOCK_ADJUSTABLE: a test setting, refused on an https shop (members would get coins early)',
    );
  // Only a developer's own machine gets it by default: an http origin on a loopback host.
  const paymentSandbox =
    values.PAYMENT_SANDBOX ?? /^http:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/.test(publicOrigin);
  return {
    ...values,
    PUBLIC_ORIGIN: publicOrigin,
    AUTH_SECRET: values.AUTH_SECRET ?? readOrCreateLocalSecret(dataDir),
    addressKeyring: values.ADDRESS_ENCRYPTION_KEYS ?? readOrCreateLocalAddressKey(dataDir),
    dataDir,
    embeddedDatabase: !values.DATABASE_URL,
    httpsOrigin: publicOrigin.startsWith('https://'),
    paymentSandbox,
    devToolsEnabled: paymentSandbox,
    turnstile: turnstileSettingsOf(values, paymentSandbox),
  };
}

function turnstileSettingsOf(
  values: z.infer<typeof environmentSchema>,
  paymentSandbox: boolean,
): TurnstileSettings | undefined {
  const { TURNSTILE_SITE_KEY: siteKey, TURNSTILE_SECRET_KEY: secretKey, TURNSTILE_VERIFY_URL: standin } = values;
  const invalid = (line: string) => new ConfigError(`Invalid settings in the environment:\n  ${line}`);
  if (Boolean(siteKey) !== Boolean(secretKey))
    throw invalid('TURNSTILE_SITE_KEY, TURNSTILE_SECRET_KEY: set both (the captcha) or neither (no captcha)');
  if (standin && !paymentSandbox)
    throw invalid('TURNSTILE_VERIFY_URL: a local stand-in, only honoured with PAYMENT_SANDBOX on');
  if (!siteKey || !secretKey) return undefined;
  if (!standin) return { siteKey, secretKey, verifyUrl: TURNSTILE_SITEVERIFY_URL, scriptUrl: TURNSTILE_SCRIPT_URL };
  return { siteKey, secretKey, verifyUrl: standin, scriptUrl: new URL('/turnstile/v0/api.js', standin).toString() };
}

/** SMTP and Twilio come as sets: a set given in part names what is missing (or given twice). */
function messagingSettingsProblems(values: z.infer<typeof environmentSchema>): string[] {
  const problems: string[] = [];
  if (values.SMTP_URL && !values.MAIL_FROM) problems.push('MAIL_FROM: needed with SMTP_URL (the sender of every mail)');
  if (values.MAIL_FROM && !values.SMTP_URL) problems.push('SMTP_URL: needed with MAIL_FROM (the mail server)');
  const twilio = {
    TWILIO_ACCOUNT_SID: values.TWILIO_ACCOUNT_SID,
    TWILIO_AUTH_TOKEN: values.TWILIO_AUTH_TOKEN,
    TWILIO_FROM: values.TWILIO_FROM,
    TWILIO_MESSAGING_SERVICE_SID: values.TWILIO_MESSAGING_SERVICE_SID,
  };
  if (Object.values(twilio).some(Boolean)) {
    for (const name of ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN'] as const)
      if (!twilio[name]) problems.push(`${name}: needed for SMS through Twilio (another TWILIO_ setting is set)`);
    if (!twilio.TWILIO_FROM && !twilio.TWILIO_MESSAGING_SERVICE_SID)
      problems.push('TWILIO_FROM: set the sending number, or TWILIO_MESSAGING_SERVICE_SID, for SMS through Twilio');
    if (twilio.TWILIO_FROM && twilio.TWILIO_MESSAGING_SERVICE_SID)
      problems.push('TWILIO_MESSAGING_SERVICE_SID: set either it or TWILIO_FROM, not both');
  }
  return problems;
}

function readOrCreateLocalSecret(dataDir: string): string {
  const file = path.join(dataDir, 'auth-secret');
  fs.mkdirSync(dataDir, { recursive: true });
  try {
    const existing = fs.readFileSync(file, 'utf8').trim();
    if (existing.length >= 32) return existing;
  } catch {
    // first start: fall through and create it
  }
  const secret = crypto.randomBytes(32).toString('base64url');
  fs.writeFileSync(file, secret + '\n', { mode: 0o600 });
  return secret;
}

const ADDRESS_KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;
const ADDRESS_KEY_BASE64 = /^[A-Za-z0-9+/_-]{43}=?$/;
const ADDRESS_KEYS_FORMAT = 'must be keyId:base64 pairs (32 random bytes each), comma-separated; the first seals';

/** `keyId:base64,…` read into keys, or what is wrong with it (the message names no key material). */
function readAddressKeys(text: string): AddressKeySetting[] | string {
  const keys: AddressKeySetting[] = [];
  for (const entry of text.split(',').map((e) => e.trim())) {
    const [id, material, ...rest] = entry.split(':');
    if (!id || !material || rest.length > 0) return ADDRESS_KEYS_FORMAT;
    if (!ADDRESS_KEY_ID.test(id)) return `key id '${id}' must be 1–32 letters, digits, - or _`;
    if (keys.some((k) => k.id === id)) return `key id '${id}' appears twice`;
    const secret = Buffer.from(material, 'base64');
    if (!ADDRESS_KEY_BASE64.test(material) || secret.length !== 32)
      return `key '${id}' must be 32 bytes in base64 (44 characters)`;
    keys.push({ id, secret });
  }
  return keys;
}

/** The developer's key, generated once into DATA_DIR/address-keys (mode 600) in the setting's own format. */
function readOrCreateLocalAddressKey(dataDir: string): AddressKeySetting[] {
  const file = path.join(dataDir, 'address-keys');
  fs.mkdirSync(dataDir, { recursive: true });
  let text: string | undefined;
  try {
    text = fs.readFileSync(file, 'utf8').trim();
  } catch {
    // first start: fall through and create it
  }
  if (text === undefined) {
    text = `local:${crypto.randomBytes(32).toString('base64')}`;
    // 'wx': two processes starting together keep the first one's key, never two different keys.
    try {
      fs.writeFileSync(file, text + '\n', { mode: 0o600, flag: 'wx' });
    } catch {
      text = fs.readFileSync(file, 'utf8').trim();
    }
  }
  const read = readAddressKeys(text);
  if (typeof read === 'string') throw new ConfigError(`${file}: ${read} (it is written like ADDRESS_ENCRYPTION_KEYS)`);
  return read;
}
