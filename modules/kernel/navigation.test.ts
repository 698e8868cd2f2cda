// The guard rule tables: members-only paths, exemptions, redirects, named guards, ad tracking.
import { describe, it, expect } from 'vitest';
import {
  evaluateNavigation,
  canonicalPath,
  isMembersOnlyPath,
  isGuestOnlyPath,
  isNoindexPath,
  safeRedirectPath,
  matchPattern,
  adTrackingRedirect,
  adTrackingParamsIn,
  detectBrowserKind,
  AD_TRACKING_PARAMS,
  type ContentValidators,
} from './navigation';

const validators: ContentValidators = {
  resolveGenre: async (id) =>
    (({ pokemon: 'pokemon', 'pokemon-card': 'pokemon', onepiece: 'onepiece' }) as Record<string, string>)[
      id.toLowerCase()
    ] ?? null,
  genreOfGacha: async (id) => (({ 'op-1': 'onepiece', 'pk-1': 'pokemon' }) as Record<string, string>)[id] ?? null,
  specialExists: async (id) => id === 'winter-campaign' || id === 'tokushoho',
};
const visitor = (pathname: string, search = '', userAgent?: string) =>
  evaluateNavigation({ pathname, search, signedIn: false, validators, userAgent });
const member = (pathname: string, search = '') => evaluateNavigation({ pathname, search, signedIn: true, validators });

describe('members-only paths', () => {
  it.each([
    '/shop',
    '/shop/checkout/paypay',
    '/myinbox/idvs',
    '/myinbox',
    '/mylevel',
    '/mylevel/top',
    '/myrank',
    '/r/ow',
    '/ranking',
    '/ranking/daily/goodluck',
    '/app/farm',
    '/app/friends/add',
  ])('%s is for members', (path) => expect(isMembersOnlyPath(path)).toBe(true));
  it.each([
    '/',
    '/gacha/pokemon',
    '/mypage',
    '/mypage/invitation',
    '/auth/sign_in',
    '/auth/sign_up',
    '/auth/passwd',
    '/auth/action',
    '/auth',
    '/r',
    '/app/checkout/paypay',
    '/app/checkout',
    '/app/return',
    '/tokushoho',
    '/shopping',
  ])('%s is public or exempt', (path) => expect(isMembersOnlyPath(path)).toBe(false));
  it('treats a trailing slash like the bare path', () => {
    expect(isMembersOnlyPath('/shop/')).toBe(true);
  });
  it.each([
    '/Shop',
    '/SHOP/checkout/paypay',
    '/%6Dyinbox/idvs',
    '/MYINBOX/idvs',
    '/Ranking/daily/goodluck',
    '/App/farm',
    '/MyLevel/top',
    '/R/ow',
    '//shop',
    '/shop//checkout',
  ])('%s is for members however it is spelled (routes match in any case, decoded)', (path) =>
    expect(isMembersOnlyPath(path)).toBe(true),
  );
  it('keeps the exemptions however they are spelled', () => {
    expect(isMembersOnlyPath('/App/Checkout/paypay')).toBe(false);
    expect(isMembersOnlyPath('/auth/sign_out')).toBe(false);
  });
  it('canonicalises paths the way the router matches them', () => {
    expect(canonicalPath('//%73hop/')).toBe('/shop');
    expect(canonicalPath('/gacha/POKEMON')).toBe('/gacha/POKEMON');
    expect(canonicalPath('/%E0%A4%A')).toBe('/%E0%A4%A');
  });
});

