// The draw against a real database: all or nothing, idempotency, the ラストワン賞, refusals,
// spending order, prizes and their deadline, and every invariant after each scenario.
import { describe, it, expect } from 'vitest';
import { randomUUID } from 'node:crypto';
import { skipUnlessPostgres, useTestDatabase } from '#tests/use-test-database';
import { createMemberWithCoins, createPublishedPack, TEST_RULES } from '#tests/fixtures';
import {
  drawLots,
  drawLotsForSession,
  getDrawResult,
  convertPrizes,
  keepPrizes,
  autoConvertDuePrizes,
  listPrizes,
  getPackReveal,
  memberDrawnLots,
  describeDraws,
  describePrizes,
  countPrizesByStatus,
} from './index';
import { sessions, wallets, gachas } from '#db/schema';
import {
  getBalance,
  listLedgerEntries,
  listCoinHistory,
  grantCoins,
  expireDueCoins,
  IdempotencyKeyConflict,
} from '#modules/wallet';
import { getExp } from '#modules/progression';
import { endPack, getRemaining } from '#modules/gacha';
import { sql } from 'drizzle-orm';
import { eq } from 'drizzle-orm';
import { verifyReveal } from '#modules/fairness';

const handle = useTestDatabase('draw', { poolSize: 4, invariants: 'afterEach' });
const key = () => randomUUID();

/** A free grant of `amount` coins that falls due one second from now (answers "now"). */
async function grantFreeDueInASecond(db: Parameters<typeof grantCoins>[0], member: string, amount: number) {
  const now = new Date();
  await grantCoins(db, {
    lifetimeDays: TEST_RULES.coinLifetimes,
    memberId: member,
    kind: 'free',
    amount,
    reason: 'operator_grant',
    counterAccount: 'promotion',
    idempotencyKey: key(),
    expiresAt: new Date(now.getTime() + 1000),
    now,
  });
  return now;
}

