// Reveal fixtures shared by the commitment tests and the verify-pack script's tests, and beacon packs' logs
// simulated from a sale (tests only).
import fs from 'node:fs';
import path from 'node:path';
import { createHash, createHmac } from 'node:crypto';
import { anonymiseMember, buildPackReveal, createPackCommitment, type PackReveal, type PackTier } from './commitment';
import { drandChain, type DrandChain } from '#devtools/standins/drand';
import { roundMessage, type Beacon } from '#modules/beacon';
import {
  beaconCommitment,
  beaconCommitmentDocument,
  headHash,
  receiptDocument,
  selectIndex,
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
  type BeaconLogPage,
} from './beacon-log';
import { BEACON_CHECK_NAMES, type TrustedChain } from './beacon-checks';

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

const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value));

/** One receipt put into head 1001 of the live example after its settlement (slot 8, said to have won an A). */
function insertedReceipt(log: BeaconLog, rechain: boolean): BeaconLog {
  const out = copy(log);
  const receipt: DrawReceipt = {
    ...out.items[0]!.receipt,
    drawId: drawId(99),
    member: 'f00dfeedf00dfeed',
    slots: [8],
    acceptedAt: atRound(1001, -1500),
  };
  const inserted: BeaconLogEntry = {
    seq: 3,
    receipt,
    signature: signReceipt(receipt, BEACON_RECEIPT_SECRET),
    hash: receiptHash(receipt),
    settled: true,
    tiers: ['A'],
    saleNumbers: [5],
    kiriban: [],
    lastOne: false,
  };
  out.items.splice(2, 0, inserted);
  out.items.forEach((e, i) => (e.seq = i + 1));
  out.items[3]!.saleNumbers = out.items[3]!.saleNumbers && [6, 7];
  out.heads[0]!.receipts = 3;
  const won = new Map<string, number>();
  for (const e of out.items) for (const t of e.tiers ?? []) won.set(t, (won.get(t) ?? 0) + 1);
  out.remaining = remainingLots(out.pack, won, {
    settledReceipts: 3,
    unclaimedSlots: 0,
    pendingReceipts: out.remaining.pendingReceipts,
    pendingLots: out.remaining.pendingLots,
  });
  if (rechain) {
    let prev = '';
    for (const head of out.heads) {
      head.prevHead = prev;
      const hashes = out.items.filter((e) => e.receipt.round === head.round).map((e) => e.hash);
      head.head = headHash(prev, head.round, hashes);
      prev = head.head;
    }
  }
  return out;
}

export interface BeaconExampleFile {
  file: string;
  description: string;
  json: unknown;
  /** Verified with the example chain trusted (verify-pack --trust-chain beacon-standin-chain.json). */
  trustChain: boolean;
  exit: 0 | 1 | 2;
  failedChecks: string[];
}

/**
 * Every beacon example of docs/formats/examples with the verdict it must get: built here, from the simulated
 * sale and the stand-in's seeded chain, so formats-examples.test.ts holds the files to the code byte for byte.
 */
export function beaconExampleFiles(): BeaconExampleFile[] {
  const N = BEACON_CHECK_NAMES;
  const soldOut = beaconExample();
  const live = liveBeaconExample();
  const tampered = (change: (log: BeaconLog) => void) => {
    const out = copy(soldOut);
    change(out);
    return out;
  };
  const forged = simulateBeaconSale(examplePack(), exampleSale(), {
    chain: exampleChain(),
    beaconOf: (round) => exampleChain().beacon(round, round === 1004 ? 'other-key' : null),
  });
  const file = (
    name: string,
    description: string,
    json: unknown,
    failedChecks: string[] = [],
    exit: 0 | 1 | 2 = failedChecks.length ? 1 : 0,
  ): BeaconExampleFile => ({ file: name, description, json, trustChain: true, exit, failedChecks });
  return [
    file(
      'beacon-sold-out.json',
      'ビーコン抽選, sold out: 8 lots, 4 receipts in 3 heads (round 1003 closed 100 ms late, settled with 1004); キリ番 4 and the ラストワン賞 in the settled order',
      soldOut,
    ),
    file(
      'beacon-live.json',
      'ビーコン抽選 on sale: a settled head, a closed head waiting for round 1004, a receipt not yet in a head, 1 slot unclaimed',
      live,
    ),
    file(
      'beacon-pages.json',
      'the sold-out log as the API pages it, 2 receipts a page (an array of pages)',
      pagesOf(soldOut, 2),
    ),
    {
      ...file('beacon-sold-out.json', 'the sold-out log verified without trusting the stand-in chain', soldOut, [
        N.source,
      ]),
      trustChain: false,
    },
    file(
      'tampered-beacon-commitment.json',
      'a committed field (the S賞 card name) changed',
      tampered((log) => (log.pack.tiers[0]!.cardName = 'カード S（美品）')),
      [N.commitment],
    ),
    file(
      'tampered-beacon-tier.json',
      "receipt 1's third lot changed from S to A",
      tampered((log) => (log.items[0]!.tiers![2] = 'A')),
      [N.tiers, N.lots, N.remaining],
    ),
    file(
      'tampered-beacon-signature.json',
      "one hex digit of receipt 2's signature changed",
      tampered((log) => {
        const s = log.items[1]!.signature;
        log.items[1]!.signature = `${s[0] === '0' ? '1' : '0'}${s.slice(1)}`;
      }),
      [N.signatures],
    ),
    file(
      'tampered-beacon-inserted.json',
      'the live log with a receipt (slot 8, an A) put into head 1001 after its settlement; the head not recomputed',
      insertedReceipt(live, false),
      [N.chain, N.lots],
    ),
    file(
      'tampered-beacon-rechained.json',
      'the same, with the heads recomputed: the receipt accepted after head 1001 still names the head it was given',
      insertedReceipt(live, true),
      [N.chain, N.lots],
    ),
    file(
      'tampered-beacon-forged-beacon.json',
      "round 1004's beacon signed by another key (its randomness is SHA-256 of that signature), the lots recomputed with it",
      forged,
      [N.beacons],
    ),
    file(
      'tampered-beacon-head-order.json',
      'heads 1003 and 1006 swapped in the list',
      tampered((log) => log.heads.splice(1, 2, log.heads[2]!, log.heads[1]!)),
      [N.chain, N.rounds, N.lots],
    ),
    file(
      'refused-beacon-first-page.json',
      'only the first of two pages (nextAfter 2): not a whole log',
      pagesOf(soldOut, 2)[0],
      [N.shape],
      2,
    ),
  ];
}

