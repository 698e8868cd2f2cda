// Reveal fixtures shared by the commitment tests and the verify-pack script's tests, and beacon packs' logs
// simulated from a sale (tests only).
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { anonymiseMember, buildPackReveal, createPackCommitment, type PackReveal, type PackTier } from './commitment';
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
} from './beacon-mode';
import {
  BEACON_LOG_FORMAT,
  remainingLots,
  type BeaconLog,
  type BeaconLogEntry,
  type BeaconLogHead,
} from './beacon-log';
import type { TrustedChain } from './beacon-checks';

/** A sold-out pack's reveal, checked in: a change to its bytes is a format change. */
export const FIXTURE_PATH = path.join(import.meta.dirname, 'fixtures', 'reveal-sold-out.json');

export const fixture = (): PackReveal => JSON.parse(fs.readFileSync(FIXTURE_PATH, 'utf8'));
export const seedFrom = (text: string) => createHash('sha256').update(text).digest('hex');

export const tier = (id: string, quantity: number, isLastOne = false): PackTier => ({
  id,
  label: `${id}賞`,
  cardName: `カード ${id}`,
  quantity,
  conversionValue: 100,
  isLastOne,
});

// ── キリ番賞 (decision 027) ──────────────────────────────────────────────────────────────────────────
export const kiribanTiers = (): PackTier[] => [
  tier('a', 3),
  tier('b', 7),
  { ...tier('k', 2), label: 'キリ番賞', kiribanAt: [4, 9] },
  tier('last', 1, true),
];

/** A pack of 10 lots with キリ番 4 and 9: draws of 3, 2, 4 and 1 lots (the 2nd takes lot 4, the 3rd lot 9). */
export function kiribanReveal(): PackReveal {
  const tiers = kiribanTiers();
  const gacha = { id: 'g-kiriban', title: 'キリ番テスト', pricePerDraw: 300 };
  const seed = seedFrom('kiriban');
  const { lots, commitment } = createPackCommitment({ gachaId: gacha.id, ...gacha, tiers }, seed);
  const at = (minute: number) => `2026-11-22T10:${String(minute).padStart(2, '0')}:00.000Z`;
  return buildPackReveal({
    gacha,
    tiers,
    commitment,
    committedAt: at(0),
    seed,
    lots,
    draws: [
      { at: at(1), memberId: 'm1', positions: [1, 2, 3], lastOne: false },
      { at: at(2), memberId: 'm2', positions: [4, 5], lastOne: false, kiriban: [4] },
      { at: at(3), memberId: 'm3', positions: [6, 7, 8, 9], lastOne: false, kiriban: [9] },
      { at: at(4), memberId: 'm1', positions: [10], lastOne: true },
    ],
    revealSalt: seedFrom('kiriban-salt'),
    revealedAt: at(5),
  });
}

// ── Beacon packs (decision 081): a sale simulated as the shop runs it, with real signatures ─────────────────
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
const drawId = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

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
