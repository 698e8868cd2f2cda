// The member's shipping pages as the built shop serves them: the choice (cards and address), the
// confirmation with the fee and the 発送予定日, one request per confirmation key (a double submit makes
// one), the request's page with its timeline, another member's request 404, the cancel, and the
// verified phone asked for with a way to put it right.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { openDatabase, type DatabaseHandle } from '#db/client';
import { checkInvariants } from '#modules/wallet';
import { get, postForm } from '#tests/http';
import { memberWithPrizes as withPrizes, shippingConfirmation, verifyPhoneOf } from '#tests/shipping-http';
import { testShop } from '#tests/test-shop';

const databaseUrl = testShop().databaseUrl;
let handle: DatabaseHandle | undefined;
const memberWithPrizes = () => withPrizes(handle!.db);

beforeAll(async () => {
  if (databaseUrl) handle = await openDatabase({ databaseUrl, dataDir: testShop().dataDir, poolSize: 2 });
});
afterAll(async () => {
  if (handle) expect(await checkInvariants(handle.db)).toEqual([]);
  await handle?.close();
});

describe.skipIf(!databaseUrl)(
  `shipping pages${databaseUrl ? '' : ' (skipped: needs PostgreSQL beside the shop for coins and phones)'}`,
  () => {
    it('asks for a verified phone first, then confirms, requests once, shows the timeline and cancels', async () => {
      const member = await memberWithPrizes();
      const choose = await get('/mypage/shipping/new', { cookie: member.cookie });
      expect(choose.status).toBe(200);
      for (const id of member.prizeIds) expect(choose.body).toContain(id);
      const before = await shippingConfirmation(member);
      const noPhone = before.page;
      expect(noPhone.status).toBe(200);
      expect(noPhone.body).toContain('電話番号を認証する');
      expect(noPhone.body).not.toContain('発送を申し込む</button>');

      await verifyPhoneOf(handle!.db, member.id);
      const { page: confirm, form } = await shippingConfirmation(member);
      expect(confirm.status).toBe(200);
      expect(confirm.body).toContain('発送内容の確認');
      expect(confirm.body).toContain('発送予定日');
      expect(confirm.body).toContain('千代田区');
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
