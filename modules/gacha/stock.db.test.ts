// Physical stock on a real database (decision 023): receiving by identity, stocktakes (refused below
// what is reserved), publishing refused whole when a card is short and reserving otherwise, ending a
// pack releasing its unclaimed lots and ラストワン賞, and every conversion (the member's and the
// deadline job's) releasing its card. The shop-wide check (stock_reserved_mismatch) runs after the file.
import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '#tests/use-test-database';
import { createMemberWithCoins, ensureGenre, receiveStockFor, TEST_RULES } from '#tests/fixtures';
import { adminAuditLog, gachaLots, gachas, gachaTiers, stockCards, stockMovements } from '#db/schema';
import { adjustStockAsOperator, commandLineOperator, receiveStockAsOperator } from '#modules/admin';
import { autoConvertDuePrizes, convertPrizes, drawLots } from '#modules/draw';
import { checkInvariants } from '#modules/wallet';
import {
  createPack,
  endPack,
  listStock,
  publishPack,
  receiveStock,
  stockIdentityKey,
  substituteCandidates,
  type PackDefinition,
} from './index';

const handle = useTestDatabase('stock', { poolSize: 2, invariants: 'afterEach' });
const operator = commandLineOperator();

/** A pack whose cards are its own (names unique to it), with a ラストワン賞; S and A share one card. */
function packOf(id: string, options: { lots?: number } = {}): PackDefinition {
  const lots = options.lots ?? 10;
  return {
    id,
    genreId: 'pokemon',
    title: `在庫テスト ${id}`,
    imagePath: '/demo/packs/pack-01.svg',
    pricePerDraw: 100,
    drawOptions: [1, 2, 10],
    tiers: [
      {
        key: 'S',
        label: 'S賞',
        rank: 1,
        cardName: `${id} 共通カード`,
        cardImagePath: '/demo/cards/card-01.svg',
        quantity: 1,
        conversionValue: 900,
      },
      {
        key: 'A',
        label: 'A賞',
        rank: 2,
        cardName: `${id} 共通カード`,
        cardImagePath: '/demo/cards/card-02.svg',
        quantity: 1,
        conversionValue: 900,
      },
      {
        key: 'B',
        label: 'B賞',
        rank: 3,
        cardName: `${id} Bカード`,
        cardSet: 'SV4a',
        cardNumber: '001/190',
        cardImagePath: '/demo/cards/card-03.svg',
        quantity: lots - 2,
        conversionValue: 50,
      },
      {
        key: 'LO',
        label: 'ラストワン賞',
        rank: 0,
        cardName: `${id} ラストワン`,
        cardGrade: 'PSA10',
        cardImagePath: '/demo/cards/card-04.svg',
        quantity: 1,
        conversionValue: 3000,
        isLastOne: true,
      },
    ],
  };
}

const cardOf = async (identity: {
  cardName: string;
  cardSet?: string | null;
  cardNumber?: string | null;
  cardGrade?: string | null;
}) =>
  (
    await handle.db
      .select()
      .from(stockCards)
      .where(eq(stockCards.identityKey, stockIdentityKey(identity)))
  )[0];

const counts = async (identity: Parameters<typeof cardOf>[0]) => {
  const card = await cardOf(identity);
  return card ? { onHand: card.onHand, reserved: card.reserved } : null;
};

