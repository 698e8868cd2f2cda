// The dashboard on /admin over HTTP (decision 028): an admin sees the figures folded by the rollup job
// (sales by method, draws, sell-through, the 資金決済法 balance, shipping); a staff member sees only the
// sections of their permissions, and none at all without them, while the tasks stay.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { openDatabase, type DatabaseHandle } from '#db/client';
import { users } from '#db/schema';
import { checkInvariants } from '#modules/wallet';
import { drawLots, foldDrawRollups } from '#modules/draw';
import { foldMemberRollups } from '#modules/identity';
import { foldSalesRollups, refreshUnusedPaidSnapshot } from '#modules/payments';
import { createMemberWithCoins, createPublishedPack, HIDDEN_TEST_GENRE, TEST_RULES } from '#tests/fixtures';
import { cookieFrom, get, postForm, shopUrl, signUpByForm, uniqueEmail } from '#tests/http';
import { grantStaff } from '#tests/staff';
import { testShop } from '#tests/test-shop';

const databaseUrl = testShop().databaseUrl;
let handle: DatabaseHandle | undefined;

beforeAll(async () => {
  if (databaseUrl) handle = await openDatabase({ databaseUrl, dataDir: testShop().dataDir, poolSize: 2 });
});
afterAll(async () => {
  if (handle) expect(await checkInvariants(handle.db)).toEqual([]);
  await handle?.close();
});

async function member(label: string) {
  const email = uniqueEmail(label);
  const page = await signUpByForm({ name: label, email, password: 'dashboard-pass-1', agreeToTerms: 'on' });
  const cookie = cookieFrom(page.headers);
  const [row] = await handle!.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  expect(
    row,
    `${page.status} ${page.body
      .replace(/<[^>]+>/g, ' ')
      .replace(/\s+/g, ' ')
      .slice(0, 600)}`,
  ).toBeDefined();
  return { id: row!.id, email, cookie, bearer: /session_token=([^;]+)/.exec(cookie)![1]! };
}

/** A member (staff role with these permissions, or the admin role when none are given), signed in. */
async function staffWith(label: string, permissions?: string[]) {
  const who = await member(label);
  await grantStaff(handle!.db, who.email, permissions);
  return who.cookie;
}

/** A sandbox purchase of 1,000 coins through the shop's API, as a member would make it. */
async function buyCoins(label: string) {
  const buyer = await member(label);
  const call = async (path: string, body?: unknown) => {
    const response = await fetch(`${shopUrl()}/api/v1${path}`, {
      method: body === undefined ? 'GET' : path === '/me/age-declaration' ? 'PUT' : 'POST',
      headers: {
        authorization: `Bearer ${buyer.bearer}`,
        'content-type': 'application/json',
        'idempotency-key': randomUUID(),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return (await response.json()) as Record<string, any>;
  };
  await call('/me/age-declaration', { minor: false });
  const started = await call('/me/purchases', { packId: 'coin-1000', method: 'sandbox' });
  const paid = await postForm(new URL(started.redirectUrl).pathname, { decision: 'approve' }, { cookie: buyer.cookie });
  expect(paid.status).toBe(303);
  // Reading the purchase settles it with the provider, as the return page does.
  expect((await call(`/purchases/${started.purchase.id}`)).purchase.status).toBe('paid');
}

const yen = new Intl.NumberFormat('ja-JP');

describe.skipIf(!databaseUrl)(
  `the dashboard on /admin${databaseUrl ? '' : ' (skipped: needs PostgreSQL beside the shop)'}`,
  () => {
    it('shows an admin the folded figures, and each staff member only the sections they may read', async () => {
      const db = handle!.db;
      // A pack sold out in two draws, a purchase, then one run of the rollup job's folds.
      const gachaId = await createPublishedPack(db, {
        lots: 20,
        price: 10,
        drawOptions: [10],
        genreId: HIDDEN_TEST_GENRE,
      });
      const drawer = await createMemberWithCoins(db, { paid: 200 });
      for (let i = 0; i < 2; i++) {
        const drawn = await drawLots(db, {
          decisionDays: TEST_RULES.prizeDecisionDays,
          memberId: drawer,
          gachaId,
          count: 10,
          idempotencyKey: randomUUID(),
        });
        expect(drawn.ok).toBe(true);
      }
      await buyCoins('dashboard-buyer');
      const settled = { settleSeconds: 0 };
      await foldDrawRollups(db, { ...settled, batchRows: 1_000_000 });
      await foldSalesRollups(db, settled);
      await foldMemberRollups(db, settled);
      const snapshot = await refreshUnusedPaidSnapshot(db, new Date());

      const admin = await get('/admin', { cookie: await staffWith('dashboard-owner') });
      expect(admin.status).toBe(200);
      expect(admin.body).toContain('ダッシュボード');
      expect(admin.body).toContain('売上（決済方法別・30日）');
      expect(admin.body).toContain('テスト決済（サンドボックス）');
      expect(admin.body).toContain('ガチャ回数（日別）');
      expect(admin.body).toContain('新規会員（日別）');
      // Sell-through: this pack sold all 20 of its 20 lots.
      expect(admin.body).toContain(`テストパック ${gachaId}`);
      expect(admin.body).toContain('20 / 20口');
      expect(admin.body).toContain(`${yen.format(snapshot.unusedPaidCoins)}円`);
      expect(admin.body).toContain('基準額 10,000,000円');
      expect(admin.body).toContain('発送期限を過ぎた依頼');
      expect(admin.body).toContain('会員'); // the tasks are still there

      // Shipping only: the desk's counts, no money and no activity charts.
      const shipper = await get('/admin', { cookie: await staffWith('dashboard-shipper', ['shipping:read']) });
      expect(shipper.status).toBe(200);
      expect(shipper.body).toContain('未発送の発送依頼');
      expect(shipper.body).not.toContain('売上（日別');
      expect(shipper.body).not.toContain('ガチャ回数（日別）');
      expect(shipper.body).not.toContain('未使用の有償コイン残高');

      // Activity only (reports:read): draws, members and packs, no money.
      const analyst = await get('/admin', { cookie: await staffWith('dashboard-analyst', ['reports:read']) });
      expect(analyst.body).toContain('ガチャ回数（日別）');
      expect(analyst.body).toContain(`テストパック ${gachaId}`);
      expect(analyst.body).not.toContain('売上（日別');
      expect(analyst.body).not.toContain('発送期限を過ぎた依頼');

      // No dashboard permission at all: no dashboard, the home page and its tasks as before.
      const auditor = await get('/admin', { cookie: await staffWith('dashboard-auditor', ['audit:read']) });
      expect(auditor.status).toBe(200);
      expect(auditor.body).not.toContain('ダッシュボード');
      expect(auditor.body).not.toContain(`テストパック ${gachaId}`);
      expect(auditor.body).toContain('監査ログ');
    });
  },
);
