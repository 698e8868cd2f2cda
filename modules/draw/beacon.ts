// The beacon mode's rounds (decision 081): closing a round (the set of receipts fixed and its head published
// before the round's randomness exists), settling it with the verified drand beacon, and each draw's receipt as
// the shop signs it. Any instance may run either step at any time: the pack's round lock (advisory 81/no)
// serialises closes against the draws still accepting, and the head row makes a settlement happen once.
import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { queryRows, type Database } from '#db/client';
import { beaconPackTerms, countUnclaimed, releaseStockOfSettledBeaconPack, type BeaconPackTerms } from '#modules/gacha';
import {
  anonymiseMember,
  headHash,
  receiptHash,
  settleDraws,
  settlementRound,
  type BeaconDrawProof,
  type DrawReceipt,
} from '#modules/fairness';
import type { Beacon } from '#modules/beacon';
import { drawBeaconHeads, drawReceipts } from './schema';

const ROUND_LOCK = 81;

const isoMs = (at: Date | string) => new Date(at).toISOString();
const closeTime = (terms: BeaconPackTerms, round: number) =>
  (terms.source.genesisTime + (round - 1) * terms.source.period) * 1000 - terms.closeMarginMs;
const roundTime = (terms: BeaconPackTerms, round: number) =>
  (terms.source.genesisTime + (round - 1) * terms.source.period) * 1000;

type ReceiptRow = typeof drawReceipts.$inferSelect;

/** A stored receipt as the shop signs it (the member's id becomes the pack's pseudonym). */
export function receiptOfRow(terms: BeaconPackTerms, row: ReceiptRow): DrawReceipt {
  return {
    gachaId: terms.gachaId,
    commitment: terms.commitment,
    drawId: row.drawId,
    member: anonymiseMember(row.memberId, terms.revealSalt),
    slots: [...row.slots].sort((a, b) => a - b),
    acceptedAt: isoMs(row.acceptedAt),
    round: Number(row.round),
    afterHead: row.afterHead,
    afterRound: Number(row.afterRound),
  };
}

/**
 * The receipt of a beacon draw as the shop signs it (oripa-receipt-v1), or null for a draw of a sequence pack.
 * @example const receipt = await drawReceipt(db, drawId); if (receipt) signReceipt(receipt, key)
 */
export async function drawReceipt(db: Database, drawId: string): Promise<DrawReceipt | null> {
  const [row] = await db.select().from(drawReceipts).where(eq(drawReceipts.drawId, drawId));
  if (!row) return null;
  const terms = (await beaconPackTerms(db, [row.gachaId])).get(row.gachaId);
  return terms ? receiptOfRow(terms, row) : null;
}

/**
 * Closes every round whose close time has passed and which holds receipts not yet in a head: per pack, under the
 * pack's round lock taken exclusively (it waits for every draw that may still target the round, and every draw
 * after it reads a later clock and the new head), reads the clock, then writes one head per round in the pack's
 * chain (oripa-chain-v1) and the receipts' hashes — a few statements, so accepting draws wait for it briefly. A
 * head published too late for its own round names a later settlement round. Answers the heads written.
 * @example await closeBeaconRounds(db) // → 2
 */
export async function closeBeaconRounds(db: Database, now: number = Date.now()): Promise<number> {
  const open = await db
    .select({ gachaId: drawReceipts.gachaId, round: sql<string>`min(${drawReceipts.round})` })
    .from(drawReceipts)
    .where(isNull(drawReceipts.receiptHash))
    .groupBy(drawReceipts.gachaId);
  if (open.length === 0) return 0;
  const packs = await beaconPackTerms(
    db,
    open.map((o) => o.gachaId),
  );
  let written = 0;
  for (const { gachaId, round } of open) {
    const terms = packs.get(gachaId);
    if (!terms || closeTime(terms, Number(round)) > now) continue;
    written += await writeHeads(db, terms);
  }
  return written;
}