describe('drawLots', () => {
  it('takes N lots for N × price, spends free coins first, and accrues exp', async () => {
    const db = handle.db;
    const gachaId = await createPublishedPack(db, { lots: 30, price: 100 });
    const member = await createMemberWithCoins(db, { paid: 1000, free: 300 });
    const outcome = await drawLots(db, {
      decisionDays: TEST_RULES.prizeDecisionDays,
      memberId: member,
      gachaId,
      count: 10,
      idempotencyKey: key(),
    });
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.result.items).toHaveLength(10);
    expect(new Set(outcome.result.items.map((i) => i.position)).size).toBe(10);
    expect(outcome.result.balance).toEqual({ paid: 300, free: 0 });
    expect(await getExp(db, member)).toBe(1000);
    expect((await getRemaining(db, gachaId)).remaining).toBe(20);
    const history = await listLedgerEntries(db, member);
    expect(history.items.filter((e) => e.reason === 'draw').map((e) => [e.kind, e.amount])).toEqual([
      ['paid', -700],
      ['free', -300],
    ]);
  });

  it('refuses when coins are short, with nothing taken, and replays the refusal', async () => {
    const db = handle.db;
    const gachaId = await createPublishedPack(db, { lots: 30, price: 100 });
    const member = await createMemberWithCoins(db, { paid: 150 });
    const k = key();
    const first = await drawLots(db, {
      decisionDays: TEST_RULES.prizeDecisionDays,
      memberId: member,
      gachaId,
      count: 10,
      idempotencyKey: k,
    });
    expect(first).toMatchObject({ ok: false, code: 'INSUFFICIENT_COINS', details: { required: 1000, balance: 150 } });
    const again = await drawLots(db, {
      decisionDays: TEST_RULES.prizeDecisionDays,
      memberId: member,
      gachaId,
      count: 10,
      idempotencyKey: k,
    });
    expect(again).toMatchObject({ ok: false, code: 'INSUFFICIENT_COINS' });
    expect((await getBalance(db, member)).paid).toBe(150);
    expect((await getRemaining(db, gachaId)).remaining).toBe(30);
  });

  it('returns the first result for a retried key and refuses the key with another request', async () => {
    const db = handle.db;
    const gachaId = await createPublishedPack(db, { lots: 30, price: 100 });
    const member = await createMemberWithCoins(db, { paid: 5000 });
    const k = key();
    const first = await drawLots(db, {
      decisionDays: TEST_RULES.prizeDecisionDays,
      memberId: member,
      gachaId,
      count: 1,
      idempotencyKey: k,
    });
    const second = await drawLots(db, {
      decisionDays: TEST_RULES.prizeDecisionDays,
      memberId: member,
      gachaId,
      count: 1,
      idempotencyKey: k,
    });
    expect(first.ok && second.ok).toBe(true);
    if (!first.ok || !second.ok) return;
    expect(second.result.replay).toBe(true);
    expect(second.result.drawId).toBe(first.result.drawId);
    expect(second.result.items.map((i) => i.prizeId)).toEqual(first.result.items.map((i) => i.prizeId));
    expect((await getBalance(db, member)).paid).toBe(4900);
    expect(
      await drawLots(db, {
        decisionDays: TEST_RULES.prizeDecisionDays,
        memberId: member,
        gachaId,
        count: 10,
        idempotencyKey: k,
      }),
    ).toMatchObject({
      ok: false,
      code: 'IDEMPOTENCY_KEY_REUSED',
    });
  });

  it('refuses more lots than remain with the remaining count, then the last lot wins the ラストワン賞', async () => {
    const db = handle.db;
    const gachaId = await createPublishedPack(db, { lots: 12, price: 10, lastOne: true, drawOptions: [1, 2, 10] });
    const member = await createMemberWithCoins(db, { paid: 10_000 });
    expect(
      (
        await drawLots(db, {
          decisionDays: TEST_RULES.prizeDecisionDays,
          memberId: member,
          gachaId,
          count: 10,
          idempotencyKey: key(),
        })
      ).ok,
    ).toBe(true);
    expect(
      await drawLots(db, {
        decisionDays: TEST_RULES.prizeDecisionDays,
        memberId: member,
        gachaId,
        count: 10,
        idempotencyKey: key(),
      }),
    ).toMatchObject({
      ok: false,
      code: 'NOT_ENOUGH_LOTS',
      details: { remaining: 2 },
    });
    const last = await drawLots(db, {
      decisionDays: TEST_RULES.prizeDecisionDays,
      memberId: member,
      gachaId,
      count: 2,
      idempotencyKey: key(),
    });
    expect(last.ok).toBe(true);
    if (!last.ok) return;
    expect(last.result.lastOne).toBe(true);
    expect(last.result.items.filter((i) => i.isLastOne)).toHaveLength(1);
    expect(last.result.items).toHaveLength(3);
    expect(
      await drawLots(db, {
        decisionDays: TEST_RULES.prizeDecisionDays,
        memberId: member,
        gachaId,
        count: 1,
        idempotencyKey: key(),
      }),
    ).toMatchObject({
      ok: false,
      code: 'SOLD_OUT',
    });
    const reveal = await getPackReveal(db, gachaId);
    expect(reveal).not.toBeNull();
    const verification = verifyReveal(reveal!);
    expect(verification.checks.filter((c) => !c.ok)).toEqual([]);
    expect(reveal!.draws.filter((d) => d.lastOne)).toHaveLength(1);
  });

  it('refuses staff, unknown packs, counts not offered, and ended packs', async () => {
    const db = handle.db;
    const gachaId = await createPublishedPack(db, { lots: 30, price: 100, drawOptions: [1, 10] });
    const staff = await createMemberWithCoins(db, { paid: 5000 }, { role: 'admin' });
    const member = await createMemberWithCoins(db, { paid: 5000 });
    expect(
      await drawLots(db, {
        decisionDays: TEST_RULES.prizeDecisionDays,
        memberId: staff,
        gachaId,
        count: 1,
        idempotencyKey: key(),
      }),
    ).toMatchObject({
      ok: false,
      code: 'STAFF_CANNOT_DRAW',
    });
    expect(
      await drawLots(db, {
        decisionDays: TEST_RULES.prizeDecisionDays,
        memberId: member,
        gachaId: 'nope',
        count: 1,
        idempotencyKey: key(),
      }),
    ).toMatchObject({
      ok: false,
      code: 'GACHA_NOT_FOUND',
    });
    expect(
      await drawLots(db, {
        decisionDays: TEST_RULES.prizeDecisionDays,
        memberId: member,
        gachaId,
        count: 100,
        idempotencyKey: key(),
      }),
    ).toMatchObject({
      ok: false,
      code: 'DRAW_COUNT_INVALID',
    });
    await endPack(db, gachaId);
    expect(
      await drawLots(db, {
        decisionDays: TEST_RULES.prizeDecisionDays,
        memberId: member,
        gachaId,
        count: 1,
        idempotencyKey: key(),
      }),
    ).toMatchObject({
      ok: false,
      code: 'GACHA_ENDED',
    });
    expect((await getBalance(db, member)).paid).toBe(5000);
    expect(verifyReveal((await getPackReveal(db, gachaId))!).ok).toBe(true);
  });

  it('honours the per-member limit and the minimum rank', async () => {
    const db = handle.db;
    const limited = await createPublishedPack(db, { lots: 30, price: 10, perMemberLimit: 3, drawOptions: [1, 2] });
    const member = await createMemberWithCoins(db, { paid: 5000 });
    expect(
      (
        await drawLots(db, {
          decisionDays: TEST_RULES.prizeDecisionDays,
          memberId: member,
          gachaId: limited,
          count: 2,
          idempotencyKey: key(),
        })
      ).ok,
    ).toBe(true);
    expect(
      await drawLots(db, {
        decisionDays: TEST_RULES.prizeDecisionDays,
        memberId: member,
        gachaId: limited,
        count: 2,
        idempotencyKey: key(),
      }),
    ).toMatchObject({
      ok: false,
      code: 'DRAW_LIMIT_REACHED',
      details: { limit: 3, used: 2 },
    });
    expect(
      (
        await drawLots(db, {
          decisionDays: TEST_RULES.prizeDecisionDays,
          memberId: member,
          gachaId: limited,
          count: 1,
          idempotencyKey: key(),
        })
      ).ok,
    ).toBe(true);
    expect(await memberDrawnLots(db, limited, member)).toBe(3);
    const ranked = await createPublishedPack(db, { lots: 30, price: 10, minRank: 2 });
    expect(
      await drawLots(db, {
        decisionDays: TEST_RULES.prizeDecisionDays,
        memberId: member,
        gachaId: ranked,
        count: 1,
        idempotencyKey: key(),
        rank: 1,
      }),
    ).toMatchObject({ ok: false, code: 'RANK_TOO_LOW' });
    expect(
      (
        await drawLots(db, {
          decisionDays: TEST_RULES.prizeDecisionDays,
          memberId: member,
          gachaId: ranked,
          count: 1,
          idempotencyKey: key(),
          rank: 2,
        })
      ).ok,
    ).toBe(true);
  });
});

