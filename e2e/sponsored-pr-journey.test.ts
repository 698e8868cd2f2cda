// A sponsored member's wins carry 「PR」 (decision 083; 景品表示法's ステマ rule): an admin on a desktop marks a
// member as a sponsored streamer on their member page (audited); the member draws a top-tier pack; the home
// page's winners feed on a phone shows 「PR」 before their name, its accessible name saying what it means. axe
// on both screens; screenshots to look at. Roles and coins are set beside the running shop (PostgreSQL only).
import { randomUUID } from 'node:crypto';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { useBrowser, openContext, expectNoSeriousAxeViolations, waitForHydration, screenshot } from './support/browser';
import { signUpAdmin, signUpMemberWithCoins } from './support/accounts';
import { openDatabase, type DatabaseHandle } from '#db/client';
import { adminAuditLog, genres } from '#db/schema';
import { createPublishedPack } from '#tests/fixtures';
import { testShop } from '#tests/test-shop';

const shop = useBrowser();
const databaseUrl = testShop().databaseUrl;
/** The journey's own genre: shown while it runs, hidden after, so the shop's lists are as before. */
const GENRE = `prj-${Date.now().toString(36)}`;
let handle: DatabaseHandle | undefined;

beforeAll(async () => {
  if (!databaseUrl) return;
  handle = await openDatabase({ databaseUrl, dataDir: testShop().dataDir, poolSize: 2 });
  await handle.db.insert(genres).values({ id: GENRE, name: 'PRジャーニー', sortOrder: 999 });
});
afterAll(async () => {
  await handle?.db.update(genres).set({ visible: false }).where(eq(genres.id, GENRE));
  await handle?.close();
});

describe('PR表示 for a sponsored member', () => {
  it.skipIf(!databaseUrl)(
    `an admin marks a streamer, and their win in the winners feed says PR${databaseUrl ? '' : ' (skipped: needs PostgreSQL to set roles beside the running shop)'}`,
    async () => {
      const db = handle!.db;
      const pack = await createPublishedPack(db, {
        genreId: GENRE,
        lots: 4,
        price: 100,
        lastOne: true,
        drawOptions: [1, 4],
      });
      const member = await openContext(shop.browser, 'phone', shop.baseURL);
      const desk = await openContext(shop.browser, 'desktop', shop.baseURL);
      try {
        const row = await signUpMemberWithCoins(member.page, db, {
          name: 'はいしんしゃ',
          label: 'pr-streamer',
          paid: 1_000,
        });
        await signUpAdmin(desk.page, db, { name: 'PRかんりしゃ', label: 'pr-admin' });
        await desk.page.goto(`/admin/members/${row.id}`);
        await waitForHydration(desk.page);
        const section = desk.page.getByTestId('sponsorship');
        await section.getByLabel('提携の区分').selectOption('streamer');
        await section.getByRole('button', { name: 'PR表示を開始' }).click();
        await desk.page.getByText(/PR表示を開始しました（配信者/).waitFor();
        await section.getByRole('button', { name: 'PR表示を終了' }).waitFor();
        await expectNoSeriousAxeViolations(desk.page, 'member page with PR表示');
        await section.scrollIntoViewIfNeeded();
        await screenshot(desk.page, 'desktop-admin-member-pr.png');
        const audit = await db
          .select({ action: adminAuditLog.action })
          .from(adminAuditLog)
          .where(and(eq(adminAuditLog.targetId, row.id), eq(adminAuditLog.action, 'member.sponsorship.start')));
        expect(audit).toHaveLength(1);

        // The member draws the whole pack: the S賞 and the ラストワン賞 reach the feed.
        const drawn = await member.page.request.post(`/api/v1/gachas/${pack}/draws`, {
          data: { count: 4 },
          headers: { origin: shop.baseURL, 'idempotency-key': randomUUID() },
        });
        expect(drawn.status()).toBe(201);
        const feed = member.page.getByRole('region', { name: 'みんなの当選履歴' });
        const ours = feed.getByTestId('winner-row').filter({ hasText: `テストパック ${pack}` });
        await expect
          .poll(
            async () => {
              await member.page.goto('/');
              return ours.count();
            },
            { timeout: 60_000 },
          )
          .toBeGreaterThan(0);
        await waitForHydration(member.page);
        const label = ours.first().getByTestId('pr-label');
        expect(await label.textContent()).toBe('PR');
        expect(await label.getAttribute('aria-label')).toContain('当ショップと提携している会員');
        await expectNoSeriousAxeViolations(member.page, 'phone / a sponsored win');
        await feed.scrollIntoViewIfNeeded();
        await screenshot(member.page, 'phone-winners-feed-pr.png');
      } finally {
        await member.context.close();
        await desk.context.close();
      }
    },
  );
});
