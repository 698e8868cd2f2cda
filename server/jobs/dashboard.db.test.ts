// The dashboard's rollup job (decision 028): draws, credited orders and sign-ups are folded into the
// per-day rollups exactly once, whether the job runs twice in a row or several times at once.
import { describe, it, expect, beforeAll } from 'vitest';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { useTestDatabase } from '#tests/use-test-database';
import { createMember, createMemberWithCoins, createPublishedPack, TEST_RULES } from '#tests/fixtures';
import { drawDailyFigures, drawLots, foldDrawRollups, foldedLotsByPack } from '#modules/draw';
import { foldMemberRollups, newMemberDailyFigures } from '#modules/identity';
import {
  baseDateOnOrAfter,
  foldSalesRollups,
  getOrder,
  processPaymentEvents,
  receiveWebhook,
  refreshUnusedPaidSnapshot,
  salesDailyFigures,
  unusedPaidSnapshotFor,
} from '#modules/payments';
import { sandboxHarness, checkoutAsMember, type SandboxHarness } from '#modules/payments/testing';
import { foldDashboardRollupsJob } from './dashboard';
import { capturingLogger } from './test-support';

const handle = useTestDatabase('dashboard_rollups', { poolSize: 4 });
let sandbox: SandboxHarness;
const settled = { settleSeconds: 0 };
// Small batches, so that the tests cross batch edges (three draws share one instant below).
const drawRules = { settleSeconds: 0, batchRows: 2 };

/** Folds draws until caught up, as the job does: the draws folded and the transactions it took. */
async function foldAllDraws() {
  let folded = 0;
  for (let steps = 1; ; steps++) {
    const step = await foldDrawRollups(handle.db, drawRules);
    folded += step.folded;
    if (step.caughtUp) return { folded, steps };
  }
}
// Two instants either side of a Japan-time midnight (2026-01-02 00:00 JST = 2026-01-01 15:00 UTC).
const LATE_ON_JAN_1 = '2026-01-01T14:59:59Z';
const EARLY_ON_JAN_2 = '2026-01-01T15:00:00Z';

beforeAll(() => {
  sandbox = sandboxHarness(handle.db);
});

async function draw(gachaId: string, memberId: string, count: number) {
  const drawn = await drawLots(handle.db, {
    decisionDays: TEST_RULES.prizeDecisionDays,
    memberId,
    gachaId,
    count,
    idempotencyKey: randomUUID(),
  });
  if (!drawn.ok) throw new Error(drawn.code);
  return drawn.result.drawId;
}

/** Moves rows to a chosen instant, as if they had been made then (the rollup keys by their time). */
const backdate = (table: 'draws' | 'users', ids: string[], at: string) =>
  handle.db.execute(
    sql`update ${sql.identifier(table)} set created_at = ${at}::timestamptz where id::text in (${sql.join(
      ids.map((id) => sql`${id}`),
      sql`, `,
    )})`,
  );

