// Joining a waiting room as the page and the API do (decision 087), with the shop's captcha as at sign-up
// (the Turnstile stand-in, decision 014) and a verified phone: no token or a bad one is refused, an
// unverified phone is refused, a verified one gets a place, a second member with the same number does not;
// a completed draw in the member's window ends it at the cap (server/draw.ts).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { useTestDatabase } from '#tests/use-test-database';
import { createMemberWithCoins, createPublishedPack } from '#tests/fixtures';
import { startTurnstileStandin, type TurnstileStandin } from '#devtools/standins/turnstile';
import { loadConfig } from '#server/config';
import { createLogger } from '#server/logger';
import { users } from '#db/schema';
import type { ShopServices } from './services';
import { joinWaitingRoomAsMember, leaveWaitingRoomAsMember, memberWaitingRoom } from './waiting-room';
import { drawForMember } from './draw';

const SECRET_KEY = 'standin-secret-key';
const handle = useTestDatabase('waiting_room_join', { poolSize: 2, invariants: 'afterEach' });
let turnstile: TurnstileStandin;
let services: ShopServices;

beforeAll(async () => {
  turnstile = await startTurnstileStandin({ secretKey: SECRET_KEY });
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: handle.dataDir,
    PUBLIC_ORIGIN: 'http://shop.test',
    AUTH_SECRET: 'waiting-room-secret-waiting-room-secret-01',
    LOG_LEVEL: 'silent',
    // The stand-in's siteverify is honoured only in the sandbox.
    PAYMENT_SANDBOX: 'true',
    TURNSTILE_SITE_KEY: 'standin-site-key',
    TURNSTILE_SECRET_KEY: SECRET_KEY,
    TURNSTILE_VERIFY_URL: turnstile.verifyUrl,
  });
  services = { config, db: handle.db, database: handle, logger: createLogger('silent') } as unknown as ShopServices;
});
afterAll(async () => {
  await turnstile?.close();
});

let numbers = 0;
async function memberWithPhone(verified: boolean, phone = `+8180${String(20_000_000 + ++numbers)}`) {
  const id = await createMemberWithCoins(handle.db, { paid: 1_000 });
  await handle.db.update(users).set({ phoneNumber: phone, phoneNumberVerified: verified }).where(eq(users.id, id));
  return id;
}

describe('joining a waiting room', () => {
  it('needs the captcha, then a verified phone, and gives one place per phone', async () => {
    const gachaId = await createPublishedPack(handle.db, {
      lots: 20,
      price: 10,
      drawOptions: [1, 2],
      perMemberLimit: 2,
      waitingRoom: { batch: 1, windowSeconds: 60 },
    });
    const alice = await memberWithPhone(true, '+818011112222');
    const join = (memberId: string, captchaToken: string | null) =>
      joinWaitingRoomAsMember(services, { memberId, gachaId, captchaToken, address: '203.0.113.7' });
    expect(await join(alice, null)).toMatchObject({ ok: false, code: 'WAITING_ROOM_CAPTCHA_FAILED' });
    expect(await join(alice, 'not-a-token')).toMatchObject({ ok: false, code: 'WAITING_ROOM_CAPTCHA_FAILED' });
    const unverified = await memberWithPhone(false);
    expect(await join(unverified, turnstile.passToken())).toMatchObject({
      ok: false,
      code: 'WAITING_ROOM_PHONE_REQUIRED',
    });
    // No sale start: the order is drawn by the first read after publication, and the first place admitted.
    expect(await join(alice, turnstile.passToken())).toMatchObject({ state: 'admitted', place: 1, lotsLeft: 2 });
    // A second account cannot hold the same number while it is verified (identity's unique index), so the
    // number moved: alice's old number verified on another account takes no second place.
    await handle.db.update(users).set({ phoneNumber: '+818099990000' }).where(eq(users.id, alice));
    const bob = await memberWithPhone(true, '+818011112222');
    expect(await join(bob, turnstile.passToken())).toMatchObject({ ok: false, code: 'WAITING_ROOM_PHONE_TAKEN' });
  });

  it('ends the window when a draw reaches the cap and lets the next member in', async () => {
    const gachaId = await createPublishedPack(handle.db, {
      lots: 20,
      price: 10,
      drawOptions: [1, 2],
      perMemberLimit: 2,
      waitingRoom: { batch: 1, windowSeconds: 600 },
    });
    const first = await memberWithPhone(true);
    const second = await memberWithPhone(true);
    for (const memberId of [first, second])
      await joinWaitingRoomAsMember(services, { memberId, gachaId, captchaToken: turnstile.passToken() });
    const order = await Promise.all(
      [first, second].map((memberId) => memberWaitingRoom(services, { memberId, gachaId })),
    );
    const admitted = order[0]!.state === 'admitted' ? first : second;
    const waiting = admitted === first ? second : first;
    expect((await memberWaitingRoom(services, { memberId: waiting, gachaId })).state).toBe('waiting');
    const drawn = await drawForMember(
      services,
      { memberId: admitted },
      { gachaId, count: 2, idempotencyKey: `test:${randomUUID()}` },
    );
    expect(drawn.ok).toBe(true);
    expect((await memberWaitingRoom(services, { memberId: admitted, gachaId })).state).toBe('done');
    expect(await memberWaitingRoom(services, { memberId: waiting, gachaId })).toMatchObject({
      state: 'admitted',
      lotsLeft: 2,
    });
    expect(await leaveWaitingRoomAsMember(services, { memberId: waiting, gachaId })).toBe(true);
    expect((await memberWaitingRoom(services, { memberId: waiting, gachaId })).state).toBe('left');
  });
});