describe('evaluateNavigation for visitors', () => {
  it('sends a visitor to sign-in with the full original path and query', async () => {
    expect(await visitor('/shop', '?tab=history&page=2')).toEqual({
      type: 'redirect',
      to: '/auth/sign_in?redirect=%2Fshop%3Ftab%3Dhistory%26page%3D2',
      status: 302,
    });
  });
  it('lets the app checkout and return pages through', async () => {
    expect(await visitor('/app/checkout/paypay')).toEqual({ type: 'allow' });
    expect((await visitor('/app/return')).type).toBe('allow');
  });
  it('applies the route redirects', async () => {
    expect(await visitor('/auth')).toMatchObject({ type: 'redirect', to: '/' });
    expect(await visitor('/r')).toMatchObject({ type: 'redirect', to: '/' });
    expect(await member('/myinbox')).toMatchObject({ type: 'redirect', to: '/myinbox/idvs' });
    expect(await member('/ranking')).toMatchObject({ type: 'redirect', to: '/ranking/daily/goodluck' });
  });
  it("applies the shop's configured route rules: a site path or an absolute URL, after auth, in any spelling", async () => {
    const routeRedirects = {
      '/lp/outside': 'https://campaign.example.jp/a?b=1',
      '/lp': '/gacha/pokemon',
      '/shop/old': '/shop',
    };
    const go = (pathname: string, signedIn = false) =>
      evaluateNavigation({ pathname, search: '?utm_source=x', signedIn, validators, routeRedirects });
    expect(await go('/lp/outside')).toEqual({ type: 'redirect', to: 'https://campaign.example.jp/a?b=1', status: 302 });
    expect(await go('/LP/Outside/')).toMatchObject({ type: 'redirect', to: 'https://campaign.example.jp/a?b=1' });
    // /lp is no published page: the rule answers before check-special-valid could say not-found
    expect(await go('/lp')).toMatchObject({ type: 'redirect', to: '/gacha/pokemon' });
    // a members-only path stays members-only
    expect(await go('/shop/old')).toMatchObject({
      type: 'redirect',
      to: '/auth/sign_in?redirect=%2Fshop%2Fold%3Futm_source%3Dx',
    });
    expect(await go('/shop/old', true)).toMatchObject({ type: 'redirect', to: '/shop' });
    expect((await go('/lp/other')).type).toBe('allow');
    expect((await go('/constructor')).type).toBe('not-found');
  });
  it('checks auth before the route rules (a visitor at /ranking signs in first)', async () => {
    expect(await visitor('/ranking')).toMatchObject({ type: 'redirect', to: '/auth/sign_in?redirect=%2Franking' });
  });
});

describe('evaluateNavigation for members', () => {
  it.each(['/auth/sign_in', '/auth/sign_up', '/auth/passwd'])('sends a member away from %s', async (path) => {
    expect(await member(path, '?redirect=%2Fshop')).toEqual({ type: 'redirect', to: '/', status: 302 });
  });
  it('lets a member into members-only pages', async () => {
    expect(await member('/shop')).toEqual({ type: 'allow' });
    expect(await member('/auth/action')).toEqual({ type: 'allow' });
  });
});

describe('content validation and named guards', () => {
  it('404s an unknown genre, pack or special page with the specification message', async () => {
    expect(await visitor('/gacha/unknown')).toEqual({ type: 'not-found', message: 'Page Not Found: /gacha/unknown' });
    expect(await visitor('/gacha/pokemon/nope')).toEqual({
      type: 'not-found',
      message: 'Page Not Found: /gacha/pokemon/nope',
    });
    expect(await visitor('/no-such-page')).toEqual({ type: 'not-found', message: 'Page Not Found: /no-such-page' });
  });
  it('validates content before auth', async () => {
    // a 404 wins over nothing else here, but the order is visible with a member on a missing genre
    expect((await member('/gacha/unknown')).type).toBe('not-found');
  });
  it('redirect-gacha: an alias or another case goes to the canonical genre, keeping the query', async () => {
    expect(await visitor('/gacha/Pokemon-Card', '?sort=new')).toEqual({
      type: 'redirect',
      to: '/gacha/pokemon?sort=new',
      status: 301,
    });
    expect(await visitor('/gacha/pokemon')).toEqual({ type: 'allow' });
  });
  it('redirect-onepiece: a pack under the wrong genre goes to its own genre', async () => {
    expect(await visitor('/gacha/pokemon/op-1')).toEqual({ type: 'redirect', to: '/gacha/onepiece/op-1', status: 301 });
    expect(await visitor('/gacha/onepiece/op-1')).toEqual({ type: 'allow' });
  });
  it('redirect-top: /?genre= goes to the genre top, keeping other queries', async () => {
    expect(await visitor('/', '?genre=pokemon-card&tab=new')).toEqual({
      type: 'redirect',
      to: '/gacha/pokemon?tab=new',
      status: 302,
    });
    expect(await visitor('/', '?genre=unknown')).toEqual({ type: 'allow' });
  });
  it('check-special-valid lets published pages through', async () => {
    expect(await visitor('/winter-campaign')).toEqual({ type: 'allow' });
  });
  it('the client (no validators) skips content validation and leaves it to the server', async () => {
    expect(await evaluateNavigation({ pathname: '/gacha/unknown', search: '', signedIn: false })).toEqual({
      type: 'allow',
    });
  });
});