describe('the dashboard rollups', () => {
  it('fold draws per Japan-time day and pack, and active members, exactly once', async () => {
    const db = handle.db;
    const gachaId = await createPublishedPack(db, { lots: 40, price: 10, drawOptions: [1, 10] });
    const alice = await createMemberWithCoins(db, { paid: 500 });
    const bob = await createMemberWithCoins(db, { paid: 500 });
    const jan1 = [await draw(gachaId, alice, 10), await draw(gachaId, alice, 1), await draw(gachaId, bob, 1)];
    const jan2 = [await draw(gachaId, alice, 10)];
    await backdate('draws', jan1, LATE_ON_JAN_1);
    await backdate('draws', jan2, EARLY_ON_JAN_2);

    const first = await foldAllDraws();
    expect(first.folded).toBe(4);
    expect(first.steps).toBeGreaterThan(1);
    const expected = [
      { day: '2026-01-01', draws: 3, lots: 12, coins: 120, activeMembers: 2 },
      { day: '2026-01-02', draws: 1, lots: 10, coins: 100, activeMembers: 1 },
      { day: '2026-01-03', draws: 0, lots: 0, coins: 0, activeMembers: 0 },
    ];
    expect(await drawDailyFigures(db, '2026-01-01', '2026-01-03')).toEqual(expected);

    // Again, and three at once (two instances and a retry): nothing is counted twice.
    expect(await foldDrawRollups(db, drawRules)).toEqual({ folded: 0, caughtUp: true });
    await Promise.all([foldAllDraws(), foldAllDraws(), foldAllDraws()]);
    expect(await drawDailyFigures(db, '2026-01-01', '2026-01-03')).toEqual(expected);

    // Today's draws arrive over several runs: each batch adds to the day, and a member already active
    // that day is not counted again.
    const today = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Asia/Tokyo' }).format(new Date());
    await draw(gachaId, bob, 1);
    expect(await foldAllDraws()).toMatchObject({ folded: 1 });
    await draw(gachaId, bob, 1);
    expect(await foldAllDraws()).toMatchObject({ folded: 1 });
    expect(await drawDailyFigures(db, today, today)).toEqual([
      { day: today, draws: 2, lots: 2, coins: 20, activeMembers: 1 },
    ]);
    expect((await foldedLotsByPack(db)).get(gachaId)).toBe(24);
  });

  it('fold sign-ups per Japan-time day exactly once', async () => {
    const db = handle.db;
    const jan1 = [await createMember(db), await createMember(db)];
    const jan2 = [await createMember(db)];
    await backdate('users', jan1, LATE_ON_JAN_1);
    await backdate('users', jan2, EARLY_ON_JAN_2);
    // The first fold ever (from the beginning), twice at once, then again: nothing counted twice.
    await Promise.all([foldMemberRollups(db, settled), foldMemberRollups(db, settled)]);
    expect(await foldMemberRollups(db, settled)).toBe(0);
    expect(await newMemberDailyFigures(db, '2026-01-01', '2026-01-02')).toEqual([
      { day: '2026-01-01', newMembers: 2 },
      { day: '2026-01-02', newMembers: 1 },
    ]);
  });

  it('fold credited orders per day and method exactly once, through the job', async () => {
    const db = handle.db;
    const member = await createMember(db);
    const { orderId, redirectUrl } = await checkoutAsMember(db, sandbox.gateway, member, 'coin-3000');
    await sandbox.decide(redirectUrl, 'approve');
    const webhook = await sandbox.waitForEvent('payment.succeeded', orderId);
    await receiveWebhook(db, sandbox.gateway, 'sandbox', {
      headers: new Headers(webhook.headers),
      rawBody: webhook.body,
    });
    await processPaymentEvents(db, sandbox.gateway, { limit: 10, rules: TEST_RULES.payments });
    const order = (await getOrder(db, member, orderId))!;
    expect(order.status).toBe('paid');
    const today = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Asia/Tokyo' }).format(new Date());

    const job = foldDashboardRollupsJob(0);
    const run = () => job.handler({ db, logger: capturingLogger().logger, now: new Date() });
    await Promise.all([run(), run()]);
    await run();
    expect(await salesDailyFigures(db, today, today)).toEqual([
      { day: today, method: 'sandbox', orders: 1, amountJpy: order.amountJpy },
    ]);
    expect(await foldSalesRollups(db, settled)).toBe(0);

    // The 資金決済法 figure for the next base date: this member's 3,000 paid coins (and the draw test's).
    const snapshot = await refreshUnusedPaidSnapshot(db, new Date());
    expect(snapshot.baseDate).toBe(baseDateOnOrAfter(new Date()));
    expect(snapshot.unusedPaidCoins).toBeGreaterThanOrEqual(3000);
    expect(await unusedPaidSnapshotFor(db, new Date())).toMatchObject({
      unusedPaidCoins: snapshot.unusedPaidCoins,
      exceedsThreshold: false,
      thresholdJpy: 10_000_000,
    });
  });
});
