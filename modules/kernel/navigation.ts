// The navigation rule table of the specification (sections 2, 4 and 6) as pure functions.
// Server middleware and client middleware both call evaluateNavigation, so the two never disagree.

/** A path prefix P covers P itself and everything under P/. */
export const MEMBERS_ONLY_PREFIXES = [
  '/auth',
  '/app',
  '/myinbox',
  '/mylevel',
  '/myrank',
  '/r',
  '/shop',
  '/ranking',
] as const;

/** Auth pages any visitor may open (sign_out too: an expired session must still be able to clear its cookie). */
export const PUBLIC_AUTH_PATHS = [
  '/auth/sign_in',
  '/auth/sign_up',
  '/auth/passwd',
  '/auth/action',
  '/auth/sign_out',
  // A social sign-in popup's last page: it reports to the opener and closes (app/lib/auth-popup.ts).
  '/auth/popup',
] as const;

/** Pages a signed-in member is sent away from (to /). */
export const GUEST_ONLY_PATHS = ['/auth/sign_in', '/auth/sign_up', '/auth/passwd'] as const;

/** The native app opens these signed in by a one-time token, so the members redirect must not fire. */
export const MEMBERS_REDIRECT_EXEMPT_PREFIXES = ['/app/checkout', '/app/return'] as const;

/** Bare paths that only redirect, to a public page: guarding them would only add a detour. */
export const REDIRECT_ONLY_PUBLIC_PATHS = ['/auth', '/r'] as const;

/** Server route rules with a redirect (specification section 2). */
export const ROUTE_REDIRECTS: Readonly<Record<string, string>> = {
  '/auth': '/',
  '/myinbox': '/myinbox/idvs',
  '/r': '/',
  '/ranking': '/ranking/daily/goodluck',
};

/** Search indexing: everything under these is sent with robots noindex, nofollow. */
export const NOINDEX_PREFIXES = [
  '/auth/',
  '/app/',
  '/myinbox/',
  '/mylevel/',
  '/myrank/',
  '/r/',
  '/shop/',
  '/ranking/',
  // The admin area (operators only; beyond the specification).
  '/admin/',
  // Drafts shown to content staff (docs/decisions/040).
  '/preview/',
  // A banned member's statement link (decision 084).
  '/standing/',
] as const;

/** The eleven ad-tracking parameters kept in local storage (specification section 3). */
export const AD_TRACKING_PARAMS = [
  'fbclid',
  'gclid',
  'ttclid',
  'twclid',
  'yclid',
  'gbraid',
  'wbraid',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_content',
] as const;

/** Queries kept when the ad-tracking redirect rewrites the address. */
export const AD_REDIRECT_PRESERVED_QUERIES = ['page', 'tab', 'genre', 'special'] as const;

export type GuardName =
  | 'redirect-top'
  | 'redirect-gacha'
  | 'check-genre-valid'
  | 'check-special-valid'
  | 'redirect-onepiece'
  | 'ng-external'
  | 'ng-internal'
  | 'ng-action-internal'
  | 'ng-line-internal';

export interface GuardedPattern {
  pattern: string;
  guards: GuardName[];
  /** Skip the ad-tracking redirect on this route (auth, app and payment-return pages). */
  ignoreAdTracking?: boolean;
}

/** Named guards by route; the order of patterns matters only where two could match the same path. */
export const GUARDED_PATTERNS: GuardedPattern[] = [
  { pattern: '/', guards: ['redirect-top'] },
  { pattern: '/gacha/video/debug', guards: [], ignoreAdTracking: true },
  { pattern: '/gacha/:genreId', guards: ['redirect-gacha', 'check-genre-valid'] },
  { pattern: '/gacha/:genreId/:gachaId', guards: ['redirect-onepiece'] },
  { pattern: '/auth/action', guards: ['ng-action-internal'], ignoreAdTracking: true },
  { pattern: '/auth/*', guards: [], ignoreAdTracking: true },
  { pattern: '/mypage/backfromlinecampaign', guards: ['ng-line-internal'], ignoreAdTracking: true },
  { pattern: '/mypage/backfromline', guards: [], ignoreAdTracking: true },
  { pattern: '/shop/checkout/:paymentMethod', guards: ['ng-internal'], ignoreAdTracking: true },
  { pattern: '/shop/*', guards: [], ignoreAdTracking: true },
  { pattern: '/app/return', guards: ['ng-external'], ignoreAdTracking: true },
  { pattern: '/app/*', guards: [], ignoreAdTracking: true },
  { pattern: '/preview', guards: [], ignoreAdTracking: true },
  // The admin area: none of the member guards (requireOperator in every loader and action).
  { pattern: '/admin', guards: [], ignoreAdTracking: true },
  { pattern: '/admin/*', guards: [], ignoreAdTracking: true },
  // The other fixed top-level pages, so that /{specialId} never claims them.
  ...[
    '/auth',
    '/mypage',
    '/myinbox',
    '/r',
    '/ranking',
    '/shop',
    '/mylevel',
    '/myrank',
    '/gacha',
    '/contact',
    '/notices',
    // The closure's public notice (decision 085).
    '/closure',
  ].map((pattern): GuardedPattern => ({ pattern, guards: [] })),
  { pattern: '/:specialId', guards: ['check-special-valid'] },
];

