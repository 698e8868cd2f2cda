// Security middleware: headers (CSP with a per-response nonce), the cross-site request check, client IP,
// and what tells a request from the machine itself (the sandbox, the operators' commands).
import type { MiddlewareHandler } from 'hono';
import { secureHeaders, NONCE } from 'hono/secure-headers';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { ShopConfig } from './config';
import { CLIENT_IP_HEADER } from '#modules/identity/server';
import { apiError } from './api-error';
import { EMBED_FRAME_ORIGINS } from '#modules/content/render';

/** @example isSafeMethod('GET') === true */
export const isSafeMethod = (method: string) => method === 'GET' || method === 'HEAD' || method === 'OPTIONS';

/** Paths called by outside services with their own signatures, never by a member's browser. */
const CROSS_SITE_EXEMPT_PREFIXES = ['/api/webhooks/'];

/**
 * Security headers for every response. Scripts run only from our origin or with this response's
 * nonce; frames only from the payment providers, the captcha and the two embed players; HSTS only when the public origin is https. Forms may
 * lead only to our origin and to the payment providers' hosted pages.
 */
export interface PaymentPageSources {
  /** Where the checkout form may lead (the providers' hosted pages). */
  formAction: string[];
  /** A provider's script that runs on our page (Paidy's checkout), with its frames and calls. */
  script: string[];
  frame: string[];
  connect: string[];
}

/** Where Prismic serves a repository's images (imgix). */
export const PRISMIC_IMAGE_ORIGIN = 'https://images.prismic.io';

export function securityHeaders(
  config: ShopConfig,
  payment: PaymentPageSources = { formAction: [], script: [], frame: [], connect: [] },
): MiddlewareHandler {
  const development = config.NODE_ENV === 'development';
  // The sign-in captcha's script and frame (Cloudflare Turnstile, or its stand-in), only when configured.
  const captcha = config.turnstile ? [new URL(config.turnstile.scriptUrl).origin] : [];
  // Content embeds (YouTube's no-cookie player, X's post frame) load only after a click (issue 15).
  const frames = [...payment.frame, ...captcha, ...EMBED_FRAME_ORIGINS];
  // Pages from Prismic show their images from Prismic's image CDN (decision 041).
  const contentImages = config.CONTENT_SOURCE === 'prismic' ? [PRISMIC_IMAGE_ORIGIN] : [];
  const headers = secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      // Vite's development client injects inline modules without our nonce.
      scriptSrc: development
        ? ["'self'", "'unsafe-inline'", "'unsafe-eval'", ...payment.script, ...captcha]
        : ["'self'", NONCE, ...payment.script, ...captcha],
      // 'self': the content editor frames /preview (decision 040); the rest load only on a click or a payment.
      frameSrc: ["'self'", ...frames],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:', ...contentImages],
      fontSrc: ["'self'", 'data:'],
      connectSrc: development ? ["'self'", 'ws:', 'wss:', ...payment.connect] : ["'self'", ...payment.connect],
      frameAncestors: ["'none'"],
      baseUri: ["'self'"],
      // The checkout form redirects to the payment provider's page; browsers apply form-action to that redirect.
      formAction: ["'self'", ...payment.formAction],
      objectSrc: ["'none'"],
    },
    strictTransportSecurity: config.httpsOrigin ? 'max-age=31536000; includeSubDomains' : false,
    xFrameOptions: 'DENY',
    xContentTypeOptions: 'nosniff',
    referrerPolicy: 'strict-origin-when-cross-origin',
    crossOriginEmbedderPolicy: false,
    // Popup sign-in (app/lib/auth-popup.ts): the popup passes through the provider's origin and its last
    // page (/auth/popup, below) posts to its opener; 'same-origin' would cut that tie on the way.
    crossOriginOpenerPolicy: 'same-origin-allow-popups',
    crossOriginResourcePolicy: 'same-origin',
    permissionsPolicy: { camera: [], microphone: [], geolocation: [] },
  });
  return async (c, next) => {
    await headers(c, next);
    // A page from the visitors' cache (server/page-cache.ts): its inline scripts run by their hashes,
    // in place of this response's nonce, which the stored page does not carry.
    const scriptHashes = (c.get as (key: string) => unknown)('cspScriptHashes') as string[] | undefined;
    if (scriptHashes) {
      const policy = c.res.headers.get('Content-Security-Policy');
      if (policy)
        c.res.headers.set(
          'Content-Security-Policy',
          policy.replace(/ ?'nonce-[^']*'/, scriptHashes.length ? ` ${scriptHashes.join(' ')}` : ''),
        );
    }
    // The popup's way back from the provider (better-auth's callback redirect, then its last page) keeps
    // its opener: Chromium weighs the COOP of every redirect hop, and any value there would sever it.
    if (c.req.path === POPUP_LANDING || c.req.path.startsWith(PROVIDER_CALLBACKS))
      c.res.headers.delete('Cross-Origin-Opener-Policy');
    // The content editor shows /preview in frames of its own page (docs/decisions/040): that page
    // alone may be framed, and only by our origin.
    if (FRAMEABLE_PATHS.has(c.req.path)) {
      const policy = c.res.headers.get('Content-Security-Policy');
      if (policy)
        c.res.headers.set(
          'Content-Security-Policy',
          policy.replace("frame-ancestors 'none'", "frame-ancestors 'self'"),
        );
      c.res.headers.set('X-Frame-Options', 'SAMEORIGIN');
    }
  };
}

