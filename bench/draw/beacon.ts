// bench/draw/beacon.ts: the beacon mode measured beside today's (issue 33 item 10, decision 081).
//   1. Accepted draws per second: the same number of 1-lot draws, with the same concurrency, against a sequence
//      pack and a beacon pack of the same size on one PostgreSQL database, in turns (the draw function in one
//      database call; no HTTP: bench:draw measures that path).
//   2. Settlement time per round: the beacon pack's rounds closed and settled with the drand stand-in's verified
//      beacons (real BLS signatures), timed per round, with its receipts per round.
//   3. The phone's check of one draw (checkBeaconDraw: the commitment, the receipt's Ed25519 signature, the chain,
//      the beacon's BLS signature, the lots recomputed from the pack's public draw log, read page by page) in
//      Chromium with its CPU throttled 4× (a phone-class CPU, as Lighthouse's mobile preset), for a 1回 and a
//      100連 after BENCH_PHONE_RECEIPTS earlier receipts, against the reveal it must not outlast.
//   4. Serving that log: the database pack's whole log read page by page (DRAW_LOG_MAX_PAGE receipts, signed by
//      node:crypto as the shop signs) as the API does.
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
import {
  beaconDrawLog,
  closeBeaconRounds,
  DRAW_LOG_MAX_PAGE,
  drawLots,
  settleBeaconRounds,
  type BeaconOfRound,
} from '#modules/draw';
import { isRefusal } from '#modules/kernel';
import { checkInvariants } from '#modules/wallet';
import { fetchBeacon } from '#modules/beacon';
import { receiptPublicKey, type DrawReceipt } from '#modules/fairness';
import {
  atRound,
  drawEvidence,
  exampleChain,
  examplePack,
  pagesOf,
  simulateBeaconSale,
  type SaleEvent,
} from '#modules/fairness/testing';
import { startDrandStandin } from '#devtools/standins/drand';
import { receiptSigners } from '#server/beacon';
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
    // The whole public log of the beacon pack, page by page, signed, as GET /gachas/{id}/draw-log serves it.
    const signers = receiptSigners([RECEIPT_SECRET]);
    const signFor = (receipt: DrawReceipt, key: string) => signers.get(key)!(receipt);
    const t2 = performance.now();
    let pages = 0;
    let receipts = 0;
    for (let after: number | null = 0; after !== null; pages++) {
      const page = await beaconDrawLog(db, beacon, {
        after,
        limit: DRAW_LOG_MAX_PAGE,
        sign: (receipt, committedKey) => signFor(receipt, committedKey),
      });
      if (isRefusal(page)) throw new Error(page.code);
      receipts += page.items.length;
      after = page.nextAfter;
    }
    const logMs = performance.now() - t2;
    log(`public log: ${receipts} receipts in ${pages} pages served in ${round(logMs)} ms`);
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
      publicLog: {
        receipts,
        pages,
        pageSize: DRAW_LOG_MAX_PAGE,
        msPerPage: round(logMs / Math.max(1, pages)),
        totalMs: round(logMs),
      },
      invariantsHold: invariants.length === 0,
    };
  } finally {
    await handle.close();
    await drand.close();
    await database.drop();
  }
}

/** Receipts before the member's draw in the phone's log (BENCH_PHONE_RECEIPTS, default 1000). */
const PHONE_RECEIPTS = Number(process.env.BENCH_PHONE_RECEIPTS ?? 1000);

/**
 * A pack whose public log holds PHONE_RECEIPTS settled receipts of 1–10 lots (four a round) before the member's
 * draw of `n` lots, simulated as the shop runs it (real Ed25519 and BLS): the draw's proof, the tiers it won,
 * what the phone saw, and the log's pages through the draw's head as the API answers them (the result page asks
 * DRAW_LOG_MAX_PAGE receipts a page).
 */