const coveredBy = (pathname: string, prefix: string) => pathname === prefix || pathname.startsWith(prefix + '/');

/**
 * The path as React Router matches it: percent-decoded segment by segment, repeated and trailing
 * slashes collapsed. Case is kept (ids in parameters are case-sensitive); rules compare lower-cased.
 * @example canonicalPath('//%73hop/') === '/shop'
 */
export function canonicalPath(pathname: string): string {
  const segments = pathname
    .split('/')
    .filter(Boolean)
    .map((segment) => {
      try {
        return decodeURIComponent(segment);
      } catch {
        return segment;
      }
    });
  return '/' + segments.join('/');
}

/** The path rules are checked against: canonical and lower-case, since routes match in any case. */
export function normalisePathname(pathname: string): string {
  return canonicalPath(pathname).toLowerCase();
}

/** @example isMembersOnlyPath('/shop') === true; isMembersOnlyPath('/app/checkout/paypay') === false */
export function isMembersOnlyPath(pathname: string): boolean {
  const path = normalisePathname(pathname);
  if ((REDIRECT_ONLY_PUBLIC_PATHS as readonly string[]).includes(path)) return false;
  if ((PUBLIC_AUTH_PATHS as readonly string[]).includes(path)) return false;
  if (MEMBERS_REDIRECT_EXEMPT_PREFIXES.some((p) => coveredBy(path, p))) return false;
  return MEMBERS_ONLY_PREFIXES.some((p) => coveredBy(path, p));
}

/** @example isGuestOnlyPath('/auth/sign_in') === true */
export function isGuestOnlyPath(pathname: string): boolean {
  return (GUEST_ONLY_PATHS as readonly string[]).includes(normalisePathname(pathname));
}

/** Search indexing: single members' pages inside public sections, by pattern (robots.txt cannot list them). */
export const NOINDEX_PATTERNS = [
  // A pack's waiting room (decision 087): one member's place in a queue.
  '/gacha/:genreId/:gachaId/waiting',
] as const;

/** @example isNoindexPath('/shop/checkout/paypay') === true; isNoindexPath('/gacha/pokemon') === false */
export function isNoindexPath(pathname: string): boolean {
  const path = normalisePathname(pathname);
  return (
    NOINDEX_PREFIXES.some((p) => path.startsWith(p) || path === p.slice(0, -1)) ||
    NOINDEX_PATTERNS.some((pattern) => matchPattern(pattern, path) !== null)
  );
}

/**
 * Matches '/gacha/:genreId' style patterns ('*' matches the rest); answers the params or null.
 * @example matchPattern('/gacha/:genreId', '/gacha/pokemon') // { genreId: 'pokemon' }
 */
export function matchPattern(pattern: string, pathname: string): Record<string, string> | null {
  const want = pattern.split('/').filter(Boolean);
  const have = canonicalPath(pathname).split('/').filter(Boolean);
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const part = want[i]!;
    if (part === '*') return have.length > i ? params : null;
    const actual = have[i];
    if (actual === undefined) return null;
    if (part.startsWith(':')) params[part.slice(1)] = actual;
    else if (part !== actual.toLowerCase()) return null;
  }
  return want.length === have.length ? params : null;
}

/** The first guarded pattern matching the path, with its params. */
export function findGuardedPattern(pathname: string): { entry: GuardedPattern; params: Record<string, string> } | null {
  for (const entry of GUARDED_PATTERNS) {
    const params = matchPattern(entry.pattern, pathname);
    if (params) return { entry, params };
  }
  return null;
}

/**
 * A redirect target from a query value is honoured only when it is a path on this site:
 * it must start with one '/', carry no scheme, host, backslash or control character.
 * @example safeRedirectPath('/shop?x=1') === '/shop?x=1'; safeRedirectPath('//evil.example') === '/'
 */
