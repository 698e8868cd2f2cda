// Local PayPay stand-in: speaks PayPay OPA's web-payment API (OPA-Auth HMAC, /v2/codes, /v2/payments, /v2/refunds) over HTTPS, serves a hosted payment page over HTTP and sends PayPay's Transaction webhooks.
//
// Why two listeners: the official Node SDK only speaks HTTPS (node:https, no plain-HTTP switch), so the
// API side serves TLS with a self-signed certificate generated at start (the adapter trusts exactly that
// certificate through its `trustedCaPem` option). The member's browser, however, must not hit a
// certificate warning in the local demo, so the hosted cashier page lives on a second, plain-HTTP
// listener, just as PayPay's real API host (apigw.paypay.ne.jp) and cashier host are different hosts.
//
// Documented behaviour this follows (see modules/payments/providers/paypay.md for the sources):
// - Authorization: `hmac OPA-Auth:<apiKey>:<macData>:<nonce>:<epoch>:<hash>`, where hash is
//   base64(MD5(contentType + body)) or "empty", macData is base64(HMAC-SHA256(secret,
//   path\nmethod\nnonce\nepoch\ncontentType\nhash)), and epoch must be within 2 minutes of server time.
//   Anything else: 401 {"resultInfo":{"code":"UNAUTHORIZED",...}}.
// - The merchant is named by `X-ASSUME-MERCHANT` (or `?assumeMerchant=`, which wins).
// - Get Payment Details of a code nobody paid (also once expired) answers status CREATED.
// - PayPay redirects the member to redirectUrl unchanged (no query parameters are added).
// - Transaction webhooks are plain JSON without any signature, sent for COMPLETED / FAILED / CANCELED;
//   no webhook for refunds. Delivery: 2 s timeout, up to 3 retries 100 ms apart.
import { createServer as createHttpsServer } from 'node:https';
import { serve } from '@hono/node-server';
import { addRefund, complete, fail, mustFind, nowSeconds, refundedTotal, snapshot } from './changes';
import { randomToken } from './responses';
import { createApiApp, createCashierApp } from './routing';
import { closeServer, generateCertificate, listen, urlHostFor } from './servers';
import type { PayPayState } from './state';
import { deliver, notify, track, webhookObject } from './webhooks';

export interface PayPayStandinOptions {
  /** Port of the HTTPS API listener (0 = a free port). */
  port?: number;
  /** Interface to listen on, for both listeners (default 127.0.0.1). */
  host?: string;
  /** Port of the plain-HTTP hosted payment page (0 = a free port). */
  cashierPort?: number;
  /** Public origin of the hosted page when the member's browser reaches it by another name (demo behind a proxy/LAN). */
  cashierPublicUrl?: string;
  /** Where Transaction webhooks are POSTed (our /api/webhooks/paypay); none are sent when unset. */
  webhookUrl?: string;
  apiKey: string;
  apiSecret: string;
  merchantId: string;
  /** How long a created code can be paid (seconds, default 600). */
  codeValidSeconds?: number;
  /** Use this certificate instead of generating one. */
  tls?: { key: string; cert: string };
}

/** PayPay's payment states as Get Payment Details reports them. */
export type PayPayStatus =
  'CREATED' | 'AUTHORIZED' | 'REAUTHORIZING' | 'COMPLETED' | 'REFUNDED' | 'FAILED' | 'CANCELED' | 'EXPIRED';

export interface PayPayStandinRefund {
  merchantRefundId: string;
  paymentId: string;
  amount: number;
  reason: string | null;
  status: 'CREATED' | 'REFUNDED' | 'REFUND_FAILED';
  requestedAt: number;
  acceptedAt: number;
}

export interface PayPayStandinPayment {
  codeId: string;
  merchantPaymentId: string;
  amount: number;
  orderDescription: string | null;
  redirectUrl: string | null;
  redirectType: string | null;
  metadata: unknown;
  requestedAt: number;
  expiryDate: number;
  codeDeleted: boolean;
  status: PayPayStatus;
  /** PayPay's transaction id ("order_id" in webhooks); set once the member acted on the code. */
  paymentId: string | null;
  acceptedAt: number;
  canceledAt: number | null;
  refunds: PayPayStandinRefund[];
}

export interface PayPayWebhookDelivery {
  body: string;
  /** Final HTTP status (0 when every attempt failed at the network level). */
  status: number;
  attempts: number;
}

