// 天井賞 as a member meets it (issue 34 item 1, decision 089), against the built shop: the pack page states what it
// guarantees, after how many lots and from what stock beside the price; a member's meter counts their own lots to
// it in lots and yen; the draw that reaches it names the award on its result page with the meter after it, and the
// API's items carry its number. The meter is the member's own: another member's page shows their own count.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { openDatabase, type DatabaseHandle } from '#db/client';
import { gachaMemberDraws, prizes } from '#db/schema';
import { checkInvariants } from '#modules/wallet';
import { getRemaining } from '#modules/gacha';
import { createPublishedPack, grantPaidCoinsByEmail } from '#tests/fixtures';
import { cookieFrom, get, postForm, signUpByForm, uniqueEmail } from '#tests/http';
import { testShop } from '#tests/test-shop';

const databaseUrl = testShop().databaseUrl;
let handle: DatabaseHandle | undefined;

beforeAll(async () => {
  if (!databaseUrl) return;
  handle = await openDatabase({ databaseUrl, dataDir: testShop().dataDir, poolSize: 2 });
});
afterAll(async () => {
  if (handle) expect(await checkInvariants(handle.db)).toEqual([]);
  await handle?.close();
});

const text = (body: string) => body.replaceAll('<!-- -->', '');

/** Draws `count` lots from the pack page's form (no script), answering the result page's path. */
async function drawByForm(path: string, cookie: string, count: number): Promise<string> {
  const confirm = await get(`${path}?confirm=${count}`, { cookie });
  const key = /name="idempotencyKey" value="([^"]+)"/.exec(confirm.body)?.[1];
  expect(key).toBeTruthy();
  const drawn = await postForm(path, { count: String(count), idempotencyKey: key! }, { cookie });
  expect(drawn.status).toBe(302);
  return drawn.location!.split('?')[0]!;
}

async function member(name: string) {
  const email = uniqueEmail('ceiling');
  const signUp = await signUpByForm({ name, email, password: 'ceiling-pass-1', agreeToTerms: 'on' });
  await grantPaidCoinsByEmail(handle!.db, email, 1_000);
  return cookieFrom(signUp.headers);
}

async function standing(gachaId: string) {
  return handle!.db.select().from(gachaMemberDraws).where(eq(gachaMemberDraws.gachaId, gachaId));
}

describe.skipIf(!databaseUrl)('天井賞 on the pack and result pages', () => {
  it('states the guarantee and its stock, meters each member’s own lots, and names the award', async () => {
    // One S賞 among 20 lots: any 10 lots hold at least two runs of 3 lots without it.
    const gachaId = await createPublishedPack(handle!.db, {
      lots: 20,
      price: 10,
      drawOptions: [1, 10],
      ceiling: { after: 3, of: ['S'] },
    });
    const path = `/gacha/pokemon/${gachaId}`;
    const visitor = text((await get(path)).body);
    expect(visitor).toContain(
      '天井賞（特典）S賞以上が出ないまま3口引いた方：3口ごとに確定（専用の在庫6枚から。ほかの賞の口は減りません）',
    );
    expect(visitor).not.toContain('確定（天井）');

    const first = await member('天井テスト');
    await drawByForm(path, first, 1);
    const [afterOne] = await standing(gachaId);
    const left = 3 - afterOne!.ceilingStreak;
    expect(text((await get(path, { cookie: first })).body)).toContain(
      `あと${left}口（${left * 10}円分）でS賞以上確定（天井）`,
    );
    // Another member's page counts their own lots: three to go.
    const second = await member('天井テスト2');
    expect(text((await get(path, { cookie: second })).body)).toContain('あと3口（30円分）でS賞以上確定（天井）');

    const result = await drawByForm(path, first, 10);
    const won = await handle!.db
      .select({ no: prizes.ceilingNo })
      .from(prizes)
      .where(and(eq(prizes.gachaId, gachaId), eq(prizes.tierId, `${gachaId}.CE`)));
    expect(won.length).toBeGreaterThanOrEqual(2);
    expect(won.map((w) => w.no).sort()).toEqual(won.map((_, i) => i + 1));
    // The lineup counts the 天井賞's own stock less those given (6 at the start).
    const counted = await getRemaining(handle!.db, gachaId);
    expect(counted.tiers.find((t) => t.tierId === `${gachaId}.CE`)?.remaining).toBe(6 - won.length);
    const page = text((await get(result, { cookie: first })).body);
    expect(page).toContain(`天井賞（S賞以上確定）を${won.length}枚獲得しました！`);
    const [now] = (await standing(gachaId)).filter((row) => row.lots === 11);
    const toGo = 3 - now!.ceilingStreak;
    expect(page).toContain(`あと${toGo}口（${toGo * 10}円分）でS賞以上確定（天井）`);

    // The API names each 天井賞 by its number among the member's.
    const api = await get('/api/v1/me/prizes?limit=50', { cookie: first });
    expect(api.status).toBe(200);
    const items = (JSON.parse(api.body) as { items: { gachaId: string; ceilingNo: number | null }[] }).items;
    const numbers = items.filter((i) => i.gachaId === gachaId && i.ceilingNo !== null).map((i) => i.ceilingNo);
    expect(numbers.sort()).toEqual(won.map((_, i) => i + 1));
    // The draw history's 「キリ番・ピタリ・天井賞」 filter finds the draw that won it, and not the single lot before.
    const history = await get(`/api/v1/me/draws?hits=kiriban&gachaId=${gachaId}`, { cookie: first });
    expect(history.status).toBe(200);
    const drawIds = (JSON.parse(history.body) as { items: { drawId: string }[] }).items.map((i) => i.drawId);
    expect(drawIds).toEqual([result.split('/').at(-1)]);
  });
});
