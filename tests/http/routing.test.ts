// HTTP behaviour of the route table against a running shop: redirects, exemptions, 404s, page head.
import { describe, it, expect } from 'vitest';
import { get, shopUrl, titleOf, canonicalOf, robotsMetaOf } from '#tests/http';

const decode = (html: string) => html.replace(/&amp;/g, '&');

describe('redirect rules for visitors', () => {
  it.each([
    ['/auth', '/'],
    ['/r', '/'],
    ['/shop', '/auth/sign_in?redirect=%2Fshop'],
    ['/shop?tab=history', '/auth/sign_in?redirect=%2Fshop%3Ftab%3Dhistory'],
    ['/shop/checkout/paypay', '/auth/sign_in?redirect=%2Fshop%2Fcheckout%2Fpaypay'],
    ['/shop/backfrompaypay?id=1', '/auth/sign_in?redirect=%2Fshop%2Fbackfrompaypay%3Fid%3D1'],
    ['/myinbox', '/auth/sign_in?redirect=%2Fmyinbox'],
    ['/myinbox/idvs', '/auth/sign_in?redirect=%2Fmyinbox%2Fidvs'],
    ['/myinbox/mail/42', '/auth/sign_in?redirect=%2Fmyinbox%2Fmail%2F42'],
    ['/mylevel', '/auth/sign_in?redirect=%2Fmylevel'],
    ['/mylevel/top', '/auth/sign_in?redirect=%2Fmylevel%2Ftop'],
    ['/myrank', '/auth/sign_in?redirect=%2Fmyrank'],
    ['/r/ow', '/auth/sign_in?redirect=%2Fr%2Fow'],
    ['/ranking', '/auth/sign_in?redirect=%2Franking'],
    ['/ranking/weekly/exp', '/auth/sign_in?redirect=%2Franking%2Fweekly%2Fexp'],
    ['/app/farm', '/auth/sign_in?redirect=%2Fapp%2Ffarm'],
    ['/app/friends/add?code=AB', '/auth/sign_in?redirect=%2Fapp%2Ffriends%2Fadd%3Fcode%3DAB'],
    ['/gacha/POKEMON', '/gacha/pokemon'],
    ['/gacha/pokemon-card?sort=new', '/gacha/pokemon?sort=new'],
    ['/gacha/pokemon/stellar-onepiece-001', '/gacha/onepiece/stellar-onepiece-001'],
    ['/?genre=one-piece&tab=new', '/gacha/onepiece?tab=new'],
  ])('%s → %s', async (path, target) => {
    const page = await get(path);
    expect([301, 302]).toContain(page.status);
    expect(page.location).toBe(target);
  });
});

