// The hosted sandbox's API (the adapter's side): a card processor's shape, bearer secret, idempotent
// create by reference, cancel, refunds, and a dispute control for tests.
import { timingSafeEqual } from 'node:crypto';
import type { Hono } from 'hono';
import { eq } from 'drizzle-orm';
import { sandboxPayments } from '../../schema';
import { load, newId, scheduleEvent, transition, view, type SandboxHost } from './hosted-payments';

/** Mounts /api/* on the sandbox app. */
export function mountSandboxApi(app: Hono, host: SandboxHost): void {
  const authorised = (header: string | undefined) => {
    const given = Buffer.from(header?.replace(/^Bearer /, '') ?? '');
    const expected = Buffer.from(host.options.secretKey);
    return given.length === expected.length && timingSafeEqual(given, expected);
  };
  const apiError = (status: 400 | 401 | 404 | 409, code: string, message: string) =>
    new Response(JSON.stringify({ error: { code, message } }), {
      status,
      headers: { 'content-type': 'application/json' },
    });

  app.use('/api/*', async (c, next) => {
    if (!authorised(c.req.header('authorization'))) return apiError(401, 'unauthorized', 'Invalid API key.');
    return next();
  });
  app.post('/api/payments', async (c) => {
    const body = (await c.req.json().catch(() => null)) as Record<string, unknown> | null;
    const amount = body?.amount;
    const urls = ['return_url', 'cancel_url', 'webhook_url'].map((k) => body?.[k]);
    if (
      !body ||
      typeof amount !== 'number' ||
      !Number.isSafeInteger(amount) ||
      amount <= 0 ||
      body.currency !== 'jpy' ||
      typeof body.reference !== 'string' ||
      !urls.every((u) => typeof u === 'string' && /^https?:\/\//.test(u))
    ) {
      return apiError(
        400,
        'invalid_request',
        'amount (integer JPY), currency jpy, reference, return_url, cancel_url and webhook_url are required.',
      );
    }
    const [existing] = await host.db
      .select()
      .from(sandboxPayments)
      .where(eq(sandboxPayments.merchantReference, body.reference));
    if (existing) {
      if (existing.amountJpy !== amount)
        return apiError(409, 'idempotency_conflict', 'reference already used with another amount.');
      return c.json(view(host, existing));
    }
    const [row] = await host.db
      .insert(sandboxPayments)
      .values({
        id: newId('sbp'),
        merchantReference: body.reference,
        amountJpy: amount,
        description: String(body.description ?? '').slice(0, 200),
        returnUrl: urls[0] as string,
        cancelUrl: urls[1] as string,
        webhookUrl: urls[2] as string,
      })
      .returning();
    return c.json(view(host, row!), 201);
  });
  app.get('/api/payments/:id', async (c) => {
    const row = await load(host, c.req.param('id'));
    return row ? c.json(view(host, row)) : apiError(404, 'not_found', 'No such payment.');
  });
  app.post('/api/payments/:id/cancel', async (c) => {
    const id = c.req.param('id');
    const saved = await transition(host, id, ['requires_action'], { status: 'canceled' });
    const row = saved ?? (await load(host, id));
    if (!row) return apiError(404, 'not_found', 'No such payment.');
    return c.json(view(host, row));
  });
  app.post('/api/payments/:id/refunds', async (c) => {
    const id = c.req.param('id');
    const body = (await c.req.json().catch(() => null)) as { amount?: unknown } | null;
    const row = await load(host, id);
    if (!row) return apiError(404, 'not_found', 'No such payment.');
    const amount = body?.amount;
    if (
      typeof amount !== 'number' ||
      !Number.isSafeInteger(amount) ||
      amount <= 0 ||
      amount > row.amountJpy - row.refundedJpy
    ) {
      return apiError(400, 'invalid_amount', 'Refund amount must be a positive integer not above what is left.');
    }
    const saved = await transition(host, id, ['succeeded', 'refunded'], {
      status: 'refunded',
      refundedJpy: row.refundedJpy + amount,
    });
    if (!saved) return apiError(409, 'not_refundable', 'Only succeeded payments can be refunded.');
    scheduleEvent(host, saved, 'payment.refunded');
    return c.json(view(host, saved));
  });
  // A test control: a chargeback is the card holder's bank's doing, so only tests and demos cause one.
  app.post('/api/payments/:id/dispute', async (c) => {
    const saved = await transition(host, c.req.param('id'), ['succeeded'], { status: 'disputed' });
    if (!saved) return apiError(409, 'not_disputable', 'Only succeeded payments can be disputed.');
    scheduleEvent(host, saved, 'payment.disputed');
    return c.json(view(host, saved));
  });
}
