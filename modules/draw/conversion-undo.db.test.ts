// 元に戻す after a conversion (decision 057) against a real database: an exact reversal with new ledger
// entries (the conversion's entries stay), once under double taps and from two connections, only by
// the member, only within the window, never once the coins are spent; kept cards come back kept; a
// conversion after an undo credits again; the deadline job is not confused. Invariants after each.
import { describe, it, expect } from 'vitest';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { skipUnlessPostgres, useTestDatabase } from '#tests/use-test-database';
import { createMemberWithCoins, createPublishedPack, TEST_RULES } from '#tests/fixtures';
import { getBalance, listLedgerEntries } from '#modules/wallet';
import { queryRows, type Database } from '#db/client';
import { describeRefusal } from '#modules/refusals';
import {
  autoConvertDuePrizes,
  convertPrizes,
  drawLots,
  keepPrizes,
  listPrizes,
  undoConversion,
  type PrizeItem,
} from './index';

const handle = useTestDatabase('conversion_undo', { poolSize: 4, invariants: 'afterEach' });
const UNDO = 10;
const convert = (db: Database, member: string, ids: string[], extra: { includeKept?: boolean; now?: Date } = {}) =>
  convertPrizes(db, member, ids, { freeCoinDays: TEST_RULES.freeCoinDays, undoSeconds: UNDO, ...extra });

/** A member with every lot of a 10-lot pack (S×1, A×2, B×7), paid coins only. */
async function memberWithPrizes(db: Database, paid = 1000): Promise<{ member: string; items: PrizeItem[] }> {
  const gachaId = await createPublishedPack(db, { lots: 10, price: 100 });
  const member = await createMemberWithCoins(db, { paid });
  const outcome = await drawLots(db, {
    decisionDays: TEST_RULES.prizeDecisionDays,
    memberId: member,
    gachaId,
    count: 10,
    idempotencyKey: randomUUID(),
  });
  if (!outcome.ok) throw new Error(`draw failed: ${outcome.code}`);
  return { member, items: outcome.result.items };
}

async function statuses(db: Database, ids: string[]) {
  const rows = await queryRows<{ id: string; status: string }>(
    db,
    sql`select id, status from prizes where id = any(${`{${ids.join(',')}}`}::uuid[]) order by id`,
  );
  return new Set(rows.map((r) => r.status));
}