describe('exemptions and public pages', () => {
  it.each([
    '/',
    '/gacha/pokemon',
    '/gacha/onepiece/stellar-onepiece-001',
    '/mypage',
    '/mypage/invitation',
    '/auth/sign_in',
    '/auth/sign_up',
    '/auth/passwd',
    '/auth/action',
    '/tokushoho',
    '/shikin',
    '/kobutsu',
    '/oripa-haishutsu',
    '/account-policy',
    '/notices',
    '/winter-campaign',
  ])('%s answers 200 to a visitor', async (path) => {
    const page = await get(path);
    expect(page.status).toBe(200);
    expect(page.body).toContain('<html lang="ja"');
  });
  it('/preview is the not-found page for a visitor (drafts are for content staff), noindex, frameable by our origin only', async () => {
    const page = await get('/preview?document=x&version=1');
    expect(page.status).toBe(404);
    expect(page.headers.get('x-robots-tag')).toBe('noindex, nofollow');
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'self'");
    expect(page.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect((await get('/')).headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });
  // Exempt from the members redirect (specification section 4): a web view without a session is asked
  // to reopen the page from the app, never sent to the sign-in page.
  it.each([
    ['/app/checkout/paypay', {}],
    ['/app/checkout/stripe', {}],
    ['/app/checkout/linelink', {}],
    ['/app/return', { 'user-agent': 'Mozilla/5.0 (iPhone) OripaStellaApp/1.0' }],
  ])('%s is not redirected for a visitor: a way back to the app', async (path, headers) => {
    const page = await get(path, { headers });
    expect(page.status).toBe(200);
    expect(page.location).toBeNull();
    expect(page.body).toContain('<html lang="ja"');
    expect(page.body).toContain('アプリに戻る');
  });
  it('/app/return outside the app asks to open it in the app (ng-external), without a redirect', async () => {
    const page = await get('/app/return');
    expect(page.status).toBe(200);
    expect(page.body).toContain('アプリでご利用ください');
  });
  it('client navigations (data requests) are guarded too', async () => {
    const page = await get('/shop.data');
    // single fetch answers a redirect in the payload with a 202 and the target in the stream
    expect(page.status).toBe(202);
    expect(decode(page.body)).toContain('/auth/sign_in?redirect=%2Fshop');
  });
});

describe('not found', () => {
  it.each([
    '/no-such-page',
    '/a/b/c',
    '/gacha/unknown-genre',
    '/gacha/pokemon/no-such-pack',
    '/app/checkout/bitcoin',
    '/gacha/pokemon/stellar-pokemon-001/result/unknown',
    '/gacha',
  ])('%s is the not-found page with status 404', async (path) => {
    const page = await get(path);
    expect(page.status).toBe(404);
    expect(page.body).toContain('指定のページが見付かりません');
    expect(page.body).toContain('トップページにお戻りください。');
    expect(page.body).toMatch(/<a href="\/"[^>]*>トップページへ<\/a>/);
    expect(titleOf(page.body)).toBe('指定のページが見付かりません | オリパ ステラ');
  });
  it('carries the specification message in the data of a client navigation', async () => {
    const page = await get('/gacha/unknown-genre.data');
    expect(page.status).toBe(404);
    expect(page.body).toContain('Page Not Found: /gacha/unknown-genre');
  });
  it('answers unknown API paths with a JSON 404 in Japanese', async () => {
    const page = await get('/api/v1/nothing');
    expect(page.status).toBe(404);
    expect(JSON.parse(page.body)).toMatchObject({ error: { code: 'NOT_FOUND', message: 'APIが見つかりません。' } });
  });
});

describe('page head', () => {
  it('uses the tagline on / and "title | site name" elsewhere', async () => {
    expect(titleOf((await get('/')).body)).toBe('オリパ ステラ｜公平・透明なオンラインオリパ');
    expect(titleOf((await get('/gacha/pokemon')).body)).toBe('ポケモンのオリパ一覧 | オリパ ステラ');
    expect(titleOf((await get('/gacha/onepiece/stellar-onepiece-001')).body)).toBe(
      '大海原のパラレル大当たりオリパ | オリパ ステラ',
    );
    expect(titleOf((await get('/auth/sign_in')).body)).toBe('ログイン | オリパ ステラ');
    expect(titleOf((await get('/tokushoho')).body)).toBe('特定商取引法に基づく表記 | オリパ ステラ');
  });
  it('links the canonical address: public origin plus the full path', async () => {
    expect(canonicalOf((await get('/')).body)).toBe(`${shopUrl()}/`);
    expect(decode(canonicalOf((await get('/gacha/pokemon?sort=new')).body) ?? '')).toBe(
      `${shopUrl()}/gacha/pokemon?sort=new`,
    );
    expect(canonicalOf((await get('/no-such-page')).body)).toBe(`${shopUrl()}/no-such-page`);
  });
  it.each(['/auth/sign_in', '/auth/sign_up', '/app/checkout/paypay', '/app/return'])(
    '%s is noindex in meta and header',
    async (path) => {
      const page = await get(path);
      expect(robotsMetaOf(page.body)).toBe('noindex, nofollow');
      expect(page.headers.get('x-robots-tag')).toBe('noindex, nofollow');
    },
  );
  it.each(['/shop', '/myinbox/idvs', '/mylevel', '/myrank', '/r/ow', '/ranking/daily/goodluck', '/app/farm'])(
    '%s sends X-Robots-Tag even on its redirect',
    async (path) => {
      expect((await get(path)).headers.get('x-robots-tag')).toBe('noindex, nofollow');
    },
  );
  it('answers the not-found page for a notice that does not exist', async () => {
    const page = await get('/notices/no-such-notice');
    expect(page.status).toBe(404);
    expect(page.body).toContain('指定のページが見付かりません');
  });
  it.each(['/', '/gacha/pokemon', '/tokushoho', '/mypage'])('%s is indexable', async (path) => {
    const page = await get(path);
    expect(robotsMetaOf(page.body)).toBeNull();
    expect(page.headers.get('x-robots-tag')).toBeNull();
  });
  it('serves robots.txt and a sitemap of indexable pages only', async () => {
    const robots = (await get('/robots.txt')).body;
    expect(robots).toContain('Disallow: /shop/');
    expect(robots).toContain(`Sitemap: ${shopUrl()}/sitemap.xml`);
    const sitemap = (await get('/sitemap.xml')).body;
    expect(sitemap).toContain(`<loc>${shopUrl()}/gacha/pokemon</loc>`);
    expect(sitemap).toContain(`<loc>${shopUrl()}/gacha/onepiece/stellar-onepiece-001</loc>`);
    expect(sitemap).toContain(`<loc>${shopUrl()}/tokushoho</loc>`);
    // Every published page of the content source, with its publication date (decision 039).
    expect(sitemap).toMatch(
      new RegExp(`<loc>${shopUrl()}/oripa-haishutsu</loc><lastmod>\\d{4}-\\d{2}-\\d{2}</lastmod>`),
    );
    expect(sitemap).toContain(`<loc>${shopUrl()}/account-policy</loc>`);
    expect(sitemap).not.toMatch(/\/(shop|auth|ranking|myinbox|standing)\b/);
    expect(robots).toContain('Disallow: /standing/');
  });
});

describe('in-app browser guards', () => {
  it('asks LINE to open the campaign return in the external browser', async () => {
    const line = 'Mozilla/5.0 (iPhone) AppleWebKit/605.1.15 Mobile/15E148 Safari Line/14.1.0';
    const page = await get('/mypage/backfromlinecampaign', { headers: { 'user-agent': line } });
    expect(page.status).toBe(302);
    expect(page.location).toBe(`/mypage/backfromlinecampaign?openExternalBrowser=1`);
  });
  it('shows the app-only notice on /app/return outside the app', async () => {
    const page = await get('/app/return');
    expect(page.body).toContain('アプリでご利用ください');
  });
});

describe('however a members-only path is spelled', () => {
  it.each([
    '/%6Dyinbox/idvs',
    '/MYINBOX/idvs',
    '/Shop/checkout/paypay',
    '/Ranking/daily/goodluck',
    '/App/farm',
    '/MyLevel/top',
    '/R/ow',
    '/SHOP/backfrompaypay',
    '//shop',
  ])('%s sends a visitor to sign-in', async (path) => {
    const page = await get(path);
    expect(page.status).toBe(302);
    expect(page.location).toMatch(/^\/auth\/sign_in\?redirect=/);
  });
});
