// A hot release's waiting room at phone size (issue 34 item 4, decision 087): from the pack page to 「待機列」,
// joining with a verified phone, the turn that comes (the order drawn at the start, here the publication), the
// window's time and lots left, a draw from the window, and back to the queue with one lot left; a second
// member waits with a place and the number ahead. axe on every screen. The pack and the phones are set beside
// the running shop (PostgreSQL only).
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { eq } from 'drizzle-orm';
import { useBrowser, openContext, expectNoSeriousAxeViolations, waitForHydration, screenshot } from './support/browser';
import { signUpMemberWithCoins } from './support/accounts';
import { openDatabase, type DatabaseHandle } from '#db/client';
import { users } from '#db/schema';
import { createPublishedPack } from '#tests/fixtures';
import { testShop } from '#tests/test-shop';

const shop = useBrowser();
const databaseUrl = testShop().databaseUrl;
let handle: DatabaseHandle | undefined;
let pack = '';

beforeAll(async () => {
  if (!databaseUrl) return;
  handle = await openDatabase({ databaseUrl, dataDir: testShop().dataDir, poolSize: 2 });
  pack = await createPublishedPack(handle.db, {
    id: `wr-${Date.now().toString(36)}`,
    lots: 30,
    price: 100,
    drawOptions: [1, 2],
    perMemberLimit: 2,
    waitingRoom: { batch: 1, windowSeconds: 600 },
  });
});
afterAll(async () => {
  await handle?.close();
});

const skipped = databaseUrl ? '' : ' (skipped: needs PostgreSQL to set the pack and phones beside the running shop)';

async function verifiedPhone(id: string, number: string) {
  await handle!.db.update(users).set({ phoneNumber: number, phoneNumberVerified: true }).where(eq(users.id, id));
}

describe('the waiting room at phone size', () => {
  it.skipIf(!databaseUrl)(
    `a member joins from the pack page, gets their turn, draws in their window; the next one waits${skipped}`,
    async () => {
      const first = await openContext(shop.browser, 'phone', shop.baseURL);
      const second = await openContext(shop.browser, 'phone', shop.baseURL);
      try {
        const alice = await signUpMemberWithCoins(first.page, handle!.db, {
          name: 'ならぶ',
          label: 'wr-a',
          paid: 1_000,
        });
        await verifiedPhone(alice.id, `+8190${String(Date.now()).slice(-8)}`);
        await first.page.goto(`/gacha/pokemon/${pack}`);
        await waitForHydration(first.page);
        await first.page.getByRole('link', { name: '待機列に並ぶ' }).click();
        await first.page.waitForURL(`**/gacha/pokemon/${pack}/waiting`);
        await first.page.getByRole('heading', { name: '待機列に並ぶ' }).waitFor();
        expect(await first.page.title()).toMatch(/^待機列 \| /);
        expect(await first.page.locator('meta[name=robots]').getAttribute('content')).toBe('noindex, nofollow');
        await expectNoSeriousAxeViolations(first.page, 'phone waiting room before joining');
        await screenshot(first.page, 'phone-waiting-room-join.png');
        await first.page.getByRole('button', { name: '待機列に並ぶ' }).click();
        // The order was drawn at the pack's start (its publication): the first place's window opens at once.
        await first.page.getByRole('heading', { name: 'あなたの順番です' }).waitFor();
        const lotsLeft = first.page.getByText('引ける残りの口数').locator('..');
        await expect.poll(() => lotsLeft.textContent()).toContain('2口');
        await expectNoSeriousAxeViolations(first.page, 'phone waiting room in the window');
        await screenshot(first.page, 'phone-waiting-room-admitted.png');

        const bob = await signUpMemberWithCoins(second.page, handle!.db, { name: 'まつ', label: 'wr-b', paid: 1_000 });
        await verifiedPhone(bob.id, `+8180${String(Date.now()).slice(-8)}`);
        await second.page.goto(`/gacha/pokemon/${pack}/waiting`);
        await waitForHydration(second.page);
        await second.page.getByRole('button', { name: '待機列に並ぶ' }).click();
        await second.page.getByRole('heading', { name: '順番をお待ちください' }).waitFor();
        await expectNoSeriousAxeViolations(second.page, 'phone waiting room waiting');
        await screenshot(second.page, 'phone-waiting-room-waiting.png');

        // The first member draws one lot from the window, sees the result, and comes back with one left.
        await first.page.getByRole('button', { name: /^1回引く/ }).click();
        await first.page.waitForURL(/\/result\//);
        await first.page.goto(`/gacha/pokemon/${pack}/waiting`);
        await waitForHydration(first.page);
        await expect.poll(() => first.page.getByText('引ける残りの口数').locator('..').textContent()).toContain('1口');
        // Ending the window hands the turn on: the second member's page changes without a reload.
        await first.page.getByRole('button', { name: '購入を終える' }).click();
        await first.page.getByRole('heading', { name: '待機列から抜けました' }).waitFor();
        await second.page.getByRole('heading', { name: 'あなたの順番です' }).waitFor();
        expect(first.problems).toEqual([]);
        expect(second.problems).toEqual([]);
      } finally {
        await first.context.close();
        await second.context.close();
      }
    },
  );
});
