// The sandbox payment provider, hosted inside the shop for development, demos and tests: an API like
// a card processor's (bearer secret, idempotent create), a hosted page with 承認 / 拒否 / キャンセル,
// and HMAC-signed webhooks with retries. Its payments live in the shop's database (sandbox_payments),
// so several instances agree. Never on a real deployment: config turns it off for https origins.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { Hono } from 'hono';
import { eq } from 'drizzle-orm';
import type { Database } from '#db/client';
import { sandboxPayments } from '../../schema';
import {
  SANDBOX_SIGNATURE_HEADER,
  sandboxSignature,
  type SandboxEventObject,
  type SandboxPaymentObject,
} from './sandbox';

/** Escapes text for HTML element content and double-quoted attributes (the hosted page is shop code, not a devtool). */
const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch] as string,
  );

export interface SandboxAppOptions {
  db: Database;
  /** The public URL the sandbox is mounted at, e.g. http://localhost:3000/sandbox. */
  publicBase: string;
  secretKey: string;
  webhookSecret: string;
  /** Delivers a webhook; default: fetch. Returns the HTTP status. */
  deliver?: (url: string, body: string, headers: Record<string, string>) => Promise<number>;
  /** Milliseconds between approving and sending the webhook (tests use it to race the return page). */
  webhookDelayMs?: number;
  onDeliveryError?: (error: unknown, url: string) => void;
}

const ID = /^sbp_[A-Za-z0-9]{24}$/;
const newId = (prefix: string) =>
  `${prefix}_${randomBytes(18).toString('base64url').replace(/[-_]/g, 'x').slice(0, 24)}`;

