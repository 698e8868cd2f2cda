// Prizes on their way to a member against a real database: reserved for shipping all or none, back in
// the box with a new storage period, converted after a return, the storage reminders once each, and
// the deadline job converting a kept prize only at the end of its storage.
import { describe, it, expect } from 'vitest';
import { randomUUID } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { useTestDatabase } from '#tests/use-test-database';
import { createMemberWithCoins, createPublishedPack, TEST_RULES } from '#tests/fixtures';
import { prizes } from '#db/schema';
import { getBalance, listLedgerEntries } from '#modules/wallet';
import {
  autoConvertDuePrizes,
  convertPrizes,
  convertPrizesFromShipping,
  drawLots,
  keepPrizes,
  listPrizes,
  remindKeptPrizes,
  reservePrizesForShipping,
  returnPrizesFromShipping,
  shippingPrizeCards,
  type AutoConversion,
  type KeptPrizeReminder,
} from './index';

const handle = useTestDatabase('prize-storage', { poolSize: 2, invariants: 'afterEach' });
const DAY = 86_400_000;
const storageDays = TEST_RULES.keptPrizeStorageDays;

/** A member with `count` fresh prizes (1–4), drawn now. */
async function memberWithPrizes(count: number) {
  const db = handle.db;
  const gachaId = await createPublishedPack(db, { lots: 30, price: 100, drawOptions: [1, 2, 3, 4] });
  const memberId = await createMemberWithCoins(db, { paid: 100 * count });
  const drawn = await drawLots(db, {
    decisionDays: TEST_RULES.prizeDecisionDays,
    memberId,
    gachaId,
    count,
    idempotencyKey: randomUUID(),
  });
  if (!drawn.ok) throw new Error(drawn.code);
  return { memberId, ids: drawn.result.items.map((i) => i.prizeId) };
}

async function statusOf(ids: string[]) {
  const rows = await handle.db
    .select({ id: prizes.id, status: prizes.status, keepUntil: prizes.keepUntil })
    .from(prizes)
    .where(inArray(prizes.id, ids));
  return new Map(rows.map((r) => [r.id, r]));
}