/** Popup sign-in's last page (app/routes/auth/popup.tsx). */
const POPUP_LANDING = '/auth/popup';
/** better-auth's OAuth callbacks (`/api/auth/callback/<provider>`), which redirect the popup there. */
const PROVIDER_CALLBACKS = '/api/auth/callback/';

/** The pages our own pages may frame: the content preview (the editor's phone and desktop frames). */
export const FRAMEABLE_PATHS: ReadonlySet<string> = new Set(['/preview', '/preview/']);

/**
 * Refuses state-changing requests that a browser sent from another site. Browsers send Origin and
 * Sec-Fetch-Site on every POST; clients without them (the native app, scripts) cannot be driven by
 * a third-party page, so they pass.
 */
export function crossSiteRequestGuard(config: ShopConfig): MiddlewareHandler {
  return async (c, next) => {
    if (isSafeMethod(c.req.method) || CROSS_SITE_EXEMPT_PREFIXES.some((p) => c.req.path.startsWith(p))) {
      return next();
    }
    const fetchSite = c.req.header('sec-fetch-site');
    const origin = c.req.header('origin');
    const host = c.req.header('host');
    const sameHostOrigins = host ? [`http://${host}`, `https://${host}`] : [];
    const originAllowed = !origin || origin === config.PUBLIC_ORIGIN || sameHostOrigins.includes(origin);
    const fetchSiteAllowed = !fetchSite || fetchSite === 'same-origin' || fetchSite === 'none';
    if (!originAllowed || !fetchSiteAllowed) {
      return apiError(
        c,
        403,
        'CROSS_SITE_REQUEST',
        '不正な送信元からのリクエストです。ページを再読み込みしてからお試しください。',
      );
    }
    return next();
  };
}

/**
 * Puts the client's address in CLIENT_IP_HEADER, overwriting anything the client sent, so rate
 * limits key on the real address: the socket's, or the proxy's X-Forwarded-For when TRUST_PROXY.
 */
export function clientAddress(config: ShopConfig): MiddlewareHandler {
  return async (c, next) => {
    const address = clientAddressOf(config, c.req.header('x-forwarded-for'), () => getConnInfo(c).remote.address);
    c.req.raw.headers.set(CLIENT_IP_HEADER, address);
    return next();
  };
}

/**
 * The client's address: the last X-Forwarded-For entry when TRUST_PROXY, else the socket's; 'unknown'.
 * @example clientAddressOf({ TRUST_PROXY: true }, '203.0.113.9, 10.0.0.2', () => '127.0.0.1') === '10.0.0.2'
 */
export function clientAddressOf(
  config: Pick<ShopConfig, 'TRUST_PROXY'>,
  forwardedFor: string | undefined,
  socketAddress: () => string | undefined,
): string {
  let address: string | undefined;
  if (config.TRUST_PROXY) {
    address = forwardedFor
      ?.split(',')
      .map((s) => s.trim())
      .filter(Boolean)
      .pop();
  }
  if (!address) {
    try {
      address = socketAddress();
    } catch {
      address = undefined;
    }
  }
  return address ?? 'unknown';
}

/** Whether a host name or address names this machine (IPv4, IPv6 and IPv4-mapped loopback). */
export const isLoopback = (value: string) =>
  value === 'localhost' ||
  value === '127.0.0.1' ||
  value === '[::1]' ||
  value === '::1' ||
  value === '::ffff:127.0.0.1';

/**
 * Whether a request passed through a proxy: a proxy on the same machine makes every client look
 * local, so anything forwarded is never taken for the machine itself.
 */
export const hasForwardingHeaders = (headers: Headers) =>
  ['x-forwarded-for', 'forwarded', 'x-real-ip', 'x-forwarded-host'].some((name) => headers.get(name) !== null);
