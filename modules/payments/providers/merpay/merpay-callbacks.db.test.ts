// D3, end to end: the shop's /api/webhooks/merpay on a real database, called by the Merpay stand-in.
// A forged confirm (or completion) that carries a real transaction id and the true order and amount —
// all of which the paying member knows — is answered 4xx and leaves no payment_events row; the genuine
// callbacks still go through and credit the order once.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { eq } from 'drizzle-orm';
import { useTestDatabase } from '#tests/use-test-database';
import { createMember, TEST_RULES } from '#tests/fixtures';
import { createLogger } from '#server/logger';
import { createWebhookRoutes, paymentServicesFor } from '#server/payments';
import { getBalance } from '#modules/wallet';
import { startMerpayStandin, type MerpayStandin } from '#devtools/standins/merpay';
import {
  checkPaymentInvariants,
  declareAge,
  ensureDefaultCoinPacks,
  getOrder,
  processPaymentEvents,
  startCheckout,
  type PaymentGateway,
} from '../../index';
import { paymentEvents, paymentOrders } from '../../schema';
import { createMerpayProvider } from './merpay';

const CREDS = { clientId: 'merpay-db-test', clientSecret: 'merpay-db-test-secret-0123456789' };

const handle = useTestDatabase('merpay_callbacks', { poolSize: 4 });
let standin: MerpayStandin;
let shop: ServerType;
let origin: string;
let gateway: PaymentGateway;

beforeAll(async () => {
  await ensureDefaultCoinPacks(handle.db);
  standin = await startMerpayStandin({ port: 0, ...CREDS });
  gateway = { providers: { merpay: createMerpayProvider({ apiBase: standin.url, authBase: standin.url, ...CREDS }) } };
  const app = new Hono();
  app.route(
    '/api/webhooks',
    createWebhookRoutes({
      db: handle.db,
      payments: paymentServicesFor(gateway, TEST_RULES.payments),
      logger: createLogger('silent'),
    }),
  );
  shop = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((resolve) => shop.once('listening', () => resolve()));
  origin = `http://127.0.0.1:${(shop.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => (shop ? shop.close(() => resolve()) : resolve()));
  await standin?.close();
});

const eventsOf = async (transactionId: string) =>
  (await handle.db.select().from(paymentEvents).where(eq(paymentEvents.provider, 'merpay'))).filter((event) =>
    event.eventId.endsWith(`:${transactionId}`),
  );

/** Posts a callback as a forger would: to the shop's public webhook URL, with fields the member knows. */
const forge = (kind: 'confirm' | 'completion', fields: { transactionId: string; orderId: string; amount: number }) => {
  const url = `${origin}/api/webhooks/merpay?kind=${kind}`;
  const body =
    kind === 'confirm'
      ? { url, ...fields, shippingFee: 0 }
      : {
          url,
          ...fields,
          orderName: 'コイン',
          inquiryCode: '1234567890',
          shippingFee: 0,
          paymentContractType: 1,
          buyer: null,
          deliveryAddress: null,
        };
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
};

describe('メルペイ callbacks at /api/webhooks/merpay', () => {
  it('refuses forged callbacks with a real transaction id and stores nothing; the genuine ones credit once', async () => {
    const db = handle.db;
    const member = await createMember(db);
    await declareAge(db, member, false);
    const { orderId } = await startCheckout(
      db,
      gateway,
      {
        memberId: member,
        packId: 'coin-1000',
        method: 'merpay',
        origin,
      },
      TEST_RULES.payments,
    );
    const [order] = await db.select().from(paymentOrders).where(eq(paymentOrders.id, orderId));
    const transactionId = order!.providerRef!;
    expect(transactionId).toMatch(/^mtx_/);
    const fields = { transactionId, orderId, amount: 1000 };

    // Before payment: the forged confirm would let the shop vouch for a payment Merpay never asked about.
    const forgedConfirm = await forge('confirm', fields);
    expect(forgedConfirm.status).toBeGreaterThanOrEqual(400);
    expect(forgedConfirm.status).toBeLessThan(500);
    expect((await forgedConfirm.json()).error.code).toBe('WEBHOOK_REJECTED');
    expect(await eventsOf(transactionId)).toEqual([]);

    // The member pays: Merpay calls the URLs it was given, the shop answers 200 to each and stores them.
    await standin.approve(transactionId);
    const delivered = standin.callbacks.filter((callback) => callback.transactionId === transactionId);
    expect(delivered.map((callback) => callback.kind)).toEqual(['confirm', 'completion']);
    expect(delivered[0]!.status).toBe(200);
    // The completion may find the order already paid by the processing the confirm set off (409
    // ORDER_NOT_PAYABLE, which Merpay ignores after payment); either way it is genuine, never rejected.
    expect([200, 409]).toContain(delivered[1]!.status);
    expect(delivered[1]!.answer).not.toContain('WEBHOOK_REJECTED');
    expect((await eventsOf(transactionId)).map((event) => event.eventId).sort()).toEqual([
      `completion:${transactionId}`,
      `confirm:${transactionId}`,
    ]);

    // After payment: a forged completion with every field true is still not Merpay's.
    const forgedCompletion = await forge('completion', fields);
    expect(forgedCompletion.status).toBeGreaterThanOrEqual(400);
    expect(forgedCompletion.status).toBeLessThan(500);
    expect(await eventsOf(transactionId)).toHaveLength(2);

    // The route processes stored events in the background; the sweep (processPaymentEvents) does the rest.
    await paidOrTimeout(
      () => getOrder(db, member, orderId),
      () => processPaymentEvents(db, gateway, { rules: TEST_RULES.payments }),
    );
    expect((await getBalance(db, member)).paid).toBe(1000);
    // The genuine callbacks again (Merpay retries): proven genuine (not WEBHOOK_REJECTED) but stored once
    // and credited once; the shop answers them 409 ORDER_NOT_PAYABLE, as it answers any callback that
    // waits for a yes on an order no longer pending, so that Merpay never charges twice.
    for (const callback of delivered) {
      const again = await fetch(callback.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: callback.body,
      });
      expect(again.status).toBe(409);
      expect((await again.json()).error.code).toBe('ORDER_NOT_PAYABLE');
    }
    await processPaymentEvents(db, gateway, { rules: TEST_RULES.payments });
    expect(await eventsOf(transactionId)).toHaveLength(2);
    expect((await getBalance(db, member)).paid).toBe(1000);
    expect(await checkPaymentInvariants(db)).toEqual([]);
  });
});

/** Sweeps the event queue until the order is paid (the route's own background processing may win). */
async function paidOrTimeout(read: () => Promise<{ status: string } | null>, sweep: () => Promise<unknown>) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    await sweep();
    const order = await read();
    if (order?.status === 'paid') return;
    if (Date.now() > deadline) throw new Error(`order still ${order?.status} after the sweeps`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
