// A member with purchases and draws sees real numbers on /mylevel, /myrank and the ranking boards
// (public nickname only, own place pinned, the previous period) and in the API (members only, Japanese
// 4xx for a bad board or period); a sold-out pack says 完売 with its draw buttons disabled;
// the home page leads each pack with its headline prize and shows the banners' text.
// Coins are granted on the shop's database, so this file needs PostgreSQL beside the shop.
import { TEST_RULES } from '#tests/fixtures';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { openDatabase, type DatabaseHandle } from '#db/client';
import { grantCoins } from '#modules/wallet';
import { foldRankings } from '#modules/ranking';
import { mails, users } from '#db/schema';
import { get, postForm, cookieFrom, uniqueEmail, signUpByForm } from '#tests/http';
import { testShop } from '#tests/test-shop';

const databaseUrl = testShop().databaseUrl;
let handle: DatabaseHandle | undefined;
let cookie = '';
let email = '';
let memberId = '';
const NICKNAME = 'ランク確認さん';

/** The page's text around a test id, with React's text separators removed. */
function testIdText(html: string, id: string): string {
  const match = html.match(new RegExp(`data-testid="${id}"[^>]*>([\\s\\S]*?)</(p|div|b|span|li)>`));
  return (match?.[1] ?? '').replace(/<!-- -->/g, '').replace(/<[^>]+>/g, '');
}

/** The visible text of the markup that starts at a test id (its element and what follows), for nested elements. */
function textFrom(html: string, id: string, length = 800): string {
  const start = html.indexOf(`data-testid="${id}"`);
  if (start < 0) return '';
  return html
    .slice(start, start + length)
    .replace(/<!-- -->/g, '')
    .replace(/^[^>]*>/, '')
    .replace(/<[^>]+>/g, '');
}

