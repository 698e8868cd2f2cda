// bench/draw/beacon.ts: the beacon mode measured beside today's (issue 33 item 10, decision 081).
//   1. Accepted draws per second: the same number of 1-lot draws, with the same concurrency, against a sequence
//      pack and a beacon pack of the same size on one PostgreSQL database, in turns (the draw function in one
//      database call; no HTTP: bench:draw measures that path).
//   2. Settlement time per round: the beacon pack's rounds closed and settled with the drand stand-in's verified
//      beacons (real BLS signatures), timed per round, with its receipts per round.
//   3. The phone's check of one draw (checkBeaconDraw: the commitment, the receipt's Ed25519 signature, the chain,
//      the beacon's BLS signature, the lots recomputed) in Chromium with its CPU throttled 4× (a phone-class
//      CPU, as Lighthouse's mobile preset), for a 1回 and a 100連, against the reveal it must not outlast.
// Prints one JSON report, saved as bench/results/beacon.json unless BENCH_SAVE=0.
//
//   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:beacon
//
// BENCH_DRAWS per mode (default 4000), BENCH_CONCURRENCY (default 32), BENCH_LOTS per pack (default 20000).
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { build } from 'vite';
import { chromium } from 'playwright-core';
import { createTestDatabase } from '#tests/database';
import { createMemberWithCoins, createPublishedPack } from '#tests/fixtures';
import { openDatabase, queryRows, type Database } from '#db/client';
import { closeBeaconRounds, drawLots, settleBeaconRounds, type BeaconOfRound } from '#modules/draw';
import { checkInvariants } from '#modules/wallet';
import { fetchBeacon } from '#modules/beacon';
import {
  beaconCommitment,
  headHash,
  receiptHash,
  receiptPublicKey,
  settleDraws,
  signReceipt,
  type BeaconDrawEvidence,
  type BeaconPackTerms,
  type DrawReceipt,
} from '#modules/fairness';
import { drandChain, startDrandStandin } from '#devtools/standins/drand';
import { describeMachine } from '../machine';

const DRAWS = Number(process.env.BENCH_DRAWS ?? 4000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const LOTS = Number(process.env.BENCH_LOTS ?? 20_000);
const RECEIPT_SECRET = '6a0b2c5e1f3d4a79b8c6e5d4f3a2b1c09d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a';
const log = (message: string) => process.stderr.write(`[bench:beacon] ${message}\n`);
const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

/** `DRAWS` 1-lot draws by `CONCURRENCY` workers, members in turn: draws per second. */
async function drawRun(
  db: Database,
  gachaId: string,
  members: string[],
): Promise<{ perSecond: number; refused: number }> {
  let next = 0;
  let refused = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < DRAWS) {
        const i = next++;
        const outcome = await drawLots(db, {
          memberId: members[i % members.length]!,
          gachaId,
          count: 1,
          idempotencyKey: randomUUID(),
          decisionDays: 7,
        });
        if (!outcome.ok) refused += 1;
      }
    }),
  );
  return { perSecond: DRAWS / ((performance.now() - started) / 1000), refused };
}

