// The beacon mode end to end on the database (decision 081): a draw is accepted with a receipt and no prize,
// its round is closed into the pack's chain of heads before the round exists, and the drand stand-in's real,
// verified beacon settles it exactly once — with the lots that anyone recomputes from public data alone.
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { useTestDatabase } from '#tests/use-test-database';
import { TEST_RECEIPT_SECRET, sleepUntil, useBeaconTestShop } from '#tests/beacon-shop';
import { createMemberWithCoins } from '#tests/fixtures';
import { scaledTimeout } from '#tests/settings';
import { queryRows } from '#db/client';
import { closeBeaconRounds, drawReceipt, getDrawResult, settleBeaconRounds } from '#modules/draw';
import {
  beaconCommitment,
  headHash,
  receiptHash,
  receiptPublicKey,
  settleDraws,
  settlementRound,
  signReceipt,
  verifyReceiptSignature,
} from '#modules/fairness';
import { checkInvariants } from '#modules/wallet';

const handle = useTestDatabase('beacon-draws');
const RECEIPT_SECRET = TEST_RECEIPT_SECRET;
// A round closes this long before its time; a head published less than HEAD_GUARD_MS (250) before the round
// settles with a later one, which a busy machine may cause: the tests check the rule, not the timing.
const CLOSE_MARGIN_MS = 700;

const shop = useBeaconTestShop(handle, 'beacon-draws', CLOSE_MARGIN_MS);
const { source, roundTime, verifiedBeacons, beaconPack, draw, settleAll } = shop;

