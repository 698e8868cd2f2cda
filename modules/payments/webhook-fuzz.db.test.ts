// Webhook fuzzing: 1,000 deliveries to POST /api/webhooks/sandbox — real events repeated and
// shuffled, mixed with forged ones (tampered amounts and states, bad or missing signatures, another
// secret, stale timestamps, garbage). Every real payment is credited exactly once; every forged
// delivery is refused with a 4xx and leaves nothing behind.
import { describe, it, expect, beforeAll } from 'vitest';
import { Hono } from 'hono';
import { eq, sql } from 'drizzle-orm';
import { useTestDatabase } from '#tests/use-test-database';
import { createMember, TEST_RULES } from '#tests/fixtures';
import { fuzzCount } from '#tests/settings';
import { checkInvariants } from '#modules/wallet';
import { coinLedger } from '#db/schema';
import { createLogger } from '#server/logger';
import { createWebhookRoutes, paymentServicesFor } from '#server/payments';
import { checkPaymentInvariants, ensureDefaultCoinPacks, processPaymentEvents } from './index';
import { paymentEvents, paymentOrders } from './schema';
import { sandboxSignature, SANDBOX_SIGNATURE_HEADER } from './providers/sandbox/sandbox';
import {
  checkoutAsMember,
  sandboxHarness,
  SANDBOX_WEBHOOK_SECRET,
  type CapturedWebhook,
  type SandboxHarness,
} from './testing';

const handle = useTestDatabase('webhook_fuzz', { poolSize: 8 });
let sandbox: SandboxHarness;

beforeAll(async () => {
  await ensureDefaultCoinPacks(handle.db);
  sandbox = sandboxHarness(handle.db);
});

/** A small seeded generator, so a failure can be replayed with the same seed. */
function seeded(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Delivery = { kind: string; forged: boolean; body: string; headers: Record<string, string> };

/** Deliveries per run: 1,000 in CI (TEST_FUZZ_SCALE, tests/support/settings.ts). */
const DELIVERIES = fuzzCount(1000);
const now = () => Math.floor(Date.now() / 1000);
const signed = (body: string, secret = SANDBOX_WEBHOOK_SECRET, at = now()) => ({
  'content-type': 'application/json',
  [SANDBOX_SIGNATURE_HEADER]: sandboxSignature(secret, at, body),
});

/** The forgeries an attacker (or a broken proxy) could send, each built from a real event. */
function forgeries(real: CapturedWebhook, random: () => number): Delivery[] {
  const event = JSON.parse(real.body) as {
    id: string;
    type: string;
    data: { payment: { amount: number; status: string } };
  };
  const tamperedAmount = JSON.stringify({
    ...event,
    data: { payment: { ...event.data.payment, amount: event.data.payment.amount * 100 } },
  });
  // The state an attacker would want: paid when it was not, or refunded when it was.
  const flipped =
    event.type === 'payment.succeeded'
      ? { type: 'payment.refunded', status: 'refunded' }
      : { type: 'payment.succeeded', status: 'succeeded' };
  const tamperedState = JSON.stringify({
    ...event,
    type: flipped.type,
    data: { payment: { ...event.data.payment, status: flipped.status } },
  });
  const newId = JSON.stringify({ ...event, id: `evt_forged${Math.floor(random() * 1e9)}`, type: 'payment.succeeded' });
  const header = real.headers[SANDBOX_SIGNATURE_HEADER]!;
  return [
    { kind: 'tampered amount, real signature', forged: true, body: tamperedAmount, headers: { ...real.headers } },
    { kind: 'tampered state, real signature', forged: true, body: tamperedState, headers: { ...real.headers } },
    { kind: 'new event, real signature', forged: true, body: newId, headers: { ...real.headers } },
    { kind: 'another secret', forged: true, body: newId, headers: signed(newId, 'whsec_attacker') },
    {
      kind: 'stale timestamp',
      forged: true,
      body: real.body,
      headers: signed(real.body, SANDBOX_WEBHOOK_SECRET, now() - 3600),
    },
    { kind: 'no signature', forged: true, body: real.body, headers: { 'content-type': 'application/json' } },
    {
      kind: 'garbled signature',
      forged: true,
      body: real.body,
      headers: {
        ...real.headers,
        [SANDBOX_SIGNATURE_HEADER]: header.replace(/v1=(.)/, (_m, c: string) => `v1=${c === '0' ? '1' : '0'}`),
      },
    },
    {
      kind: 'signature without timestamp',
      forged: true,
      body: real.body,
      headers: { ...real.headers, [SANDBOX_SIGNATURE_HEADER]: header.replace(/t=\d+,/, '') },
    },
    { kind: 'signed garbage', forged: true, body: '{"id": 1}', headers: signed('{"id": 1}') },
    { kind: 'signed non-JSON', forged: true, body: 'hello', headers: signed('hello') },
  ];
}

describe('a sender that keeps failing verification', () => {
  it('is answered 429 for the rest of the minute, while other senders are not', async () => {
    const db = handle.db;
    const payments = paymentServicesFor(sandbox.gateway, TEST_RULES.payments);
    const app = new Hono().route(
      '/api/webhooks',
      createWebhookRoutes({ db, payments, logger: createLogger('silent'), rejectionsPerMinute: 3 }),
    );
    const send = (ip: string) =>
      app.request('/api/webhooks/sandbox', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-shop-client-ip': ip },
        body: '{}',
      });
    expect([
      (await send('198.51.100.1')).status,
      (await send('198.51.100.1')).status,
      (await send('198.51.100.1')).status,
    ]).toEqual([400, 400, 400]);
    const limited = await send('198.51.100.1');
    expect(limited.status).toBe(429);
    expect((await limited.json()).error.code).toBe('WEBHOOK_RATE_LIMITED');
    expect((await send('198.51.100.2')).status).toBe(400);
  });
});