describe('undoConversion', () => {
  it('reverses a bulk conversion exactly, with new ledger entries, and leaves the conversion entries', async () => {
    const db = handle.db;
    const { member, items } = await memberWithPrizes(db);
    const lowest = items.filter((p) => p.tierLabel === 'B賞');
    const before = await getBalance(db, member);
    const converted = await convert(
      db,
      member,
      lowest.map((p) => p.prizeId),
    );
    if (!converted.ok || !converted.undo) throw new Error('conversion failed');
    const total = lowest.reduce((sum, p) => sum + p.conversionValue, 0);
    expect(converted.total).toBe(total);
    expect((await getBalance(db, member)).free).toBe(before.free + total);

    const undone = await undoConversion(db, member, converted.undo.conversionId);
    expect(undone).toMatchObject({ ok: true, restored: lowest.length, total, replay: false });
    expect(await getBalance(db, member)).toEqual(before);
    expect(
      await statuses(
        db,
        lowest.map((p) => p.prizeId),
      ),
    ).toEqual(new Set(['pending']));
    const entries = (await listLedgerEntries(db, member, { limit: 100 })).items;
    const credits = entries.filter((e) => e.reason === 'prize_conversion');
    const reversals = entries.filter((e) => e.reason === 'prize_conversion_undo');
    expect(credits).toHaveLength(lowest.length);
    expect(reversals).toHaveLength(lowest.length);
    expect(reversals.every((e) => e.amount < 0 && e.kind === 'free')).toBe(true);
    expect(reversals.reduce((sum, e) => sum + e.amount, 0)).toBe(-total);
    expect(reversals.map((e) => e.ref).sort()).toEqual(credits.map((e) => e.ref).sort());
    expect(reversals[0]!.reasonLabel).toBe('カード交換の取り消し');
  });

  it('undoes once when asked twice, and once when two connections ask at the same time', async (ctx) => {
    const db = handle.db;
    const { member, items } = await memberWithPrizes(db);
    const ids = items.filter((p) => p.tierLabel === 'B賞').map((p) => p.prizeId);
    const first = await convert(db, member, ids.slice(0, 3));
    if (!first.ok || !first.undo) throw new Error('conversion failed');
    const before = await getBalance(db, member);
    expect(await undoConversion(db, member, first.undo.conversionId)).toMatchObject({ ok: true, replay: false });
    const afterUndo = await getBalance(db, member);
    expect(afterUndo.free).toBe(before.free - first.total);
    expect(await undoConversion(db, member, first.undo.conversionId)).toMatchObject({
      ok: true,
      replay: true,
      restored: 3,
    });
    expect(await getBalance(db, member)).toEqual(afterUndo);

    skipUnlessPostgres(ctx, handle, 'two undo taps on two connections');
    const second = await convert(db, member, ids.slice(3));
    if (!second.ok || !second.undo) throw new Error('conversion failed');
    const taps = await Promise.all(
      Array.from({ length: 4 }, () => undoConversion(db, member, second.undo!.conversionId)),
    );
    expect(taps.every((t) => t.ok)).toBe(true);
    expect(taps.filter((t) => t.ok && !t.replay)).toHaveLength(1);
    expect(await getBalance(db, member)).toEqual(afterUndo);
    const reversals = (await listLedgerEntries(db, member, { limit: 100 })).items.filter(
      (e) => e.reason === 'prize_conversion_undo',
    );
    expect(reversals).toHaveLength(ids.length);
  });

  it("refuses another member's undo with a 404 and changes nothing", async () => {
    const db = handle.db;
    const { member, items } = await memberWithPrizes(db);
    const other = await createMemberWithCoins(db, { paid: 100 });
    const converted = await convert(db, member, [items[0]!.prizeId]);
    if (!converted.ok || !converted.undo) throw new Error('conversion failed');
    const balance = await getBalance(db, member);
    const refusal = await undoConversion(db, other, converted.undo.conversionId);
    expect(refusal).toMatchObject({ ok: false, code: 'CONVERSION_NOT_FOUND' });
    if (refusal.ok) return;
    expect(describeRefusal(refusal)).toMatchObject({ status: 404, message: '元に戻せる交換が見つかりません。' });
    expect(await undoConversion(db, member, randomUUID())).toMatchObject({ ok: false, code: 'CONVERSION_NOT_FOUND' });
    expect(await getBalance(db, member)).toEqual(balance);
    expect(await statuses(db, [items[0]!.prizeId])).toEqual(new Set(['converted']));
  });

  it('refuses an undo after the window with a clear Japanese 409, and the conversion stands', async () => {
    const db = handle.db;
    const { member, items } = await memberWithPrizes(db);
    const at = new Date(Date.now() + 60_000);
    const converted = await convert(db, member, [items[1]!.prizeId], { now: at });
    if (!converted.ok || !converted.undo) throw new Error('conversion failed');
    expect(Date.parse(converted.undo.until) - at.getTime()).toBe(UNDO * 1000);
    const balance = await getBalance(db, member);
    const late = await undoConversion(db, member, converted.undo.conversionId, {
      now: new Date(at.getTime() + (UNDO + 1) * 1000),
    });
    expect(late).toMatchObject({ ok: false, code: 'UNDO_EXPIRED' });
    if (late.ok) return;
    const { status, message } = describeRefusal(late);
    expect(status).toBe(409);
    expect(message).toBe('元に戻せる時間を過ぎました。交換したコインは無償コインとして付与されています。');
    expect(await getBalance(db, member)).toEqual(balance);
    // Within the window (the last instant of it) the same conversion can still be undone.
    expect(
      await undoConversion(db, member, converted.undo.conversionId, {
        now: new Date(Date.parse(converted.undo.until)),
      }),
    ).toMatchObject({ ok: true, replay: false });
  });

  it('refuses once the coins it granted are spent', async () => {
    const db = handle.db;
    const { member, items } = await memberWithPrizes(db, 1000);
    const s = items.find((p) => p.tierLabel === 'S賞')!;
    const converted = await convert(db, member, [s.prizeId]);
    if (!converted.ok || !converted.undo) throw new Error('conversion failed');
    // A draw spends free coins first: the conversion's coins.
    const gachaId = await createPublishedPack(db, { lots: 10, price: 100 });
    const draw = await drawLots(db, {
      decisionDays: TEST_RULES.prizeDecisionDays,
      memberId: member,
      gachaId,
      count: 1,
      idempotencyKey: randomUUID(),
    });
    expect(draw.ok).toBe(true);
    const balance = await getBalance(db, member);
    expect(await undoConversion(db, member, converted.undo.conversionId)).toMatchObject({
      ok: false,
      code: 'COINS_SPENT',
    });
    expect(await getBalance(db, member)).toEqual(balance);
    expect(await statuses(db, [s.prizeId])).toEqual(new Set(['converted']));
  });

  it('puts a kept card back kept with its storage period, and a conversion after an undo credits again', async () => {
    const db = handle.db;
    const { member, items } = await memberWithPrizes(db);
    const a = items.find((p) => p.tierLabel === 'A賞')!;
    await keepPrizes(db, member, [a.prizeId], { storageDays: TEST_RULES.keptPrizeStorageDays });
    const [kept] = (await listPrizes(db, member, { status: ['kept'] })).items;
    const before = await getBalance(db, member);
    const converted = await convert(db, member, [a.prizeId], { includeKept: true });
    if (!converted.ok || !converted.undo) throw new Error('conversion failed');
    expect(await undoConversion(db, member, converted.undo.conversionId)).toMatchObject({ ok: true });
    const [back] = (await listPrizes(db, member, { status: ['kept'] })).items;
    expect(back).toMatchObject({ prizeId: a.prizeId, status: 'kept', keepUntil: kept!.keepUntil });
    expect(await getBalance(db, member)).toEqual(before);
    // Converted again: a new grant (not the first conversion's answer), and undone again.
    const again = await convert(db, member, [a.prizeId], { includeKept: true });
    if (!again.ok || !again.undo) throw new Error('conversion failed');
    expect((await getBalance(db, member)).free).toBe(before.free + a.conversionValue);
    expect(await undoConversion(db, member, again.undo.conversionId)).toMatchObject({ ok: true, replay: false });
    expect(await getBalance(db, member)).toEqual(before);
    // And a third time for good, without undo.
    expect(await convert(db, member, [a.prizeId], { includeKept: true })).toMatchObject({ ok: true });
    expect((await getBalance(db, member)).free).toBe(before.free + a.conversionValue);
  });

  it('leaves the deadline job unconfused: its conversions cannot be undone, an undone prize is due again', async () => {
    const db = handle.db;
    const { member, items } = await memberWithPrizes(db);
    const [one, two] = items.filter((p) => p.tierLabel === 'B賞');
    const converted = await convert(db, member, [one!.prizeId]);
    if (!converted.ok || !converted.undo) throw new Error('conversion failed');
    // An auto conversion asked with a window records none.
    const due = new Date(Date.parse(two!.decideBy) + 1000);
    const auto = await convertPrizes(db, member, [two!.prizeId], {
      auto: true,
      now: due,
      freeCoinDays: TEST_RULES.freeCoinDays,
      undoSeconds: UNDO,
    });
    expect(auto).toMatchObject({ ok: true, undo: null });
    expect(await undoConversion(db, member, converted.undo.conversionId)).toMatchObject({ ok: true });
    const balance = await getBalance(db, member);
    // The job at the deadline converts the undone prize (undecided again) once, and none twice.
    await autoConvertDuePrizes(db, TEST_RULES.freeCoinDays, due);
    expect(
      await statuses(
        db,
        items.map((p) => p.prizeId),
      ),
    ).toEqual(new Set(['converted']));
    const expected = items
      .filter((p) => p.prizeId !== two!.prizeId)
      .reduce((sum, p) => sum + p.conversionValue, balance.free);
    expect((await getBalance(db, member)).free).toBe(expected);
    const autoEntries = (await listLedgerEntries(db, member, { limit: 100 })).items.filter(
      (e) => e.reason === 'prize_auto_conversion',
    );
    expect(autoEntries.filter((e) => e.ref === one!.prizeId)).toHaveLength(1);
  });
});
