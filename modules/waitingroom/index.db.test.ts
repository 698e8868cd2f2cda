// The waiting room on a real database (decision 087): one place per phone, the order drawn exactly once at
// the start (two starters racing, joins racing it), later arrivals behind, windows a batch at a time that
// expire or end at the cap, the draw refused outside the member's window and never past the cap under
// concurrent draws, and the queue read back by a second instance after a restart.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { queryRows, openDatabase } from '#db/client';
import { gachas } from '#db/schema';
import { useTestDatabase, skipUnlessPostgres } from '#tests/use-test-database';
import { createMemberWithCoins, createPublishedPack } from '#tests/fixtures';
import { drawLots } from '#modules/draw';
import {
  drawWaitingRoomOrder,
  joinWaitingRoom,
  leaveWaitingRoom,
  noteWaitingRoomDraw,
  phoneKeyOf,
  waitingRoomStatus,
} from '#modules/waitingroom';

/** The shop's AUTH_SECRET as these tests' keys take it. */
const SECRET = 'waiting-room-test-secret';
const handle = useTestDatabase('waiting-room', { poolSize: 12, invariants: 'afterEach' });

const START = new Date(Date.now() + 3_600_000);
const at = (seconds: number) => new Date(START.getTime() + seconds * 1000);
let phones = 0;
const nextPhone = () => `+8190${String(10_000_000 + ++phones)}`;

/** A pack with a room starting at START (sale_starts_at set after publication: on sale, not yet open). */
async function roomPack(options: { lots?: number; cap: number; batch: number; windowSeconds?: number }) {
  const gachaId = await createPublishedPack(handle.db, {
    lots: options.lots ?? 100,
    price: 10,
    drawOptions: [1, 2],
    perMemberLimit: options.cap,
    waitingRoom: { batch: options.batch, windowSeconds: options.windowSeconds ?? 60 },
  });
  await handle.db.update(gachas).set({ saleStartsAt: START }).where(eq(gachas.id, gachaId));
  return gachaId;
}

async function joinMembers(gachaId: string, count: number, when: Date) {
  const members: string[] = [];
  for (let i = 0; i < count; i++) {
    const memberId = await createMemberWithCoins(handle.db, { paid: 1_000 });
    const joined = await joinWaitingRoom(handle.db, {
      gachaId,
      memberId,
      phoneKey: phoneKeyOf(nextPhone(), SECRET),
      now: when,
    });
    expect(joined).toEqual({ ok: true, joined: true });
    members.push(memberId);
  }
  return members;
}

const draw = (gachaId: string, memberId: string, count: number, now: Date) =>
  drawLots(handle.db, { memberId, gachaId, count, idempotencyKey: randomUUID(), decisionDays: 14, now });

async function places(gachaId: string) {
  return queryRows<{ member_id: string; place: number | null; order_key: string | null }>(
    handle.db,
    sql`select member_id, place, order_key from waiting_room_entries where gacha_id = ${gachaId} order by place nulls last`,
  );
}

describe('joining', () => {
  it('gives one place per member and per verified phone, and none once the member left', async () => {
    const gachaId = await roomPack({ cap: 2, batch: 2 });
    const phone = nextPhone();
    const first = await createMemberWithCoins(handle.db, { paid: 100 });
    const second = await createMemberWithCoins(handle.db, { paid: 100 });
    const join = (memberId: string) =>
      joinWaitingRoom(handle.db, { gachaId, memberId, phoneKey: phoneKeyOf(phone, SECRET), now: at(-60) });
    expect(await join(first)).toEqual({ ok: true, joined: true });
    expect(await join(first)).toEqual({ ok: true, joined: false });
    expect(await join(second)).toMatchObject({ ok: false, code: 'WAITING_ROOM_PHONE_TAKEN' });
    const status = await waitingRoomStatus(handle.db, { gachaId, memberId: first, now: at(-30) });
    expect(status).toMatchObject({ state: 'registered', place: null, cap: 2 });
    expect(await leaveWaitingRoom(handle.db, { gachaId, memberId: first, now: at(-20) })).toBe(true);
    expect(await join(first)).toMatchObject({ ok: false, code: 'WAITING_ROOM_LEFT' });
  });

  it('refuses a pack without a room', async () => {
    const gachaId = await createPublishedPack(handle.db, { lots: 10, price: 10 });
    const memberId = await createMemberWithCoins(handle.db, { paid: 100 });
    expect(
      await joinWaitingRoom(handle.db, { gachaId, memberId, phoneKey: phoneKeyOf(nextPhone(), SECRET) }),
    ).toMatchObject({
      ok: false,
      code: 'WAITING_ROOM_NOT_FOUND',
    });
    expect((await waitingRoomStatus(handle.db, { gachaId, memberId })).state).toBe('none');
  });
});

