// The beacon mode's verifiers (decision 081; reveal-formats.md part B) on the simulated sale: each attack the
// threat model names fails the check that should catch it, the member's per-draw check passes exactly when it
// should (and reports the phone's own clock), and the log's pages merge, go stale and are read again.
import { describe, expect, it } from 'vitest';
import { QUICKNET } from '#modules/beacon';
import {
  BEACON_CHECK_NAMES as N,
  mergeBeaconLogPages,
  parseBeaconLog,
  readBeaconLog,
  receiptHash,
  remainingLots,
  returnRatePercent,
  signReceipt,
  verifyBeaconDraw,
  verifyBeaconLog,
  type BeaconLog,
  type BeaconVerifyOptions,
} from './index';
import { BEACON_RECEIPT_SECRET, atRound, beaconExample, exampleChain, liveBeaconExample, pagesOf } from './testing';

const trusted = { trustedChains: [exampleChain().info] };
const failed = (log: unknown, options: BeaconVerifyOptions = trusted) =>
  verifyBeaconLog(log, options)
    .checks.filter((c) => !c.ok)
    .map((c) => c.name);
const detailOf = (log: unknown, name: string) =>
  verifyBeaconLog(log, trusted).checks.find((c) => c.name === name)!.detail;
/** A receipt changed by the shop after the fact, re-signed with its own key (it holds it). */
function resign(log: BeaconLog, index: number, change: (r: BeaconLog['items'][number]['receipt']) => void) {
  const entry = log.items[index]!;
  change(entry.receipt);
  entry.signature = signReceipt(entry.receipt, BEACON_RECEIPT_SECRET);
  entry.hash = receiptHash(entry.receipt);
}

