// Beacon packs in tests (decision 081): a sale simulated as the shop runs it, with real signatures and the drand
// stand-in's beacons; the format examples' pack and sale; a log as the API pages it; one draw's proof as the
// result page receives it.
import { createHash } from 'node:crypto';
import { anonymiseMember, type PackTier } from '../commitment';
import { drandChain, type DrandChain } from '#devtools/standins/drand';
import type { Beacon } from '#modules/beacon';
import {
  beaconCommitment,
  headHash,
  receiptHash,
  receiptPublicKey,
  settleDraws,
  settlementRound,
  signReceipt,
  type DrawReceipt,
} from '../beacon-mode';
import {
  BEACON_LOG_FORMAT,
  remainingLots,
  type BeaconLog,
  type BeaconLogEntry,
  type BeaconLogHead,
  type BeaconLogPage,
} from '../beacon-log';
import { termsOf, type TrustedChain } from '../beacon-checks';
import type { BeaconDrawEvidence } from '../beacon-draw-check';

export const seedFrom = (text: string) => createHash('sha256').update(text).digest('hex');

export const BEACON_RECEIPT_SECRET = '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60'; // RFC 8032 §7.1, test 1
/** The drand stand-in's chain of the format examples: the same seed, the same key and signatures in every run. */
export const exampleChain = () =>
  drandChain({ seed: 'oripa-formats-example', period: 3, genesisTime: 1_800_000_000, beaconId: 'standin' });
export const trustedOf = (chain: DrandChain): TrustedChain => chain.info;

export type SaleEvent =
  { draw: { at: string; drawId: string; memberId: string; count: number } } | { close: string } | { settle: string };

export interface SimulatedPack {
  id: string;
  title: string;
  pricePerDraw: number;
  tiers: PackTier[];
  committedAt: string;
  closeMarginMs: number;
  status: string;
}

/**
 * The draw log a shop running this sale publishes (oripa-beacon-log/1), computed the way decision 081 runs it:
 * slots in order, each receipt's round from the close margin, closes that head every due round with its
 * settlement round, settlements in head order with the chain's beacons (`beaconOf` may spoil one), sale
 * numbers, キリ番 and ラストワン賞 in the settled order.
 * @example const log = simulateBeaconSale(examplePack(), exampleSale(), { chain: exampleChain() })
 */