describe('キリ番賞 (decision 027)', () => {
  const draw = (memberId: string, gachaId: string, count: number) =>
    drawLots(handle.db, {
      decisionDays: TEST_RULES.prizeDecisionDays,
      memberId,
      gachaId,
      count,
      idempotencyKey: key(),
    });
  const kiribanOf = (outcome: Awaited<ReturnType<typeof draw>>) => (outcome.ok ? outcome.result.kiriban : null);

  it('gives the draw that takes the Nth lot sold its prize, once, in the result and the reveal', async () => {
    const db = handle.db;
    const gachaId = await createPublishedPack(db, {
      lots: 12,
      price: 10,
      lastOne: true,
      kiribanAt: [3, 5, 11],
      drawOptions: [1, 2, 10],
    });
    const member = await createMemberWithCoins(db, { paid: 10_000 });
    expect(kiribanOf(await draw(member, gachaId, 2))).toEqual([]);
    const third = await draw(member, gachaId, 2); // lots 3–4
    expect(kiribanOf(third)).toEqual([3]);
    if (!third.ok) return;
    expect(third.result.items).toHaveLength(3);
    expect(third.result.items.find((i) => i.kiriban === 3)).toMatchObject({
      position: null,
      tierLabel: 'キリ番賞',
      cardName: 'テストキリ番',
      isLastOne: false,
      conversionValue: 100,
    });
    // The replay answers the same, and the stored result shows it too.
    const replayed = await getDrawResult(db, member, third.result.drawId);
    expect(replayed?.kiriban).toEqual([3]);
    expect(kiribanOf(await draw(member, gachaId, 1))).toEqual([5]);
    const [pack] = await db.select({ next: gachas.kiribanNext }).from(gachas).where(eq(gachas.id, gachaId));
    expect(pack.next).toBe(11);
    // Remaining キリ番賞 on the pack's counts: 11 only.
    const counts = await getRemaining(db, gachaId);
    expect(counts.tiers.find((t) => t.kiribanAt)?.remaining).toBe(1);
    // Lots 6–12 at the end of the pack: the キリ番 11 and the ラストワン賞 in one draw, the count being exact.
    await draw(member, gachaId, 1);
    await draw(member, gachaId, 1);
    await draw(member, gachaId, 2); // 8–9
    const end = await draw(member, gachaId, 2); // lots 10–11: its positions reach the キリ番 11
    expect(kiribanOf(end)).toEqual([11]);
    const last = await draw(member, gachaId, 1);
    expect(last.ok && last.result.lastOne).toBe(true);
    expect(kiribanOf(last)).toEqual([]);
    const reveal = await getPackReveal(db, gachaId);
    expect(reveal?.format).toBe('oripa-pack-reveal/2');
    expect(reveal!.draws.flatMap((d) => d.kiriban)).toEqual([3, 5, 11]);
    expect(verifyReveal(reveal!).checks.filter((c) => !c.ok)).toEqual([]);
  });

  it('counts lots sold, not positions: a position lost to a rolled-back draw does not take the number', async () => {
    const db = handle.db;
    const gachaId = await createPublishedPack(db, { lots: 8, price: 10, kiribanAt: [3], drawOptions: [1] });
    const [pack] = await db.select({ no: gachas.no }).from(gachas).where(eq(gachas.id, gachaId));
    const member = await createMemberWithCoins(db, { paid: 10_000 });
    expect(kiribanOf(await draw(member, gachaId, 1))).toEqual([]); // position 1, lot 1
    await db.execute(sql.raw(`select nextval('gacha_pos_${pack.no}')`)); // position 2 lost (as by a crash)
    const second = await draw(member, gachaId, 1); // position 3 but only the 2nd lot sold
    expect(kiribanOf(second)).toEqual([]);
    expect(second.ok && second.result.items[0].position).toBe(3);
    const thirdLot = await draw(member, gachaId, 1); // position 4, the 3rd lot sold
    expect(kiribanOf(thirdLot)).toEqual([3]);
    await endPack(db, gachaId);
    const reveal = await getPackReveal(db, gachaId);
    expect(verifyReveal(reveal!).checks.filter((c) => !c.ok)).toEqual([]);
  });

  it('releases the card of a number never reached when the sale ends, and awards nothing after', async () => {
    const db = handle.db;
    const gachaId = await createPublishedPack(db, { lots: 10, price: 10, kiribanAt: [2, 8], drawOptions: [1, 2] });
    const member = await createMemberWithCoins(db, { paid: 10_000 });
    expect(kiribanOf(await draw(member, gachaId, 2))).toEqual([2]);
    await endPack(db, gachaId);
    expect(await draw(member, gachaId, 1)).toMatchObject({ ok: false, code: 'GACHA_ENDED' });
    const reveal = await getPackReveal(db, gachaId);
    const verification = verifyReveal(reveal!);
    expect(verification.checks.filter((c) => !c.ok)).toEqual([]);
    expect(verification.stats?.kiribanReached).toBe(1);
    // The invariant check after this test verifies the stock: only the card of キリ番 2 is still reserved.
  });
});