describe('reserving prizes for shipping', () => {
  it('takes pending and kept prizes, all or none, and refuses another member’s or a decided one', async () => {
    const db = handle.db;
    const { memberId, ids } = await memberWithPrizes(4);
    const other = await memberWithPrizes(1);
    await keepPrizes(db, memberId, [ids[1]!], { storageDays });
    await convertPrizes(db, memberId, [ids[2]!], { freeCoinDays: TEST_RULES.freeCoinDays });

    expect(
      await db.transaction((tx) => reservePrizesForShipping(tx, memberId, [ids[0]!, other.ids[0]!])),
    ).toMatchObject({ ok: false, code: 'PRIZE_NOT_FOUND' });
    expect(await db.transaction((tx) => reservePrizesForShipping(tx, memberId, [ids[0]!, ids[2]!]))).toMatchObject({
      ok: false,
      code: 'PRIZE_ALREADY_DECIDED',
      details: { prizeIds: [ids[2]] },
    });
    expect(await db.transaction((tx) => reservePrizesForShipping(tx, memberId, ['not-a-uuid']))).toMatchObject({
      ok: false,
      code: 'PRIZE_NOT_FOUND',
    });
    expect([...(await statusOf([ids[0]!, ids[1]!])).values()].map((p) => p.status).sort()).toEqual(['kept', 'pending']);

    const reserved = await db.transaction((tx) => reservePrizesForShipping(tx, memberId, [ids[0]!, ids[1]!]));
    expect(reserved).toMatchObject({ ok: true });
    if (reserved.ok)
      expect(Object.fromEntries(reserved.prizes.map((p) => [p.prizeId, p.previousStatus]))).toEqual({
        [ids[0]!]: 'pending',
        [ids[1]!]: 'kept',
      });
    // Shipping prizes are decided: no conversion, no second reservation, no deadline.
    expect(
      await convertPrizes(db, memberId, [ids[0]!], { freeCoinDays: TEST_RULES.freeCoinDays, includeKept: true }),
    ).toMatchObject({ ok: false, code: 'PRIZE_ALREADY_DECIDED' });
    expect(await db.transaction((tx) => reservePrizesForShipping(tx, memberId, [ids[1]!]))).toMatchObject({
      ok: false,
      code: 'PRIZE_ALREADY_DECIDED',
    });
    expect(await autoConvertDuePrizes(db, TEST_RULES.freeCoinDays, new Date(Date.now() + 400 * DAY))).toBeGreaterThan(
      0,
    );
    expect((await statusOf([ids[0]!, ids[1]!])).get(ids[0]!)!.status).toBe('shipping');
    expect((await statusOf([ids[0]!, ids[1]!])).get(ids[1]!)!.status).toBe('shipping');

    const cards = await shippingPrizeCards(db, [ids[0]!]);
    expect(cards.get(ids[0]!)).toMatchObject({ memberId, status: 'shipping', cardName: expect.any(String) });
    // A reserved prize belongs to a shipping request (the shop-wide check says so): none was made here.
    await db.transaction((tx) => returnPrizesFromShipping(tx, memberId, [ids[0]!, ids[1]!], { storageDays }));
  });

  it('puts prizes back as kept with a new storage period, and converts returned ones with a ledger entry', async () => {
    const db = handle.db;
    const { memberId, ids } = await memberWithPrizes(3);
    await db.transaction((tx) => reservePrizesForShipping(tx, memberId, ids));
    const now = new Date(Date.now() + 3 * DAY);
    const back = await db.transaction((tx) => returnPrizesFromShipping(tx, memberId, [ids[0]!], { storageDays, now }));
    expect(back).toEqual({ returned: 1, keepUntil: new Date(now.getTime() + storageDays * DAY) });
    const box = await listPrizes(db, memberId, { status: ['kept'] });
    expect(box.items.map((p) => [p.prizeId, p.keepUntil])).toEqual([
      [ids[0], new Date(now.getTime() + storageDays * DAY).toISOString()],
    ]);
    // Only prizes in a shipping request can come back.
    await expect(
      db.transaction((tx) => returnPrizesFromShipping(tx, memberId, [ids[0]!], { storageDays, now })),
    ).rejects.toThrow(/not all in a shipping request/);

    const before = await getBalance(db, memberId);
    const converted = await db.transaction((tx) =>
      convertPrizesFromShipping(tx, memberId, [ids[1]!, ids[2]!], { freeCoinDays: TEST_RULES.freeCoinDays, now }),
    );
    expect(converted.converted.map((c) => c.prizeId).sort()).toEqual([ids[1], ids[2]].sort());
    expect((await getBalance(db, memberId, now)).free - before.free).toBe(converted.total);
    const entries = await listLedgerEntries(db, memberId);
    expect(entries.items.filter((e) => e.reason === 'prize_conversion').map((e) => e.ref)).toEqual(
      expect.arrayContaining([ids[1], ids[2]]),
    );
  });
});

