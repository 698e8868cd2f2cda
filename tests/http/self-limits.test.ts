// Self-limits over HTTP against the built shop (docs/decisions/035): /mypage/settings/limits is members-only
// like its siblings and reached from /mypage's menu; its forms lower at once, raise after 7 days (shown,
// cancellable) and answer bad input with a Japanese 400; one member's page never shows another's limits; a
// self-exclusion is asked for with its confirmation, then the pack page's draw is refused with its own words
// and /shop says why purchases stop. With PostgreSQL beside the shop, the 80 % reminder after real draws.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { get, postForm, cookieFrom, uniqueEmail, signUpByForm } from '#tests/http';
import { TEST_RULES } from '#tests/fixtures';
import { openDatabase, type DatabaseHandle } from '#db/client';
import { users } from '#db/schema';
import { checkInvariants, grantCoins } from '#modules/wallet';
import { testShop } from '#tests/test-shop';

const databaseUrl = testShop().databaseUrl;
const PAGE = '/mypage/settings/limits';
const PACK = 'stellar-pokemon-003'; // a demo pack: 100 coins a draw, thousands of lots
let packPath = '';
let handle: DatabaseHandle | undefined;

interface Member {
  cookie: string;
  email: string;
}

async function signUp(label: string): Promise<Member> {
  const email = uniqueEmail(label);
  const page = await signUpByForm({ name: label, email, password: 'self-limits-1', agreeToTerms: 'on' });
  return { cookie: cookieFrom(page.headers), email };
}

/** Text of a page without React's comment markers between interpolations. */
const textOf = (html: string) => html.replaceAll('<!-- -->', '');

beforeAll(async () => {
  const pack = await fetch(`${testShop().url}/api/v1/gachas/${PACK}`).then((r) => r.json());
  packPath = `/gacha/${pack.genreId}/${PACK}`;
  if (databaseUrl) handle = await openDatabase({ databaseUrl, dataDir: testShop().dataDir, poolSize: 2 });
});
afterAll(async () => {
  if (handle) expect(await checkInvariants(handle.db)).toEqual([]);
  await handle?.close();
});