describe('the order', () => {
  it('is drawn exactly once at the start, even by two starters racing, over every member who joined', async (ctx) => {
    skipUnlessPostgres(ctx, handle, 'starters racing on several connections');
    const gachaId = await roomPack({ cap: 1, batch: 5 });
    const early = await joinMembers(gachaId, 40, at(-10));
    expect(await drawWaitingRoomOrder(handle.db, gachaId, at(-1))).toBe(-1);
    // Joins and eight starters at once: every join lands either in the order or behind it, none is lost.
    const racing = await Promise.all(Array.from({ length: 12 }, () => createMemberWithCoins(handle.db, { paid: 10 })));
    const results = await Promise.all([
      ...Array.from({ length: 8 }, () => drawWaitingRoomOrder(handle.db, gachaId, at(0))),
      ...racing.map((memberId) =>
        joinWaitingRoom(handle.db, { gachaId, memberId, phoneKey: phoneKeyOf(nextPhone(), SECRET) }),
      ),
    ]);
    const placed = results.slice(0, 8) as number[];
    expect(placed.filter((n) => n >= 40)).toHaveLength(1);
    const orderedCount = placed.find((n) => n >= 40)!;
    const rows = await places(gachaId);
    const drawn = rows.filter((r) => r.place !== null);
    expect(drawn.map((r) => r.place)).toEqual(Array.from({ length: orderedCount }, (_, i) => i + 1));
    expect(rows).toHaveLength(52);
    for (const memberId of early) expect(drawn.some((r) => r.member_id === memberId)).toBe(true);
    // The order is the random keys' order, not the order of arrival.
    expect(drawn.map((r) => r.order_key)).toEqual(drawn.map((r) => r.order_key).sort());
    expect(drawn.slice(0, 40).map((r) => r.member_id)).not.toEqual(early);
    // Drawn once: a later call changes nothing.
    expect(await drawWaitingRoomOrder(handle.db, gachaId, at(5))).toBe(-1);
    expect(await places(gachaId)).toEqual(rows);
  });

  it('is drawn by the first status call after the start, and later arrivals queue behind in arrival order', async () => {
    const gachaId = await roomPack({ cap: 1, batch: 2 });
    const early = await joinMembers(gachaId, 3, at(-5));
    const before = await waitingRoomStatus(handle.db, { gachaId, memberId: early[0]!, now: at(-1) });
    expect(before.state).toBe('registered');
    // The first call after the start draws the order (and admits the first two places).
    const first = await waitingRoomStatus(handle.db, { gachaId, memberId: early[0]!, now: at(1) });
    expect(first.orderedCount).toBe(3);
    const lateA = (await joinMembers(gachaId, 1, at(2)))[0]!;
    const lateB = (await joinMembers(gachaId, 1, at(3)))[0]!;
    const third = (await places(gachaId)).find((r) => r.place === 3)!.member_id;
    const waiting = await waitingRoomStatus(handle.db, { gachaId, memberId: third, now: at(4) });
    expect(waiting).toMatchObject({ state: 'waiting', place: 3, ahead: 0 });
    expect(waiting.estimateSeconds).toBe(30);
    const lateStatus = await waitingRoomStatus(handle.db, { gachaId, memberId: lateB, now: at(4) });
    expect(lateStatus).toMatchObject({ state: 'waiting', place: null, ahead: 2 });
    // Every window expires (60 s): place 3 and the first later arrival come in, in that order.
    await waitingRoomStatus(handle.db, { gachaId, memberId: third, now: at(70) });
    const rows = await places(gachaId);
    expect(rows.find((r) => r.member_id === lateA)!.place).toBe(4);
    expect(rows.find((r) => r.member_id === lateB)!.place).toBeNull();
    expect((await waitingRoomStatus(handle.db, { gachaId, memberId: third, now: at(71) })).state).toBe('admitted');
  });
});

