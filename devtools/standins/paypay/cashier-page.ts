// The PayPay stand-in's hosted payment page (HTTP).
import type { Context, Next } from 'hono';
import { complete, fail, payable } from './changes';
import { cashierPage, closedPage, messagePage } from './pages';
import type { PayPayState } from './state';
import { notify, routeParam } from './webhooks';

/** Headers of every cashier page: nothing but its own inline style. */
export async function lockDownCashierPage(c: Context, next: Next): Promise<void> {
  await next();
  c.header(
    'content-security-policy',
    "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'",
  );
  c.header('x-content-type-options', 'nosniff');
  c.header('referrer-policy', 'no-referrer');
  c.header('cache-control', 'no-store');
}

/** GET /cashier/:codeId: the hosted payment page of a code. */
export function showCashierPage(state: PayPayState, c: Context): Response {
  const payment = state.byCodeId.get(routeParam(c, 'codeId'));
  if (!payment) return c.html(messagePage('お支払いが見つかりません', 'このお支払いページは存在しません。', null), 404);
  if (!payable(payment)) return c.html(closedPage(payment), 410);
  return c.html(cashierPage(payment));
}

/** POST /cashier/:codeId: the member’s button (approve, decline, cancel); back to redirectUrl. */
export async function submitCashierPage(state: PayPayState, c: Context): Promise<Response> {
  const payment = state.byCodeId.get(routeParam(c, 'codeId'));
  if (!payment) return c.html(messagePage('お支払いが見つかりません', 'このお支払いページは存在しません。', null), 404);
  const form = await c.req.parseBody();
  const action = form.action;
  if (action !== 'approve' && action !== 'decline' && action !== 'cancel') {
    return c.html(messagePage('操作を選んでください', 'ボタンから操作を選んでください。', null), 400);
  }
  if (action !== 'cancel') {
    if (!payable(payment)) return c.html(closedPage(payment), 409);
    if (action === 'approve') complete(state, payment);
    else fail(state, payment);
    // The webhook goes out on its own; the return page asks Get Payment Details anyway.
    void notify(state, payment);
  }
  // PayPay sends the member to redirectUrl as given, with no query parameters of its own.
  if (payment.redirectUrl && payment.redirectType !== 'APP_DEEP_LINK' && /^https?:\/\//i.test(payment.redirectUrl)) {
    return c.redirect(payment.redirectUrl, 303);
  }
  const done =
    action === 'approve'
      ? 'お支払いが完了しました。'
      : action === 'decline'
        ? 'お支払いができませんでした。'
        : 'お支払いを中止しました。';
  return c.html(messagePage('PayPay', done, null));
}