describe('receiving and stocktakes', () => {
  it('receives by normalised identity: full-width, spaces and case make one card, counts add up', async () => {
    await handle.db.transaction(async (tx) => {
      await receiveStock(tx, {
        cardName: 'ピカチュウ ＳＡＲ',
        cardSet: 'sv4a',
        cardNumber: '205/190',
        count: 2,
        valueCoins: 100,
      });
      await receiveStock(tx, {
        cardName: '  ピカチュウ   SAR ',
        cardSet: 'SV4A',
        cardNumber: '２０５/１９０',
        count: 3,
        valueCoins: 120,
      });
    });
    const card = await cardOf({ cardName: 'ピカチュウ SAR', cardSet: 'SV4a', cardNumber: '205/190' });
    expect(card).toMatchObject({ onHand: 5, reserved: 0, valueCoins: 120, cardName: 'ピカチュウ ＳＡＲ' });
    const moves = await handle.db.select().from(stockMovements).where(eq(stockMovements.stockCardId, card!.id));
    expect(moves.map((m) => [m.kind, m.onHandDelta, m.reservedDelta])).toEqual([
      ['received', 2, 0],
      ['received', 3, 0],
    ]);
    // A different grade is a different card.
    await handle.db.transaction((tx) =>
      receiveStock(tx, {
        cardName: 'ピカチュウ SAR',
        cardSet: 'SV4a',
        cardNumber: '205/190',
        cardGrade: 'PSA10',
        count: 1,
        valueCoins: 5000,
      }),
    );
    expect(
      await counts({ cardName: 'ピカチュウ SAR', cardSet: 'SV4a', cardNumber: '205/190', cardGrade: 'psa10' }),
    ).toEqual({
      onHand: 1,
      reserved: 0,
    });
  });

  it('audits receipts and stocktakes; a stocktake below the reserved count is refused and records nothing', async () => {
    const id = `stk-${randomUUID().slice(0, 8)}`;
    const received = await receiveStockAsOperator(handle.db, operator, [
      { cardName: `${id} 棚卸し`, count: 5, valueCoins: 10 },
    ]);
    expect(received).toMatchObject({ ok: true, value: [{ onHand: 5, reserved: 0, available: 5 }] });
    if (!received.ok) return;
    const stockCardId = received.value[0]!.id;
    const entries = () =>
      handle.db
        .select({ action: adminAuditLog.action, before: adminAuditLog.before, after: adminAuditLog.after })
        .from(adminAuditLog)
        .where(eq(adminAuditLog.targetId, stockCardId))
        .orderBy(adminAuditLog.id);
    expect(await entries()).toEqual([
      {
        action: 'stock.receive',
        before: null,
        after: { cardName: `${id} 棚卸し`, onHand: 5, reserved: 0, valueCoins: 10, count: 5 },
      },
    ]);
    // Reserve 3 of them with a pack of that card.
    await ensureGenre(handle.db);
    await createPack(handle.db, {
      ...packOf(id),
      tiers: [
        {
          key: 'X',
          label: 'X賞',
          rank: 1,
          cardName: `${id} 棚卸し`,
          cardImagePath: '/demo/cards/card-01.svg',
          quantity: 3,
          conversionValue: 10,
        },
      ],
    });
    await publishPack(handle.db, id);
    expect(await adjustStockAsOperator(handle.db, operator, { stockCardId, onHand: 2, note: '棚卸し' })).toMatchObject({
      ok: false,
      code: 'STOCK_BELOW_RESERVED',
      details: { reserved: 3, onHand: 2 },
    });
    expect((await entries()).map((e) => e.action)).toEqual(['stock.receive']);
    expect(await adjustStockAsOperator(handle.db, operator, { stockCardId, onHand: 4, note: '1枚紛失' })).toMatchObject(
      {
        ok: true,
        value: { onHand: 4, reserved: 3, available: 1 },
      },
    );
    expect((await entries()).at(-1)).toEqual({
      action: 'stock.adjust',
      before: { onHand: 5, reserved: 3 },
      after: { cardName: `${id} 棚卸し`, onHand: 4, reserved: 3, note: '1枚紛失' },
    });
    expect(
      await adjustStockAsOperator(handle.db, operator, { stockCardId: randomUUID(), onHand: 1, note: 'x' }),
    ).toMatchObject({
      code: 'STOCK_CARD_NOT_FOUND',
    });
    const list = await listStock(handle.db, { query: `${id} 棚`, page: 1 });
    expect(list.items).toEqual([expect.objectContaining({ id: stockCardId, onHand: 4, reserved: 3, available: 1 })]);
    expect((await listStock(handle.db, { query: id, shortOnly: true, page: 1 })).items).toEqual([]);
  });

  it('offers substitutes with one available and at least the value, cheapest first', async () => {
    const id = `sub-${randomUUID().slice(0, 8)}`;
    await handle.db.transaction(async (tx) => {
      await receiveStock(tx, { cardName: `${id} 安い`, count: 1, valueCoins: 99 });
      await receiveStock(tx, { cardName: `${id} 高い`, count: 1, valueCoins: 5000 });
      await receiveStock(tx, { cardName: `${id} ちょうど`, count: 2, valueCoins: 100 });
    });
    const offered = (await substituteCandidates(handle.db, { minValue: 100, limit: 200 })).filter((c) =>
      c.cardName.startsWith(id),
    );
    expect(offered.map((c) => c.cardName)).toEqual([`${id} ちょうど`, `${id} 高い`]);
  });
});