describe('verifyBeaconLog', () => {
  it('passes the genuine logs, and reports their counts', () => {
    const result = verifyBeaconLog(beaconExample(), trusted);
    expect(result.ok).toBe(true);
    expect(result.checks.map((c) => c.name)).toEqual([
      N.commitment,
      N.source,
      N.tiers,
      N.signatures,
      N.slots,
      N.chain,
      N.rounds,
      N.settleRounds,
      N.beacons,
      N.lots,
      N.kiriban,
      N.lastOne,
      N.remaining,
    ]);
    expect(result.stats).toMatchObject({ soldOut: true, kiribanReached: 1, settledLots: 8 });
    expect(failed(liveBeaconExample())).toEqual([]);
  });

  it('trusts quicknet by default, and only the chain a pack committed to exactly', () => {
    const log = beaconExample();
    expect(failed(log, {})).toEqual([N.source]);
    // A pack naming quicknet's hash with another key (one the shop holds) is not quicknet.
    log.pack.beacon = { ...log.pack.beacon, chainHash: QUICKNET.hash };
    const detail = verifyBeaconLog(log, {}).checks.find((c) => c.name === N.source)!.detail;
    expect(detail).toContain('一致しません');
  });

  it('catches a backdated receipt: its round is not the one its acceptance gives', () => {
    const log = beaconExample();
    // Receipt 3 claimed accepted a round earlier (re-signed, its head recomputed: only the timing gives it away).
    resign(log, 2, (r) => (r.acceptedAt = atRound(1001, -1200)));
    expect(failed(log)).toContain(N.rounds);
    expect(detailOf(log, N.rounds)).toContain('受付票 3 のラウンドが 1003 です（受付時刻から求めると 1001）');
  });

  it('catches a receipt whose `after` is not the last head published before it', () => {
    const log = beaconExample();
    // Receipt 4 pretends no head existed when it was accepted (re-signed).
    resign(log, 3, (r) => {
      r.afterHead = '';
      r.afterRound = 0;
    });
    expect(detailOf(log, N.rounds)).toContain('直前のヘッドになっていません');
  });

  it('catches a head published before its round closed, and a wrong settlement round', () => {
    const early = beaconExample();
    early.heads[0]!.publishedAt = atRound(1001, -1500);
    // Its settlement round is still its own (published early enough): only the close is broken.
    expect(failed(early)).toEqual([N.rounds]);
    const moved = beaconExample();
    moved.heads[1]!.settleRound = 1003;
    expect(failed(moved)).toEqual([N.settleRounds, N.beacons]); // its beacon is round 1004's, not 1003's
  });

  it('catches a receipt left out of its round’s head, and a result shown before settlement', () => {
    const live = liveBeaconExample();
    live.pending[0]!.receipt.round = 1003;
    expect(failed(live)).toContain(N.chain);
    const early = liveBeaconExample();
    early.items[2]!.tiers = ['B', 'B'];
    expect(failed(early)).toEqual([N.lots]);
  });

  it('catches randomness that is not SHA-256 of the signature, and a head settled out of order', () => {
    const wrong = beaconExample();
    wrong.heads[0]!.beacon!.randomness = wrong.heads[1]!.beacon!.randomness;
    expect(failed(wrong)).toContain(N.beacons);
    expect(detailOf(wrong, N.beacons)).toContain('乱数値が署名の SHA-256 と一致しません');
    // Head 1001 shown unsettled while the later heads are settled (its receipts keep their results).
    const order = beaconExample();
    order.heads[0]!.settled = false;
    order.heads[0]!.beacon = null;
    order.remaining.settledReceipts = 0;
    expect(failed(order)).toEqual(expect.arrayContaining([N.beacons, N.lots]));
    expect(detailOf(order, N.beacons)).toContain('前の未精算のヘッド 1001 より先に精算されています');
  });

  it('catches the キリ番賞 and the ラストワン賞 given to another receipt', () => {
    const kiriban = beaconExample();
    kiriban.items[1]!.kiriban = [];
    kiriban.items[2]!.kiriban = [4];
    expect(failed(kiriban)).toEqual([N.kiriban]);
    const lastOne = beaconExample();
    lastOne.items[3]!.lastOne = false;
    lastOne.items[2]!.lastOne = true;
    expect(failed(lastOne)).toEqual([N.lastOne]);
  });

  it('catches a commitment naming another receipts key: every signature then fails', () => {
    const log = beaconExample();
    log.pack.receiptKey = 'ab'.repeat(32);
    expect(failed(log)).toEqual([N.commitment, N.signatures]);
  });

  it('catches a slot claimed twice and counts that do not add up', () => {
    const twice = liveBeaconExample();
    twice.pending[0]!.receipt.slots = [6];
    expect(failed(twice)).toEqual(expect.arrayContaining([N.slots]));
    const counts = liveBeaconExample();
    counts.remaining.unclaimedSlots = 2;
    expect(failed(counts)).toEqual([N.slots]);
  });

  it('takes drand hex in either case, and the shop’s own hex in lower case only', () => {
    const upperBeacon = beaconExample();
    for (const head of upperBeacon.heads) {
      head.beacon!.signature = head.beacon!.signature.toUpperCase();
      head.beacon!.randomness = head.beacon!.randomness.toUpperCase();
    }
    expect(failed(upperBeacon)).toEqual([]);
    const upperSignature = beaconExample();
    upperSignature.items[0]!.signature = upperSignature.items[0]!.signature.toUpperCase();
    expect(failed(upperSignature)).toEqual([N.signatures]);
  });

  it('reports a shape error as the one ファイル形式 check, naming the field', () => {
    const log = beaconExample() as unknown as Record<string, unknown>;
    (log.items as Record<string, unknown>[])[0]!.seq = '1';
    const result = verifyBeaconLog(log, trusted);
    expect(result).toEqual({
      ok: false,
      checks: [{ name: N.shape, ok: false, detail: 'items[0].seq: 整数ではありません' }],
    });
    expect(parseBeaconLog([]).ok).toBe(false);
    expect(parseBeaconLog({ format: 'oripa-pack-reveal/1' })).toEqual({
      ok: false,
      errors: ['format: "oripa-beacon-log/1" ではありません（"oripa-pack-reveal/1"）'],
    });
  });
});