function phoneCase(n: number) {
  const lots = PHONE_RECEIPTS * 6 + 200;
  const pack = {
    ...examplePack('bench-phone'),
    tiers: [
      {
        id: 'A',
        label: 'A賞',
        cardName: 'A',
        quantity: Math.floor(lots / 20),
        conversionValue: 5000,
        isLastOne: false,
      },
      {
        id: 'B',
        label: 'B賞',
        cardName: 'B',
        quantity: lots - Math.floor(lots / 20),
        conversionValue: 50,
        isLastOne: false,
      },
    ],
    status: 'on_sale',
  };
  const events: SaleEvent[] = [];
  const rounds = Math.ceil(PHONE_RECEIPTS / 4);
  for (let r = 0; r <= rounds; r++) {
    const at = 1001 + r;
    const last = r === rounds;
    const count = last ? 1 : 4;
    for (let i = 0; i < count; i++) {
      const id = last ? 'phone-mine' : `phone-${r}-${i}`;
      const lotsOf = last ? n : 1 + ((r * 4 + i) % 10);
      events.push({ draw: { at: atRound(at, -2500 + i * 300), drawId: id, memberId: `m${i}`, count: lotsOf } });
    }
    events.push({ close: atRound(at, -960) }, { settle: atRound(at, 500) });
  }
  const sale = simulateBeaconSale(pack, events, { chain: exampleChain() });
  const mine = sale.items.find((e) => e.receipt.drawId === 'phone-mine')!;
  const head = sale.heads.find((h) => h.round === mine.receipt.round)!;
  return {
    evidence: drawEvidence(sale, 'phone-mine'),
    won: mine.tiers!,
    seen: {
      receiptReceivedAt: Date.parse(mine.receipt.acceptedAt) + 100,
      headReceivedAt: Date.parse(head.publishedAt) + 50,
    },
    pages: pagesOf(sale, DRAW_LOG_MAX_PAGE).map((page) => JSON.stringify(page)),
    receiptsBefore: sale.items.length - 1,
  };
}

/**
 * checkBeaconDraw in Chromium with a 4× throttled CPU, the public log's pages parsed and merged as the result page
 * does (readBeaconLog): the median of 7 runs of each size, and the first (cold).
 */
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
    type Run = { ms: number; readMs: number; checkMs: number; ok: boolean };
    const sizes: Record<string, unknown> = {};
    for (const n of [1, 100]) {
      const { evidence, won, seen, pages, receiptsBefore } = phoneCase(n);
      // The 抽選中 screen has checked what it could before the round settled (as on the result page).
      if (n === 1)
        await page.evaluate(
          ({ evidence, seen }) =>
            (window as never as { beaconPhone: { waiting: (e: unknown, s: unknown) => void } }).beaconPhone.waiting(
              evidence,
              seen,
            ),
          { evidence, seen },
        );
      const runs: Run[] = [];
      for (let i = 0; i < 8; i++)
        runs.push(
          await page.evaluate(
            ({ evidence, won, seen, pages, pageSize }) =>
              (
                window as unknown as {
                  beaconPhone: {
                    run: (e: unknown, s: unknown, w: string[], p: string[], size: number) => Promise<Run>;
                  };
                }
              ).beaconPhone.run(evidence, seen, won, pages, pageSize),
            { evidence, won, seen, pages, pageSize: DRAW_LOG_MAX_PAGE },
          ),
        );
      const warm = runs.slice(1);
      const median = (pick: (r: Run) => number) => round(percentile(warm.map(pick), 50));
      sizes[n === 1 ? 'draw1' : 'draw100'] = {
        receiptsBefore,
        logPages: pages.length,
        logBytes: pages.reduce((sum, p) => sum + p.length, 0),
        coldMs: round(runs[0]!.ms),
        coldReadMs: round(runs[0]!.readMs),
        coldCheckMs: round(runs[0]!.checkMs),
        medianMs: median((r) => r.ms),
        medianReadMs: median((r) => r.readMs),
        medianCheckMs: median((r) => r.checkMs),
        allOk: runs.every((r) => r.ok),
      };
      log(
        `phone check of a ${n === 1 ? '1回' : '100連'} after ${receiptsBefore} receipts (${pages.length} log pages): cold ${round(runs[0]!.ms)} ms (log ${round(runs[0]!.readMs)} ms), then ${median((r) => r.ms)} ms`,
      );
    }
    // The shortest reveal (a single card: 2–4 s, app/components/reveal/reveal-logic.ts) the check must not outlast.
    return { cpuThrottling: 4, bundleBytes: code.length, shortestRevealMs: 2000, ...sizes };
  } finally {
    await browser.close();
  }
}

const report = {
  benchmark: 'beacon',
  date: new Date().toISOString(),
  machine: describeMachine(),
  settings: { draws: DRAWS, concurrency: CONCURRENCY, lots: LOTS, phoneReceipts: PHONE_RECEIPTS },
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