export function safeRedirectPath(target: string | null | undefined, fallback = '/'): string {
  if (!target || typeof target !== 'string') return fallback;
  if (!target.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) return fallback;
  if (/[\\\u0000-\u001f\u007f]/.test(target)) return fallback;
  try {
    const base = 'http://shop.invalid';
    const url = new URL(target, base);
    if (url.origin !== base) return fallback;
    // '/..//host' parses to the path '//host', which a browser reads as another site.
    if (/^[/\\]{2}/.test(url.pathname)) return fallback;
    if (url.pathname.toLowerCase().startsWith('/api/')) return fallback;
    return url.pathname + url.search + url.hash;
  } catch {
    return fallback;
  }
}

/** The sign-in address that brings the visitor back to where they were going. */
export function signInPathFor(fullPath: string): string {
  return `/auth/sign_in?redirect=${encodeURIComponent(fullPath)}`;
}

export type BrowserKind = 'native-app' | 'line' | 'in-app' | 'external';

/** The native app's web view marks its user agent with this token. */
export const NATIVE_APP_USER_AGENT_MARKER = 'OripaStellaApp/';

/**
 * Tells the native app, LINE's in-app browser and other in-app browsers apart from a normal browser.
 * @example detectBrowserKind('Mozilla/5.0 ... Line/14.1.0') === 'line'
 */
export function detectBrowserKind(userAgent: string | null | undefined): BrowserKind {
  const ua = userAgent ?? '';
  if (ua.includes(NATIVE_APP_USER_AGENT_MARKER)) return 'native-app';
  if (/\bLine\/\d/i.test(ua)) return 'line';
  if (/FBAN|FBAV|FB_IAB|Instagram|BytedanceWebview|musical_ly|TikTok|Twitter for|GSA\/|YJApp-(ANDROID|IOS)/i.test(ua))
    return 'in-app';
  return 'external';
}

export type InAppNotice = 'open-external' | 'open-in-app';

export type NavigationDecision =
  | { type: 'allow'; notice?: InAppNotice }
  | { type: 'redirect'; to: string; status: 301 | 302 }
  | { type: 'not-found'; message: string };

/** Answers of the data-backed guards; the server provides them, the client leaves them out. */
export interface ContentValidators {
  /** The canonical genre id for an id or alias (any case), or null when unknown. */
  resolveGenre(genreId: string): Promise<string | null>;
  /** The genre a pack belongs to, or null when the pack is unknown or not public. */
  genreOfGacha(gachaId: string): Promise<string | null>;
  /** True when a published special or content page exists at /{specialId}. */
  specialExists(specialId: string): Promise<boolean>;
}

export interface NavigationInput {
  pathname: string;
  search: string;
  signedIn: boolean;
  userAgent?: string | null;
  validators?: ContentValidators;
  /**
   * The shop's own route rules with a redirect (setting ROUTE_REDIRECTS, server only): canonical path →
   * a path on this site (an internal navigation) or an absolute URL (a full page load).
   */
  routeRedirects?: Readonly<Record<string, string>>;
}

export const notFoundMessage = (pathname: string) => `Page Not Found: ${pathname}`;

/**
 * Decides a navigation in the specification's order: content validation, then auth (ad tracking
 * is the client's, see adTrackingRedirect), then route rules.
 * @example await evaluateNavigation({ pathname: '/shop', search: '', signedIn: false })
 *   // { type: 'redirect', to: '/auth/sign_in?redirect=%2Fshop', status: 302 }
 */
