// まとめて交換 by tier against a real database (decision 057): only the ticked tiers of the cards shown
// are converted, another member's cards are never picked up silently, and a draw's prizes carry their
// standing in the pack (the lowest tier is what the sheet chooses at first).
import { describe, it, expect } from 'vitest';
import { randomUUID } from 'node:crypto';
import { useTestDatabase as testDatabase } from '#tests/use-test-database';
import { createMemberWithCoins, createPublishedPack, TEST_RULES } from '#tests/fixtures';
import { convertPrizes, drawLots, listPrizes, undoConversion } from '#modules/draw';
import { getBalance } from '#modules/wallet';
import { pickByTiers, withTierStanding } from './prize-actions.server';

const handle = testDatabase('prize_actions', { invariants: 'afterEach' });

describe('conversion by tier', () => {
  it('converts only the chosen tiers, and the rest stay undecided; an undo puts them back', async () => {
    const db = handle.db;
    const gachaId = await createPublishedPack(db, { lots: 10, price: 100 });
    const member = await createMemberWithCoins(db, { paid: 1000 });
    const other = await createMemberWithCoins(db, { paid: 0 });
    const outcome = await drawLots(db, {
      decisionDays: TEST_RULES.prizeDecisionDays,
      memberId: member,
      gachaId,
      count: 10,
      idempotencyKey: randomUUID(),
    });
    if (!outcome.ok) throw new Error('draw failed');
    const items = await withTierStanding(db, outcome.result.items);
    expect(new Map(items.map((p) => [p.tierLabel, p.tiersBelow]))).toEqual(
      new Map([
        ['S賞', 2],
        ['A賞', 1],
        ['B賞', 0],
      ]),
    );
    const boxed = (await listPrizes(db, member, { status: ['pending'], limit: 100 })).items;
    expect(boxed.filter((p) => p.tiersBelow === 0).map((p) => p.tierLabel)).toEqual(Array(7).fill('B賞'));

    const ids = items.map((p) => p.prizeId);
    const lowest = await pickByTiers(db, member, ids, ['B賞']);
    expect(lowest).toHaveLength(7);
    // Another member's ids are not "filtered away": they stay, so the conversion refuses them (404).
    expect(await pickByTiers(db, other, ids, ['B賞'])).toEqual(ids);

    const converted = await convertPrizes(db, member, lowest, {
      freeCoinDays: TEST_RULES.freeCoinDays,
      undoSeconds: 10,
    });
    if (!converted.ok || !converted.undo) throw new Error('conversion failed');
    const left = (await listPrizes(db, member, { status: ['pending'] })).items.map((p) => p.tierLabel).sort();
    expect(left).toEqual(['A賞', 'A賞', 'S賞']);
    expect((await getBalance(db, member)).free).toBe(7 * 50);

    expect(await undoConversion(db, member, converted.undo.conversionId)).toMatchObject({ ok: true, restored: 7 });
    expect((await listPrizes(db, member, { status: ['pending'] })).items).toHaveLength(10);
    expect((await getBalance(db, member)).free).toBe(0);
  });
});
