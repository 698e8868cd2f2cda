// The sandbox provider's adapter: a hosted checkout inside the shop (hosted.ts beside it) with
// a small Stripe-like API, a bearer secret and HMAC-SHA256 signed webhooks. Development and tests.
import { createHmac, timingSafeEqual } from 'node:crypto';
import {
  ProviderError,
  WebhookRejected,
  type PaymentProvider,
  type ProviderPayment,
  type VerifiedWebhookEvent,
} from '../types';

/** Seconds a signed webhook stays acceptable (as Stripe's default). */
export const SANDBOX_SIGNATURE_TOLERANCE_SECONDS = 300;
export const SANDBOX_SIGNATURE_HEADER = 'sandbox-signature';

/**
 * `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`.
 * @example sandboxSignature('whsec_x', 1700000000, '{"id":"evt_1"}') // 't=1700000000,v1=5f…'
 */
export function sandboxSignature(secret: string, timestamp: number, body: string): string {
  const mac = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return `t=${timestamp},v1=${mac}`;
}

/** The sandbox API's payment object. */
export interface SandboxPaymentObject {
  id: string;
  object: 'payment';
  status: 'requires_action' | 'succeeded' | 'declined' | 'canceled' | 'refunded' | 'disputed';
  amount: number;
  currency: 'jpy';
  amount_refunded: number;
  reference: string;
  checkout_url: string;
}

export interface SandboxEventObject {
  id: string;
  type: 'payment.succeeded' | 'payment.declined' | 'payment.canceled' | 'payment.refunded' | 'payment.disputed';
  created: number;
  data: { payment: SandboxPaymentObject };
}

const HINTS: Record<SandboxEventObject['type'], VerifiedWebhookEvent['hint']> = {
  'payment.succeeded': 'paid',
  'payment.declined': 'failed',
  'payment.canceled': 'canceled',
  'payment.refunded': 'refunded',
  'payment.disputed': 'charged_back',
};

export interface SandboxProviderOptions {
  /** Where the sandbox API lives, e.g. http://localhost:3000/sandbox/api. */
  apiBase: string;
  secretKey: string;
  webhookSecret: string;
  /** The transport; the shop passes its own app's request handler so no socket is needed. */
  fetch?: (url: string, init: RequestInit) => Promise<Response>;
  /** For tests: the clock used to judge signature age. */
  now?: () => number;
}

/** @example const sandbox = createSandboxProvider({ apiBase: `${origin}/sandbox/api`, secretKey, webhookSecret }) */
export function createSandboxProvider(options: SandboxProviderOptions): PaymentProvider {
  const send = options.fetch ?? ((url, init) => fetch(url, init));
  const clock = options.now ?? (() => Date.now());

  async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown, idempotencyKey?: string): Promise<T> {
    let response: Response;
    try {
      response = await send(`${options.apiBase}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${options.secretKey}`,
          'content-type': 'application/json',
          ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (error) {
      throw new ProviderError('sandbox unreachable', true, error);
    }
    const text = await response.text();
    if (!response.ok)
      throw new ProviderError(
        `sandbox ${method} ${path}: ${response.status} ${text.slice(0, 200)}`,
        response.status >= 500 || response.status === 429,
      );
    return JSON.parse(text) as T;
  }

  const toPayment = (p: SandboxPaymentObject): ProviderPayment => {
    switch (p.status) {
      case 'requires_action':
        return { status: 'pending' };
      case 'succeeded':
        return { status: 'paid', amountJpy: p.amount, providerPaymentId: p.id };
      case 'declined':
        return { status: 'failed', reason: 'declined' };
      case 'canceled':
        return { status: 'canceled' };
      case 'refunded':
        return { status: 'refunded', amountJpy: p.amount, refundedJpy: p.amount_refunded, providerPaymentId: p.id };
      case 'disputed':
        return { status: 'charged_back', amountJpy: p.amount, providerPaymentId: p.id };
    }
  };

  return {
    method: 'sandbox',
    async createCheckout(request) {
      const payment = await call<SandboxPaymentObject>(
        'POST',
        '/payments',
        {
          amount: request.amountJpy,
          currency: 'jpy',
          reference: request.orderId,
          description: request.description,
          return_url: request.returnUrl,
          cancel_url: request.cancelUrl,
          webhook_url: request.webhookUrl,
        },
        `checkout:${request.orderId}`,
      );
      return { redirectUrl: payment.checkout_url, providerRef: payment.id };
    },
    async fetchPayment(order) {
      const payment = await call<SandboxPaymentObject>('GET', `/payments/${encodeURIComponent(order.providerRef)}`);
      if (payment.reference !== order.orderId)
        throw new ProviderError('sandbox payment belongs to another order', false);
      return toPayment(payment);
    },
    async cancel(order) {
      await call('POST', `/payments/${encodeURIComponent(order.providerRef)}/cancel`);
    },
    async refund(order, amountJpy) {
      await call(
        'POST',
        `/payments/${encodeURIComponent(order.providerRef)}/refunds`,
        { amount: amountJpy },
        `refund:${order.orderId}:${amountJpy}`,
      );
    },
    async verifyWebhook(request) {
      const header = request.headers.get(SANDBOX_SIGNATURE_HEADER);
      if (!header) throw new WebhookRejected('missing signature', 400);
      const parts = Object.fromEntries(header.split(',').map((kv) => kv.split('=', 2) as [string, string]));
      const timestamp = Number(parts.t);
      if (!Number.isInteger(timestamp) || !parts.v1 || !/^[0-9a-f]{64}$/.test(parts.v1))
        throw new WebhookRejected('malformed signature', 400);
      if (Math.abs(clock() / 1000 - timestamp) > SANDBOX_SIGNATURE_TOLERANCE_SECONDS)
        throw new WebhookRejected('signature too old', 400);
      const expected = Buffer.from(
        sandboxSignature(options.webhookSecret, timestamp, request.rawBody).split('v1=')[1]!,
        'hex',
      );
      const given = Buffer.from(parts.v1, 'hex');
      if (expected.length !== given.length || !timingSafeEqual(expected, given))
        throw new WebhookRejected('signature mismatch', 401);
      let event: SandboxEventObject;
      try {
        event = JSON.parse(request.rawBody) as SandboxEventObject;
      } catch {
        throw new WebhookRejected('body is not JSON', 400);
      }
      if (typeof event?.id !== 'string' || !(event.type in HINTS) || typeof event.data?.payment?.id !== 'string') {
        throw new WebhookRejected('not a sandbox event', 422);
      }
      return [
        {
          eventId: event.id,
          type: event.type,
          orderId: event.data.payment.reference ?? null,
          providerRef: event.data.payment.id,
          hint: HINTS[event.type],
        },
      ];
    },
  };
}
