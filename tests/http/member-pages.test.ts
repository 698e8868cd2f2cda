// A signed-in member's view of the members-only pages: each prefix renders, titled and noindex.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { get, postForm, cookieFrom, uniqueEmail, titleOf, robotsMetaOf, signUpByForm } from '#tests/http';
import { grantPaidCoinsByEmail } from '#tests/fixtures';
import { openDatabase, type DatabaseHandle } from '#db/client';
import { testShop } from '#tests/test-shop';

let cookie = '';
const email = uniqueEmail('member-pages');
const databaseUrl = testShop().databaseUrl;
let handle: DatabaseHandle | undefined;

/** The page's header, where the member's wallet must sit. */
const headerOf = (html: string) => /<header[\s\S]*?<\/header>/.exec(html)?.[0] ?? '';
/** The 「チャージ」 link beside the coins: its href and its text. */
const chargeLinkOf = (html: string) => {
  const link = /<a[^>]*data-testid="header-charge"[^>]*>[\s\S]*?<\/a>/.exec(html)?.[0] ?? '';
  return { href: /href="([^"]*)"/.exec(link)?.[1], text: link.replace(/<[^>]*>/g, '') };
};

afterAll(async () => {
  await handle?.close();
});

beforeAll(async () => {
  const page = await signUpByForm({
    name: '会員ページ確認',
    email,
    password: 'member-pages-1',
    agreeToTerms: 'on',
  });
  cookie = cookieFrom(page.headers);
  expect(cookie).toContain('session_token');
});

