// The public draw log of a beacon pack (decision 081; oripa-beacon-log/1, docs/formats/reveal-formats.md part
// B): what a verifier needs and nothing private — the committed terms, the heads, every receipt signed with its
// result once settled, the remaining lots and their 還元率 — a page at a time by sequence number. Members appear
// only as their pseudonym in the pack. The caller signs: this module never holds the receipts' secret key.
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { queryRows, type Database } from '#db/client';
import { refuse, type Refusal } from '#modules/kernel';
import { beaconPackTerms, countUnclaimed, getGacha, type BeaconPackTerms } from '#modules/gacha';
import {
  BEACON_LOG_FORMAT,
  BEACON_LOG_MAX_PAGE,
  BEACON_LOG_PENDING_LIMIT,
  receiptHash,
  remainingLots,
  type BeaconLogEntry,
  type BeaconLogHead,
  type BeaconLogPage,
  type DrawReceipt,
} from '#modules/fairness';
import { drawBeaconHeads, drawReceipts, prizes } from './schema';
import { receiptOfRow } from './beacon';

export const DRAW_LOG_REFUSAL_CODES = ['GACHA_NOT_FOUND', 'DRAW_LOG_NOT_FOUND'] as const;
export type DrawLogRefusalCode = (typeof DRAW_LOG_REFUSAL_CODES)[number];

/** The shop's Ed25519 signature of a receipt (hex) by the key its pack committed to (`committedKey`), made by the server. */
export type ReceiptSigner = (receipt: DrawReceipt, committedKey: string) => string;

/** The most receipts one page holds. */
export const DRAW_LOG_MAX_PAGE = BEACON_LOG_MAX_PAGE;

export interface DrawLogQuery {
  /** Receipts with seq > after (0: from the first). */
  after: number;
  /** 1 … DRAW_LOG_MAX_PAGE. */
  limit: number;
  sign: ReceiptSigner;
}

type ReceiptRow = typeof drawReceipts.$inferSelect;
interface HeadRow {
  round: string | number;
  head: string;
  prev_head: string;
  receipts: number;
  published_at: string | Date;
  settle_round: string | number;
  settled_at: string | Date | null;
  beacon_signature: string | null;
  beacon_randomness: string | null;
  through: string | number;
}

const isoMs = (at: Date | string) => new Date(at).toISOString();
const firstSlot = (row: ReceiptRow) => Math.min(...row.slots);
const byChainOrder = (a: ReceiptRow, b: ReceiptRow) => Number(a.round) - Number(b.round) || firstSlot(a) - firstSlot(b);

function headOf(row: HeadRow): BeaconLogHead {
  const settled = row.settled_at !== null;
  return {
    round: Number(row.round),
    head: row.head,
    prevHead: row.prev_head,
    receipts: Number(row.receipts),
    publishedAt: isoMs(row.published_at),
    settleRound: Number(row.settle_round),
    settled,
    beacon:
      settled && row.beacon_signature && row.beacon_randomness
        ? { round: Number(row.settle_round), signature: row.beacon_signature, randomness: row.beacon_randomness }
        : null,
  };
}

/**
 * One page of a beacon pack's public draw log: the receipts with seq after `after` (at most `limit`), their
 * heads, the pack's committed terms, the remaining lots and their 還元率, and on the last page the receipts not
 * yet in a head. One snapshot (repeatable read): a page never shows a result its `remaining` does not count.
 * Seqs never change once given (heads are only appended, in round order), so paging by `after` is stable while
 * draws arrive. Refuses GACHA_NOT_FOUND (no public pack) and DRAW_LOG_NOT_FOUND (not a beacon pack).
 * @example const page = await beaconDrawLog(db, 'night-beacon-001', { after: 0, limit: 100, sign })
 */