export interface PayPayStandin {
  /** HTTPS origin of the API (give it to the adapter as baseUrl). */
  url: string;
  /** HTTP origin of the hosted payment page. */
  cashierUrl: string;
  /** The self-signed certificate the API serves (give it to the adapter as trustedCaPem). */
  caPem: string;
  close(): Promise<void>;
  /** The member approves on PayPay: COMPLETED, then the COMPLETED webhook (awaited). */
  approve(merchantPaymentId: string): Promise<PayPayStandinPayment>;
  /** The payment fails at PayPay (e.g. insufficient balance): FAILED, then the FAILED webhook (awaited). */
  decline(merchantPaymentId: string): Promise<PayPayStandinPayment>;
  /** A refund made outside the API (PayPay merchant panel). PayPay sends no webhook for refunds. */
  refund(merchantPaymentId: string, amountJpy?: number): PayPayStandinPayment;
  /** The webhook body PayPay would send for the payment's current state; `overrides` replace fields (for forged/tampered tests). */
  webhookBody(merchantPaymentId: string, overrides?: Record<string, unknown>): string;
  /** (Re)sends the webhook for the payment's current state (or `overrides`) to webhookUrl. */
  sendWebhook(merchantPaymentId: string, overrides?: Record<string, unknown>): Promise<PayPayWebhookDelivery>;
  getPayment(merchantPaymentId: string): PayPayStandinPayment | undefined;
  /** Every webhook delivery so far, oldest first. */
  readonly deliveries: readonly PayPayWebhookDelivery[];
}

/** Starts the PayPay stand-in (HTTPS API + HTTP hosted page); resolves once both listen. */
export async function startPayPayStandin(options: PayPayStandinOptions): Promise<PayPayStandin> {
  const host = options.host ?? '127.0.0.1';
  const tls = options.tls ?? (await generateCertificate(host));
  const state: PayPayState = {
    options,
    codeValidSeconds: options.codeValidSeconds ?? 600,
    byMerchantPaymentId: new Map(),
    byCodeId: new Map(),
    byPaymentId: new Map(),
    refunds: new Map(),
    deliveries: [],
    inFlight: new Set(),
    shutdown: new AbortController(),
    cashierOrigin: '',
  };
  const apiServer = await listen((listener) =>
    serve(
      {
        fetch: createApiApp(state).fetch,
        port: options.port ?? 0,
        hostname: host,
        createServer: createHttpsServer,
        serverOptions: { key: tls.key, cert: tls.cert },
      },
      listener,
    ),
  );
  const cashierServer = await listen((listener) =>
    serve({ fetch: createCashierApp(state).fetch, port: options.cashierPort ?? 0, hostname: host }, listener),
  );
  state.cashierOrigin = (options.cashierPublicUrl ?? `http://${urlHostFor(host)}:${cashierServer.port}`).replace(
    /\/+$/,
    '',
  );
  return {
    url: `https://${urlHostFor(host)}:${apiServer.port}`,
    cashierUrl: state.cashierOrigin,
    caPem: tls.cert,
    async close() {
      state.shutdown.abort();
      await Promise.allSettled([...state.inFlight]);
      await Promise.all([closeServer(apiServer.server), closeServer(cashierServer.server)]);
    },
    async approve(merchantPaymentId) {
      const payment = mustFind(state, merchantPaymentId);
      complete(state, payment);
      await notify(state, payment);
      return snapshot(payment);
    },
    async decline(merchantPaymentId) {
      const payment = mustFind(state, merchantPaymentId);
      fail(state, payment);
      await notify(state, payment);
      return snapshot(payment);
    },
    refund(merchantPaymentId, amountJpy) {
      const payment = mustFind(state, merchantPaymentId);
      addRefund(
        state,
        payment,
        `panel-${randomToken(12)}`,
        amountJpy ?? payment.amount - refundedTotal(payment),
        'merchant panel',
        nowSeconds(),
      );
      return snapshot(payment);
    },
    webhookBody(merchantPaymentId, overrides) {
      return JSON.stringify(webhookObject(state, mustFind(state, merchantPaymentId), overrides));
    },
    sendWebhook(merchantPaymentId, overrides) {
      return track(
        state,
        deliver(state, JSON.stringify(webhookObject(state, mustFind(state, merchantPaymentId), overrides))),
      );
    },
    getPayment(merchantPaymentId) {
      const payment = state.byMerchantPaymentId.get(merchantPaymentId);
      return payment ? snapshot(payment) : undefined;
    },
    deliveries: state.deliveries,
  };
}

export { checkAuthorization } from './opa-auth';
