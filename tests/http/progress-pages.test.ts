// A member with purchases and draws sees real numbers on /mylevel, /myrank and the ranking boards
// (public nickname only, own place pinned); a sold-out pack says 完売 with its draw buttons disabled;
// the home page leads each pack with its headline prize and shows the banners' text.
// Coins are granted on the shop's database, so this file needs PostgreSQL beside the shop.
import { TEST_RULES } from '#tests/fixtures';
import { describe, it, expect, inject, beforeAll, afterAll } from 'vitest';
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { openDatabase, type DatabaseHandle } from '#db/client';
import { grantCoins } from '#modules/wallet';
import { users } from '#db/schema';
import { get, postForm, cookieFrom, uniqueEmail, signUpByForm } from '#tests/http';

const databaseUrl = inject('shopDatabaseUrl');
let handle: DatabaseHandle | undefined;
let cookie = '';
let email = '';
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
  handle = await openDatabase({ databaseUrl, dataDir: inject('shopDataDir'), poolSize: 2 });
  const [member] = await handle.db.select({ id: users.id }).from(users).where(eq(users.email, email));
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
});
afterAll(async () => {
  await handle?.close();
});

describe.skipIf(!databaseUrl)(
  `progress pages${databaseUrl ? '' : ' (skipped: needs PostgreSQL to grant coins beside the shop)'}`,
  () => {
    it("/mylevel shows the exp of the draws and this week's gain, and says levels come later", async () => {
      const page = await get('/mylevel', { cookie });
      expect(page.status).toBe(200);
      expect(testIdText(page.body, 'total-exp')).toBe('1,000EXP');
      expect(testIdText(page.body, 'week-exp')).toBe('1,000EXP');
      expect(testIdText(page.body, 'week-place')).toMatch(/^\d+位$/);
      expect(page.body).toContain('レベルとレベルアップ報酬は、メールボックス');
      expect(page.body).not.toContain('準備中');
    });

    it("/myrank shows this month's rank, this month's purchases and what is missing for the next rank", async () => {
      const page = await get('/myrank', { cookie });
      expect(page.status).toBe(200);
      expect(testIdText(page.body, 'current-rank')).toBe('レギュラー');
      expect(testIdText(page.body, 'bought-this-month')).toBe('12,000');
      expect(testIdText(page.body, 'next-month-rank')).toBe('ブロンズ');
      expect(textFrom(page.body, 'next-target')).toContain('あと 18,000コインの購入で');
      expect(page.body).toContain('購入ボーナス +5%');
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

    it('the monthly level board says honestly that it starts with levels', async () => {
      const page = await get('/ranking/monthly/level', { cookie });
      expect(page.status).toBe(200);
      expect(page.body).toContain('レベルランキングはレベルの追加後に始まります');
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
    expect(headlines.length).toBe(12);
    expect(page.body.replace(/<!-- -->/g, '')).toContain('S賞</span> 大海賊船長ガレオン SAR');
    expect(page.body).toContain('冬のオリパ祭り 開催中</span>');
    expect(testIdText(page.body, 'banner-period')).toBe('期間：12月1日〜12月25日（デモ）');
    expect(page.body.match(/data-testid="pack-closed"/g)).toHaveLength(1);
  });
});
