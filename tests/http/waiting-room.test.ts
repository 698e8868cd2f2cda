// A hot release's waiting room over HTTP against the built shop (decision 087): the member's page (sign-in
// first, 「待機列 | site」, noindex), joining by the page's form and by the API (a verified phone needed, the refusal
// in Japanese), the draw refused in Japanese outside one's window and accepted inside it, and the pack page's link.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { eq } from 'drizzle-orm';
import { openDatabase, type DatabaseHandle } from '#db/client';
import { users } from '#db/schema';
import { createPublishedPack, TEST_RULES } from '#tests/fixtures';
import { get, memberApi, postForm, robotsMetaOf, signUpMember, titleOf, type SignedUpMember } from '#tests/http';
import { testShop } from '#tests/test-shop';
import { grantCoins } from '#modules/wallet';

const databaseUrl = testShop().databaseUrl;
let handle: DatabaseHandle | undefined;
let pack = '';
let plain = '';
let alice: SignedUpMember;
let bob: SignedUpMember;

async function idOf(member: SignedUpMember) {
  const [row] = await handle!.db.select({ id: users.id }).from(users).where(eq(users.email, member.email));
  return row!.id;
}

beforeAll(async () => {
  if (!databaseUrl) return;
  handle = await openDatabase({ databaseUrl, dataDir: testShop().dataDir, poolSize: 2 });
  pack = await createPublishedPack(handle.db, {
    id: `wr-http-${Date.now().toString(36)}`,
    lots: 30,
    price: 10,
    drawOptions: [1, 2],
    perMemberLimit: 2,
    waitingRoom: { batch: 1, windowSeconds: 600 },
  });
  plain = await createPublishedPack(handle.db, { lots: 10, price: 10 });
  [alice, bob] = await Promise.all([signUpMember('wr-alice'), signUpMember('wr-bob')]);
  const aliceId = await idOf(alice);
  await handle.db
    .update(users)
    .set({ phoneNumber: `+8190${String(Date.now()).slice(-8)}`, phoneNumberVerified: true })
    .where(eq(users.id, aliceId));
  await grantCoins(handle.db, {
    lifetimeDays: TEST_RULES.coinLifetimes,
    memberId: aliceId,
    kind: 'paid',
    amount: 100,
    reason: 'purchase',
    counterAccount: 'purchase',
    idempotencyKey: `test:wr-http:${aliceId}`,
  });
});
afterAll(async () => {
  await handle?.close();
});

const skipped = databaseUrl ? '' : ' (skipped: needs PostgreSQL to set the pack and the phone beside the shop)';

describe.skipIf(!databaseUrl)(`the waiting room over HTTP${skipped}`, () => {
  it('is a members’ page, noindex, titled 「待機列 | …」; a pack without one has no such page', async () => {
    const path = `/gacha/pokemon/${pack}/waiting`;
    const visitor = await get(path);
    expect(visitor.status).toBe(302);
    expect(visitor.location).toBe(`/auth/sign_in?redirect=${encodeURIComponent(path)}`);
    const page = await get(path, { cookie: alice.cookie });
    expect(page.status).toBe(200);
    expect(titleOf(page.body)).toMatch(/^待機列 \| /);
    expect(robotsMetaOf(page.body)).toBe('noindex, nofollow');
    expect(page.headers.get('x-robots-tag') ?? '').toMatch(/noindex/);
    expect(page.body).toContain('待機列に並ぶ');
    expect((await get(`/gacha/pokemon/${plain}/waiting`, { cookie: alice.cookie })).status).toBe(404);
    const packPage = await get(`/gacha/pokemon/${pack}`);
    expect(packPage.body).toContain(`/gacha/pokemon/${pack}/waiting`);
  });

  it('refuses a draw before joining and a join without a verified phone, in Japanese', async () => {
    const draw = await memberApi(`/gachas/${pack}/draws`, {
      member: bob,
      method: 'POST',
      key: 'wr-bob-1',
      json: { count: 1 },
    });
    expect(draw.status).toBe(403);
    expect(draw.body.error).toMatchObject({ code: 'WAITING_ROOM_NOT_JOINED' });
    expect(draw.body.error.message).toContain('待機列に並んでください');
    const join = await memberApi(`/gachas/${pack}/waiting-room`, { member: bob, method: 'POST', json: {} });
    expect(join.status).toBe(403);
    expect(join.body.error).toMatchObject({ code: 'WAITING_ROOM_PHONE_REQUIRED' });
    expect(join.body.error.message).toContain('電話番号の認証が必要です');
    // The page's form answers the same words.
    const form = await postForm(`/gacha/pokemon/${pack}/waiting`, { intent: 'join' }, { cookie: bob.cookie });
    expect(form.status).toBe(403);
    expect(form.body).toContain('電話番号の認証が必要です');
  });

  it('joins by the page’s form, shows the turn, and draws in the window up to the cap', async () => {
    const form = await postForm(`/gacha/pokemon/${pack}/waiting`, { intent: 'join' }, { cookie: alice.cookie });
    expect(form.status).toBe(200);
    // The order was drawn at the start (the publication): the first place's window is open.
    const room = await memberApi(`/gachas/${pack}/waiting-room`, { member: alice });
    expect(room.status).toBe(200);
    expect(room.body).toMatchObject({ state: 'admitted', place: 1, cap: 2, lotsLeft: 2 });
    const page = await get(`/gacha/pokemon/${pack}/waiting`, { cookie: alice.cookie });
    expect(page.body).toContain('あなたの順番です');
    const first = await memberApi(`/gachas/${pack}/draws`, {
      member: alice,
      method: 'POST',
      key: 'wr-a-1',
      json: { count: 2 },
    });
    expect(first.status).toBe(201);
    // At the cap the window ends: the next draw is refused, never a third lot.
    const again = await memberApi(`/gachas/${pack}/draws`, {
      member: alice,
      method: 'POST',
      key: 'wr-a-2',
      json: { count: 1 },
    });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({
      code: 'WAITING_ROOM_WINDOW_CLOSED',
      message: 'あなたの購入時間は終了しました。',
    });
    expect((await memberApi(`/gachas/${pack}/waiting-room`, { member: alice })).body.state).toBe('done');
  });
});