describe('prizes', () => {
  it('shows a result only to its member, converts and keeps, and refuses a second choice', async () => {
    const db = handle.db;
    const gachaId = await createPublishedPack(db, { lots: 30, price: 100 });
    const alice = await createMemberWithCoins(db, { paid: 1000 });
    const bob = await createMemberWithCoins(db, { paid: 1000 });
    const outcome = await drawLots(db, {
      decisionDays: TEST_RULES.prizeDecisionDays,
      memberId: alice,
      gachaId,
      count: 10,
      idempotencyKey: key(),
    });
    if (!outcome.ok) throw new Error('draw failed');
    const { drawId, items } = outcome.result;
    expect(await getDrawResult(db, bob, drawId)).toBeNull();
    expect((await getDrawResult(db, alice, drawId))?.items).toHaveLength(10);
    const [first, second, ...rest] = items;
    expect(await convertPrizes(db, bob, [first!.prizeId], { freeCoinDays: TEST_RULES.freeCoinDays })).toMatchObject({
      ok: false,
      code: 'PRIZE_NOT_FOUND',
    });
    const converted = await convertPrizes(db, alice, [first!.prizeId, second!.prizeId], {
      freeCoinDays: TEST_RULES.freeCoinDays,
    });
    expect(converted).toMatchObject({ ok: true, total: first!.conversionValue + second!.conversionValue });
    expect(await convertPrizes(db, alice, [first!.prizeId], { freeCoinDays: TEST_RULES.freeCoinDays })).toMatchObject({
      ok: false,
      code: 'PRIZE_ALREADY_DECIDED',
    });
    expect(
      await keepPrizes(
        db,
        alice,
        rest.map((p) => p.prizeId),
        { storageDays: TEST_RULES.keptPrizeStorageDays },
      ),
    ).toMatchObject({ ok: true, kept: 8 });
    expect((await getBalance(db, alice)).free).toBe(first!.conversionValue + second!.conversionValue);
    expect((await listPrizes(db, alice, { status: ['kept'] })).items).toHaveLength(8);
    expect((await listPrizes(db, bob)).items).toHaveLength(0);
  });

  it('never lets a bulk conversion touch a kept prize: all or nothing, and only with includeKept', async () => {
    const db = handle.db;
    const gachaId = await createPublishedPack(db, { lots: 30, price: 100 });
    const member = await createMemberWithCoins(db, { paid: 1000 });
    const outcome = await drawLots(db, {
      decisionDays: TEST_RULES.prizeDecisionDays,
      memberId: member,
      gachaId,
      count: 10,
      idempotencyKey: key(),
    });
    if (!outcome.ok) throw new Error('draw failed');
    const ids = outcome.result.items.map((p) => p.prizeId);
    await keepPrizes(db, member, ids.slice(0, 2), { storageDays: TEST_RULES.keptPrizeStorageDays });
    const before = await getBalance(db, member);
    expect(await convertPrizes(db, member, ids, { freeCoinDays: TEST_RULES.freeCoinDays })).toMatchObject({
      ok: false,
      code: 'PRIZE_KEPT',
    });
    expect(await convertPrizes(db, member, [ids[0]!], { freeCoinDays: TEST_RULES.freeCoinDays })).toMatchObject({
      ok: false,
      code: 'PRIZE_KEPT',
    });
    expect(await getBalance(db, member)).toEqual(before);
    expect((await listPrizes(db, member, { status: ['pending'] })).items).toHaveLength(8);
    // The previous build's five-argument call (a rolling deploy) is refused the same way.
    const oldCall = await db.execute(
      sql`select prize_convert(${member}::text, ${`{${ids[1]}}`}::uuid[], false, '90 days'::interval, null::timestamptz) as r`,
    );
    expect((oldCall as unknown as { rows: { r: unknown }[] }).rows[0]!.r).toMatchObject({
      status: 'rejected',
      code: 'PRIZE_KEPT',
    });
    const single = await convertPrizes(db, member, [ids[0]!], {
      freeCoinDays: TEST_RULES.freeCoinDays,
      includeKept: true,
    });
    expect(single).toMatchObject({ ok: true, converted: [{ prizeId: ids[0] }] });
    expect((await listPrizes(db, member, { status: ['kept'] })).items.map((p) => p.prizeId)).toEqual([ids[1]]);
  });

  it('converts undecided prizes after the deadline, once', async () => {
    const db = handle.db;
    const gachaId = await createPublishedPack(db, { lots: 30, price: 100 });
    const member = await createMemberWithCoins(db, { paid: 1000 });
    const outcome = await drawLots(db, {
      decisionDays: TEST_RULES.prizeDecisionDays,
      memberId: member,
      gachaId,
      count: 10,
      idempotencyKey: key(),
    });
    if (!outcome.ok) throw new Error('draw failed');
    await keepPrizes(db, member, [outcome.result.items[0]!.prizeId], { storageDays: TEST_RULES.keptPrizeStorageDays });
    const later = new Date(Date.now() + 15 * 86_400_000);
    expect(await autoConvertDuePrizes(db, TEST_RULES.freeCoinDays, later)).toBeGreaterThanOrEqual(9);
    expect(await autoConvertDuePrizes(db, TEST_RULES.freeCoinDays, later)).toBe(0);
    const box = await listPrizes(db, member, { status: ['pending', 'kept', 'converted'] });
    expect(box.items.filter((p) => p.status === 'converted')).toHaveLength(9);
    expect(box.items.filter((p) => p.status === 'kept')).toHaveLength(1);
  });
});