/**
 * The heads of the pack's rounds that have closed, under the round lock, with the clock read under it. The
 * receipts' hashes (their pseudonyms and SHA-256, ~0.1 s for 3,000) are computed before the lock: a receipt's
 * fields never change once accepted, so only the receipts accepted in between are hashed while draws wait.
 */
async function writeHeads(db: Database, terms: BeaconPackTerms): Promise<number> {
  const unhashed = await db
    .select()
    .from(drawReceipts)
    .where(and(eq(drawReceipts.gachaId, terms.gachaId), isNull(drawReceipts.receiptHash)));
  const known = new Map(unhashed.map((row) => [row.drawId, receiptHash(receiptOfRow(terms, row))]));
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${ROUND_LOCK}, ${terms.no})`);
    // The clock after the lock: every draw that could still target a round closing by now has committed.
    const [clock] = await queryRows<{ at: string }>(
      tx,
      sql`select to_char(date_trunc('milliseconds', clock_timestamp()) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at`,
    );
    const at = Date.parse(clock!.at);
    const rows = await tx
      .select()
      .from(drawReceipts)
      .where(and(eq(drawReceipts.gachaId, terms.gachaId), isNull(drawReceipts.receiptHash)))
      .orderBy(asc(drawReceipts.round));
    const due = rows.filter((r) => closeTime(terms, Number(r.round)) <= at);
    if (due.length === 0) return 0;
    const [last] = await tx
      .select({ head: drawBeaconHeads.head })
      .from(drawBeaconHeads)
      .where(eq(drawBeaconHeads.gachaId, terms.gachaId))
      .orderBy(desc(drawBeaconHeads.round))
      .limit(1);
    let prev = last?.head ?? '';
    const rounds = [...new Set(due.map((r) => Number(r.round)))].sort((a, b) => a - b);
    const hashed: { drawId: string; hash: string }[] = [];
    const heads: (typeof drawBeaconHeads.$inferInsert)[] = [];
    for (const r of rounds) {
      const receipts = due
        .filter((x) => Number(x.round) === r)
        .sort((a, b) => Math.min(...a.slots) - Math.min(...b.slots));
      const hashes = receipts.map((x) => known.get(x.drawId) ?? receiptHash(receiptOfRow(terms, x)));
      const head = headHash(prev, r, hashes);
      heads.push({
        gachaId: terms.gachaId,
        round: r,
        head,
        prevHead: prev,
        receipts: receipts.length,
        publishedAt: new Date(at),
        settleRound: settlementRound(terms.source, r, at),
      });
      receipts.forEach((x, i) => hashed.push({ drawId: x.drawId, hash: hashes[i]! }));
      prev = head;
    }
    // Every head in one statement, every receipt's hash in another.
    await tx.insert(drawBeaconHeads).values(heads);
    await tx.execute(
      sql`update ${drawReceipts} r set receipt_hash = u.hash
            from jsonb_to_recordset(${JSON.stringify(hashed)}::jsonb) as u("drawId" uuid, hash text)
           where r.draw_id = u."drawId"`,
    );
    return rounds.length;
  });
}

/** A verified beacon of a chain's round, or null when it is not available (yet). The caller verifies. */
export type BeaconOfRound = (chain: BeaconPackTerms['source'], round: number) => Promise<Beacon | null>;

export interface SettleOptions {
  /** Days a prize waits for the member's choice (PRIZE_DECISION_DAYS). */
  decisionDays: number;
  now?: number;
}

export interface SettledRound {
  gachaId: string;
  round: number;
  settleRound: number;
  drawIds: string[];
}

/**
 * Settles every closed head whose settlement round's time has passed and whose beacon `beaconOf` gives
 * (verified against the pack's committed chain), pack by pack in head order: the lock on the head first, then
 * the remaining multiset, then oripa-beacon-select-v1, then draw_settle_round writes it all in the same
 * transaction. A head whose beacon is missing waits, and so do the pack's later heads. Answers what was settled.
 * @example await settleBeaconRounds(db, beaconOf, { decisionDays: 7 })
 */
export async function settleBeaconRounds(
  db: Database,
  beaconOf: BeaconOfRound,
  options: SettleOptions,
): Promise<SettledRound[]> {
  const now = options.now ?? Date.now();
  const heads = await db
    .select()
    .from(drawBeaconHeads)
    .where(isNull(drawBeaconHeads.settledAt))
    .orderBy(asc(drawBeaconHeads.gachaId), asc(drawBeaconHeads.round));
  if (heads.length === 0) return [];
  const packs = await beaconPackTerms(db, [...new Set(heads.map((h) => h.gachaId))]);
  const beacons = new Map<string, Beacon | null>();
  const beaconFor = async (terms: BeaconPackTerms, round: number) => {
    const key = `${terms.source.chainHash}:${round}`;
    if (!beacons.has(key)) beacons.set(key, await beaconOf(terms.source, round));
    return beacons.get(key) ?? null;
  };
  const settled: SettledRound[] = [];
  const blocked = new Set<string>();
  for (const head of heads) {
    const terms = packs.get(head.gachaId);
    if (!terms || blocked.has(head.gachaId)) continue;
    const settleRound = Number(head.settleRound);
    const beacon = roundTime(terms, settleRound) <= now ? await beaconFor(terms, settleRound) : null;
    if (!beacon) {
      blocked.add(head.gachaId);
      continue;
    }
    const result = await settleHead(db, terms, Number(head.round), beacon, options.decisionDays);
    if (result === 'waiting') blocked.add(head.gachaId);
    else if (result) settled.push({ gachaId: head.gachaId, round: Number(head.round), settleRound, drawIds: result });
  }
  return settled;
}

async function settleHead(
  db: Database,
  terms: BeaconPackTerms,
  round: number,
  beacon: Beacon,
  decisionDays: number,
): Promise<string[] | 'waiting' | null> {
  return db.transaction(async (tx) => {
    const [head] = await tx
      .select()
      .from(drawBeaconHeads)
      .where(and(eq(drawBeaconHeads.gachaId, terms.gachaId), eq(drawBeaconHeads.round, round)))
      .for('update');
    if (!head || head.settledAt) return null;
    // Earlier heads first: their settlement changes what remains for this one.
    const [earlier] = await tx
      .select({ round: drawBeaconHeads.round })
      .from(drawBeaconHeads)
      .where(
        and(
          eq(drawBeaconHeads.gachaId, terms.gachaId),
          isNull(drawBeaconHeads.settledAt),
          sql`${drawBeaconHeads.round} < ${round}`,
        ),
      )
      .limit(1);
    if (earlier) return 'waiting';
    const receipts = (
      await tx
        .select()
        .from(drawReceipts)
        .where(and(eq(drawReceipts.gachaId, terms.gachaId), eq(drawReceipts.round, round)))
    ).sort((a, b) => Math.min(...a.slots) - Math.min(...b.slots));
    const remaining = (await countUnclaimed(tx, terms.gachaId, 'beacon')).byTier;
    const selection = settleDraws(
      beacon.randomness,
      terms.gachaId,
      [...remaining].map(([id, n]) => ({ id, remaining: n })),
      receipts.map((r) => ({ drawId: r.drawId, n: r.slots.length })),
    );
    const draws = receipts.map((r, i) => ({ drawId: r.drawId, tiers: selection.tiers[i]! }));
    const [answer] = await queryRows<{ r: { status: string; draws?: string[]; releaseStock?: boolean } }>(
      tx,
      sql`select draw_settle_round(${terms.gachaId}::text, ${round}::bigint, ${beacon.signature}::text,
        ${beacon.randomness}::text, ${JSON.stringify(draws)}::jsonb, ${`${decisionDays} days`}::interval, null) as r`,
    );
    const outcome = answer!.r;
    if (outcome.status === 'waiting') return 'waiting';
    if (outcome.status !== 'settled') return null;
    if (outcome.releaseStock) await releaseStockOfSettledBeaconPack(tx, terms.gachaId, new Date());
    return outcome.draws ?? [];
  });
}

/**
 * The settled draws whose member has not been told yet and whose settlement came later than the reveal waits
 * (`lateMs` after the round's time): the caller mails each member once and marks them (markReceiptsNotified).
 */
export async function lateSettledReceipts(
  db: Database,
  lateMs: number,
): Promise<{ drawId: string; memberId: string; gachaId: string }[]> {
  return queryRows(
    db,
    sql`select r.draw_id as "drawId", r.member_id as "memberId", r.gacha_id as "gachaId"
          from ${drawReceipts} r
         where r.settled_at is not null and r.notified_at is null
           and r.settled_at > r.accepted_at + make_interval(secs => ${lateMs / 1000})
         order by r.settled_at limit 200`,
  );
}

/** Marks receipts as told (in the caller's transaction, with the mail). */
export async function markReceiptsNotified(db: Database, drawIds: string[], at = new Date()): Promise<void> {
  if (drawIds.length === 0) return;
  await db.update(drawReceipts).set({ notifiedAt: at }).where(inArray(drawReceipts.drawId, drawIds));
}

/**
 * The public data that proves one beacon draw (its receipt, the pack's committed terms, its head, the chain from
 * the head it names to its own, and once settled the beacon; none of it names a member), with the pack's close
 * margin. One read of the receipt and one of the terms. Null for other draws.
 * @example const proof = await beaconDrawProof(db, drawId)
 */
export async function beaconDrawProof(
  db: Database,
  drawId: string,
): Promise<(BeaconDrawProof & { closeMarginMs: number }) | null> {
  const [row] = await db.select().from(drawReceipts).where(eq(drawReceipts.drawId, drawId));
  if (!row) return null;
  const terms = (await beaconPackTerms(db, [row.gachaId])).get(row.gachaId);
  if (!terms) return null;
  const round = Number(row.round);
  const heads = await db
    .select()
    .from(drawBeaconHeads)
    .where(
      and(
        eq(drawBeaconHeads.gachaId, row.gachaId),
        sql`${drawBeaconHeads.round} > ${Number(row.afterRound)} and ${drawBeaconHeads.round} <= ${round}`,
      ),
    )
    .orderBy(asc(drawBeaconHeads.round));
  const own = heads.find((h) => Number(h.round) === round);
  const base = {
    receipt: receiptOfRow(terms, row),
    terms: {
      gachaId: terms.gachaId,
      title: terms.title,
      pricePerDraw: terms.pricePerDraw,
      tiers: terms.tiers,
      beacon: terms.source,
      receiptKey: terms.receiptKey,
      certificates: terms.certificates,
    },
    closeMarginMs: terms.closeMarginMs,
  };
  if (!own) return { ...base, head: null, path: [], settlement: null };
  const hashes = (
    await db
      .select({ slots: drawReceipts.slots, hash: drawReceipts.receiptHash })
      .from(drawReceipts)
      .where(and(eq(drawReceipts.gachaId, row.gachaId), eq(drawReceipts.round, round)))
  ).sort((a, b) => Math.min(...a.slots) - Math.min(...b.slots));
  const settled = own.settledAt && own.beaconSignature && own.beaconRandomness;
  return {
    ...base,
    head: {
      round,
      head: own.head,
      prevHead: own.prevHead,
      publishedAt: isoMs(own.publishedAt),
      settleRound: Number(own.settleRound),
      receiptHashes: hashes.map((m) => m.hash ?? ''),
    },
    path: heads.map((h) => ({ round: Number(h.round), head: h.head, prevHead: h.prevHead })),
    settlement: settled
      ? {
          beacon: {
            round: Number(own.settleRound),
            signature: own.beaconSignature!,
            randomness: own.beaconRandomness!,
          },
        }
      : null,
  };
}