describe('the storage period of kept prizes', () => {
  it('starts when a prize is first kept; keeping it again does not extend it', async () => {
    const db = handle.db;
    const { memberId, ids } = await memberWithPrizes(1);
    const start = new Date();
    await keepPrizes(db, memberId, ids, { storageDays, now: start });
    await keepPrizes(db, memberId, ids, { storageDays, now: new Date(start.getTime() + 10 * DAY) });
    expect((await statusOf(ids)).get(ids[0]!)!.keepUntil).toEqual(new Date(start.getTime() + storageDays * DAY));
  });

  it('reminds 7 days and 1 day before the end, once each, and only the nearer one when both are due', async () => {
    const db = handle.db;
    const { memberId, ids } = await memberWithPrizes(2);
    const start = new Date();
    await keepPrizes(db, memberId, [ids[0]!], { storageDays, now: start });
    const end = start.getTime() + storageDays * DAY;
    const seen: KeptPrizeReminder[] = [];
    const run = (at: number) =>
      remindKeptPrizes(db, { storageDays, now: new Date(at) }, async (_tx, reminder) => {
        if (reminder.memberId === memberId) seen.push(reminder);
      });

    await run(end - 8 * DAY);
    expect(seen).toEqual([]);
    await run(end - 7 * DAY);
    await run(end - 6 * DAY);
    expect(seen.map((r) => [r.daysBefore, r.prizes.map((p) => p.prizeId)])).toEqual([[7, [ids[0]]]]);
    expect(seen[0]!.prizes[0]!.keepUntil).toEqual(new Date(end));
    await run(end - DAY + 1);
    await run(end - 1);
    expect(seen.map((r) => r.daysBefore)).toEqual([7, 1]);
    // Past the end: no reminder, the deadline job converts it.
    await run(end + 1);
    expect(seen).toHaveLength(2);

    // A prize kept when only a day is left gets the 1-day reminder only.
    const second = await memberWithPrizes(1);
    await keepPrizes(db, second.memberId, second.ids, { storageDays, now: start });
    const seenSecond: number[] = [];
    await remindKeptPrizes(db, { storageDays, now: new Date(end - DAY / 2) }, async (_tx, reminder) => {
      if (reminder.memberId === second.memberId) seenSecond.push(reminder.daysBefore);
    });
    await remindKeptPrizes(db, { storageDays, now: new Date(end - DAY / 4) }, async (_tx, reminder) => {
      if (reminder.memberId === second.memberId) seenSecond.push(reminder.daysBefore);
    });
    expect(seenSecond).toEqual([1]);
  });

  it('gives a kept prize from before the storage period a period from now, and forgets a reminder that rolled back', async () => {
    const db = handle.db;
    const { memberId, ids } = await memberWithPrizes(1);
    await keepPrizes(db, memberId, ids, { storageDays });
    await db.update(prizes).set({ keepUntil: null }).where(eq(prizes.id, ids[0]!));
    const now = new Date(Date.now() + DAY);
    await remindKeptPrizes(db, { storageDays, now }, async () => {});
    expect((await statusOf(ids)).get(ids[0]!)!.keepUntil).toEqual(new Date(now.getTime() + storageDays * DAY));

    // A notice that fails rolls its reminder back: the next run sends it.
    const at = new Date(now.getTime() + (storageDays - 3) * DAY);
    await expect(
      remindKeptPrizes(db, { storageDays, now: at }, async (_tx, reminder) => {
        if (reminder.memberId === memberId) throw new Error('mail down');
      }),
    ).rejects.toThrow('mail down');
    const retried: number[] = [];
    await remindKeptPrizes(db, { storageDays, now: at }, async (_tx, reminder) => {
      if (reminder.memberId === memberId) retried.push(reminder.daysBefore);
    });
    expect(retried).toEqual([7]);
  });

  it('converts a kept prize when its storage ends (never before), telling the hook which were kept', async () => {
    const db = handle.db;
    const { memberId, ids } = await memberWithPrizes(3);
    const start = new Date();
    await keepPrizes(db, memberId, [ids[0]!], { storageDays, now: start });
    const end = start.getTime() + storageDays * DAY;
    const conversions: AutoConversion[] = [];
    const hook = async (_tx: unknown, conversion: AutoConversion) => {
      if (conversion.memberId === memberId) conversions.push(conversion);
    };
    // The undecided ones go at their deadline; the kept one stays.
    await autoConvertDuePrizes(db, TEST_RULES.freeCoinDays, new Date(end - 1), 200, hook);
    expect((await statusOf(ids)).get(ids[0]!)!.status).toBe('kept');
    expect(conversions.flatMap((c) => c.converted.map((p) => [p.prizeId, p.wasKept])).sort()).toEqual(
      [
        [ids[1], false],
        [ids[2], false],
      ].sort(),
    );
    await autoConvertDuePrizes(db, TEST_RULES.freeCoinDays, new Date(end), 200, hook);
    expect((await statusOf(ids)).get(ids[0]!)!.status).toBe('converted');
    expect(conversions.at(-1)!.converted).toEqual([{ prizeId: ids[0], coins: expect.any(Number), wasKept: true }]);
    const entries = await listLedgerEntries(db, memberId);
    expect(entries.items.find((e) => e.ref === ids[0])).toMatchObject({ reason: 'prize_auto_conversion' });
  });

  it('rolls a conversion back with its hook: nothing converted without its notice', async () => {
    const db = handle.db;
    const { memberId, ids } = await memberWithPrizes(1);
    const start = new Date();
    await keepPrizes(db, memberId, ids, { storageDays, now: start });
    const end = new Date(start.getTime() + storageDays * DAY);
    await expect(
      autoConvertDuePrizes(db, TEST_RULES.freeCoinDays, end, 200, async (_tx, conversion) => {
        if (conversion.memberId === memberId) throw new Error('mail down');
      }),
    ).rejects.toThrow('mail down');
    expect((await statusOf(ids)).get(ids[0]!)!.status).toBe('kept');
    expect(await autoConvertDuePrizes(db, TEST_RULES.freeCoinDays, end)).toBeGreaterThanOrEqual(1);
    expect((await statusOf(ids)).get(ids[0]!)!.status).toBe('converted');
  });
});