async function throughputAndSettlement() {
  const database = await createTestDatabase('bench_beacon');
  if (database.engine !== 'postgres') throw new Error('bench:beacon needs PostgreSQL (TEST_DATABASE_URL)');
  const drand = await startDrandStandin({ seed: 'bench-beacon', period: 3, host: '127.0.0.1' });
  const handle = await openDatabase({
    databaseUrl: database.databaseUrl!,
    dataDir: database.dataDir,
    poolSize: CONCURRENCY + 2,
  });
  try {
    await handle.migrate();
    const db = handle.db;
    const source = {
      chainHash: drand.info.hash,
      scheme: drand.info.schemeID,
      publicKey: drand.info.public_key,
      genesisTime: drand.info.genesis_time,
      period: drand.info.period,
    };
    const sequence = await createPublishedPack(db, {
      id: 'bench-sequence',
      lots: LOTS,
      price: 10,
      drawOptions: [1],
      lastOne: true,
    });
    const beacon = await createPublishedPack(db, {
      id: 'bench-beacon',
      lots: LOTS,
      price: 10,
      drawOptions: [1],
      lastOne: true,
      beacon: { source, receiptKey: receiptPublicKey(RECEIPT_SECRET), closeMarginMs: 1000 },
    });
    const members = await Promise.all(
      Array.from({ length: 200 }, () => createMemberWithCoins(db, { paid: 1_000_000 })),
    );
    log(`two packs of ${LOTS} lots; ${DRAWS} 1-lot draws each, ${CONCURRENCY} at a time`);
    const warm = await drawRun(db, sequence, members.slice(0, 10));
    log(`warm-up ${round(warm.perSecond)} draws/s`);
    const sequenceRun = await drawRun(db, sequence, members);
    log(`sequence: ${round(sequenceRun.perSecond)} draws/s`);
    const beaconRun = await drawRun(db, beacon, members);
    log(`beacon (accepted): ${round(beaconRun.perSecond)} draws/s`);

    // Settlement: each round timed as the settler does it (close, then settle with the fetched, verified beacon).
    const beaconOf: BeaconOfRound = async (_terms, r) => {
      const answer = await fetchBeacon({ baseUrl: drand.url, timeoutMs: 10_000 }, drand.info, r);
      return answer.ok ? answer.beacon : null;
    };
    const rounds: { receipts: number; closeMs: number; settleMs: number }[] = [];
    for (let turn = 0; turn < 60; turn++) {
      const [open] = await queryRows<{ n: number; round: number | null }>(
        db,
        sql`select count(*)::int as n, min(round)::int as round from draw_receipts where receipt_hash is null`,
      );
      const [unsettled] = await queryRows<{ n: number }>(
        db,
        sql`select count(*)::int as n from draw_receipts where settled_at is null`,
      );
      if (unsettled!.n === 0) break;
      // Wait for the earliest open round's close, as the settler does.
      if (open!.round !== null) {
        const closes = (drand.info.genesis_time + (open!.round - 1) * drand.info.period) * 1000 - 1000 + 20;
        while (Date.now() < closes) await new Promise((resolve) => setTimeout(resolve, closes - Date.now()));
      }
      const t0 = performance.now();
      await closeBeaconRounds(db);
      const closeMs = performance.now() - t0;
      const heads = await queryRows<{ round: number; settle: number; receipts: number }>(
        db,
        sql`select round::int, settle_round::int as settle, receipts from draw_beacon_heads where settled_at is null order by round`,
      );
      const receiptsOf = new Map(heads.map((h) => [h.round, h.receipts]));
      for (const settle of [...new Set(heads.map((h) => h.settle))]) {
        const due = (drand.info.genesis_time + (settle - 1) * drand.info.period) * 1000 + 50;
        while (Date.now() < due) await new Promise((resolve) => setTimeout(resolve, due - Date.now()));
        // Every head this round settles, in one call as the settler makes it; its time shared out by receipts.
        const t1 = performance.now();
        const settled = await settleBeaconRounds(db, beaconOf, { decisionDays: 7 });
        const settleMs = performance.now() - t1;
        const total = settled.reduce((sum, s) => sum + s.drawIds.length, 0);
        for (const s of settled)
          rounds.push({
            receipts: receiptsOf.get(s.round) ?? s.drawIds.length,
            closeMs: closeMs / heads.length,
            settleMs: (settleMs * s.drawIds.length) / Math.max(1, total),
          });
      }
    }
    const invariants = await checkInvariants(db);
    const perRound = rounds.map((r) => r.settleMs);
    return {
      drawsPerSecond: {
        sequence: round(sequenceRun.perSecond),
        beaconAccepted: round(beaconRun.perSecond),
        ratio: round(beaconRun.perSecond / sequenceRun.perSecond, 3),
      },
      refused: { sequence: sequenceRun.refused, beacon: beaconRun.refused },
      settlement: {
        rounds: rounds.length,
        receiptsPerRound: {
          mean: round(rounds.reduce((s, r) => s + r.receipts, 0) / Math.max(1, rounds.length)),
          max: Math.max(0, ...rounds.map((r) => r.receipts)),
        },
        settleMsPerRound: {
          median: round(percentile(perRound, 50)),
          p95: round(percentile(perRound, 95)),
          max: round(Math.max(0, ...perRound)),
        },
        settleMsPerReceipt: round(
          rounds.reduce((s, r) => s + r.settleMs, 0) /
            Math.max(
              1,
              rounds.reduce((s, r) => s + r.receipts, 0),
            ),
          3,
        ),
        closeMsPerRound: round(
          percentile(
            rounds.map((r) => r.closeMs),
            50,
          ),
        ),
      },
      invariantsHold: invariants.length === 0,
    };
  } finally {
    await handle.close();
    await drand.close();
    await database.drop();
  }
}