export async function beaconDrawLog(
  db: Database,
  gachaId: string,
  query: DrawLogQuery,
): Promise<BeaconLogPage | Refusal<DrawLogRefusalCode>> {
  if (!(await getGacha(db, gachaId))) return refuse('GACHA_NOT_FOUND');
  const terms = (await beaconPackTerms(db, [gachaId])).get(gachaId);
  if (!terms) return refuse('DRAW_LOG_NOT_FOUND');
  const limit = Math.min(Math.max(1, query.limit), DRAW_LOG_MAX_PAGE);
  const after = Math.max(0, query.after);
  const page = await db.transaction((tx) => readPage(tx, terms, after, limit), {
    isolationLevel: 'repeatable read',
    accessMode: 'read only',
  });
  const entryOf = (row: ReceiptRow, seq: number | null, hash: string | null): BeaconLogEntry => {
    const receipt = receiptOfRow(terms, row);
    const won = page.won.get(row.drawId);
    return {
      seq,
      receipt,
      signature: query.sign(receipt, terms.receiptKey),
      hash: hash ?? receiptHash(receipt),
      settled: row.settledAt !== null,
      tiers: won ? won.tiers : null,
      saleNumbers: won ? won.saleNumbers : null,
      kiriban: won?.kiriban ?? [],
      lastOne: won?.lastOne ?? false,
    };
  };
  const tiers = terms.tiers;
  return {
    format: BEACON_LOG_FORMAT,
    generatedAt: new Date().toISOString(),
    pack: {
      id: terms.gachaId,
      title: terms.title,
      pricePerDraw: terms.pricePerDraw,
      totalLots: terms.totalLots,
      status: terms.status,
      commitment: terms.commitment,
      committedAt: isoMs(terms.committedAt),
      tiers,
      beacon: terms.source,
      receiptKey: terms.receiptKey,
      // Grading certificates are committed to from the pack editor's certificates on (issue 33 item 8): none yet.
      certificates: terms.certificates,
      closeMarginMs: terms.closeMarginMs,
    },
    heads: page.heads,
    items: page.items.map(({ row, seq }) => entryOf(row, seq, row.receiptHash)),
    pending: page.pending.map((row) => entryOf(row, null, null)),
    remaining: remainingLots(
      { tiers, pricePerDraw: terms.pricePerDraw, totalLots: terms.totalLots },
      page.wonByTier,
      page.counts,
    ),
    nextAfter: after + page.items.length < page.chained ? after + page.items.length : null,
  };
}

interface Won {
  tiers: string[];
  saleNumbers: number[];
  kiriban: number[];
  lastOne: boolean;
}