export function simulateBeaconSale(
  pack: SimulatedPack,
  events: SaleEvent[],
  options: { chain: DrandChain; generatedAt?: string; beaconOf?: (round: number) => Beacon },
): BeaconLog {
  const { chain } = options;
  const info = chain.info;
  const source = {
    chainHash: info.hash,
    scheme: info.schemeID,
    publicKey: info.public_key,
    genesisTime: info.genesis_time,
    period: info.period,
  };
  const receiptKey = receiptPublicKey(BEACON_RECEIPT_SECRET);
  const terms = { gachaId: pack.id, title: pack.title, pricePerDraw: pack.pricePerDraw, tiers: pack.tiers };
  const commitment = beaconCommitment({ ...terms, beacon: source, receiptKey, certificates: [] });
  const lotTiers = pack.tiers.filter((t) => !t.isLastOne && !t.kiribanAt?.length);
  const totalLots = lotTiers.reduce((sum, t) => sum + t.quantity, 0);
  const roundTime = (r: number) => (info.genesis_time + (r - 1) * info.period) * 1000;
  const salt = seedFrom(`salt:${pack.id}`);
  const entries: BeaconLogEntry[] = [];
  const heads: BeaconLogHead[] = [];
  let remaining = lotTiers.map((t) => ({ id: t.id, remaining: t.quantity }));
  let nextSlot = 1;
  let sold = 0;
  const kiriban = pack.tiers.flatMap((t) => t.kiribanAt ?? []);
  const hasLastOne = pack.tiers.some((t) => t.isLastOne);
  for (const event of events) {
    if ('draw' in event) {
      const { at, drawId, memberId, count } = event.draw;
      const ms = Date.parse(at);
      const round = Math.max(
        1,
        Math.floor((ms - info.genesis_time * 1000 + pack.closeMarginMs) / (info.period * 1000)) + 2,
      );
      const after = [...heads].reverse().find((h) => Date.parse(h.publishedAt) <= ms);
      const receipt: DrawReceipt = {
        gachaId: pack.id,
        commitment,
        drawId,
        member: anonymiseMember(memberId, salt),
        slots: Array.from({ length: count }, (_, i) => nextSlot + i),
        acceptedAt: at,
        round,
        afterHead: after?.head ?? '',
        afterRound: after?.round ?? 0,
      };
      nextSlot += count;
      entries.push({
        seq: null,
        receipt,
        signature: signReceipt(receipt, BEACON_RECEIPT_SECRET),
        hash: receiptHash(receipt),
        settled: false,
        tiers: null,
        saleNumbers: null,
        kiriban: [],
        lastOne: false,
      });
    } else if ('close' in event) {
      const ms = Date.parse(event.close);
      const due = entries.filter((e) => e.seq === null && roundTime(e.receipt.round) - pack.closeMarginMs <= ms);
      for (const round of [...new Set(due.map((e) => e.receipt.round))].sort((a, b) => a - b)) {
        const inRound = due
          .filter((e) => e.receipt.round === round)
          .sort((a, b) => a.receipt.slots[0]! - b.receipt.slots[0]!);
        const prevHead = heads[heads.length - 1]?.head ?? '';
        let seq = entries.filter((e) => e.seq !== null).length;
        for (const e of inRound) e.seq = ++seq;
        heads.push({
          round,
          head: headHash(
            prevHead,
            round,
            inRound.map((e) => e.hash),
          ),
          prevHead,
          receipts: inRound.length,
          publishedAt: event.close,
          settleRound: settlementRound(source, round, ms),
          settled: false,
          beacon: null,
        });
      }
    } else {
      const ms = Date.parse(event.settle);
      for (const head of heads) {
        if (head.settled) continue;
        if (roundTime(head.settleRound) > ms) break;
        const beacon = options.beaconOf?.(head.settleRound) ?? chain.beacon(head.settleRound);
        const inHead = entries
          .filter((e) => e.seq !== null && e.receipt.round === head.round)
          .sort((a, b) => a.seq! - b.seq!);
        const settled = settleDraws(
          beacon.randomness,
          pack.id,
          remaining,
          inHead.map((e) => ({ drawId: e.receipt.drawId, n: e.receipt.slots.length })),
        );
        remaining = settled.remaining;
        inHead.forEach((e, i) => {
          const n = e.receipt.slots.length;
          e.settled = true;
          e.tiers = settled.tiers[i]!;
          e.saleNumbers = Array.from({ length: n }, (_, j) => sold + j + 1);
          e.kiriban = kiriban.filter((k) => k > sold && k <= sold + n).sort((a, b) => a - b);
          e.lastOne = hasLastOne && sold + n === totalLots;
          sold += n;
        });
        head.settled = true;
        head.beacon = { round: beacon.round, signature: beacon.signature, randomness: beacon.randomness };
      }
    }
  }
  const items = entries.filter((e) => e.seq !== null).sort((a, b) => a.seq! - b.seq!);
  const pending = entries
    .filter((e) => e.seq === null)
    .sort((a, b) => a.receipt.round - b.receipt.round || a.receipt.slots[0]! - b.receipt.slots[0]!);
  const won = new Map<string, number>();
  for (const e of items) for (const t of e.tiers ?? []) won.set(t, (won.get(t) ?? 0) + 1);
  const logPack = {
    id: pack.id,
    title: pack.title,
    pricePerDraw: pack.pricePerDraw,
    totalLots,
    status: pack.status,
    commitment,
    committedAt: pack.committedAt,
    tiers: pack.tiers,
    beacon: source,
    receiptKey,
    certificates: [],
    closeMarginMs: pack.closeMarginMs,
  };
  const lastEvent = events[events.length - 1]!;
  const lastAt = 'draw' in lastEvent ? lastEvent.draw.at : 'close' in lastEvent ? lastEvent.close : lastEvent.settle;
  return {
    format: BEACON_LOG_FORMAT,
    generatedAt: options.generatedAt ?? lastAt,
    pack: logPack,
    heads,
    items,
    pending,
    remaining: remainingLots(logPack, won, {
      settledReceipts: items.filter((e) => e.settled).length,
      unclaimedSlots: totalLots - (nextSlot - 1),
      pendingReceipts: pending.length,
      pendingLots: pending.reduce((sum, e) => sum + e.receipt.slots.length, 0),
    }),
    nextAfter: null,
  };
}

const exampleTier = (id: string, label: string, quantity: number, conversionValue: number): PackTier => ({
  id,
  label,
  cardName: `カード ${id}`,
  quantity,
  conversionValue,
  isLastOne: false,
});

/** The format examples' pack: S×1, A×2, B×5 (8 lots), キリ番 4 and a ラストワン賞; 500 coins a draw. */
export const examplePack = (id = 'beacon-example'): SimulatedPack => ({
  id,
  title: 'ビーコン抽選の例',
  pricePerDraw: 500,
  tiers: [
    exampleTier('S', 'S賞', 1, 20_000),
    exampleTier('A', 'A賞', 2, 3_000),
    exampleTier('B', 'B賞', 5, 200),
    { ...exampleTier('K', 'キリ番賞', 1, 5_000), kiribanAt: [4] },
    { ...exampleTier('LO', 'ラストワン賞', 1, 10_000), isLastOne: true },
  ],
  committedAt: '2027-01-15T08:30:00.000Z',
  closeMarginMs: 1000,
  status: 'sold_out',
});