describe('coin history by action', () => {
  it('shows a draw spent from several grants as one row and a bulk conversion as one row, and pages without splitting them', async () => {
    const db = handle.db;
    const gachaId = await createPublishedPack(db, { lots: 60, price: 100 });
    const member = await createMemberWithCoins(db, { paid: 2000, free: 300 });
    const drawn = await drawLots(db, {
      decisionDays: TEST_RULES.prizeDecisionDays,
      memberId: member,
      gachaId,
      count: 10,
      idempotencyKey: key(),
    });
    if (!drawn.ok) throw new Error('draw failed');
    const ids = drawn.result.items.map((p) => p.prizeId);
    await keepPrizes(db, member, [ids[0]!], { storageDays: TEST_RULES.keptPrizeStorageDays });
    const converted = await convertPrizes(db, member, ids.slice(1), { freeCoinDays: TEST_RULES.freeCoinDays });
    if (!converted.ok) throw new Error('conversion failed');
    await convertPrizes(db, member, [ids[0]!], { freeCoinDays: TEST_RULES.freeCoinDays, includeKept: true });
    const paying = converted.converted.filter((c) => c.coins > 0).length;

    const { items } = await listCoinHistory(db, member, { limit: 10 });
    const [single, bulk, draw] = items;
    expect(single).toMatchObject({ reason: 'prize_conversion', refs: [ids[0]] });
    expect(bulk).toMatchObject({ reason: 'prize_conversion', amount: converted.total, free: converted.total, paid: 0 });
    expect(bulk!.entries).toHaveLength(paying);
    // The draw took the free 300 first, then 700 paid: two ledger entries, one row.
    expect(draw).toMatchObject({ reason: 'draw', amount: -1000, free: -300, paid: -700, refs: [drawn.result.drawId] });
    expect(draw!.entries).toHaveLength(2);
    expect(items.at(-1)?.amount).toBeGreaterThan(0);

    // Page by page, one row at a time: the same rows, none split, none repeated.
    const walked: number[] = [];
    let before: number | undefined;
    for (let page = 0; page < 20; page++) {
      const next = await listCoinHistory(db, member, { limit: 1, before });
      walked.push(...next.items.map((r) => r.id));
      if (!next.nextBefore) break;
      before = next.nextBefore;
    }
    expect(walked).toEqual(items.map((r) => r.id));

    const draws = await describeDraws(db, member, [drawn.result.drawId, randomUUID()]);
    expect(draws.get(drawn.result.drawId)).toMatchObject({ gachaId, count: 10 });
    expect(draws.size).toBe(1);
    const other = await createMemberWithCoins(db, { paid: 0 });
    expect((await describeDraws(db, other, [drawn.result.drawId])).size).toBe(0);
    expect((await describePrizes(db, other, ids)).size).toBe(0);
    expect((await describePrizes(db, member, ids)).size).toBe(10);
    expect(await countPrizesByStatus(db, member)).toEqual({ pending: 0, kept: 0, converted: 10, shipping: 0 });
  });
});

