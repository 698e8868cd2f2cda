// The site's identity (its name, its words for search results), its route rules, the native app's return
// address, and the seller the legal pages and receipts name.
import { z } from 'zod';
import { declareSettings, isLoopbackHost } from '#modules/kernel';

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
  return url.protocol === 'http:' && isLoopbackHost(url.hostname);
}

export const siteSettings = declareSettings({
  title: 'The site and the seller',
  shape: {
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
    /** Route rules with a redirect beyond the specification's four (JSON "/path": "/target" or "https://…"); docs/settings.md. */
    ROUTE_REDIRECTS: routeRedirects.default({}),
    /** The native app's return address after an app checkout, e.g. oripastella://checkout/complete. */
    APP_RETURN_URL: z
      .string()
      .regex(/^[a-z][a-z0-9+.-]*:\/\/\S+$/, 'must be an app URL such as oripastella://checkout/complete')
      .default('oripastella://checkout/complete'),
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
  },
  docs: {
    SITE_NAME: { meaning: 'site name, used in every page title (`<page> | <site name>`)' },
    SITE_TAGLINE: { meaning: 'the title of the home page' },
    SITE_DESCRIPTION: {
      meaning:
        "the meta description of pages without their own (pack pages use the pack's description, content pages theirs)",
    },
    ROUTE_REDIRECTS: {
      default: '(unset: none)',
      allowed: 'a JSON object `{"/lp/spring":"https://campaign.example.jp/spring","/old":"/gacha/pokemon"}`',
      meaning:
        "route rules with a redirect beyond the specification's four: an absolute https URL is a full page load, a " +
        'path on the site an internal navigation (302; after the sign-in rule; paths lower case, no trailing slash, ' +
        'not /api, /admin, /assets, /builds, /dev). Decision 062',
    },
    APP_RETURN_URL: { meaning: 'where `/app/return` and `/app/checkout/linelink` send the native app back to' },
    SELLER_NAME: { meaning: 'the seller named on the final confirmation and on receipts (特定商取引法)' },
    SELLER_ADDRESS: {
      meaning:
        "the seller's address the default legal pages state (written once; edit the pages in `/admin/content` afterwards)",
    },
    SELLER_REPRESENTATIVE: {
      meaning:
        'the responsible person the default legal pages state (written once; edit the pages in `/admin/content` afterwards)',
    },
    SELLER_CONTACT_EMAIL: { meaning: 'a contact address the legal pages add beside the contact form' },
    KOBUTSU_COMMISSION: {
      meaning:
        "the 公安委員会 of the 古物商 permit the default 古物営業法 page and every page's footer show (the footer keeps " +
        'this line even if the page is unpublished)',
    },
    KOBUTSU_PERMIT_NUMBER: { meaning: 'the number of that 古物商 permit' },
  },
});