describe('webhook fuzzing', () => {
  it(`${DELIVERIES.toLocaleString('en')} deliveries: real payments credited exactly once, forgeries refused with 4xx and no trace`, async () => {
    const db = handle.db;
    const random = seeded(Number(process.env.FUZZ_SEED ?? 20261122));
    const payments = paymentServicesFor(sandbox.gateway, TEST_RULES.payments);
    const app = new Hono().route(
      '/api/webhooks',
      createWebhookRoutes({ db, payments, logger: createLogger('silent') }),
    );

    // Real payments, decided as members would: mostly approved, some declined, canceled, left open, refunded later.
    const packs = ['coin-500', 'coin-1000', 'coin-3000', 'coin-5000'];
    const outcome = new Map<string, 'paid' | 'failed' | 'canceled' | 'pending' | 'refunded'>();
    for (let m = 0; m < 30; m += 1) {
      const member = await createMember(db);
      for (let o = 0; o < 2; o += 1) {
        const { orderId, redirectUrl } = await checkoutAsMember(
          db,
          sandbox.gateway,
          member,
          packs[Math.floor(random() * packs.length)],
        );
        const roll = random();
        if (roll < 0.1) {
          outcome.set(orderId, 'pending');
          continue;
        }
        const decision = roll < 0.75 ? 'approve' : roll < 0.9 ? 'decline' : 'cancel';
        await sandbox.decide(redirectUrl, decision);
        outcome.set(orderId, decision === 'approve' ? 'paid' : decision === 'decline' ? 'failed' : 'canceled');
        if (decision === 'approve' && random() < 0.2) {
          const [order] = await db.select().from(paymentOrders).where(eq(paymentOrders.id, orderId));
          await sandbox.waitForEvent('payment.succeeded', orderId);
          expect(
            (await sandbox.api('POST', `/payments/${order!.providerRef}/refunds`, { amount: order!.amountJpy })).status,
          ).toBe(200);
          await sandbox.waitForEvent('payment.refunded', orderId);
          outcome.set(orderId, 'refunded');
        }
      }
    }
    const decided = [...outcome.values()].filter((s) => s !== 'pending').length;
    const refunds = [...outcome.values()].filter((s) => s === 'refunded').length;
    const real = await sandbox.waitForWebhooks(decided + refunds);

    // Deliveries: every real event 1–4 times, the rest forged; then shuffled.
    const deliveries: Delivery[] = [];
    for (const webhook of real) {
      const copies = 1 + Math.floor(random() * 4);
      for (let i = 0; i < copies; i += 1)
        deliveries.push({ kind: 'real', forged: false, body: webhook.body, headers: { ...webhook.headers } });
    }
    while (deliveries.length < DELIVERIES) {
      const options = forgeries(real[Math.floor(random() * real.length)]!, random);
      deliveries.push(options[Math.floor(random() * options.length)]!);
    }
    for (let i = deliveries.length - 1; i > 0; i -= 1) {
      const j = Math.floor(random() * (i + 1));
      [deliveries[i], deliveries[j]] = [deliveries[j]!, deliveries[i]!];
    }
    expect(deliveries).toHaveLength(DELIVERIES);

    // Delivered eight at a time, as a provider's retries and a busy shop would interleave them.
    const statuses: { delivery: Delivery; status: number }[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < deliveries.length) {
          const delivery = deliveries[next++]!;
          const response = await app.request('/api/webhooks/sandbox', {
            method: 'POST',
            headers: delivery.headers,
            body: delivery.body,
          });
          statuses.push({ delivery, status: response.status });
        }
      }),
    );
    for (const { delivery, status } of statuses) {
      if (delivery.forged) {
        expect(status, delivery.kind).toBeGreaterThanOrEqual(400);
        expect(status, delivery.kind).toBeLessThan(500);
      } else {
        expect(status).toBe(200);
      }
    }
    const forgedKinds = new Set(statuses.filter((s) => s.delivery.forged).map((s) => s.delivery.kind));
    expect(forgedKinds.size).toBe(10);

    // The background processing the route started, then sweeps until the queue is empty.
    for (let pass = 0; pass < 50; pass += 1) {
      await processPaymentEvents(db, sandbox.gateway, { rules: TEST_RULES.payments, limit: 500 });
      const [left] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(paymentEvents)
        .where(sql`processed_at is null`);
      if (left!.n === 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }

    // Exactly the real events were stored, each once, with the body the sandbox signed.
    const stored = await db.select().from(paymentEvents);
    expect(stored).toHaveLength(real.length);
    const realBodies = new Map(real.map((w) => [JSON.parse(w.body).id as string, JSON.parse(w.body)]));
    for (const event of stored) expect(event.payload).toEqual(realBodies.get(event.eventId));

    // Each order ended as decided; paid coins once for each paid order, none for the rest.
    for (const [orderId, expected] of outcome) {
      const [order] = await db.select().from(paymentOrders).where(eq(paymentOrders.id, orderId));
      expect(order!.status, orderId).toBe(expected);
      const credits = await db
        .select()
        .from(coinLedger)
        .where(sql`${coinLedger.ref} = ${orderId} and ${coinLedger.reason} = 'purchase'`);
      if (expected === 'paid' || expected === 'refunded') {
        // A refunded order may have been credited then reversed, or (events out of order) never credited.
        expect(credits.length).toBeLessThanOrEqual(1);
        if (expected === 'paid') expect(credits.map((c) => c.amount)).toEqual([order!.paidCoins]);
      } else {
        expect(credits).toEqual([]);
      }
    }
    expect(await checkInvariants(db)).toEqual([]);
    expect(await checkPaymentInvariants(db)).toEqual([]);
  });
});