describe('verifyBeaconDraw (the member’s result page)', () => {
  const log = beaconExample();
  const own = log.items[2]!; // receipt 3: round 1003, settled late with round 1004
  const phone = {
    receipt: own.receipt,
    signature: own.signature,
    receivedAt: Date.parse(own.receipt.acceptedAt) + 80,
    headReceivedAt: Date.parse(log.heads[1]!.publishedAt) + 50,
  };

  it('passes every check of a settled draw, with the phone’s own clock, and gives its lots', () => {
    const result = verifyBeaconDraw({ log, drawId: own.receipt.drawId, phone, ...trusted });
    expect(result.checks.filter((c) => !c.ok)).toEqual([]);
    expect(result).toMatchObject({ ok: true, closed: true, settled: true, lots: own.tiers });
    expect(result.checks.map((c) => c.name)).toEqual([
      N.commitment,
      N.source,
      N.signatures,
      N.rounds,
      N.receiptReceived,
      N.chain,
      N.settleRounds,
      N.headReceived,
      N.beacons,
      N.lots,
    ]);
    // The log only as far as the draw's head is enough.
    const prefix = pagesOf(log, 3)[0]!;
    expect(verifyBeaconDraw({ log: prefix, drawId: own.receipt.drawId, ...trusted }).ok).toBe(true);
  });

  it('says 抽選中 before settlement, and what is known before the head', () => {
    const live = liveBeaconExample();
    const closed = verifyBeaconDraw({ log: live, drawId: live.items[2]!.receipt.drawId, ...trusted });
    expect(closed).toMatchObject({ ok: true, closed: true, settled: false, lots: null });
    expect(closed.checks.map((c) => c.name)).not.toContain(N.beacons);
    const pending = verifyBeaconDraw({ log: live, drawId: live.pending[0]!.receipt.drawId, ...trusted });
    expect(pending).toMatchObject({ ok: true, closed: false, settled: false });
    // A receipt shown settled in a head that is not: refused, not 抽選中.
    live.items[2]!.settled = true;
    const torn = verifyBeaconDraw({ log: live, drawId: live.items[2]!.receipt.drawId, ...trusted });
    expect(torn.checks.filter((c) => !c.ok).map((c) => c.name)).toEqual([N.lots]);
  });

  it('fails on the phone’s own clock: the receipt or the head held too late', () => {
    const late = verifyBeaconDraw({
      log,
      drawId: own.receipt.drawId,
      phone: { ...phone, receivedAt: Date.parse(atRound(1003, 10)), headReceivedAt: Date.parse(atRound(1004, 5)) },
      ...trusted,
    });
    expect(late.checks.filter((c) => !c.ok).map((c) => c.name)).toEqual([N.receiptReceived, N.headReceived]);
  });

  it('fails when the log’s receipt is not the one the phone kept, or its lots are not the beacon’s', () => {
    const other = { ...own.receipt, slots: [5] };
    const swapped = verifyBeaconDraw({ log, drawId: own.receipt.drawId, phone: { receipt: other }, ...trusted });
    expect(swapped.checks.find((c) => c.name === N.signatures)).toMatchObject({
      ok: false,
      detail: 'ログの受付票が、抽選の応答で受け取った受付票と違います',
    });
    const changed = JSON.parse(JSON.stringify(log)) as BeaconLog;
    changed.items[2]!.tiers = ['B', 'A'];
    const result = verifyBeaconDraw({ log: changed, drawId: own.receipt.drawId, ...trusted });
    expect(result.checks.filter((c) => !c.ok).map((c) => c.name)).toEqual([N.lots]);
    expect(result.lots).toBeNull();
  });

  it('fails when an earlier receipt was put into the chain after the fact', () => {
    const changed = JSON.parse(JSON.stringify(log)) as BeaconLog;
    changed.items[0]!.receipt.slots = [1, 2];
    const result = verifyBeaconDraw({ log: changed, drawId: own.receipt.drawId, ...trusted });
    expect(result.checks.find((c) => c.name === N.chain)!.ok).toBe(false);
  });

  it('answers a draw that is not in the log', () => {
    expect(verifyBeaconDraw({ log, drawId: 'nope', ...trusted })).toMatchObject({ ok: false, closed: false });
  });
});