describe('wallet', () => {
  it('expires grants with a ledger entry and never spends expired coins', async () => {
    const db = handle.db;
    const member = await createMemberWithCoins(db, { paid: 100 });
    const now = await grantFreeDueInASecond(db, member, 50);
    expect((await getBalance(db, member)).total).toBe(150);
    expect(await expireDueCoins(db, new Date(now.getTime() + 2000))).toBe(1);
    expect(await getBalance(db, member, new Date(now.getTime() + 2000))).toMatchObject({ paid: 100, free: 0 });
    const entries = await listLedgerEntries(db, member);
    expect(entries.items[0]).toMatchObject({ reason: 'expiry', amount: -50, kind: 'free' });
  });

  it('credits a grant once per idempotency key, even concurrently', async () => {
    const db = handle.db;
    const member = await createMemberWithCoins(db, {});
    const k = key();
    const grants = await Promise.all(
      Array.from({ length: 5 }, () =>
        grantCoins(db, {
          lifetimeDays: TEST_RULES.coinLifetimes,
          memberId: member,
          kind: 'free',
          amount: 70,
          reason: 'operator_grant',
          counterAccount: 'promotion',
          idempotencyKey: k,
        }),
      ),
    );
    expect(new Set(grants.map((g) => g.grantId)).size).toBe(1);
    expect((await getBalance(db, member)).free).toBe(70);
  });

  it('replays a grant after its expiry has passed, and refuses its key for another member', async () => {
    const db = handle.db;
    const member = await createMemberWithCoins(db, {});
    const other = await createMemberWithCoins(db, {});
    const t0 = new Date(Date.now() + 86_400_000);
    const request = {
      memberId: member,
      kind: 'free' as const,
      amount: 100,
      reason: 'operator_grant',
      counterAccount: 'promotion',
      idempotencyKey: key(),
      expiresAt: new Date(t0.getTime() + 3_600_000),
    };
    const first = await grantCoins(db, { lifetimeDays: TEST_RULES.coinLifetimes, ...request, now: t0 });
    const later = await grantCoins(db, {
      lifetimeDays: TEST_RULES.coinLifetimes,
      ...request,
      now: new Date(t0.getTime() + 7_200_000),
    });
    expect(later).toMatchObject({ grantId: first.grantId, replay: true });
    await expect(
      grantCoins(db, { lifetimeDays: TEST_RULES.coinLifetimes, ...request, memberId: other, now: t0 }),
    ).rejects.toBeInstanceOf(IdempotencyKeyConflict);
    expect((await getBalance(db, other)).total).toBe(0);
  });

  it('expires due grants when a draw locks the wallet, before it checks the balance', async () => {
    const db = handle.db;
    const gachaId = await createPublishedPack(db, { lots: 10, price: 120, drawOptions: [1] });
    const member = await createMemberWithCoins(db, { paid: 100 });
    const now = await grantFreeDueInASecond(db, member, 50);
    // 150 coins until the free 50 fall due; the draw at +5 s (no expiry job ran) sees the 100 that are left.
    const later = new Date(now.getTime() + 5000).toISOString();
    const answer = await db.execute(
      sql`select draw_execute(${member}::text, ${gachaId}::text, 1, ${key()}::text, 'h'::text, 0, '14 days'::interval,
                              ${later}::timestamptz) as r`,
    );
    expect((answer as unknown as { rows: { r: unknown }[] }).rows[0]!.r).toMatchObject({
      status: 'refused',
      code: 'INSUFFICIENT_COINS',
      details: { required: 120, balance: 100 },
    });
    // The lock expired the grant in the draw's transaction, with its ledger entry, and the refusal committed it.
    expect((await listLedgerEntries(db, member)).items[0]).toMatchObject({
      reason: 'expiry',
      amount: -50,
      kind: 'free',
    });
    expect(await getBalance(db, member, new Date(later))).toMatchObject({ paid: 100, free: 0, total: 100 });
  });

  it('shows coins past their date as gone before the expiry job runs', async () => {
    const db = handle.db;
    const member = await createMemberWithCoins(db, { paid: 100 });
    const now = await grantFreeDueInASecond(db, member, 40);
    expect(await getBalance(db, member, new Date(now.getTime() + 5000))).toMatchObject({
      paid: 100,
      free: 0,
      total: 100,
    });
  });
});