/** A settled draw of `n` lots in a round of a few draws, with everything the phone is given. */
function evidenceOf(n: number): {
  evidence: BeaconDrawEvidence;
  won: string[];
  seen: { receiptReceivedAt: number; headReceivedAt: number };
} {
  const chain = drandChain({ seed: 'bench-phone', period: 3, genesisTime: 1_700_000_000, beaconId: 'bench' });
  const terms: BeaconPackTerms = {
    gachaId: 'phone',
    title: 'ベンチ',
    pricePerDraw: 100,
    tiers: [
      { id: 'phone.A', label: 'A賞', cardName: 'A', quantity: 50, conversionValue: 5000, isLastOne: false },
      { id: 'phone.B', label: 'B賞', cardName: 'B', quantity: 950, conversionValue: 50, isLastOne: false },
    ],
    beacon: {
      chainHash: chain.info.hash,
      scheme: chain.info.schemeID,
      publicKey: chain.info.public_key,
      genesisTime: chain.info.genesis_time,
      period: chain.info.period,
    },
    receiptKey: receiptPublicKey(RECEIPT_SECRET),
    certificates: [],
  };
  const ROUND = 5000;
  const time = (1_700_000_000 + (ROUND - 1) * 3) * 1000;
  const receipts: DrawReceipt[] = [10, n, 1, 10].map((count, i) => ({
    gachaId: 'phone',
    commitment: beaconCommitment(terms),
    drawId: `draw-${i}`,
    member: `${i}`.padStart(16, '0'),
    slots: Array.from({ length: count }, (_, k) => 1 + i * 200 + k),
    acceptedAt: new Date(time - 2000).toISOString(),
    round: ROUND,
    afterHead: '',
    afterRound: 0,
  }));
  const hashes = receipts.map(receiptHash);
  const head = headHash('', ROUND, hashes);
  const beacon = chain.beacon(ROUND);
  const remainingBefore = [
    { id: 'phone.A', remaining: 50 },
    { id: 'phone.B', remaining: 950 },
  ];
  const draws = receipts.map((r) => ({ drawId: r.drawId, n: r.slots.length }));
  const mine = receipts[1]!;
  return {
    evidence: {
      receipt: mine,
      signature: signReceipt(mine, RECEIPT_SECRET),
      terms,
      head: {
        round: ROUND,
        head,
        prevHead: '',
        publishedAt: new Date(time - 900).toISOString(),
        settleRound: ROUND,
        receiptHashes: hashes,
      },
      path: [{ round: ROUND, head, prevHead: '' }],
      settlement: {
        beacon: { round: ROUND, signature: beacon.signature, randomness: beacon.randomness },
        remainingBefore,
        draws,
      },
    },
    won: settleDraws(beacon.randomness, 'phone', remainingBefore, draws).tiers[1]!,
    seen: { receiptReceivedAt: time - 1900, headReceivedAt: time - 800 },
  };
}

/** checkBeaconDraw in Chromium with a 4× throttled CPU: the median of 7 runs of each size, and the first (cold). */
async function phoneVerification() {
  const bundle = await build({
    configFile: false,
    logLevel: 'silent',
    build: {
      write: false,
      minify: true,
      lib: { entry: path.resolve(import.meta.dirname, 'beacon-phone-entry.ts'), formats: ['es'], fileName: 'phone' },
    },
  });
  const output = (Array.isArray(bundle) ? bundle[0]! : bundle) as { output: { code?: string }[] };
  const code = output.output.find((chunk) => chunk.code)!.code!;
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  });
  try {
    const page = await browser.newPage();
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await page.setContent('<!doctype html><title>phone</title>');
    await page.addScriptTag({ type: 'module', content: `${code}\nwindow.__ready = true;` });
    await page.waitForFunction(() => (window as unknown as { __ready?: boolean }).__ready === true);
    const sizes: Record<string, { coldMs: number; medianMs: number; allOk: boolean; checks: number }> = {};
    for (const n of [1, 100]) {
      const { evidence, won, seen } = evidenceOf(n);
      const runs = await page.evaluate(
        ({ evidence, won, seen }) => {
          const api = (
            window as unknown as {
              beaconPhone: {
                run: (e: unknown, s: unknown, w: string[]) => { ms: number; ok: boolean; checks: number };
              };
            }
          ).beaconPhone;
          return Array.from({ length: 8 }, () => api.run(evidence, seen, won));
        },
        { evidence, won, seen },
      );
      const warm = runs.slice(1).map((r) => r.ms);
      sizes[n === 1 ? 'draw1' : 'draw100'] = {
        coldMs: round(runs[0]!.ms),
        medianMs: round(percentile(warm, 50)),
        allOk: runs.every((r) => r.ok),
        checks: runs[0]!.checks,
      };
      log(
        `phone check of a ${n === 1 ? '1回' : '100連'}: cold ${round(runs[0]!.ms)} ms, then ${round(percentile(warm, 50))} ms`,
      );
    }
    return { cpuThrottling: 4, bundleBytes: code.length, ...sizes };
  } finally {
    await browser.close();
  }
}

const report = {
  benchmark: 'beacon',
  date: new Date().toISOString(),
  machine: describeMachine(),
  settings: { draws: DRAWS, concurrency: CONCURRENCY, lots: LOTS },
  phone: await phoneVerification(),
  database: await throughputAndSettlement(),
};
report.machine = describeMachine();
console.log(JSON.stringify(report, null, 2));
if (process.env.BENCH_SAVE !== '0') {
  fs.writeFileSync(
    path.join(import.meta.dirname, '..', 'results', 'beacon.json'),
    `${JSON.stringify(report, null, 2)}\n`,
  );
}