describe('beacon-settled draws', () => {
  it(
    'accepts with a receipt and no prize, closes the round before it exists, settles it once with the verified beacon',
    async () => {
      const db = handle.db;
      const gachaId = await beaconPack(20, { lastOne: true });
      const member = await createMemberWithCoins(db, { paid: 10_000 });
      const accepted = await draw(member, gachaId, 3);
      expect(accepted.items).toEqual([]);
      expect(accepted.cost).toBe(30);
      expect(accepted.receipt).toMatchObject({ settled: false, afterHead: '', afterRound: 0 });
      expect(accepted.receipt!.slots).toHaveLength(3);
      // The target round is the first whose close is after the acceptance.
      const acceptedAt = Date.parse(accepted.receipt!.acceptedAt);
      const round = accepted.receipt!.round;
      expect(roundTime(round) - CLOSE_MARGIN_MS).toBeGreaterThan(acceptedAt);
      expect(roundTime(round - 1) - CLOSE_MARGIN_MS).toBeLessThanOrEqual(acceptedAt);
      expect(await checkInvariants(db)).toEqual([]);

      // The receipt the shop signs verifies against the key in the commitment.
      const receipt = (await drawReceipt(db, accepted.drawId))!;
      expect(receipt.slots).toEqual(accepted.receipt!.slots);
      const signature = signReceipt(receipt, RECEIPT_SECRET);
      expect(verifyReceiptSignature(receipt, signature, receiptPublicKey(RECEIPT_SECRET))).toBe(true);
      expect(
        verifyReceiptSignature({ ...receipt, round: round + 1 }, signature, receiptPublicKey(RECEIPT_SECRET)),
      ).toBe(false);
      const [pack] = await queryRows<{ commitment: string }>(
        db,
        sql`select commitment from gachas where id = ${gachaId}`,
      );
      expect(receipt.commitment).toBe(pack!.commitment);

      // Not closed before its close time; closed (once) after it, by any number of calls.
      expect(await closeBeaconRounds(db, roundTime(round) - CLOSE_MARGIN_MS - 1)).toBe(0);
      await sleepUntil(roundTime(round) - CLOSE_MARGIN_MS + 20);
      const closes = await Promise.all([closeBeaconRounds(db), closeBeaconRounds(db)]);
      expect(closes.reduce((a, b) => a + b, 0)).toBe(1);
      const [head] = await queryRows<{ head: string; prev_head: string; settle_round: number; published_at: Date }>(
        db,
        sql`select head, prev_head, settle_round::int, published_at from draw_beacon_heads where gacha_id = ${gachaId}`,
      );
      expect(head!.head).toBe(headHash('', round, [receiptHash(receipt)]));
      const publishedAt = new Date(head!.published_at).getTime();
      expect(publishedAt).toBeGreaterThanOrEqual(roundTime(round) - CLOSE_MARGIN_MS);
      expect(head!.settle_round).toBe(settlementRound(source(), round, publishedAt));
      const settleRound = head!.settle_round;
      // The round does not exist yet: nothing settles.
      const early = await settleBeaconRounds(db, verifiedBeacons, { decisionDays: 7, now: roundTime(settleRound) - 1 });
      expect(early).toEqual([]);

      await sleepUntil(roundTime(settleRound) + 20);
      const [first, second] = await Promise.all([
        settleBeaconRounds(db, verifiedBeacons, { decisionDays: 7 }),
        settleBeaconRounds(db, verifiedBeacons, { decisionDays: 7 }),
      ]);
      expect([...first!, ...second!].map((s) => s.drawIds)).toEqual([[accepted.drawId]]);

      // The lots are exactly what the public data gives: the verified beacon, the committed multiset, the draw id.
      const settled = (await getDrawResult(db, member, accepted.drawId))!;
      expect(settled.receipt!.settled).toBe(true);
      const expected = settleDraws(
        shop.drand.beacon(settleRound).randomness,
        gachaId,
        [
          { id: `${gachaId}.S`, remaining: 1 },
          { id: `${gachaId}.A`, remaining: 2 },
          { id: `${gachaId}.B`, remaining: 17 },
        ],
        [{ drawId: accepted.drawId, n: 3 }],
      ).tiers[0]!;
      const bySlot = [...settled.items].sort((a, b) => a.position! - b.position!).map((i) => i.tierId);
      expect(bySlot).toEqual(expected);
      expect(await checkInvariants(db)).toEqual([]);
    },
    scaledTimeout(60_000),
  );

  it(
    'sells out at acceptance, awards the ラストワン賞 and the キリ番賞 in the settled order, and chains the heads',
    async () => {
      const db = handle.db;
      const gachaId = await beaconPack(12, { lastOne: true, kiribanAt: [5] });
      const [a, b] = await Promise.all([
        createMemberWithCoins(db, { paid: 10_000 }),
        createMemberWithCoins(db, { paid: 10_000 }),
      ]);
      const first = await draw(a, gachaId, 3);
      await settleAll(gachaId);
      const second = await draw(b, gachaId, 10).catch(() => null);
      expect(second).toBeNull(); // 9 slots left: NOT_ENOUGH_LOTS, nothing taken
      const rest = await Promise.all([draw(b, gachaId, 3), draw(a, gachaId, 3), draw(b, gachaId, 3)]);
      const [pack] = await queryRows<{ status: string; revealed_at: Date | null }>(
        db,
        sql`select status, revealed_at from gachas where id = ${gachaId}`,
      );
      expect(pack!.status).toBe('sold_out');
      expect(pack!.revealed_at).toBeNull();
      expect(await checkInvariants(db)).toEqual([]);
      await settleAll(gachaId);

      const heads = await queryRows<{ round: number; head: string; prev_head: string }>(
        db,
        sql`select round::int, head, prev_head from draw_beacon_heads where gacha_id = ${gachaId} order by round`,
      );
      expect(heads.length).toBeGreaterThanOrEqual(2);
      for (let i = 1; i < heads.length; i++) expect(heads[i]!.prev_head).toBe(heads[i - 1]!.head);
      const later = await Promise.all(rest.map((r) => drawReceipt(db, r.drawId)));
      for (const receipt of later) expect(receipt!.afterHead).toBe(heads[0]!.head);

      const prizes = await queryRows<{ draw_id: string; tier_id: string; kiriban_no: number | null }>(
        db,
        sql`select draw_id, tier_id, kiriban_no from prizes where gacha_id = ${gachaId} and position is null`,
      );
      expect(prizes.filter((p) => p.tier_id.endsWith('.LO'))).toHaveLength(1);
      expect(prizes.filter((p) => p.kiriban_no === 5)).toHaveLength(1);
      // キリ番 5 is the 5th lot in the settled order: the first draw settled lots 1–3, so a later draw got it.
      expect(prizes.find((p) => p.kiriban_no === 5)!.draw_id).not.toBe(first.drawId);
      const [revealed] = await queryRows<{ revealed_at: Date | null }>(
        db,
        sql`select revealed_at from gachas where id = ${gachaId}`,
      );
      expect(revealed!.revealed_at).not.toBeNull();
      expect(await checkInvariants(db)).toEqual([]);
    },
    scaledTimeout(90_000),
  );

  it(
    'leaves a draw 抽選中 while the beacon is wrong or missing, and settles it with a later round when closed late',
    async () => {
      const db = handle.db;
      const gachaId = await beaconPack(10);
      const member = await createMemberWithCoins(db, { paid: 10_000 });
      const accepted = await draw(member, gachaId, 1);
      const round = accepted.receipt!.round;
      // Closed late: after the round's time, so the head names a later round to settle with.
      await sleepUntil(roundTime(round) + 50);
      expect(await closeBeaconRounds(db)).toBe(1);
      const [head] = await queryRows<{ settle_round: number }>(
        db,
        sql`select settle_round::int from draw_beacon_heads where gacha_id = ${gachaId}`,
      );
      expect(head!.settle_round).toBeGreaterThan(round);
      // A relay answering with another key's signatures: refused by verification, nothing settles.
      shop.drand.wrong('other-key');
      await sleepUntil(roundTime(head!.settle_round) + 20);
      expect(await settleBeaconRounds(db, verifiedBeacons, { decisionDays: 7 })).toEqual([]);
      shop.drand.normal();
      // A beacon that is not the committed chain's round (a forgery handed straight in) is never asked for:
      // the settlement asks only for the head's settlement round.
      const asked: number[] = [];
      const settled = await settleBeaconRounds(
        db,
        async (terms, r) => {
          asked.push(r);
          return verifiedBeacons(terms, r);
        },
        { decisionDays: 7 },
      );
      expect(asked).toEqual([head!.settle_round]);
      expect(settled.map((s) => s.drawIds)).toEqual([[accepted.drawId]]);
      const result = (await getDrawResult(db, member, accepted.drawId))!;
      const expected = settleDraws(
        shop.drand.beacon(head!.settle_round).randomness,
        gachaId,
        [
          { id: `${gachaId}.S`, remaining: 1 },
          { id: `${gachaId}.A`, remaining: 2 },
          { id: `${gachaId}.B`, remaining: 7 },
        ],
        [{ drawId: accepted.drawId, n: 1 }],
      ).tiers[0]!;
      expect(result.items.map((i) => i.tierId)).toEqual(expected);
      expect(await checkInvariants(db)).toEqual([]);
    },
    scaledTimeout(60_000),
  );

  it('commits to the multiset, the chain and the receipts key (oripa-commitment-b1)', async () => {
    const db = handle.db;
    const gachaId = await beaconPack(8);
    const [pack] = await queryRows<{ commitment: string; title: string }>(
      db,
      sql`select commitment, title from gachas where id = ${gachaId}`,
    );
    const tiers = await queryRows<{
      id: string;
      label: string;
      card_name: string;
      quantity: number;
      conversion_value: number;
    }>(db, sql`select id, label, card_name, quantity, conversion_value from gacha_tiers where gacha_id = ${gachaId}`);
    expect(pack!.commitment).toBe(
      beaconCommitment({
        gachaId,
        title: pack!.title,
        pricePerDraw: 10,
        tiers: tiers.map((t) => ({
          id: t.id,
          label: t.label,
          cardName: t.card_name,
          quantity: t.quantity,
          conversionValue: t.conversion_value,
          isLastOne: false,
        })),
        beacon: source(),
        receiptKey: receiptPublicKey(RECEIPT_SECRET),
        certificates: [],
      }),
    );
    const [slots] = await queryRows<{ n: number; tiered: number }>(
      db,
      sql`select count(*)::int as n, count(tier_id)::int as tiered from gacha_lots where gacha_id = ${gachaId}`,
    );
    expect(slots).toEqual({ n: 8, tiered: 0 });
  });
});