describe('the self-limits page', () => {
  it('is for members only, like the other /mypage/settings pages, and linked from /mypage', async () => {
    const page = await get(PAGE);
    expect(page.status).toBe(200);
    expect(page.body).toContain('ログインが必要です');
    expect(page.body).toContain(`href="/auth/sign_in?redirect=${encodeURIComponent(PAGE)}"`);
    const post = await postForm(PAGE, { intent: 'change', kind: 'purchase', amount: '1000' });
    expect(post.status).toBe(302);
    expect(post.location).toMatch(/^\/auth\/sign_in\?redirect=/);
    const member = await signUp('limits-menu');
    const mypage = await get('/mypage', { cookie: member.cookie });
    expect(mypage.body).toContain(`href="${PAGE}"`);
    expect(mypage.body).toContain('利用上限・自己除外');
    const own = await get(PAGE, { cookie: member.cookie });
    expect(own.status).toBe(200);
    expect(textOf(own.body)).toContain('1か月の購入上限');
    expect(textOf(own.body)).toContain('1か月のガチャ消費上限');
  });

  it('lowers at once, raises after 7 days with a cancellable reservation, and never shows another member’s', async () => {
    const alice = await signUp('limits-alice');
    const bob = await signUp('limits-bob');
    const set = await postForm(
      PAGE,
      { intent: 'change', kind: 'purchase', amount: '１０，０００円' },
      { cookie: alice.cookie },
    );
    expect(set.status).toBe(200);
    expect(textOf(set.body)).toContain('購入上限を¥10,000にしました。すぐに反映されます。');
    // The purchase confirmation (after the age question) names the member's own limit beside the shop's cap.
    const declared = await postForm('/shop', { intent: 'declare-age', age: 'adult' }, { cookie: alice.cookie });
    expect(declared.status).toBeLessThan(400);
    const checkout = await get('/shop/checkout/sandbox?pack=coin-5000', { cookie: alice.cookie });
    expect(checkout.status).toBe(200);
    expect(textOf(checkout.body).replace(/<[^>]+>/g, '')).toMatch(
      /ご自身で設定した購入上限\s*¥10,000（今月の残り\s*¥10,000）/,
    );
    const raise = await postForm(
      PAGE,
      { intent: 'change', kind: 'purchase', amount: '30000' },
      { cookie: alice.cookie },
    );
    expect(textOf(raise.body)).toMatch(
      /購入上限を¥30,000に変更する予約をしました。.+に反映されます（上限を上げる・なくす変更は7日後）。/,
    );
    const page = textOf((await get(PAGE, { cookie: alice.cookie })).body);
    expect(page).toContain('変更予約：¥30,000');
    expect(page).toContain('予約を取り消す');
    // Bob's page is Bob's: nothing of Alice's limits or reservation.
    const bobs = textOf((await get(PAGE, { cookie: bob.cookie })).body);
    expect(bobs).not.toContain('¥10,000');
    expect(bobs).not.toContain('変更予約');
    const bobCancels = await postForm(PAGE, { intent: 'cancel', kind: 'purchase' }, { cookie: bob.cookie });
    expect(bobCancels.status).toBe(409);
    expect(textOf(bobCancels.body)).toContain('取り消せる上限の変更予約はありません。');
    const cancel = await postForm(PAGE, { intent: 'cancel', kind: 'purchase' }, { cookie: alice.cookie });
    expect(cancel.status).toBe(200);
    expect(textOf((await get(PAGE, { cookie: alice.cookie })).body)).not.toContain('変更予約：');
  });

  it('answers bad input with a Japanese 400', async () => {
    const member = await signUp('limits-bad');
    const cases: [Record<string, string>, string][] = [
      [{ intent: 'change', kind: 'purchase', amount: 'たくさん' }, '上限は半角数字（整数）で入力してください。'],
      [{ intent: 'change', kind: 'draw', amount: '-100' }, '上限は0以上で入力してください。'],
      [{ intent: 'change', kind: 'draw', amount: '' }, '上限の金額を入力してください。'],
      [{ intent: 'change', kind: 'everything', amount: '100' }, '上限の種類が正しくありません。'],
      [{ intent: 'exclude', months: '3' }, '期間中は解除・短縮できないことを確認し、チェックを入れてください。'],
      [{ intent: 'exclude', months: '2', confirm: 'yes' }, '自己除外の期間は1か月・3か月・6か月から選んでください。'],
      [{ intent: 'nothing' }, '操作を選んでください。'],
    ];
    for (const [fields, message] of cases) {
      const answer = await postForm(PAGE, fields, { cookie: member.cookie });
      expect(answer.status, JSON.stringify(fields)).toBe(400);
      expect(textOf(answer.body)).toContain(message);
    }
  });

  it('excludes after the confirmation; then the pack page refuses the draw and /shop says why', async () => {
    const member = await signUp('limits-exclude');
    const done = await postForm(PAGE, { intent: 'exclude', months: '1', confirm: 'yes' }, { cookie: member.cookie });
    expect(done.status).toBe(200);
    const [, lastDay] =
      /自己除外を設定しました。(\d{4}年\d{1,2}月\d{1,2}日)まで、コインの購入とガチャはできません。/.exec(
        textOf(done.body),
      )!;
    const again = await postForm(PAGE, { intent: 'exclude', months: '1', confirm: 'yes' }, { cookie: member.cookie });
    expect(again.status).toBe(200);
    const drawn = await postForm(packPath, { count: '1', idempotencyKey: randomUUID() }, { cookie: member.cookie });
    expect(drawn.status).toBe(403);
    expect(textOf(drawn.body)).toContain(`自己除外期間中（${lastDay}まで）は購入・ガチャができません。`);
    const pack = textOf((await get(packPath, { cookie: member.cookie })).body);
    expect(pack).toContain(`自己除外期間中です（${lastDay}まで）。コインの購入とガチャはできません。`);
    const shop = textOf((await get('/shop', { cookie: member.cookie })).body);
    expect(shop).toContain(`自己除外期間中です（${lastDay}まで）`);
    expect(shop).toContain('自己除外期間中のため、コインを購入できません。');
    const own = textOf((await get(PAGE, { cookie: member.cookie })).body);
    expect(own).toContain(`自己除外中（${lastDay}まで）`);
  });
});

describe.skipIf(!databaseUrl)(
  `the 80 % reminder${databaseUrl ? '' : ' (skipped: coins are granted on the shop’s PostgreSQL database beside it)'}`,
  () => {
    it('appears on the pack page and /mypage once 80 % of the draw-spend limit is used', async () => {
      const member = await signUp('limits-remind');
      const [row] = await handle!.db.select({ id: users.id }).from(users).where(eq(users.email, member.email));
      await grantCoins(handle!.db, {
        lifetimeDays: TEST_RULES.coinLifetimes,
        memberId: row!.id,
        kind: 'paid',
        amount: 1_000,
        reason: 'purchase',
        counterAccount: 'purchase',
        idempotencyKey: `test:self-limits:${row!.id}`,
      });
      await postForm(PAGE, { intent: 'change', kind: 'draw', amount: '500' }, { cookie: member.cookie });
      const draw = () => postForm(packPath, { count: '1', idempotencyKey: randomUUID() }, { cookie: member.cookie });
      for (let i = 0; i < 3; i++) expect((await draw()).status).toBe(302);
      expect(textOf((await get(packPath, { cookie: member.cookie })).body)).not.toContain('80%を超えました');
      expect((await draw()).status).toBe(302);
      const reminder = '今月のガチャ消費が、ご自身で設定した上限の80%を超えました（400コイン / 500コイン）。';
      expect(textOf((await get(packPath, { cookie: member.cookie })).body)).toContain(reminder);
      expect(textOf((await get('/mypage', { cookie: member.cookie })).body)).toContain(reminder);
      expect((await draw()).status).toBe(302);
      const over = await draw();
      expect(over.status).toBe(422);
      expect(textOf(over.body)).toContain('今月のガチャ消費上限（500コイン）に達しています');
    });
  },
);