beforeAll(async () => {
  if (!databaseUrl) return;
  email = uniqueEmail('progress');
  const page = await signUpByForm({
    name: NICKNAME,
    email,
    password: 'progress-pages-1',
    agreeToTerms: 'on',
  });
  cookie = cookieFrom(page.headers);
  handle = await openDatabase({ databaseUrl, dataDir: testShop().dataDir, poolSize: 2 });
  const [member] = await handle.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  memberId = member!.id;
  await grantCoins(handle.db, {
    lifetimeDays: TEST_RULES.coinLifetimes,
    memberId: member!.id,
    kind: 'paid',
    amount: 12_000,
    reason: 'purchase',
    counterAccount: 'purchase',
    idempotencyKey: randomUUID(),
  });
  // 10連 of the 100-coin pack: 1,000 coins drawn, 1,000 exp.
  const draw = await postForm(
    '/gacha/pokemon/stellar-pokemon-003',
    { count: '10', idempotencyKey: randomUUID() },
    { cookie },
  );
  expect(draw.status, draw.body.slice(0, 300)).toBeGreaterThanOrEqual(300);
  expect(draw.location).toMatch(/\/result\//);
  // The boards count draws as the ranking.fold job folds them (every minute, after a settling delay);
  // here the fold runs at once.
  for (;;) if ((await foldRankings(handle.db, { settleSeconds: 0, batchRows: 100_000 })).caughtUp) break;
});
afterAll(async () => {
  await handle?.close();
});

describe.skipIf(!databaseUrl)(
  `progress pages${databaseUrl ? '' : ' (skipped: needs PostgreSQL to grant coins beside the shop)'}`,
  () => {
    it('/mylevel shows the level from the exp of the draws, the bar to the next level and the rewards', async () => {
      const page = await get('/mylevel', { cookie });
      expect(page.status).toBe(200);
      // 1,000 exp: level 2 on the default curve (1,000 × (level − 1)²), 4,000 for level 3.
      expect(testIdText(page.body, 'level')).toBe('Lv.2');
      expect(testIdText(page.body, 'total-exp')).toBe('1,000');
      expect(textFrom(page.body, 'level-progress', 300)).toContain('0 / 3,000 EXPLv.3まであと3,000 EXP');
      expect(testIdText(page.body, 'week-exp')).toBe('1,000EXP');
      expect(testIdText(page.body, 'week-place')).toMatch(/^\d+位$/);
      expect(page.body).toContain('data-testid="level-rewards"');
      // The level-up mail was written in the draw's transaction, with its reward attached; the table's
      // reached level leads to it until the present is claimed.
      const sent = await handle!.db
        .select({ id: mails.id, coins: mails.attachmentCoins, subject: mails.subject })
        .from(mails)
        .where(and(eq(mails.memberId, memberId), eq(mails.dedupeKey, 'level-up:2')));
      expect(sent).toEqual([{ id: expect.any(Number), coins: 20, subject: 'レベル2に到達しました' }]);
      expect(page.body).toMatch(new RegExp(`href="/myinbox/mail/${sent[0]!.id}"[^>]*>受け取る<`));
    });

    it('/mylevel/top lists every level-up reward', async () => {
      const page = await get('/mylevel/top', { cookie });
      expect(page.status).toBe(200);
      const text = page.body.replace(/<!-- -->/g, '');
      expect(text).toContain('Lv.100');
      expect(text).toContain('1,000コイン'); // level 10
    });

    it("/myrank shows this month's rank, this month's purchases and what is missing for the next rank", async () => {
      const page = await get('/myrank', { cookie });
      expect(page.status).toBe(200);
      expect(testIdText(page.body, 'current-rank')).toBe('レギュラー');
      expect(testIdText(page.body, 'bought-this-month')).toBe('12,000');
      expect(testIdText(page.body, 'next-month-rank')).toBe('ブロンズ');
      expect(textFrom(page.body, 'next-target')).toContain('あと 18,000コインの購入で');
      expect(page.body).toContain('購入ボーナス +5%');
      expect(page.body.replace(/<!-- -->/g, '')).toContain('ランクアップ報酬 10,000コイン');
      expect(textFrom(page.body, 'rank-perk-list')).toContain('ランク限定オリパ');
      expect(page.body).not.toContain('販売開始後に表示');
    });

    it("the weekly board lists the member by nickname with the exp, and pins the member's place; never an email", async () => {
      const page = await get('/ranking/weekly/exp', { cookie });
      expect(page.status).toBe(200);
      expect(page.body).toContain('data-testid="board"');
      expect(textFrom(page.body, 'my-place')).toMatch(new RegExp(`^あなたの順位\\d+位${NICKNAME}（あなた）1,000EXP`));
      expect(page.body).not.toContain(email);
      expect(page.body).not.toMatch(/@example\.(jp|invalid|test)/);
    });

    it("the daily luck board shows the member's best hit as a multiple of the draw price", async () => {
      const page = await get('/ranking/daily/goodluck', { cookie });
      expect(page.status).toBe(200);
      expect(textFrom(page.body, 'my-place')).toMatch(
        new RegExp(`^あなたの順位\\d+位${NICKNAME}（あなた）[SABC]賞 .+・はじめてのワンコインオリパ×\\d+(\\.\\d+)?`),
      );
    });

    it('the monthly level board shows the levels gained this month with the exp', async () => {
      const page = await get('/ranking/monthly/level', { cookie });
      expect(page.status).toBe(200);
      expect(textFrom(page.body, 'my-place')).toMatch(
        new RegExp(`^あなたの順位\\d+位${NICKNAME}（あなた）\\+1レベル1,000 EXP`),
      );
    });

    it('switches to the previous period, where the member has no place yet', async () => {
      const page = await get('/ranking/weekly/exp?period=previous', { cookie });
      expect(page.status).toBe(200);
      expect(page.body).toMatch(
        /data-testid="period-previous"[^>]*aria-current="page"|aria-current="page"[^>]*data-testid="period-previous"/,
      );
      // Either nobody drew last week (a fresh shop), or the member is not among those who did.
      expect(page.body.replace(/<!-- -->/g, '')).toMatch(
        /先週はまだだれもランクインしていません|先週の集計に入っていません/,
      );
    });

    it('is for members only', async () => {
      const page = await get('/ranking/weekly/exp');
      expect(page.status).toBe(302);
      expect(page.location).toContain('/auth/sign_in');
    });

    it('answers the level, the rank and the boards in the API, members only, with Japanese 4xx', async () => {
      const level = await get('/api/v1/me/level', { cookie });
      expect(level.status).toBe(200);
      expect(JSON.parse(level.body)).toMatchObject({ exp: 1_000, level: 2, next: { level: 3, expRequired: 4_000 } });
      const rank = await get('/api/v1/me/rank', { cookie });
      expect(JSON.parse(rank.body)).toMatchObject({ rank: { name: 'レギュラー' }, boughtThisMonth: 12_000 });
      const board = await get('/api/v1/rankings/exp', { cookie });
      const body = JSON.parse(board.body) as { me: { name: string; score: number }; lines: unknown[] };
      expect(body.me).toMatchObject({ name: NICKNAME, score: 1_000, mine: true });
      expect(board.body).not.toContain(email);
      expect(board.body).not.toContain(memberId);
      expect((await get('/api/v1/rankings/level?period=previous', { cookie })).status).toBe(200);
      for (const path of ['/api/v1/rankings/weekly', '/api/v1/rankings/exp?period=last']) {
        const bad = await get(path, { cookie });
        expect(bad.status, path).toBe(400);
        expect(JSON.parse(bad.body).error.message, path).toMatch(/[ぁ-んァ-ン一-龥]/);
      }
      const anonymous = await get('/api/v1/rankings/exp');
      expect(anonymous.status).toBe(401);
      expect(JSON.parse(anonymous.body).error.message).toMatch(/ログイン/);
    });
  },
);

describe('sold out and the catalogue', () => {
  it('a sold-out pack says 完売 with a SOLD OUT mark, disabled draw buttons and no live chip', async () => {
    const page = await get('/gacha/yugioh/stellar-yugioh-002');
    expect(page.status).toBe(200);
    expect(page.body).toContain('data-testid="sold-out-mark"');
    expect(page.body).toMatch(/SOLD OUT/);
    expect(testIdText(page.body, 'sold-out-notice')).toContain('完売しました。');
    expect(page.body).not.toContain('残り口数をリアルタイム表示中');
    const buttons = page.body.match(/<button[^>]*name="confirm"[^>]*>/g) ?? [];
    expect(buttons.length).toBeGreaterThan(0);
    for (const button of buttons) expect(button).toMatch(/\sdisabled=""/);
  });

  it('a pack on sale has no sold-out mark and enabled buttons', async () => {
    const page = await get('/gacha/pokemon/stellar-pokemon-001');
    expect(page.body).not.toContain('data-testid="sold-out-mark"');
    expect(textFrom(page.body, 'hero-headline')).toContain('目玉賞品S賞 星詠みのドラゴン SAR');
    for (const button of page.body.match(/<button[^>]*name="confirm"[^>]*>/g) ?? [])
      expect(button).not.toMatch(/\sdisabled=""/);
  });

  it("the home page shows each pack's headline prize and the banners' title and period as text", async () => {
    const page = await get('/');
    const headlines = page.body.match(/data-testid="pack-headline"/g) ?? [];
    // The twelve demo packs and the demo's beacon pack (decision 081).
    expect(headlines.length).toBe(13);
    expect(page.body.replace(/<!-- -->/g, '')).toContain('S賞</span> 大海賊船長ガレオン SAR');
    expect(page.body).toContain('冬のオリパ祭り 開催中</span>');
    expect(testIdText(page.body, 'banner-period')).toBe('期間：12月1日〜12月25日（デモ）');
    expect(page.body.match(/data-testid="pack-closed"/g)).toHaveLength(1);
  });
});