describe('the prize box pages', () => {
  it('walks every prize once, page by page, with claim times in microseconds', async () => {
    const db = handle.db;
    const gachaId = await createPublishedPack(db, { lots: 40, price: 10, drawOptions: [10] });
    const member = await createMemberWithCoins(db, { paid: 1000 });
    for (let i = 0; i < 3; i++)
      expect(
        (
          await drawLots(db, {
            decisionDays: TEST_RULES.prizeDecisionDays,
            memberId: member,
            gachaId,
            count: 10,
            idempotencyKey: key(),
          })
        ).ok,
      ).toBe(true);
    const seen: string[] = [];
    let before: { createdAt: string; id: string } | undefined;
    for (;;) {
      const page = await listPrizes(db, member, { limit: 3, before });
      seen.push(...page.items.map((p) => p.prizeId));
      if (!page.next) break;
      before = page.next;
    }
    expect(seen).toHaveLength(30);
    expect(new Set(seen).size).toBe(30);
  });
});

describe('races with the end of a sale and the deadline', () => {
  it('refuses a draw that waited while the pack was ended, even at the end of the pack (needs PostgreSQL: two connections)', async (ctx) => {
    skipUnlessPostgres(ctx, handle, 'two connections');
    const db = handle.db;
    const gachaId = await createPublishedPack(db, { lots: 5, price: 10, lastOne: true, drawOptions: [1] });
    const first = await createMemberWithCoins(db, { paid: 100 });
    for (let i = 0; i < 3; i++)
      expect(
        (
          await drawLots(db, {
            decisionDays: TEST_RULES.prizeDecisionDays,
            memberId: first,
            gachaId,
            count: 1,
            idempotencyKey: key(),
          })
        ).ok,
      ).toBe(true);
    // Positions 4 and 5 burnt by rolled-back calls: the next draw is an end-of-pack draw.
    const [pack] = await db.select({ no: gachas.no }).from(gachas).where(eq(gachas.id, gachaId));
    await db.execute(sql.raw(`select nextval('gacha_pos_${pack!.no}'), nextval('gacha_pos_${pack!.no}')`));
    const late = await createMemberWithCoins(db, { paid: 100 });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holder = db.transaction(async (tx) => {
      await tx.select().from(wallets).where(eq(wallets.memberId, late)).for('update');
      locked();
      await held;
    });
    await isLocked;
    const waiting = drawLots(db, {
      decisionDays: TEST_RULES.prizeDecisionDays,
      memberId: late,
      gachaId,
      count: 1,
      idempotencyKey: key(),
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    await endPack(db, gachaId);
    release();
    await holder;
    expect(await waiting).toMatchObject({ ok: false, code: 'GACHA_ENDED' });
    const [after] = await db.select({ status: gachas.status }).from(gachas).where(eq(gachas.id, gachaId));
    expect(after!.status).toBe('ended');
    expect(verifyReveal((await getPackReveal(db, gachaId))!).ok).toBe(true);
  });

  it('leaves a prize kept after the deadline job picked it, and converts the rest', async () => {
    const db = handle.db;
    const gachaId = await createPublishedPack(db, { lots: 30, price: 100 });
    const member = await createMemberWithCoins(db, { paid: 1000 });
    const outcome = await drawLots(db, {
      decisionDays: TEST_RULES.prizeDecisionDays,
      memberId: member,
      gachaId,
      count: 10,
      idempotencyKey: key(),
    });
    if (!outcome.ok) throw new Error(outcome.code);
    const ids = outcome.result.items.map((i) => i.prizeId);
    const later = new Date(Date.now() + 15 * 86_400_000);
    // The job selected all ten; the member keeps one before the job reaches them.
    await keepPrizes(db, member, [ids[0]!], { storageDays: TEST_RULES.keptPrizeStorageDays });
    const converted = await convertPrizes(db, member, ids, {
      freeCoinDays: TEST_RULES.freeCoinDays,
      auto: true,
      now: later,
    });
    expect(converted).toMatchObject({ ok: true });
    if (converted.ok) expect(converted.converted.map((c) => c.prizeId).sort()).toEqual(ids.slice(1).sort());
    expect((await listPrizes(db, member, { status: ['kept'] })).items.map((p) => p.prizeId)).toEqual([ids[0]]);
  });

  it('refuses a grant key reused with another amount or kind', async () => {
    const db = handle.db;
    const member = await createMemberWithCoins(db, {});
    const k = key();
    await grantCoins(db, {
      lifetimeDays: TEST_RULES.coinLifetimes,
      memberId: member,
      kind: 'free',
      amount: 10,
      reason: 'operator_grant',
      counterAccount: 'promotion',
      idempotencyKey: k,
    });
    await expect(
      grantCoins(db, {
        lifetimeDays: TEST_RULES.coinLifetimes,
        memberId: member,
        kind: 'free',
        amount: 11,
        reason: 'operator_grant',
        counterAccount: 'promotion',
        idempotencyKey: k,
      }),
    ).rejects.toBeInstanceOf(IdempotencyKeyConflict);
    await expect(
      grantCoins(db, {
        lifetimeDays: TEST_RULES.coinLifetimes,
        memberId: member,
        kind: 'paid',
        amount: 10,
        reason: 'operator_grant',
        counterAccount: 'promotion',
        idempotencyKey: k,
      }),
    ).rejects.toBeInstanceOf(IdempotencyKeyConflict);
    expect((await getBalance(db, member)).total).toBe(10);
  });
});

describe('the draw with the session in the same call', () => {
  it('draws for a live session, and refuses unknown or expired ones; a session due for refresh goes the longer way', async () => {
    const db = handle.db;
    const gachaId = await createPublishedPack(db, { lots: 30, price: 10 });
    const member = await createMemberWithCoins(db, { paid: 100 });
    const session = async (daysLeft: number) => {
      const token = key().replaceAll('-', '');
      await db
        .insert(sessions)
        .values({ id: key(), token, userId: member, expiresAt: new Date(Date.now() + daysLeft * 86_400_000) });
      return token;
    };
    const fresh = await drawLotsForSession(db, {
      decisionDays: TEST_RULES.prizeDecisionDays,
      sessionToken: await session(30),
      gachaId,
      count: 1,
      idempotencyKey: key(),
    });
    expect(fresh).toMatchObject({ ok: true, result: { count: 1, cost: 10 } });
    expect(
      await drawLotsForSession(db, {
        decisionDays: TEST_RULES.prizeDecisionDays,
        sessionToken: await session(10),
        gachaId,
        count: 1,
        idempotencyKey: key(),
      }),
    ).toBe('refresh');
    expect(
      await drawLotsForSession(db, {
        decisionDays: TEST_RULES.prizeDecisionDays,
        sessionToken: 'no-such-token',
        gachaId,
        count: 1,
        idempotencyKey: key(),
      }),
    ).toMatchObject({ ok: false, code: 'UNAUTHENTICATED' });
    expect(
      await drawLotsForSession(db, {
        decisionDays: TEST_RULES.prizeDecisionDays,
        sessionToken: await session(-1),
        gachaId,
        count: 1,
        idempotencyKey: key(),
      }),
    ).toMatchObject({ ok: false, code: 'UNAUTHENTICATED' });
    expect((await getBalance(db, member)).paid).toBe(90);
  });
});