/** Everything of one page, read in the caller's snapshot. */
async function readPage(db: Database, terms: BeaconPackTerms, after: number, limit: number) {
  const gachaId = terms.gachaId;
  const [totals] = await queryRows<{ chained: number; settled: number }>(
    db,
    sql`select coalesce(sum(receipts), 0)::int as chained,
               coalesce(sum(receipts) filter (where settled_at is not null), 0)::int as settled
          from ${drawBeaconHeads} where gacha_id = ${gachaId}`,
  );
  // The heads whose receipts fall on this page: `through` is the seq of each head's last receipt.
  const headRows = await queryRows<HeadRow>(
    db,
    sql`select * from (
          select h.round, h.head, h.prev_head, h.receipts, h.published_at, h.settle_round, h.settled_at,
                 h.beacon_signature, h.beacon_randomness, sum(h.receipts) over (order by h.round) as through
            from ${drawBeaconHeads} h where h.gacha_id = ${gachaId}) x
         where x.through > ${after} and x.through - x.receipts < ${after + limit}
         order by x.round`,
  );
  const rounds = headRows.map((h) => Number(h.round));
  const rows = rounds.length
    ? (
        await db
          .select()
          .from(drawReceipts)
          .where(and(eq(drawReceipts.gachaId, gachaId), inArray(drawReceipts.round, rounds)))
      ).sort(byChainOrder)
    : [];
  const firstSeq = headRows.length ? Number(headRows[0]!.through) - Number(headRows[0]!.receipts) + 1 : after + 1;
  const numbered = rows.map((row, i) => ({ row, seq: firstSeq + i }));
  const items = numbered.filter(({ seq }) => seq > after && seq <= after + limit);
  // Lots sold before the page's first receipt: the sale numbers of settled receipts continue from there.
  const [before] = rounds.length
    ? await queryRows<{ lots: number }>(
        db,
        sql`select coalesce(sum(cardinality(slots)), 0)::int as lots from ${drawReceipts}
             where gacha_id = ${gachaId} and receipt_hash is not null and round < ${rounds[0]!}`,
      )
    : [{ lots: 0 }];
  let sold = before!.lots + numbered.filter(({ seq }) => seq <= after).reduce((n, { row }) => n + row.slots.length, 0);
  const won = await prizesOf(
    db,
    items.filter(({ row }) => row.settledAt !== null).map(({ row }) => row.drawId),
  );
  const results = new Map<string, Won>();
  for (const { row } of items) {
    const prize = won.get(row.drawId);
    if (row.settledAt === null || !prize) continue;
    const n = row.slots.length;
    results.set(row.drawId, { ...prize, saleNumbers: Array.from({ length: n }, (_, j) => sold + j + 1) });
    sold += n;
  }
  const [open] = await queryRows<{ receipts: number; lots: number }>(
    db,
    sql`select count(*)::int as receipts, coalesce(sum(cardinality(slots)), 0)::int as lots from ${drawReceipts}
         where gacha_id = ${gachaId} and receipt_hash is null`,
  );
  const last = after + items.length >= totals!.chained;
  const pending = last
    ? (
        await db
          .select()
          .from(drawReceipts)
          .where(and(eq(drawReceipts.gachaId, gachaId), isNull(drawReceipts.receiptHash)))
          .orderBy(drawReceipts.round, sql`${drawReceipts.slots}[1]`)
          .limit(BEACON_LOG_PENDING_LIMIT)
      ).sort(byChainOrder)
    : [];
  const unclaimed = await countUnclaimed(db, gachaId, 'beacon');
  const wonByTier = new Map(
    terms.tiers.filter((t) => unclaimed.byTier.has(t.id)).map((t) => [t.id, t.quantity - unclaimed.byTier.get(t.id)!]),
  );
  return {
    chained: totals!.chained,
    heads: headRows.filter((h) => items.some(({ row }) => Number(row.round) === Number(h.round))).map(headOf),
    items,
    pending,
    won: results,
    wonByTier,
    counts: {
      settledReceipts: totals!.settled,
      unclaimedSlots: unclaimed.total,
      pendingReceipts: open!.receipts,
      pendingLots: open!.lots,
    },
  };
}

/** The prizes of settled draws: the lots' tiers by slot (k order), the キリ番 numbers, the ラストワン賞. */
async function prizesOf(db: Database, drawIds: string[]): Promise<Map<string, Omit<Won, 'saleNumbers'>>> {
  const answer = new Map<string, Omit<Won, 'saleNumbers'>>();
  if (drawIds.length === 0) return answer;
  const rows = await db
    .select({ drawId: prizes.drawId, tierId: prizes.tierId, position: prizes.position, kiribanNo: prizes.kiribanNo })
    .from(prizes)
    .where(inArray(prizes.drawId, drawIds));
  for (const drawId of drawIds) {
    const mine = rows.filter((r) => r.drawId === drawId);
    answer.set(drawId, {
      tiers: mine
        .filter((r) => r.position !== null)
        .sort((a, b) => a.position! - b.position!)
        .map((r) => r.tierId),
      kiriban: mine
        .filter((r) => r.kiribanNo !== null)
        .map((r) => r.kiribanNo!)
        .sort((a, b) => a - b),
      lastOne: mine.some((r) => r.position === null && r.kiribanNo === null),
    });
  }
  return answer;
}