describe('publishing reserves, ending and converting release', () => {
  it('refuses a pack with a short card whole, naming each shortfall, and writes nothing', async () => {
    await ensureGenre(handle.db);
    const id = `short-${randomUUID().slice(0, 8)}`;
    const pack = packOf(id);
    await createPack(handle.db, pack);
    // The shared card needs 2 (S and A), only 1 is there; the ラストワン賞's card is not there at all.
    await handle.db.transaction(async (tx) => {
      await receiveStock(tx, { cardName: `${id} 共通カード`, count: 1, valueCoins: 900 });
      await receiveStock(tx, {
        cardName: `${id} Bカード`,
        cardSet: 'SV4a',
        cardNumber: '001/190',
        count: 8,
        valueCoins: 50,
      });
    });
    await expect(publishPack(handle.db, id)).rejects.toMatchObject({
      refusal: {
        code: 'STOCK_SHORT',
        details: {
          gachaId: id,
          cards: expect.arrayContaining([
            {
              cardName: `${id} 共通カード`,
              cardSet: null,
              cardNumber: null,
              cardGrade: null,
              needed: 2,
              available: 1,
              short: 1,
            },
            {
              cardName: `${id} ラストワン`,
              cardSet: null,
              cardNumber: null,
              cardGrade: 'PSA10',
              needed: 1,
              available: 0,
              short: 1,
            },
          ]),
        },
      },
    });
    const [row] = await handle.db.select().from(gachas).where(eq(gachas.id, id));
    expect(row).toMatchObject({ status: 'draft', commitment: null });
    expect(await handle.db.select().from(gachaLots).where(eq(gachaLots.gachaId, id))).toEqual([]);
    expect(await counts({ cardName: `${id} 共通カード` })).toEqual({ onHand: 1, reserved: 0 });
    expect(await counts({ cardName: `${id} Bカード`, cardSet: 'SV4a', cardNumber: '001/190' })).toEqual({
      onHand: 8,
      reserved: 0,
    });
    const tiers = await handle.db
      .select({ s: gachaTiers.stockCardId })
      .from(gachaTiers)
      .where(eq(gachaTiers.gachaId, id));
    expect(tiers.every((t) => t.s === null)).toBe(true);
    // With the rest received, it publishes and reserves every tier (the ラストワン賞 too).
    await handle.db.transaction(async (tx) => {
      await receiveStock(tx, { cardName: `${id} 共通カード`, count: 1, valueCoins: 900 });
      await receiveStock(tx, { cardName: `${id} ラストワン`, cardGrade: 'PSA10', count: 1, valueCoins: 3000 });
    });
    await publishPack(handle.db, id);
    expect(await counts({ cardName: `${id} 共通カード` })).toEqual({ onHand: 2, reserved: 2 });
    expect(await counts({ cardName: `${id} Bカード`, cardSet: 'SV4a', cardNumber: '001/190' })).toEqual({
      onHand: 8,
      reserved: 8,
    });
    expect(await counts({ cardName: `${id} ラストワン`, cardGrade: 'PSA10' })).toEqual({ onHand: 1, reserved: 1 });
    const linked = await handle.db
      .select({ s: gachaTiers.stockCardId })
      .from(gachaTiers)
      .where(eq(gachaTiers.gachaId, id));
    expect(linked.every((t) => t.s !== null)).toBe(true);
  });

  it('ending a pack releases its unclaimed lots and its ラストワン賞; conversions release their cards', async () => {
    await ensureGenre(handle.db);
    const id = `end-${randomUUID().slice(0, 8)}`;
    const pack = packOf(id, { lots: 12 });
    await createPack(handle.db, pack);
    await receiveStockFor(handle.db, pack.tiers);
    await publishPack(handle.db, id);
    const member = await createMemberWithCoins(handle.db, { paid: 10_000 });
    const drawn = await drawLots(handle.db, {
      decisionDays: TEST_RULES.prizeDecisionDays,
      memberId: member,
      gachaId: id,
      count: 10,
      idempotencyKey: randomUUID(),
    });
    if (!drawn.ok) throw new Error(drawn.code);
    // The draw moves no stock: the lots' cards are now the prizes'.
    const total = async () => {
      const rows = await handle.db
        .select({
          reserved: sql<number>`sum(${stockCards.reserved})::int`,
          onHand: sql<number>`sum(${stockCards.onHand})::int`,
        })
        .from(stockCards)
        .where(sql`${stockCards.cardName} like ${`${id}%`}`);
      return { onHand: Number(rows[0]!.onHand), reserved: Number(rows[0]!.reserved) };
    };
    expect(await total()).toEqual({ onHand: 13, reserved: 13 });
    await endPack(handle.db, id);
    // 2 lots unclaimed and the ラストワン賞: released; the 10 prizes stay reserved.
    expect(await total()).toEqual({ onHand: 13, reserved: 10 });
    expect(await counts({ cardName: `${id} ラストワン`, cardGrade: 'PSA10' })).toEqual({ onHand: 1, reserved: 0 });
    const released = await handle.db
      .select({ n: sql<number>`coalesce(sum(${stockMovements.reservedDelta}), 0)::int` })
      .from(stockMovements)
      .where(and(eq(stockMovements.gachaId, id), eq(stockMovements.kind, 'released')));
    expect(Number(released[0]!.n)).toBe(-3);
    // Ending again changes nothing.
    await endPack(handle.db, id);
    expect(await total()).toEqual({ onHand: 13, reserved: 10 });

    // The member converts three: their cards are free again.
    const ids = drawn.result.items.map((i) => i.prizeId);
    const converted = await convertPrizes(handle.db, member, ids.slice(0, 3), {
      freeCoinDays: TEST_RULES.freeCoinDays,
    });
    expect(converted.ok).toBe(true);
    expect(await total()).toEqual({ onHand: 13, reserved: 7 });
    // A refused conversion (already converted) releases nothing.
    expect(
      await convertPrizes(handle.db, member, ids.slice(0, 1), { freeCoinDays: TEST_RULES.freeCoinDays }),
    ).toMatchObject({
      ok: false,
    });
    expect(await total()).toEqual({ onHand: 13, reserved: 7 });
    // The deadline job converts the rest.
    const later = new Date(Date.now() + (TEST_RULES.prizeDecisionDays + 1) * 86_400_000);
    expect(await autoConvertDuePrizes(handle.db, TEST_RULES.freeCoinDays, later)).toBeGreaterThanOrEqual(7);
    expect(await total()).toEqual({ onHand: 13, reserved: 0 });
    expect(await checkInvariants(handle.db)).toEqual([]);
  });

  it('a sold-out pack keeps its ラストワン賞 reserved for its winner', async () => {
    await ensureGenre(handle.db);
    const id = `sold-${randomUUID().slice(0, 8)}`;
    const pack = packOf(id, { lots: 10 });
    await createPack(handle.db, pack);
    await receiveStockFor(handle.db, pack.tiers);
    await publishPack(handle.db, id);
    const member = await createMemberWithCoins(handle.db, { paid: 10_000 });
    const drawn = await drawLots(handle.db, {
      decisionDays: TEST_RULES.prizeDecisionDays,
      memberId: member,
      gachaId: id,
      count: 10,
      idempotencyKey: randomUUID(),
    });
    expect(drawn.ok && drawn.result.lastOne).toBe(true);
    await endPack(handle.db, id);
    expect(await counts({ cardName: `${id} ラストワン`, cardGrade: 'PSA10' })).toEqual({ onHand: 1, reserved: 1 });
  });

  it('stock movements are append-only', async () => {
    await expect(handle.db.execute(sql`update stock_movements set note = 'x'`)).rejects.toThrow();
    await expect(handle.db.execute(sql`delete from stock_movements`)).rejects.toThrow();
  });
});