describe('the draw on a pack with a waiting room', () => {
  it('is refused outside the member’s window, ends the window at the cap and admits the next place', async () => {
    const gachaId = await roomPack({ cap: 2, batch: 1, windowSeconds: 60 });
    const members = await joinMembers(gachaId, 3, at(-5));
    const outsider = await createMemberWithCoins(handle.db, { paid: 100 });
    expect(await draw(gachaId, members[0]!, 1, at(-1))).toMatchObject({ ok: false, code: 'GACHA_NOT_ON_SALE' });
    expect(await draw(gachaId, outsider, 1, at(1))).toMatchObject({ ok: false, code: 'WAITING_ROOM_NOT_JOINED' });
    await waitingRoomStatus(handle.db, { gachaId, memberId: members[0]!, now: at(1) });
    const order = (await places(gachaId)).map((r) => r.member_id);
    const [first, second] = order as [string, string];
    expect(await draw(gachaId, second, 1, at(2))).toMatchObject({
      ok: false,
      code: 'WAITING_ROOM_NOT_YOUR_TURN',
      details: { place: 2 },
    });
    expect((await waitingRoomStatus(handle.db, { gachaId, memberId: first, now: at(2) })).state).toBe('admitted');
    expect((await draw(gachaId, first, 2, at(3))).ok).toBe(true);
    await noteWaitingRoomDraw(handle.db, { gachaId, memberId: first, count: 2, cap: 2, now: at(3) });
    expect(await draw(gachaId, first, 1, at(4))).toMatchObject({ ok: false, code: 'WAITING_ROOM_WINDOW_CLOSED' });
    // The window ended at the cap: the next place comes in at once, not when the 60 s are over.
    expect(await waitingRoomStatus(handle.db, { gachaId, memberId: second, now: at(5) })).toMatchObject({
      state: 'admitted',
      place: 2,
    });
    expect((await draw(gachaId, second, 1, at(6))).ok).toBe(true);
    // Its window expires unused beyond the first lot: refused after 60 s.
    expect(await draw(gachaId, second, 1, at(66))).toMatchObject({ ok: false, code: 'WAITING_ROOM_WINDOW_CLOSED' });
  });

  it('never lets a member past the cap, however many draws they send at once', async (ctx) => {
    skipUnlessPostgres(ctx, handle, 'concurrent draws on several connections');
    const gachaId = await roomPack({ cap: 3, batch: 4, lots: 200 });
    const members = await joinMembers(gachaId, 4, at(-5));
    await waitingRoomStatus(handle.db, { gachaId, memberId: members[0]!, now: at(1) });
    const outcomes = await Promise.all(
      members.flatMap((memberId) => Array.from({ length: 8 }, () => draw(gachaId, memberId, 1, at(2)))),
    );
    const done = await queryRows<{ member_id: string; lots: number }>(
      handle.db,
      sql`select member_id, sum(count)::int as lots from draws where gacha_id = ${gachaId} and status = 'completed' group by member_id`,
    );
    expect(done).toHaveLength(4);
    for (const row of done) expect(row.lots).toBe(3);
    expect(outcomes.filter((o) => !o.ok).every((o) => !o.ok && o.code === 'DRAW_LIMIT_REACHED')).toBe(true);
  });
});

describe('a restart', () => {
  it('loses nothing: another instance reads the same queue and carries on from it', async (ctx) => {
    skipUnlessPostgres(ctx, handle, 'a second instance on its own connections');
    const gachaId = await roomPack({ cap: 1, batch: 1 });
    const members = await joinMembers(gachaId, 3, at(-5));
    const seen = [];
    for (const memberId of members) seen.push(await waitingRoomStatus(handle.db, { gachaId, memberId, now: at(1) }));
    const other = await openDatabase({ databaseUrl: handle.databaseUrl, dataDir: handle.dataDir, poolSize: 1 });
    try {
      const again = await Promise.all(
        members.map((memberId) => waitingRoomStatus(other.db, { gachaId, memberId, now: at(1) })),
      );
      expect(again.map((s) => [s.state, s.place])).toEqual(seen.map((s) => [s.state, s.place]));
      const admitted = again.find((s) => s.state === 'admitted')!;
      expect(admitted.place).toBe(1);
      // The second instance moves the same queue on when the first window ends.
      const next = members[again.findIndex((s) => s.place === 2)]!;
      expect(await waitingRoomStatus(other.db, { gachaId, memberId: next, now: at(70) })).toMatchObject({
        state: 'admitted',
        place: 2,
      });
    } finally {
      await other.close();
    }
    expect(await drawWaitingRoomOrder(handle.db, gachaId, at(80))).toBe(-1);
  });
});

describe('a queue nobody joined before the start', () => {
  it('counts a later arrival’s places ahead from the order, not from every number the shop ever gave', async () => {
    const gachaId = await roomPack({ cap: 1, batch: 1 });
    const someone = await createMemberWithCoins(handle.db, { paid: 10 });
    expect((await waitingRoomStatus(handle.db, { gachaId, memberId: someone, now: at(1) })).state).toBe('not_joined');
    const [first, second] = await joinMembers(gachaId, 2, at(2));
    // The first is admitted by its own read; the second is next in line, with nobody ahead.
    expect((await waitingRoomStatus(handle.db, { gachaId, memberId: first!, now: at(3) })).state).toBe('admitted');
    expect(await waitingRoomStatus(handle.db, { gachaId, memberId: second!, now: at(3) })).toMatchObject({
      state: 'waiting',
      ahead: 0,
    });
  });
});