describe('browser guards', () => {
  const line =
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148 Safari Line/14.1.0';
  const instagram = 'Mozilla/5.0 (iPhone) AppleWebKit/605.1.15 Mobile/15E148 Instagram 300.0';
  const app = 'Mozilla/5.0 (iPhone) AppleWebKit/605.1.15 OripaStellaApp/1.0';
  it('detects browser kinds', () => {
    expect(detectBrowserKind(line)).toBe('line');
    expect(detectBrowserKind(instagram)).toBe('in-app');
    expect(detectBrowserKind(app)).toBe('native-app');
    expect(detectBrowserKind('Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0')).toBe('external');
  });
  it('ng-line-internal sends LINE to the external browser once, then shows the notice', async () => {
    expect(
      await evaluateNavigation({
        pathname: '/mypage/backfromlinecampaign',
        search: '?c=1',
        signedIn: true,
        userAgent: line,
      }),
    ).toEqual({ type: 'redirect', to: '/mypage/backfromlinecampaign?c=1&openExternalBrowser=1', status: 302 });
    expect(
      await evaluateNavigation({
        pathname: '/mypage/backfromlinecampaign',
        search: '?openExternalBrowser=1',
        signedIn: true,
        userAgent: line,
      }),
    ).toEqual({ type: 'allow', notice: 'open-external' });
    expect(
      await evaluateNavigation({
        pathname: '/mypage/backfromlinecampaign',
        search: '',
        signedIn: true,
        userAgent: instagram,
      }),
    ).toEqual({ type: 'allow' });
  });
  it('builds the LINE redirect from the canonical path, never a protocol-relative one', async () => {
    expect(
      await evaluateNavigation({ pathname: '//auth/action', search: '', signedIn: false, userAgent: line }),
    ).toEqual({ type: 'redirect', to: '/auth/action?openExternalBrowser=1', status: 302 });
  });
  it('ng-internal and ng-action-internal refuse every in-app browser', async () => {
    expect(
      await evaluateNavigation({ pathname: '/shop/checkout/paypay', search: '', signedIn: true, userAgent: instagram }),
    ).toEqual({ type: 'allow', notice: 'open-external' });
    expect(
      await evaluateNavigation({ pathname: '/auth/action', search: '', signedIn: false, userAgent: instagram }),
    ).toEqual({ type: 'allow', notice: 'open-external' });
    expect(
      await evaluateNavigation({
        pathname: '/shop/checkout/paypay',
        search: '',
        signedIn: true,
        userAgent: 'Chrome/156',
      }),
    ).toEqual({ type: 'allow' });
  });
  it('ng-external shows the app-only notice outside the native app', async () => {
    expect(
      await evaluateNavigation({ pathname: '/app/return', search: '', signedIn: false, userAgent: 'Chrome/156' }),
    ).toEqual({ type: 'allow', notice: 'open-in-app' });
    expect(await evaluateNavigation({ pathname: '/app/return', search: '', signedIn: false, userAgent: app })).toEqual({
      type: 'allow',
    });
  });
});

