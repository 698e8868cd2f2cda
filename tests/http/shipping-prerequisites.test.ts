// 発送を申し込む's sheets as the built shop serves them, without JavaScript (decision 058): what is missing is
// listed first; the sheets open from the address; a refused address stays in its sheet with a Japanese
// message; a saved one comes back with the cards kept and the phone sheet open; a cross-site post is refused;
// 「保管中をすべて選ぶ」 works as a plain link. And the open-checkout routes answer 404/400, never 500, to what
// is not the member's or not readable.
import { randomUUID } from 'node:crypto';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { openDatabase, type DatabaseHandle } from '#db/client';
import { checkInvariants } from '#modules/wallet';
import { get, postForm, shopUrl } from '#tests/http';
import { memberWithPrizes as withPrizes } from '#tests/shipping-http';
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

/** The page's text as read: React's markers between adjacent text parts taken out. */
const textOf = (body: string) => body.replaceAll('<!-- -->', '');
/** Whether the card's checkbox is ticked in the served HTML. */
const ticked = (body: string, prizeId: string) =>
  new RegExp(`<input(?=[^>]*value="${prizeId}")(?=[^>]*checked)[^>]*>`).test(body);

const ADDRESS = {
  intent: 'save',
  name: '佐藤 花子',
  nameKana: 'さとう はなこ',
  postalCode: '100-0001',
  prefecture: '東京都',
  city: '千代田区',
  town: '千代田2-2',
  phone: '090-1111-2222',
};

describe.skipIf(!databaseUrl)(
  `shipping prerequisites${databaseUrl ? '' : ' (skipped: needs PostgreSQL beside the shop for coins)'}`,
  () => {
    it('lists what is missing, opens the sheets from the address and comes back with the cards kept', async () => {
      const member = await withPrizes(handle!.db, 'ship-ready');
      const [a, b] = member.prizeIds as [string, string];
      const page = await get('/mypage/shipping/new', { cookie: member.cookie });
      expect(page.status).toBe(200);
      expect(textOf(page.body)).toContain('発送の前に必要なこと（あと1つ）');
      expect(page.body).toContain('電話番号を認証する');

      // The phone sheet from its address, the address book's number offered, the cards carried.
      const sheet = await get(`/mypage/shipping/new?prize=${a}&prize=${b}&sheet=phone`, { cookie: member.cookie });
      expect(sheet.status).toBe(200);
      expect(sheet.body).toMatch(/role="dialog"[^>]*>[\s\S]*電話番号を認証/);
      expect(sheet.body).toContain('value="090-1234-5678"');
      expect(sheet.body).toContain(`name="keep" value="${a},${b}"`);

      // A refused address stays in its sheet, with the message in Japanese and the cards still carried.
      const refused = await postForm(
        '/mypage/shipping/new',
        { ...ADDRESS, postalCode: '12', keep: `${a},${b}` },
        { cookie: member.cookie },
      );
      expect(refused.status).toBe(400);
      expect(refused.body).toMatch(/role="dialog"[^>]*>[\s\S]*お届け先を登録/);
      expect(refused.body).toMatch(/郵便番号[^<]*7桁/);
      expect(refused.body).toContain(`name="keep" value="${a},${b}"`);

      // Saved: back to the page with the same cards, the new address, and the phone sheet next.
      const saved = await postForm(
        '/mypage/shipping/new',
        { ...ADDRESS, keep: `${a},${b}` },
        { cookie: member.cookie },
      );
      expect(saved.status).toBe(302);
      const back = new URL(saved.location!, shopUrl());
      expect(back.pathname).toBe('/mypage/shipping/new');
      expect(back.searchParams.getAll('prize')).toEqual([a, b]);
      expect(back.searchParams.get('sheet')).toBe('phone');
      expect(back.searchParams.get('address')).toMatch(/^[0-9a-f-]{36}$/);
      const shown = await get(saved.location!, { cookie: member.cookie });
      expect(shown.body).toContain('お届け先を登録しました。');
      expect(ticked(shown.body, a)).toBe(true);

      // The SMS step refuses a number that is not a mobile, in Japanese; a cross-site post never reaches it.
      const badNumber = await postForm(
        '/mypage/shipping/new',
        { intent: 'phone-send', phoneNumber: '12', keep: a },
        { cookie: member.cookie },
      );
      expect(badNumber.status).toBe(400);
      expect(badNumber.body).toMatch(/role="dialog"[^>]*>[\s\S]*電話番号を認証/);
      const forged = await postForm(
        '/mypage/shipping/new',
        { intent: 'phone-send', phoneNumber: '090-1234-5678', keep: a },
        { cookie: member.cookie, origin: 'https://evil.example' },
      );
      expect(forged.status).toBe(403);
    });

    it('「保管中をすべて選ぶ」 without JavaScript chooses every kept card', async () => {
      const member = await withPrizes(handle!.db, 'ship-kept');
      const kept = member.prizeIds.slice(0, 3);
      const keep = await fetch(`${shopUrl()}/api/v1/me/prizes/keeps`, {
        method: 'POST',
        headers: {
          cookie: member.cookie,
          origin: shopUrl(),
          'content-type': 'application/json',
          'idempotency-key': randomUUID(),
        },
        body: JSON.stringify({ prizeIds: kept }),
      });
      expect(keep.status).toBe(200);
      const page = await get('/mypage/shipping/new', { cookie: member.cookie });
      expect(textOf(page.body)).toContain('保管中をすべて選ぶ（3枚）');
      const picked = await get('/mypage/shipping/new?pick=kept&step=confirm', { cookie: member.cookie });
      expect(picked.status).toBe(200);
      for (const id of kept) expect(ticked(picked.body, id)).toBe(true);
      expect(ticked(picked.body, member.prizeIds[5]!)).toBe(false);
    });

    it('open-checkout routes: another or unknown order 404, an unreadable form 400, a visitor to sign-in', async () => {
      const member = await withPrizes(handle!.db, 'open-checkout-http');
      const unknown = randomUUID();
      expect((await get(`/shop/orders/${unknown}/resume`, { cookie: member.cookie })).status).toBe(404);
      expect((await get(`/shop/orders/not-a-uuid/resume`, { cookie: member.cookie })).status).toBe(404);
      expect((await get(`/shop/orders/${unknown}/cancel`, { cookie: member.cookie })).status).toBe(404);
      const cancel = await postForm(
        `/shop/orders/${unknown}/cancel`,
        { intent: 'cancel', back: '/shop' },
        { cookie: member.cookie },
      );
      expect(cancel.status).toBe(404);
      const unreadable = await postForm(`/shop/orders/${unknown}/cancel`, { intent: 'x' }, { cookie: member.cookie });
      expect(unreadable.status).toBe(400);
      const visitor = await get(`/shop/orders/${unknown}/cancel`);
      expect(visitor.status).toBe(302);
      expect(visitor.location).toContain('/auth/sign_in');
    });
  },
);
