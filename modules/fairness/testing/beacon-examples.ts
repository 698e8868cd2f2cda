// The beacon format's examples and known answers (docs/formats/examples): each file built from the simulated sale
// with the verdict verify-pack must give, and the vectors of part B.
import { createHmac } from 'node:crypto';
import { roundMessage } from '#modules/beacon';
import {
  beaconCommitment,
  beaconCommitmentDocument,
  headHash,
  receiptDocument,
  receiptHash,
  receiptPublicKey,
  selectIndex,
  settleDraws,
  settlementRound,
  signReceipt,
  type DrawReceipt,
} from '../beacon-mode';
import { remainingLots, type BeaconLog, type BeaconLogEntry } from '../beacon-log';
import { BEACON_CHECK_NAMES, termsOf } from '../beacon-checks';
import {
  BEACON_RECEIPT_SECRET,
  atRound,
  beaconExample,
  drawId,
  exampleChain,
  examplePack,
  exampleSale,
  liveBeaconExample,
  pagesOf,
  simulateBeaconSale,
} from './beacon-sale';

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
  const terms = termsOf(log);
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