const hmacBlock = (randomness: string, gachaId: string, drawId: string, k: number, block: number) => {
  const head = Buffer.from(`oripa-beacon-select-v1\u0000${gachaId}\u0000${drawId}\u0000`, 'utf8');
  const tail = Buffer.alloc(8);
  tail.writeUInt32BE(k, 0);
  tail.writeUInt32BE(block, 4);
  return createHmac('sha256', Buffer.from(randomness, 'hex'))
    .update(Buffer.concat([head, tail]))
    .digest();
};

/** The known answers of part B (docs/formats/examples/vectors.json, key `beacon`), from the sold-out example. */
export function beaconVectors() {
  const log = beaconExample();
  const { pack } = log;
  const terms = {
    gachaId: pack.id,
    title: pack.title,
    pricePerDraw: pack.pricePerDraw,
    tiers: pack.tiers,
    beacon: pack.beacon,
    receiptKey: pack.receiptKey,
    certificates: pack.certificates,
  };
  const first = log.items[0]!;
  const head = log.heads[0]!;
  const headEntries = log.items.filter((e) => e.receipt.round === head.round);
  const beacon = head.beacon!;
  const randomness = beacon.randomness;
  const block0 = hmacBlock(randomness, pack.id, first.receipt.drawId, 0, 0);
  // A rejection: the first k whose first candidate is refused for m = 3,000,000,000 (limit 3,000,000,000).
  const m = 3_000_000_000;
  let rejectedK = 0;
  while (hmacBlock(randomness, pack.id, first.receipt.drawId, rejectedK, 0).readUInt32BE(0) < m) rejectedK += 1;
  const rejected = hmacBlock(randomness, pack.id, first.receipt.drawId, rejectedK, 0);
  const chain = { genesisTime: pack.beacon.genesisTime, period: pack.beacon.period };
  const settlement = [
    [1001, atRound(1001, -960)],
    [1001, atRound(1001, -250)],
    [1001, atRound(1001, -249)],
    [1003, atRound(1003, 100)],
    [1001, atRound(1001, 2800)],
  ].map(([round, publishedAt]) => ({
    round: round as number,
    publishedAt: publishedAt as string,
    settleRound: settlementRound(chain, round as number, Date.parse(publishedAt as string)),
  }));
  const initial = pack.tiers
    .filter((t) => !t.isLastOne && !t.kiribanAt?.length)
    .map((t) => ({ id: t.id, remaining: t.quantity }));
  const draws = headEntries.map((e) => ({ drawId: e.receipt.drawId, n: e.receipt.slots.length }));
  return {
    commitment: {
      terms,
      document: beaconCommitmentDocument(terms),
      commitment: beaconCommitment(terms),
    },
    receipt: {
      receipt: first.receipt,
      document: receiptDocument(first.receipt),
      hash: receiptHash(first.receipt),
      secretKey: BEACON_RECEIPT_SECRET,
      publicKey: receiptPublicKey(BEACON_RECEIPT_SECRET),
      signature: signReceipt(first.receipt, BEACON_RECEIPT_SECRET),
    },
    head: {
      prevHead: head.prevHead,
      round: head.round,
      receiptHashes: headEntries.map((e) => e.hash),
      document: ['oripa-chain-v1', head.prevHead, String(head.round), ...headEntries.map((e) => e.hash)]
        .map((line) => `${line}\n`)
        .join(''),
      head: head.head,
    },
    settlementRounds: { chain, cases: settlement },
    beacon: {
      chain: { schemeID: pack.beacon.scheme, public_key: pack.beacon.publicKey },
      round: beacon.round,
      roundMessage: Buffer.from(roundMessage(beacon.round)).toString('hex'),
      signature: beacon.signature,
      randomness,
    },
    selection: [
      {
        randomness,
        gachaId: pack.id,
        drawId: first.receipt.drawId,
        k: 0,
        m: 8,
        message: Buffer.concat([
          Buffer.from(`oripa-beacon-select-v1\u0000${pack.id}\u0000${first.receipt.drawId}\u0000`, 'utf8'),
          Buffer.alloc(8),
        ]).toString('hex'),
        block0: block0.toString('hex'),
        uint32: Array.from({ length: 8 }, (_, i) => block0.readUInt32BE(i * 4)),
        index: selectIndex(randomness, pack.id, first.receipt.drawId, 0, 8),
      },
      {
        randomness,
        gachaId: pack.id,
        drawId: first.receipt.drawId,
        k: rejectedK,
        m,
        block0: rejected.toString('hex'),
        uint32: Array.from({ length: 8 }, (_, i) => rejected.readUInt32BE(i * 4)),
        index: selectIndex(randomness, pack.id, first.receipt.drawId, rejectedK, m),
      },
    ],
    settle: {
      randomness,
      gachaId: pack.id,
      remaining: initial,
      draws,
      tiers: settleDraws(randomness, pack.id, initial, draws).tiers,
    },
  };
}
