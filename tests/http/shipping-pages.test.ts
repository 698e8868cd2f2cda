// The member's shipping pages as the built shop serves them: the choice (cards and address), the
// confirmation with the fee and the 発送予定日, one request per confirmation key (a double submit makes
// one), the request's page with its timeline, another member's request 404, the cancel, and the
// verified phone asked for with a way to put it right.
import { describe, it, expect, inject, beforeAll, afterAll } from 'vitest';
import { eq } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import { TEST_RULES } from '#tests/fixtures';
import { openDatabase, type DatabaseHandle } from '#db/client';
import { users } from '#db/schema';
import { checkInvariants } from '#modules/wallet';
import { runAdminCommand } from '../../scripts/shop-admin';
import { get, postForm, cookieFrom, uniqueEmail, signUpByForm, shopUrl } from '#tests/http';

const databaseUrl = inject('shopDatabaseUrl');
const PACK = 'stellar-pokemon-003'; // 100 coins a draw
let handle: DatabaseHandle | undefined;

beforeAll(async () => {
  if (databaseUrl) handle = await openDatabase({ databaseUrl, dataDir: inject('shopDataDir'), poolSize: 2 });
});
afterAll(async () => {
  if (handle) expect(await checkInvariants(handle.db)).toEqual([]);
  await handle?.close();
});

async function memberWithPrizes() {
  const email = uniqueEmail('ship-page');
  const page = await signUpByForm({ name: 'はっそう', email, password: 'password-1234', agreeToTerms: 'on' });
  const cookie = cookieFrom(page.headers);
  const [row] = await handle!.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  await runAdminCommand(
    handle!.db,
    ['coins:grant', '--member', email, '--amount', '1000', '--kind', 'paid', '--reason', 'テスト'],
    () => undefined,
    { lifetimes: TEST_RULES.coinLifetimes },
  );
  const drawn = await fetch(`${shopUrl()}/api/v1/gachas/${PACK}/draws`, {
    method: 'POST',
    headers: { cookie, origin: shopUrl(), 'content-type': 'application/json', 'idempotency-key': randomUUID() },
    body: JSON.stringify({ count: 10 }),
  });
  expect(drawn.status).toBe(201);
  const prizeIds = ((await drawn.json()) as { items: { id: string }[] }).items.map((i) => i.id);
  const added = await postForm(
    '/mypage/addresses',
    {
      intent: 'save',
      name: '山田 太郎',
      nameKana: 'やまだ たろう',
      postalCode: '１００－０００１',
      prefecture: '東京都',
      city: '千代田区',
      town: '千代田1-1',
      phone: '090-1234-5678',
    },
    { cookie },
  );
  expect(added.status, added.body.slice(0, 300)).toBeLessThan(400);
  return { id: row!.id, email, cookie, prizeIds };
}

describe.skipIf(!databaseUrl)(
  `shipping pages${databaseUrl ? '' : ' (skipped: needs PostgreSQL beside the shop for coins and phones)'}`,
  () => {
    it('asks for a verified phone first, then confirms, requests once, shows the timeline and cancels', async () => {
      const member = await memberWithPrizes();
      const choose = await get('/mypage/shipping/new', { cookie: member.cookie });
      expect(choose.status).toBe(200);
      for (const id of member.prizeIds) expect(choose.body).toContain(id);
      const query = `?step=confirm&${member.prizeIds.map((id) => `prize=${id}`).join('&')}`;

      const noPhone = await get(`/mypage/shipping/new${query}`, { cookie: member.cookie });
      expect(noPhone.status).toBe(200);
      expect(noPhone.body).toContain('電話番号を認証する');
      expect(noPhone.body).not.toContain('発送を申し込む</button>');

      await handle!.db
        .update(users)
        .set({ phoneNumber: `+81905${Date.now().toString().slice(-7)}`, phoneNumberVerified: true })
        .where(eq(users.id, member.id));
      const confirm = await get(`/mypage/shipping/new${query}`, { cookie: member.cookie });
      expect(confirm.status).toBe(200);
      expect(confirm.body).toContain('発送内容の確認');
      expect(confirm.body).toContain('発送予定日');
      expect(confirm.body).toContain('千代田区');
      const field = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(confirm.body)?.[1] ?? '';
      const form = {
        prizeIds: field('prizeIds'),
        addressId: field('addressId'),
        feeCoins: field('feeCoins'),
        idempotencyKey: field('idempotencyKey'),
      };
      expect(form.prizeIds.split(',')).toHaveLength(10);
      // A double tap: the same confirmation twice makes one request.
      const [first, second] = await Promise.all([
        postForm('/mypage/shipping/new', form, { cookie: member.cookie }),
        postForm('/mypage/shipping/new', form, { cookie: member.cookie }),
      ]);
      expect(first.status).toBe(302);
      expect(second.status).toBe(302);
      expect(second.location).toBe(first.location);
      const requestPath = first.location!.split('?')[0]!;
      expect(requestPath).toMatch(/^\/mypage\/shipping\/[0-9a-f-]{36}$/);

      const shown = await get(first.location!, { cookie: member.cookie });
      expect(shown.status).toBe(200);
      expect(shown.body).toContain('発送のお申し込みを受け付けました');
      expect(shown.body).toContain('受付済み');
      expect(shown.body).toContain('キャンセルする');
      const list = await get('/mypage/shipping', { cookie: member.cookie });
      expect(list.body).toContain(requestPath);

      // Another member never sees it, nor cancels it.
      const other = await memberWithPrizes();
      expect((await get(requestPath, { cookie: other.cookie })).status).toBe(404);
      expect((await postForm(requestPath, { intent: 'cancel' }, { cookie: other.cookie })).status).toBe(404);

      const canceled = await postForm(requestPath, { intent: 'cancel' }, { cookie: member.cookie });
      expect(canceled.status).toBe(302);
      const after = await get(canceled.location!, { cookie: member.cookie });
      expect(after.body).toContain('お申し込みをキャンセルしました');
      expect(after.body).not.toContain('お申し込みをキャンセルする</button>');
      // Cards back in the box as kept: the choice lists them again.
      const again = await get('/mypage/shipping/new', { cookie: member.cookie });
      for (const id of member.prizeIds) expect(again.body).toContain(id);
    });

    it('refuses bad input with a Japanese message, never a 500', async () => {
      const member = await memberWithPrizes();
      const junk = await postForm(
        '/mypage/shipping/new',
        { prizeIds: 'x', addressId: 'y', idempotencyKey: '' },
        {
          cookie: member.cookie,
        },
      );
      expect(junk.status).toBe(400);
      expect(junk.body).toMatch(/role="alert"[^>]*>[^<]*[ぁ-んァ-ン一-龥]/);
      expect((await get('/mypage/shipping/not-a-uuid', { cookie: member.cookie })).status).toBe(404);
      expect((await get('/mypage/shipping/new?step=confirm&prize=zzz', { cookie: member.cookie })).status).toBe(200);
    });
  },
);