describe('safeRedirectPath', () => {
  it.each([
    ['/shop', '/shop'],
    ['/shop?tab=1#x', '/shop?tab=1#x'],
    ['/gacha/pokemon/abc', '/gacha/pokemon/abc'],
  ])('keeps the site path %s', (input, output) => expect(safeRedirectPath(input)).toBe(output));
  it.each([
    'https://evil.example/',
    '//evil.example',
    '/\\evil.example',
    'javascript:alert(1)',
    'shop',
    '',
    '/\tevil',
    '/api/auth/sign-out',
    '/API/auth/sign-out',
    '/..//evil.example/x',
    '/.//evil.example',
    '/x/..//evil.example',
    '/%2e%2e//evil.example',
    null,
    undefined,
  ])('refuses %s', (input) => expect(safeRedirectPath(input as string)).toBe('/'));
});

describe('matchPattern, noindex and guest-only', () => {
  it('matches parameters and wildcards', () => {
    expect(matchPattern('/gacha/:genreId', '/gacha/pokemon')).toEqual({ genreId: 'pokemon' });
    expect(matchPattern('/gacha/:genreId', '/gacha/pokemon/x')).toBeNull();
    expect(matchPattern('/shop/*', '/shop/checkout/x')).toEqual({});
    expect(matchPattern('/shop/*', '/shop')).toBeNull();
    expect(matchPattern('/:id', '/%E0%A4%A')).toEqual({ id: '%E0%A4%A' }); // malformed encoding stays raw
    expect(matchPattern('/gacha/:genreId', '/GACHA/pokemon')).toEqual({ genreId: 'pokemon' });
  });
  it.each([
    '/auth/sign_in',
    '/app/farm',
    '/myinbox/idvs',
    '/mylevel/top',
    '/myrank/',
    '/r/ow',
    '/shop/checkout/x',
    '/ranking/weekly/exp',
    '/shop',
    '/myrank',
    '/MYINBOX/idvs',
    '/%6Dyinbox/idvs',
  ])('%s is noindex', (path) => expect(isNoindexPath(path)).toBe(true));
  it.each(['/', '/gacha/pokemon', '/tokushoho', '/mypage', '/shopping', '/rally'])('%s is indexable', (path) =>
    expect(isNoindexPath(path)).toBe(false),
  );
  it('guest-only paths', () => {
    expect(isGuestOnlyPath('/auth/sign_up')).toBe(true);
    expect(isGuestOnlyPath('/auth/action')).toBe(false);
  });
});

describe('ad tracking', () => {
  it('keeps exactly the eleven parameters of the specification', () => {
    expect(AD_TRACKING_PARAMS).toHaveLength(11);
    expect(adTrackingParamsIn('?utm_source=x&gclid=g&foo=1')).toEqual({ utm_source: 'x', gclid: 'g' });
  });
  it('re-adds stored parameters for a visitor who arrives without any, keeping page, tab, genre and special', () => {
    expect(
      adTrackingRedirect({
        pathname: '/',
        search: '?tab=new&page=2&genre=pokemon&special=x&sort=price_asc',
        signedIn: false,
        stored: { utm_source: 'ads', gclid: 'abc' },
      }),
    ).toBe('/?page=2&tab=new&genre=pokemon&special=x&gclid=abc&utm_source=ads');
  });
  it('does nothing for members, when parameters are present, when nothing is stored, or on ignored routes', () => {
    const stored = { utm_source: 'ads' };
    expect(adTrackingRedirect({ pathname: '/', search: '', signedIn: true, stored })).toBeNull();
    expect(adTrackingRedirect({ pathname: '/', search: '?fbclid=1', signedIn: false, stored })).toBeNull();
    expect(adTrackingRedirect({ pathname: '/', search: '', signedIn: false, stored: {} })).toBeNull();
    expect(adTrackingRedirect({ pathname: '/auth/sign_in', search: '', signedIn: false, stored })).toBeNull();
    expect(adTrackingRedirect({ pathname: '/app/checkout/paypay', search: '', signedIn: false, stored })).toBeNull();
  });
});
