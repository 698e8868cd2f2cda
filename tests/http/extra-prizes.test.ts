// 個人キリ番賞 and ピタリ賞 as a member meets them (issue 34 items 2 and 3, decision 088), against the built shop:
// the pack page states every extra prize's odds beside the price and the member's own lots to the next number;
// the draw that reaches it (or empties S賞) shows the award on its result page and in the API's items.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { openDatabase, type DatabaseHandle } from '#db/client';
import { checkInvariants } from '#modules/wallet';
import { getRemaining } from '#modules/gacha';
import { personalKiribanQuantity } from '#modules/fairness';
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

/** Draws `count` lots from the pack page's form (no script), answering the result page's path. */
async function drawByForm(path: string, cookie: string, count: number): Promise<string> {
  const confirm = await get(`${path}?confirm=${count}`, { cookie });
  const key = /name="idempotencyKey" value="([^"]+)"/.exec(confirm.body)?.[1];
  expect(key).toBeTruthy();
  const drawn = await postForm(path, { count: String(count), idempotencyKey: key! }, { cookie });
  expect(drawn.status).toBe(302);
  return drawn.location!.split('?')[0]!;
}

describe.skipIf(!databaseUrl)('個人キリ番賞 and ピタリ賞 on the pack and result pages', () => {
  it('states their odds, counts the member’s lots to the next number, and names the award on the result', async () => {
    const gachaId = await createPublishedPack(handle!.db, {
      lots: 20,
      price: 10,
      drawOptions: [1, 10],
      personalKiribanAt: [3],
      pitariOf: ['S'],
    });
    const path = `/gacha/pokemon/${gachaId}`;
    const visitor = (await get(path)).body.replaceAll('<!-- -->', '');
    expect(visitor).toContain('個人キリ番賞（特典）このオリパでのあなたの3口目：到達で確定（お一人様各1回）');
    expect(visitor).toContain('このオリパでのあなたの3口目');
    expect(visitor).toContain('到達で確定（お一人様各1回）');
    expect(visitor).toContain('S賞の最後の1口を引いた方');
    expect(visitor).toContain('1口あたり 1/20');
    expect(visitor).not.toContain('このオリパを');

    const email = uniqueEmail('extras');
    const signUp = await signUpByForm({ name: '特典テスト', email, password: 'extras-pass-1', agreeToTerms: 'on' });
    const cookie = cookieFrom(signUp.headers);
    await grantPaidCoinsByEmail(handle!.db, email, 1_000);
    const results = [await drawByForm(path, cookie, 1)];
    const meter = (await get(path, { cookie })).body.replaceAll('<!-- -->', '');
    expect(meter).toContain('このオリパを1口引きました。あと2口で個人キリ番賞（3口目）');
    results.push(await drawByForm(path, cookie, 1), await drawByForm(path, cookie, 1));
    const third = await get(results[2]!, { cookie });
    expect(third.body.replaceAll('<!-- -->', '')).toContain('個人キリ番賞（あなたの3口目）を獲得しました！');
    expect((await get(path, { cookie })).body).toContain('個人キリ番賞はすべて達成済みです');
    // The lineup counts the 個人キリ番賞's own stock less the one given.
    const personal = async () =>
      (await getRemaining(handle!.db, gachaId)).tiers.find((t) => t.tierId === `${gachaId}.PK`);
    expect((await personal())?.remaining).toBe(personalKiribanQuantity([3], 20) - 1);
    // The rest of the pack: S賞's last lot is among these 20, and exactly one draw names the ピタリ賞.
    results.push(await drawByForm(path, cookie, 10));
    for (let left = 20 - 3 - 10; left > 0; left -= 1) results.push(await drawByForm(path, cookie, 1));
    const pages = await Promise.all(results.map(async (result) => (await get(result, { cookie })).body));
    expect(pages.filter((body) => body.includes('data-testid="pitari-won"'))).toHaveLength(1);
    // Sold out: the ピタリ賞 is marked won, and the meter is gone with the sale.
    const over = (await get(path, { cookie })).body.replaceAll('<!-- -->', '');
    expect(over).toContain('S賞の最後の1口を引いた方（ピタリ賞）にプレゼント');
    expect(over).not.toContain('このオリパを');
    expect((await personal())?.remaining).toBe(0);
  });
});