describe('members-only pages for a member', () => {
  it.each([
    ['/shop', 'コインショップ'],
    ['/myinbox/idvs', 'メールボックス'],
    ['/myinbox/alls', 'メールボックス'],
    ['/myinbox/bonus/logs', '受け取り履歴'],
    ['/mylevel', 'マイレベル'],
    ['/mylevel/top', 'レベル特典'],
    ['/myrank', 'マイランク'],
    ['/ranking/daily/goodluck', 'ランキング'],
    ['/ranking/weekly/exp', 'ランキング'],
    ['/ranking/monthly/level', 'ランキング'],
    ['/app/farm', 'ファーム'],
    ['/app/friends/add', 'フレンド追加'],
    ['/auth/action', 'アカウントの手続き'],
  ])('%s renders for the member, titled "%s | site", with robots noindex', async (path, title) => {
    const page = await get(path, { cookie });
    expect(page.status).toBe(200);
    expect(titleOf(page.body)).toBe(`${title} | オリパ ステラ`);
    expect(robotsMetaOf(page.body)).toBe('noindex, nofollow');
    expect(page.headers.get('x-robots-tag')).toBe('noindex, nofollow');
  });

  it.each([
    ['/shop/checkout/paypay?pack=coin-1000', 'ご購入内容の確認', 409, '年齢の確認'],
    ['/shop/checkout/paypay?pack=no-such-pack', 'ご購入内容の確認', 404, '現在販売していません'],
    ['/shop/checkout/bitcoin?pack=coin-1000', 'ご購入内容の確認', 404, 'このお支払い方法は現在ご利用いただけません'],
    ['/shop/backfrompaidy', 'お支払い結果', 404, 'ご注文が見つかりません'],
    ['/shop/backfrompaidy?order=00000000-0000-4000-8000-000000000000', 'お支払い結果', 404, 'ご注文が見つかりません'],
    ['/shop/backfrompaypay?order=%00%27%3Cscript%3E', 'お支払い結果', 404, 'ご注文が見つかりません'],
    [
      '/shop/checkout/paidy/widget?order=00000000-0000-4000-8000-000000000000',
      'ペイディでお支払い',
      404,
      'ご注文が見つかりません',
    ],
    ['/shop/checkout/paidy/widget', 'ペイディでお支払い', 404, 'ご注文が見つかりません'],
  ])(
    '%s answers the member "%s" with %i and the reason in Japanese, robots noindex',
    async (path, title, status, reason) => {
      const page = await get(path, { cookie });
      expect(page.status).toBe(status);
      expect(titleOf(page.body)).toBe(`${title} | オリパ ステラ`);
      expect(page.body).toContain(reason);
      expect(robotsMetaOf(page.body)).toBe('noindex, nofollow');
    },
  );

  it("keeps a member's pages out of shared caches (they carry the coin balance), and shows the balance in the header", async () => {
    for (const path of ['/', '/mypage', '/gacha/pokemon', '/shop']) {
      const page = await get(path, { cookie });
      expect(page.headers.get('cache-control'), path).toBe('private, no-store');
      expect(page.body, path).toContain('data-testid="header-coins-total"');
    }
    const visitor = await get('/');
    expect(visitor.headers.get('cache-control')).not.toBe('private, no-store');
    expect(visitor.body).not.toContain('data-testid="header-coins-total"');
  });

  it('puts 「チャージ」 to /shop beside the coins in the site header and the external layout', async () => {
    // /app/farm uses the external layout (app/routes.ts); / the site header.
    for (const path of ['/', '/app/farm']) {
      const header = headerOf((await get(path, { cookie })).body);
      expect(header, path).toContain('data-testid="header-coins-total"');
      expect(chargeLinkOf(header), path).toEqual({ href: '/shop', text: 'チャージ' });
      // Written once: the wallet (coins and チャージ) is one component in every header.
      expect(header.match(/data-testid="header-wallet"/g), path).toHaveLength(1);
    }
    expect(headerOf((await get('/auth/sign_in')).body)).not.toContain('header-charge');
  });

  it.skipIf(!databaseUrl)(
    `puts 「チャージ」 beside the coins in a draw result's header${databaseUrl ? '' : ' (skipped: needs PostgreSQL to grant coins beside the running shop)'}`,
    async () => {
      handle = await openDatabase({ databaseUrl, dataDir: testShop().dataDir, poolSize: 1 });
      await grantPaidCoinsByEmail(handle.db, email, 100);
      const pack = '/gacha/pokemon/stellar-pokemon-003';
      const confirm = await get(`${pack}?confirm=1`, { cookie });
      const key = /name="idempotencyKey" value="([^"]+)"/.exec(confirm.body)?.[1];
      expect(key).toBeTruthy();
      const drawn = await postForm(pack, { count: '1', idempotencyKey: key! }, { cookie });
      expect(drawn.location).toMatch(new RegExp(`^${pack}/result/[0-9a-f-]{36}\\?reveal=1$`));
      const result = await get(drawn.location!.split('?')[0]!, { cookie });
      expect(result.status).toBe(200);
      const header = headerOf(result.body);
      expect(header).toContain('data-testid="result-back"');
      expect(header).toMatch(/data-testid="header-coins-total"[^>]*>0</);
      expect(chargeLinkOf(header)).toEqual({ href: '/shop', text: 'チャージ' });
    },
  );

  it('sends a member away from sign-in however it is spelled', async () => {
    expect((await get('/Auth/Sign_In', { cookie })).location).toBe('/');
    expect((await get('/auth/%73ign_up', { cookie })).location).toBe('/');
  });

  it('marks a differently spelled members page noindex too', async () => {
    const page = await get('/MYINBOX/idvs', { cookie });
    expect(page.status).toBe(200);
    expect(robotsMetaOf(page.body)).toBe('noindex, nofollow');
    expect(page.headers.get('x-robots-tag')).toBe('noindex, nofollow');
  });

  it('follows the route rules once signed in', async () => {
    expect((await get('/myinbox', { cookie })).location).toBe('/myinbox/idvs');
    expect((await get('/ranking', { cookie })).location).toBe('/ranking/daily/goodluck');
    expect((await get('/auth', { cookie })).location).toBe('/');
    expect((await get('/r', { cookie })).location).toBe('/');
  });

  it('answers 404 for a mail or a result that does not exist', async () => {
    expect((await get('/myinbox/mail/123', { cookie })).status).toBe(404);
    expect((await get('/gacha/pokemon/stellar-pokemon-001/result/abc', { cookie })).status).toBe(404);
    expect((await get('/shop/checkout/bitcoin', { cookie })).status).toBe(404);
  });

  it('hides the staff animation preview from members who are not staff', async () => {
    expect((await get('/gacha/video/debug', { cookie })).status).toBe(404);
  });
});

describe('the account at a glance on /mypage', () => {
  it('shows the address, the phone, the second factor and the linked providers beside their pages', async () => {
    const page = await get('/mypage', { cookie });
    expect(page.status).toBe(200);
    const item = (label: string) =>
      new RegExp(`${label}</span>[\\s\\S]*?<span class="[^"]*truncate[^"]*">([^<]*)</span>`).exec(page.body)?.[1];
    expect(item('メールアドレスの変更')).toBe(email);
    expect(item('電話番号')).toBe('未登録');
    expect(item('二段階認証')).toBe('オフ');
    expect(item('連携アカウント')).toBe('なし');
  });
});
