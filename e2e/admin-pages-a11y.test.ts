// Every page of the admin area, as an admin opens them on a desktop: each answers, shows its heading and
// has no serious axe violation. Screenshots for a person to look at. The admin role is set beside the
// running shop (PostgreSQL only).
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { eq } from 'drizzle-orm';
import {
  useBrowser,
  openContext,
  expectNoSeriousAxeViolations,
  waitForHydration,
  signUpInBrowser,
  screenshot,
} from './support/browser';
import { openDatabase, type DatabaseHandle } from '#db/client';
import { fraudSignals, users } from '#db/schema';
import { uniqueEmail } from '#tests/http';
import { testShop } from '#tests/test-shop';

const shop = useBrowser();
const databaseUrl = testShop().databaseUrl;
let handle: DatabaseHandle | undefined;

beforeAll(async () => {
  if (databaseUrl) handle = await openDatabase({ databaseUrl, dataDir: testShop().dataDir, poolSize: 2 });
});
afterAll(async () => {
  await handle?.close();
});

/** Each admin page and the heading it shows. */
const PAGES: [string, string][] = [
  ['/admin', '管理ホーム'],
  ['/admin/members', '会員'],
  ['/admin/approvals', '承認待ち'],
  ['/admin/shipping', '発送デスク'],
  ['/admin/stock', '在庫'],
  ['/admin/orders', '注文'],
  ['/admin/packs', 'パック（ガチャ）'],
  ['/admin/signals', '不正検知'],
  ['/admin/genres', 'ジャンル'],
  ['/admin/coin-packs', 'コインパック'],
  ['/admin/promo-codes', '特典コード'],
  ['/admin/mail', 'メール配信'],
  ['/admin/invitations', '友達招待'],
  ['/admin/banners', 'バナー'],
  ['/admin/content', 'ページ・お知らせ'],
  ['/admin/farm', 'ファーム'],
  ['/admin/reports/unused-paid', '未使用残高（資金決済法）'],
  ['/admin/inquiries', 'お問い合わせ'],
  ['/admin/audit', '監査ログ'],
  ['/admin/staff', 'スタッフ'],
  ['/admin/maintenance', 'メンテナンス'],
];

// One admin, signed in once; each page is its own test (its own time limit on a busy machine).
describe.skipIf(!databaseUrl)(
  `the admin area on a desktop${databaseUrl ? '' : ' (skipped: needs PostgreSQL to set the role beside the running shop)'}`,
  () => {
    let opened: Awaited<ReturnType<typeof openContext>>;
    beforeAll(async () => {
      opened = await openContext(shop.browser, 'desktop', shop.baseURL);
      const { page } = opened;
      const email = uniqueEmail('admin-pages');
      await signUpInBrowser(page, { name: 'かんり', email });
      await handle!.db.update(users).set({ role: 'admin', twoFactorEnabled: true }).where(eq(users.email, email));
      // One open signal, so the signals page shows a row with its evidence and decision buttons.
      const [me] = await handle!.db.select({ id: users.id }).from(users).where(eq(users.email, email));
      await handle!.db.insert(fraudSignals).values({
        kind: 'velocity_draws',
        memberId: me!.id,
        key: 'a11y',
        evidence: { count: 1200, draws: 1200, coins: 360_000, thresholdDraws: 1000, thresholdCoins: 1_000_000 },
        firstSeen: new Date(),
        lastSeen: new Date(),
      });
    });
    afterAll(async () => {
      await opened?.context.close();
    });

    it.each(PAGES)('opens %s with its heading 「%s」 and no serious axe violation', async (path, heading) => {
      const { page, problems } = opened;
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(200);
      await waitForHydration(page);
      await page.getByRole('heading', { level: 1, name: heading, exact: false }).first().waitFor();
      await page.mouse.move(0, 0);
      await expectNoSeriousAxeViolations(page, path);
      await screenshot(page, `admin${path.replaceAll('/', '-')}.png`, { fullPage: true });
      expect(problems.splice(0), path).toEqual([]);
    });

    // The pages that moved onto the shared parts (decision 067) ask in the one confirmation dialog:
    // named by its question, without a serious axe violation, and やめる leaves with nothing done.
    it.each([
      ['/admin/signals', '問題なし', 'このシグナルを「問題なし」にしますか？', '問題なしにする'],
      ['/admin/farm', 'ファームを一時停止する…', 'ファームを一時停止しますか？', '一時停止する'],
    ])('asks on %s in the admin confirmation dialog, and やめる leaves it', async (path, ask, question, act) => {
      const { page, problems } = opened;
      await page.goto(path);
      await waitForHydration(page);
      await page.getByRole('button', { name: ask, exact: true }).first().click();
      const dialog = page.getByRole('dialog', { name: question });
      await dialog.getByRole('button', { name: act, exact: true }).waitFor();
      await expectNoSeriousAxeViolations(page, `${path} confirmation`);
      await dialog.getByRole('button', { name: 'やめる' }).click();
      await dialog.waitFor({ state: 'detached' });
      expect(problems.splice(0), path).toEqual([]);
    });
  },
);