/** Sandbox API + hosted page as a Hono app; mount it at /sandbox. */
export function createSandboxApp(options: SandboxAppOptions) {
  const { db } = options;
  const app = new Hono();
  const deliver =
    options.deliver ?? (async (url, body, headers) => (await fetch(url, { method: 'POST', body, headers })).status);

  const view = (row: typeof sandboxPayments.$inferSelect): SandboxPaymentObject => ({
    id: row.id,
    object: 'payment',
    status: row.status as SandboxPaymentObject['status'],
    amount: row.amountJpy,
    currency: 'jpy',
    amount_refunded: row.refundedJpy,
    reference: row.merchantReference,
    checkout_url: `${options.publicBase}/pay/${row.id}`,
  });

  const authorised = (header: string | undefined) => {
    const given = Buffer.from(header?.replace(/^Bearer /, '') ?? '');
    const expected = Buffer.from(options.secretKey);
    return given.length === expected.length && timingSafeEqual(given, expected);
  };
  const apiError = (status: 400 | 401 | 404 | 409, code: string, message: string) =>
    new Response(JSON.stringify({ error: { code, message } }), {
      status,
      headers: { 'content-type': 'application/json' },
    });

  /** Sends the event with up to three attempts, as real providers retry on failure. */
  async function sendEvent(row: typeof sandboxPayments.$inferSelect, type: SandboxEventObject['type']) {
    const event: SandboxEventObject = {
      id: newId('evt'),
      type,
      created: Math.floor(Date.now() / 1000),
      data: { payment: view(row) },
    };
    const body = JSON.stringify(event);
    for (let attempt = 0; attempt < 3; attempt += 1) {
      try {
        const headers = {
          'content-type': 'application/json',
          [SANDBOX_SIGNATURE_HEADER]: sandboxSignature(options.webhookSecret, Math.floor(Date.now() / 1000), body),
        };
        const status = await deliver(row.webhookUrl, body, headers);
        if (status >= 200 && status < 300) return;
      } catch (error) {
        options.onDeliveryError?.(error, row.webhookUrl);
      }
      await new Promise((r) => setTimeout(r, 500 * (attempt + 1)));
    }
  }
  const scheduleEvent = (row: typeof sandboxPayments.$inferSelect, type: SandboxEventObject['type']) => {
    setTimeout(() => void sendEvent(row, type), options.webhookDelayMs ?? 0).unref?.();
  };

  async function load(id: string) {
    if (!ID.test(id)) return undefined;
    const [row] = await db.select().from(sandboxPayments).where(eq(sandboxPayments.id, id));
    return row;
  }
  /** Moves a payment from one state to another; answers the row after, or undefined if it was not in `from`. */
  async function transition(id: string, from: string[], set: Partial<typeof sandboxPayments.$inferInsert>) {
    return db.transaction(async (tx) => {
      const [row] = await tx.select().from(sandboxPayments).where(eq(sandboxPayments.id, id)).for('update');
      if (!row || !from.includes(row.status)) return undefined;
      const [saved] = await tx
        .update(sandboxPayments)
        .set({ ...set, updatedAt: new Date() })
        .where(eq(sandboxPayments.id, id))
        .returning();
      return saved;
    });
  }

  // ---- API (the adapter's side)
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
    const [existing] = await db
      .select()
      .from(sandboxPayments)
      .where(eq(sandboxPayments.merchantReference, body.reference));
    if (existing) {
      if (existing.amountJpy !== amount)
        return apiError(409, 'idempotency_conflict', 'reference already used with another amount.');
      return c.json(view(existing));
    }
    const [row] = await db
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
    return c.json(view(row!), 201);
  });
  app.get('/api/payments/:id', async (c) => {
    const row = await load(c.req.param('id'));
    return row ? c.json(view(row)) : apiError(404, 'not_found', 'No such payment.');
  });
  app.post('/api/payments/:id/cancel', async (c) => {
    const id = c.req.param('id');
    const saved = await transition(id, ['requires_action'], { status: 'canceled' });
    const row = saved ?? (await load(id));
    if (!row) return apiError(404, 'not_found', 'No such payment.');
    return c.json(view(row));
  });
  app.post('/api/payments/:id/refunds', async (c) => {
    const id = c.req.param('id');
    const body = (await c.req.json().catch(() => null)) as { amount?: unknown } | null;
    const row = await load(id);
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
    const saved = await transition(id, ['succeeded', 'refunded'], {
      status: 'refunded',
      refundedJpy: row.refundedJpy + amount,
    });
    if (!saved) return apiError(409, 'not_refundable', 'Only succeeded payments can be refunded.');
    scheduleEvent(saved, 'payment.refunded');
    return c.json(view(saved));
  });
  // A test control: a chargeback is the card holder's bank's doing, so only tests and demos cause one.
  app.post('/api/payments/:id/dispute', async (c) => {
    const saved = await transition(c.req.param('id'), ['succeeded'], { status: 'disputed' });
    if (!saved) return apiError(409, 'not_disputable', 'Only succeeded payments can be disputed.');
    scheduleEvent(saved, 'payment.disputed');
    return c.json(view(saved));
  });

  // ---- the hosted page (the member's side)
  app.get('/pay/:id', async (c) => {
    const row = await load(c.req.param('id'));
    if (!row)
      return c.html(page('お支払いが見つかりません', '<p>このお支払いは存在しないか、期限が切れています。</p>'), 404);
    if (row.status !== 'requires_action') {
      return c.html(
        page(
          'お支払いは終了しています',
          `<p>このお支払いはすでに処理されました。</p><p><a href="${escapeHtml(row.returnUrl)}">ショップへ戻る</a></p>`,
        ),
      );
    }
    const amount = `¥${row.amountJpy.toLocaleString('ja-JP')}`;
    return c.html(
      page(
        'テスト決済',
        `
      <p class="badge">サンドボックス（テスト環境）</p>
      <p>${escapeHtml(row.description)}</p>
      <p class="amount">${amount}</p>
      <p class="note">実際の請求は発生しません。結果を選んでください。</p>
      <form method="post">
        <button name="decision" value="approve" class="primary">お支払いを承認</button>
        <button name="decision" value="decline">拒否（カード会社が承認しない）</button>
        <button name="decision" value="cancel" class="link">キャンセルしてショップへ戻る</button>
      </form>`,
      ),
    );
  });
  app.post('/pay/:id', async (c) => {
    const id = c.req.param('id');
    const form = await c.req.parseBody();
    const decision = form.decision;
    const row = await load(id);
    if (!row) return c.html(page('お支払いが見つかりません', '<p>このお支払いは存在しません。</p>'), 404);
    const next =
      decision === 'approve'
        ? 'succeeded'
        : decision === 'decline'
          ? 'declined'
          : decision === 'cancel'
            ? 'canceled'
            : null;
    if (!next)
      return c.html(page('選択してください', '<p>承認・拒否・キャンセルのいずれかを選んでください。</p>'), 400);
    const saved = await transition(id, ['requires_action'], { status: next });
    const target = saved ?? row;
    if (saved)
      scheduleEvent(
        saved,
        next === 'succeeded' ? 'payment.succeeded' : next === 'declined' ? 'payment.declined' : 'payment.canceled',
      );
    const back = new URL(target.status === 'canceled' ? target.cancelUrl : target.returnUrl);
    back.searchParams.set('sandbox_payment', target.id);
    return c.redirect(back.toString(), 303);
  });

  return app;
}

function page(title: string, body: string) {
  return `<!doctype html><html lang="ja"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex,nofollow"><title>${escapeHtml(title)}｜Sandbox Pay</title>
<style>body{font-family:system-ui,-apple-system,"Hiragino Sans","Noto Sans JP",sans-serif;margin:0;background:#f4f5f7;color:#1a1a1a}
main{max-width:420px;margin:0 auto;padding:24px 16px}h1{font-size:20px}.amount{font-size:32px;font-weight:700;margin:8px 0}
.badge{display:inline-block;background:#fff3cd;color:#7a5b00;border-radius:999px;padding:2px 10px;font-size:12px}
.note{color:#555;font-size:14px}form{display:grid;gap:12px;margin-top:20px}
button{font:inherit;font-size:16px;min-height:48px;border-radius:10px;border:1px solid #c5c8ce;background:#fff;color:#1a1a1a;cursor:pointer}
button.primary{background:#1b4dd8;border-color:#1b4dd8;color:#fff;font-weight:700}button.link{border:none;background:none;color:#1b4dd8;text-decoration:underline}
header{background:#1a1a1a;color:#fff;padding:12px 16px;font-weight:700}</style></head>
<body><header>Sandbox Pay</header><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;
}