describe('pages', () => {
  it('merge into the whole log in fetch order', () => {
    const log = beaconExample();
    const { log: merged, stale } = mergeBeaconLogPages(pagesOf(log, 1));
    expect(stale).toEqual([]);
    expect(merged).toEqual(log);
  });

  it('go stale when settlement moved between them, and are read again from the first stale receipt', async () => {
    const before = liveBeaconExample();
    const after = beaconExample();
    // An earlier page read receipt 3 unsettled; the last page, read after its settlement, counts it settled.
    const early = pagesOf({ ...after, items: after.items.map((e, i) => (i === 2 ? before.items[2]! : e)) }, 3)[0]!;
    early.pack = after.pack;
    const { stale } = mergeBeaconLogPages([early, pagesOf(after, 3)[1]!]);
    expect(stale).toEqual([3]);
    expect(parseBeaconLog([early, pagesOf(after, 3)[1]!])).toMatchObject({ ok: false });
    // A reader whose first pass sees the stale page fetches again from after = 2 and gets a consistent log.
    const served: number[] = [];
    let first = true;
    const read = await readBeaconLog(async (from) => {
      served.push(from);
      if (from === 0 && first) {
        first = false;
        return early;
      }
      return pagesOf(after, 3).find((p) => p.items[0]!.seq === from + 1) ?? pagesOf(after, 1)[from]!;
    });
    expect(read.ok && verifyBeaconLog(read.log, trusted).ok).toBe(true);
    expect(served).toEqual([0, 3, 2, 3]);
  });

  it('stop at a draw’s head when asked (the result page)', async () => {
    const log = beaconExample();
    const pages = pagesOf(log, 1);
    const served: number[] = [];
    const read = await readBeaconLog(
      async (after) => {
        served.push(after);
        return pages[after];
      },
      { until: log.items[0]!.receipt.drawId },
    );
    expect(read.ok && read.log.items.map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(served).toEqual([0, 1, 2]);
  });
});

describe('reading the log several pages at once', () => {
  it('asks the full pages ahead together, each once, and merges the same log as one at a time', async () => {
    const log = beaconExample();
    const pages = pagesOf(log, 1);
    let inFlight = 0;
    let most = 0;
    const served: number[] = [];
    const reader = async (after: number) => {
      served.push(after);
      inFlight += 1;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 5));
      inFlight -= 1;
      return pages[after];
    };
    const together = await readBeaconLog(reader, { ahead: 3 });
    const alone = await readBeaconLog(async (after) => pages[after]);
    expect(most).toBeGreaterThan(1);
    expect([...served].sort()).toEqual([0, 1, 2, 3]);
    expect(together).toEqual(alone);
    expect(together.ok && verifyBeaconLog(together.log, trusted).ok).toBe(true);
  });

  it('never asks past the settled receipts, where a page may not be full', async () => {
    const live = liveBeaconExample();
    const pages = pagesOf(live, 1);
    const served: number[] = [];
    const read = await readBeaconLog(
      async (after) => {
        served.push(after);
        return pages[after];
      },
      { ahead: 8 },
    );
    expect(read.ok).toBe(true);
    expect(Math.max(...served)).toBeLessThan(live.items.length);
    expect(new Set(served).size).toBe(served.length);
  });
});

describe('remaining lots and 還元率', () => {
  it('is exact integer arithmetic, truncated to one decimal', () => {
    expect(returnRatePercent(8_600, 10_000)).toBe(86);
    expect(returnRatePercent(2, 3)).toBe(66.6);
    expect(returnRatePercent(0, 0)).toBeNull();
    // Past 2^53 when multiplied by 1000: still exact.
    expect(returnRatePercent(9_000_000_000_000_001, 9_000_000_000_000_000)).toBe(100);
    const pack = { tiers: beaconExample().pack.tiers, pricePerDraw: 500, totalLots: 8 };
    expect(
      remainingLots(pack, new Map([['S', 1]]), {
        settledReceipts: 1,
        unclaimedSlots: 7,
        pendingReceipts: 0,
        pendingLots: 0,
      }),
    ).toMatchObject({ lots: 7, value: 7_000, cost: 3_500, returnRatePercent: 200 });
  });
});