/** Unix ms of a round of the example chain, as an ISO time, shifted by `ms`. */
export const atRound = (round: number, ms: number) =>
  new Date((1_800_000_000 + (round - 1) * 3) * 1000 + ms).toISOString();
export const drawId = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/**
 * The example sale: draws of 3 and 1 lots in round 1001 (closed in time, settled with 1001), 2 lots in round
 * 1003 (closed 100 ms late, so settled with 1004), 2 lots in round 1006; sold out. The draw of 1 lot holds lot
 * 4 (キリ番), the last draw lot 8 (ラストワン賞). `live` stops before the last close and settlement, its last
 * draw taking 1 lot: a settled head, a closed head waiting for its beacon, a receipt not yet in a head.
 */
export function exampleSale(live = false): SaleEvent[] {
  const events: SaleEvent[] = [
    { draw: { at: atRound(1001, -2500), drawId: drawId(1), memberId: 'member-1', count: 3 } },
    { draw: { at: atRound(1001, -1800), drawId: drawId(2), memberId: 'member-2', count: 1 } },
    { close: atRound(1001, -960) },
    { settle: atRound(1001, 500) },
    { draw: { at: atRound(1003, -2000), drawId: drawId(3), memberId: 'member-1', count: 2 } },
    { close: atRound(1003, 100) },
  ];
  if (live)
    return [...events, { draw: { at: atRound(1006, -1500), drawId: drawId(4), memberId: 'member-3', count: 1 } }];
  return [
    ...events,
    { settle: atRound(1004, 300) },
    { draw: { at: atRound(1006, -1500), drawId: drawId(4), memberId: 'member-3', count: 2 } },
    { close: atRound(1006, -970) },
    { settle: atRound(1006, 200) },
  ];
}

/** The sold-out example log, and the live one (pack `beacon-example-live`, on sale). */
export const beaconExample = () => simulateBeaconSale(examplePack(), exampleSale(), { chain: exampleChain() });
export const liveBeaconExample = () =>
  simulateBeaconSale({ ...examplePack('beacon-example-live'), status: 'on_sale' }, exampleSale(true), {
    chain: exampleChain(),
  });

/** A whole log as the API pages it, `limit` receipts a page (the heads of each page's receipts; pending last). */
export function pagesOf(log: BeaconLog, limit: number): BeaconLogPage[] {
  const pages: BeaconLogPage[] = [];
  for (let start = 0; start === 0 || start < log.items.length; start += limit) {
    const items = log.items.slice(start, start + limit);
    const last = start + limit >= log.items.length;
    const rounds = new Set(items.map((e) => e.receipt.round));
    pages.push({
      ...log,
      heads: log.heads.filter((h) => rounds.has(h.round)),
      items,
      pending: last ? log.pending : [],
      nextAfter: last ? null : start + items.length,
    });
  }
  return pages;
}

/**
 * One draw of a simulated log as the result page receives it (the API's DrawResult.beacon without its times):
 * the receipt signed, the pack's terms, its head with the chain to it once closed, the beacon once settled.
 * @example const evidence = drawEvidence(log, log.items[1]!.receipt.drawId)
 */
export function drawEvidence(log: BeaconLog, drawId: string): BeaconDrawEvidence {
  const entry = [...log.items, ...log.pending].find((e) => e.receipt.drawId === drawId);
  if (!entry) throw new Error(`drawEvidence: no draw ${drawId} in the log`);
  const { receipt } = entry;
  const own = entry.seq === null ? undefined : log.heads.find((h) => h.round === receipt.round);
  const terms = termsOf(log);
  if (!own) return { receipt, signature: entry.signature, terms, head: null, path: [], settlement: null };
  const receiptHashes = log.items.filter((e) => e.receipt.round === own.round).map((e) => e.hash);
  return {
    receipt,
    signature: entry.signature,
    terms,
    head: {
      round: own.round,
      head: own.head,
      prevHead: own.prevHead,
      publishedAt: own.publishedAt,
      settleRound: own.settleRound,
      receiptHashes,
    },
    path: log.heads
      .filter((h) => h.round > receipt.afterRound && h.round <= own.round)
      .map((h) => ({ round: h.round, head: h.head, prevHead: h.prevHead })),
    settlement: own.settled && own.beacon ? { beacon: own.beacon } : null,
  };
}
