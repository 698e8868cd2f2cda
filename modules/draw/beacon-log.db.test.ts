// The public draw log of a beacon pack on the database (decision 081): what a verifier needs and nothing
// private, page by page while draws arrive, each stage (accepted, closed, settled) verifiable by the same code
// as verify-pack and the member's phone — with the drand stand-in's real beacons.
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { useTestDatabase } from '#tests/use-test-database';
import { TEST_RECEIPT_SECRET, useBeaconTestShop } from '#tests/beacon-shop';
import { createMemberWithCoins, createPublishedPack } from '#tests/fixtures';
import { scaledTimeout } from '#tests/settings';
import { queryRows } from '#db/client';
import { beaconDrawLog, getDrawResult } from '#modules/draw';
import {
  BEACON_CHECK_NAMES,
  anonymiseMember,
  mergeBeaconLogPages,
  readBeaconLog,
  signReceipt,
  verifyBeaconDraw,
  verifyBeaconLog,
  type BeaconLog,
  type BeaconLogPage,
} from '#modules/fairness';
import { isRefusal } from '#modules/kernel';

const handle = useTestDatabase('beacon-log');
const RECEIPT_SECRET = TEST_RECEIPT_SECRET;
const CLOSE_MARGIN_MS = 700;
const sign = (receipt: Parameters<typeof signReceipt>[0]) => signReceipt(receipt, RECEIPT_SECRET);

const shop = useBeaconTestShop(handle, 'beacon-log', CLOSE_MARGIN_MS);
const { roundTime, beaconPack, draw, closeAll, settleAll } = shop;
const trusted = () => ({ trustedChains: [shop.drand.info] });

async function page(gachaId: string, after = 0, limit = 100): Promise<BeaconLogPage> {
  const answer = await beaconDrawLog(handle.db, gachaId, { after, limit, sign });
  if (isRefusal(answer)) throw new Error(`refused: ${answer.code}`);
  return answer;
}

/** The whole log, fetched `limit` receipts a page as a tracker would. */
async function wholeLog(gachaId: string, limit = 2): Promise<BeaconLog> {
  const parsed = await readBeaconLog((after) => page(gachaId, after, limit));
  if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
  return parsed.log;
}

const failed = (log: unknown) =>
  verifyBeaconLog(log, trusted())
    .checks.filter((c) => !c.ok)
    .map((c) => `${c.name}: ${c.detail}`);

