// Members ready to ship, made through the built shop as a member would: signed up by the form, coins
// granted by the operator command, ten prizes drawn over the API, an address saved by the form, and
// (when asked) a verified phone and a shipping request made through the confirmation page.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import type { Database } from '#db/client';
import { users } from '#db/schema';
import { runAdminCommand } from '../../scripts/shop-admin';
import { TEST_RULES } from './fixtures';
import { cookieFrom, get, postForm, shopUrl, signUpByForm, uniqueEmail } from './http';

/** A pack of the demo data at 100 coins a draw. */
export const SHIPPING_TEST_PACK = 'stellar-pokemon-003';

export interface ShippingMember {
  id: string;
  email: string;
  cookie: string;
  prizeIds: string[];
}

/** A member with ten prizes from a real 10連 and an address in the book (no verified phone yet). */
export async function memberWithPrizes(db: Database, label = 'ship-page'): Promise<ShippingMember> {
  const email = uniqueEmail(label);
  const page = await signUpByForm({ name: 'はっそう', email, password: 'password-1234', agreeToTerms: 'on' });
  const cookie = cookieFrom(page.headers);
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
  await runAdminCommand(
    db,
    ['coins:grant', '--member', email, '--amount', '1000', '--kind', 'paid', '--reason', 'テスト'],
    () => undefined,
    { lifetimes: TEST_RULES.coinLifetimes },
  );
  const drawn = await fetch(`${shopUrl()}/api/v1/gachas/${SHIPPING_TEST_PACK}/draws`, {
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

/** Marks the member's phone verified (a fresh allocated mobile number each time). */
export async function verifyPhoneOf(db: Database, memberId: string): Promise<void> {
  await db
    .update(users)
    .set({ phoneNumber: `+81905${Date.now().toString().slice(-7)}`, phoneNumberVerified: true })
    .where(eq(users.id, memberId));
}

/** The confirmation page of shipping all the member's prizes, and its form's fields. */
export async function shippingConfirmation(member: ShippingMember) {
  const query = `?step=confirm&${member.prizeIds.map((id) => `prize=${id}`).join('&')}`;
  const page = await get(`/mypage/shipping/new${query}`, { cookie: member.cookie });
  const field = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(page.body)?.[1] ?? '';
  return {
    page,
    query,
    form: {
      prizeIds: field('prizeIds'),
      addressId: field('addressId'),
      feeCoins: field('feeCoins'),
      idempotencyKey: field('idempotencyKey'),
    },
  };
}

/** A member with a shipping request of all ten prizes, made through the confirmation page; its id. */
export async function memberWithShippingRequest(
  db: Database,
  label = 'ship-desk',
): Promise<ShippingMember & { requestId: string }> {
  const member = await memberWithPrizes(db, label);
  await verifyPhoneOf(db, member.id);
  const { form } = await shippingConfirmation(member);
  const made = await postForm('/mypage/shipping/new', form, { cookie: member.cookie });
  expect(made.status, made.body.slice(0, 300)).toBe(302);
  const requestId = /\/mypage\/shipping\/([0-9a-f-]{36})/.exec(made.location ?? '')?.[1];
  expect(requestId).toBeDefined();
  return { ...member, requestId: requestId! };
}