export async function evaluateNavigation(input: NavigationInput): Promise<NavigationDecision> {
  const pathname = normalisePathname(input.pathname);
  const path = canonicalPath(input.pathname);
  const fullPath = input.pathname + input.search;
  const guarded = findGuardedPattern(path);
  const guards = guarded?.entry.guards ?? [];
  const params = guarded?.params ?? {};
  const v = input.validators;
  let canonicalGenre: string | null = null;
  let gachaGenre: string | null = null;

  // A configured rule's path needs no page of its own (a retired campaign's address, say): content
  // validation would only answer not-found before the rule could send the visitor on.
  const configured = Object.hasOwn(input.routeRedirects ?? {}, pathname) ? input.routeRedirects![pathname] : undefined;

  // 1. Content validation (server only: the client has no catalogue; the server's loaders repeat it).
  if (v && !configured) {
    if (guards.includes('check-genre-valid')) {
      canonicalGenre = await v.resolveGenre(params.genreId ?? '');
      if (!canonicalGenre) return { type: 'not-found', message: notFoundMessage(input.pathname) };
    }
    if (guards.includes('redirect-onepiece')) {
      gachaGenre = await v.genreOfGacha(params.gachaId ?? '');
      if (!gachaGenre) return { type: 'not-found', message: notFoundMessage(input.pathname) };
    }
    if (guards.includes('check-special-valid') && !(await v.specialExists(params.specialId ?? ''))) {
      return { type: 'not-found', message: notFoundMessage(input.pathname) };
    }
  }

  // 2. Auth.
  if (!input.signedIn && isMembersOnlyPath(pathname)) {
    return { type: 'redirect', to: signInPathFor(fullPath), status: 302 };
  }
  if (input.signedIn && isGuestOnlyPath(pathname)) {
    return { type: 'redirect', to: '/', status: 302 };
  }

  // 3. Route rules.
  const fixed = ROUTE_REDIRECTS[pathname];
  if (fixed) return { type: 'redirect', to: fixed, status: 302 };
  if (configured) return { type: 'redirect', to: configured, status: 302 };
  const query = new URLSearchParams(input.search);
  if (v && guards.includes('redirect-top')) {
    const genre = query.get('genre');
    const target = genre ? await v.resolveGenre(genre) : null;
    if (target) {
      query.delete('genre');
      const rest = query.toString();
      return { type: 'redirect', to: `/gacha/${target}${rest ? `?${rest}` : ''}`, status: 302 };
    }
  }
  if (canonicalGenre && params.genreId !== canonicalGenre) {
    return { type: 'redirect', to: `/gacha/${canonicalGenre}${input.search}`, status: 301 };
  }
  if (gachaGenre && params.genreId !== gachaGenre) {
    return {
      type: 'redirect',
      to: `/gacha/${gachaGenre}/${encodeURIComponent(params.gachaId ?? '')}${input.search}`,
      status: 301,
    };
  }
  const browser = detectBrowserKind(input.userAgent);
  const blocksInApp = guards.includes('ng-internal')
    ? browser === 'line' || browser === 'in-app'
    : guards.includes('ng-action-internal')
      ? browser === 'line' || browser === 'in-app'
      : guards.includes('ng-line-internal')
        ? browser === 'line'
        : false;
  if (blocksInApp) {
    // LINE opens a page in the default browser when it carries openExternalBrowser=1.
    if (browser === 'line' && query.get('openExternalBrowser') !== '1') {
      query.set('openExternalBrowser', '1');
      return { type: 'redirect', to: `${path}?${query.toString()}`, status: 302 };
    }
    return { type: 'allow', notice: 'open-external' };
  }
  if (guards.includes('ng-external') && browser !== 'native-app') {
    return { type: 'allow', notice: 'open-in-app' };
  }
  return { type: 'allow' };
}

/**
 * The ad-tracking rule (client side): a visitor who is not signed in, has stored parameters and
 * arrives with none, goes to the same route with the stored ones added; page, tab, genre and
 * special queries are kept. Answers the new address, or null to stay.
 * @example adTrackingRedirect({ pathname: '/', search: '?tab=new', signedIn: false, stored: { utm_source: 'x' } })
 *   // '/?tab=new&utm_source=x'
 */
export function adTrackingRedirect(input: {
  pathname: string;
  search: string;
  signedIn: boolean;
  stored: Partial<Record<(typeof AD_TRACKING_PARAMS)[number], string>>;
}): string | null {
  if (input.signedIn) return null;
  const guarded = findGuardedPattern(input.pathname);
  if (guarded?.entry.ignoreAdTracking) return null;
  if (isMembersOnlyPath(input.pathname)) return null;
  const current = new URLSearchParams(input.search);
  if (AD_TRACKING_PARAMS.some((name) => current.has(name))) return null;
  const storedEntries = AD_TRACKING_PARAMS.flatMap((name) => {
    const value = input.stored[name];
    return value ? [[name, value] as const] : [];
  });
  if (storedEntries.length === 0) return null;
  const next = new URLSearchParams();
  for (const name of AD_REDIRECT_PRESERVED_QUERIES) {
    const value = current.get(name);
    if (value !== null) next.set(name, value);
  }
  for (const [name, value] of storedEntries) next.set(name, value);
  return `${input.pathname}?${next.toString()}`;
}

/** The ad parameters present in a query string, to be stored. */
export function adTrackingParamsIn(search: string): Partial<Record<(typeof AD_TRACKING_PARAMS)[number], string>> {
  const query = new URLSearchParams(search);
  const found: Partial<Record<(typeof AD_TRACKING_PARAMS)[number], string>> = {};
  for (const name of AD_TRACKING_PARAMS) {
    const value = query.get(name);
    if (value) found[name] = value.slice(0, 500);
  }
  return found;
}