describe('the public draw log of a beacon pack', () => {
  it(
    'shows a receipt accepted, closed and settled, each stage verifiable, with pseudonyms only',
    async () => {
      const db = handle.db;
      const gachaId = await beaconPack(12, { lastOne: true, kiribanAt: [4] });
      const [a, b] = await Promise.all([
        createMemberWithCoins(db, { paid: 10_000 }),
        createMemberWithCoins(db, { paid: 10_000 }),
      ]);
      const first = await draw(a, gachaId, 3);
      const second = await draw(b, gachaId, 2);

      // Accepted: not yet in a head, visible as pending on the (only) page, signed, verifiable.
      const accepted = await page(gachaId);
      expect(accepted.items).toEqual([]);
      expect(accepted.nextAfter).toBeNull();
      expect(accepted.pending.map((e) => e.receipt.drawId).sort()).toEqual([first.drawId, second.drawId].sort());
      expect(accepted.pending.every((e) => e.seq === null && !e.settled && e.tiers === null)).toBe(true);
      expect(accepted.remaining).toMatchObject({ pendingReceipts: 2, pendingLots: 5, unclaimedSlots: 7, lots: 12 });
      expect(failed(accepted)).toEqual([]);

      // Member ids never appear; each member has one pseudonym in this pack, A's differs from B's.
      const text = JSON.stringify(accepted);
      expect(text).not.toContain(a);
      expect(text).not.toContain(b);
      const [{ salt }] = await queryRows<{ salt: string }>(
        db,
        sql`select reveal_salt as salt from gacha_secrets where gacha_id = ${gachaId}`,
      );
      const memberOf = (drawId: string) => accepted.pending.find((e) => e.receipt.drawId === drawId)!.receipt.member;
      expect(memberOf(first.drawId)).toBe(anonymiseMember(a, salt!));
      expect(memberOf(second.drawId)).toBe(anonymiseMember(b, salt!));
      expect(memberOf(first.drawId)).not.toBe(memberOf(second.drawId));

      // Closed: in a head, numbered, not settled yet (抽選中), still verifiable.
      await closeAll(gachaId);
      const closed = await wholeLog(gachaId, 1);
      expect(closed.items.map((e) => e.seq)).toEqual([1, 2]);
      expect(closed.items.every((e) => !e.settled)).toBe(true);
      expect(closed.heads).toHaveLength(1);
      expect(closed.heads[0]).toMatchObject({ settled: false, beacon: null, prevHead: '' });
      expect(failed(closed)).toEqual([]);
      const waiting = verifyBeaconDraw({ log: closed, drawId: first.drawId, ...trusted() });
      expect(waiting).toMatchObject({ ok: true, closed: true, settled: false, lots: null });

      // Settled: the lots, sale numbers and キリ番 are published and recompute from the beacon.
      await settleAll(gachaId);
      const settled = await wholeLog(gachaId, 1);
      expect(failed(settled)).toEqual([]);
      const firstEntry = settled.items.find((e) => e.receipt.drawId === first.drawId)!;
      const result = (await getDrawResult(db, a, first.drawId))!;
      const bySlot = [...result.items].filter((i) => i.position !== null).sort((x, y) => x.position! - y.position!);
      expect(firstEntry.tiers).toEqual(bySlot.map((i) => i.tierId));
      expect(settled.items.flatMap((e) => e.saleNumbers)).toEqual([1, 2, 3, 4, 5]);
      expect(settled.items.flatMap((e) => e.kiriban)).toEqual([4]);
      expect(settled.remaining).toMatchObject({ settledReceipts: 2, settledLots: 5, lots: 7, unclaimedSlots: 7 });
      const ownCheck = verifyBeaconDraw({
        log: settled,
        drawId: first.drawId,
        phone: {
          receipt: firstEntry.receipt,
          signature: sign(firstEntry.receipt),
          receivedAt: roundTime(firstEntry.receipt.round) - CLOSE_MARGIN_MS,
        },
        ...trusted(),
      });
      expect(ownCheck.checks.filter((c) => !c.ok)).toEqual([]);
      expect(ownCheck).toMatchObject({ ok: true, settled: true, lots: firstEntry.tiers });
    },
    scaledTimeout(90_000),
  );

  it(
    'pages by sequence number, stably while draws arrive and settle, to a sold-out pack with its ラストワン賞',
    async () => {
      const db = handle.db;
      const gachaId = await beaconPack(8, { lastOne: true });
      const [a, b] = await Promise.all([
        createMemberWithCoins(db, { paid: 10_000 }),
        createMemberWithCoins(db, { paid: 10_000 }),
      ]);
      await Promise.all([draw(a, gachaId, 1), draw(b, gachaId, 2)]);
      await settleAll(gachaId);
      const early = await page(gachaId, 0, 1);
      expect(early.items.map((e) => e.seq)).toEqual([1]);
      expect(early.nextAfter).toBe(1);

      // More draws arrive and settle: the first page reads the same, the next pages continue it.
      await Promise.all([draw(a, gachaId, 2), draw(b, gachaId, 3)]);
      await settleAll(gachaId);
      const again = await page(gachaId, 0, 1);
      expect(again.items.map((e) => [e.seq, e.receipt.drawId, e.hash])).toEqual(
        early.items.map((e) => [e.seq, e.receipt.drawId, e.hash]),
      );
      const rest = [];
      for (let after: number | null = early.nextAfter; after !== null;) {
        const next = await page(gachaId, after, 1);
        rest.push(next);
        after = next.nextAfter;
      }
      const { log, stale } = mergeBeaconLogPages([early, ...rest]);
      expect(stale).toEqual([]);
      expect(log.items.map((e) => e.seq)).toEqual([1, 2, 3, 4]);
      expect(log.remaining).toMatchObject({ lots: 0, unclaimedSlots: 0, returnRatePercent: null });
      expect(log.items.filter((e) => e.lastOne)).toHaveLength(1);
      expect(log.items[log.items.length - 1]!.lastOne).toBe(true);
      expect(failed(log)).toEqual([]);
      expect(log.heads.length).toBeGreaterThanOrEqual(2);

      // A page past the end is empty and last; its pack, counts and heads are still the pack's.
      const past = await page(gachaId, 99);
      expect(past).toMatchObject({ items: [], heads: [], nextAfter: null, pending: [] });
    },
    scaledTimeout(120_000),
  );

  it('refuses a pack that is not a beacon pack, and one that is not public, with their own codes', async () => {
    const db = handle.db;
    const sequencePack = await createPublishedPack(db, { lots: 5, price: 10 });
    const notBeacon = await beaconDrawLog(db, sequencePack, { after: 0, limit: 10, sign });
    expect(isRefusal(notBeacon) && notBeacon.code).toBe('DRAW_LOG_NOT_FOUND');
    const unknown = await beaconDrawLog(db, 'no-such-pack', { after: 0, limit: 10, sign });
    expect(isRefusal(unknown) && unknown.code).toBe('GACHA_NOT_FOUND');
  });

  it(
    'publishes what a verifier catches: a receipt signed with another key fails 受付票の署名',
    async () => {
      const db = handle.db;
      const gachaId = await beaconPack(5);
      const member = await createMemberWithCoins(db, { paid: 1_000 });
      await draw(member, gachaId, 1);
      const otherKey = 'ab'.repeat(32);
      const forged = await beaconDrawLog(db, gachaId, {
        after: 0,
        limit: 10,
        sign: (receipt) => signReceipt(receipt, otherKey),
      });
      expect(isRefusal(forged)).toBe(false);
      expect(
        verifyBeaconLog(forged, trusted())
          .checks.filter((c) => !c.ok)
          .map((c) => c.name),
      ).toEqual([BEACON_CHECK_NAMES.signatures]);
    },
    scaledTimeout(30_000),
  );
});
