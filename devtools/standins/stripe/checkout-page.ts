// The Stripe stand-in's hosted Checkout page.
import type { Context } from 'hono';
import { escapeHtml } from '#devtools/standins/shared';
import type { StandinSession } from './index';
import { doApprove, doDecline, doExpire } from './changes';
import { idParam } from './objects';
import { messagePage, page } from './protocol';
import { now, type StripeState } from './state';
import { deliverLater } from './webhooks';

/** GET /c/pay/:id: the Checkout look-alike page of a session. */
export function showCheckoutPage(state: StripeState, c: Context): Response {
  const session = state.sessions.get(idParam(c));
  if (!session) return c.html(messagePage('ページが見つかりません', 'このお支払いページは存在しません。'), 404);
  lazyExpire(state, session);
  return c.html(sessionPage(state, session));
}

/** POST /c/pay/:id: the member's button (approve, decline, cancel), as on Checkout. */
export async function submitCheckoutPage(state: StripeState, c: Context): Promise<Response> {
  const session = state.sessions.get(idParam(c));
  if (!session) return c.html(messagePage('ページが見つかりません', 'このお支払いページは存在しません。'), 404);
  lazyExpire(state, session);
  const form = await c.req.parseBody();
  const action = typeof form.action === 'string' ? form.action : '';
  if (session.status === 'complete') return c.redirect(successUrl(session), 303);
  if (session.status === 'expired') return c.html(sessionPage(state, session), 410);
  if (action === 'approve') {
    deliverLater(state, doApprove(state, session));
    return c.redirect(successUrl(session), 303);
  }
  if (action === 'decline') {
    deliverLater(state, doDecline(state, session));
    return c.html(
      sessionPage(state, session, 'カードが拒否されました。別のカードでお試しいただくか、キャンセルしてください。'),
      402,
    );
  }
  if (action === 'cancel') {
    // Like Checkout's back link: the session stays open (until it expires) and the browser goes to cancel_url.
    if (session.cancel_url) return c.redirect(session.cancel_url, 303);
    return c.html(messagePage('お支払いを中止しました', 'このウィンドウを閉じてショップに戻ってください。'));
  }
  return c.html(sessionPage(state, session, '操作が正しくありません。'), 400);
}

function sessionPage(state: StripeState, session: StandinSession, error?: string): string {
  const name = state.productNames.get(session.id) ?? '';
  const amount = `¥${session.amount_total.toLocaleString('ja-JP')}`;
  const header = `<p class="brand">${escapeHtml(state.businessName)} <span class="tag">テストモード</span></p>
<p class="item">${escapeHtml(name)}</p>
<p class="amount">${escapeHtml(amount)}</p>`;
  if (session.status === 'complete') {
    return page(
      'お支払い完了',
      `${header}<h1>お支払いは完了しています</h1><p><a class="button primary" href="${escapeHtml(successUrl(session))}">ショップに戻る</a></p>`,
    );
  }
  if (session.status === 'expired') {
    const back = session.cancel_url
      ? `<p><a class="button" href="${escapeHtml(session.cancel_url)}">ショップに戻る</a></p>`
      : '';
    return page(
      '有効期限切れ',
      `${header}<h1>このお支払いページの有効期限が切れました</h1><p>もう一度ショップからお手続きください。</p>${back}`,
    );
  }
  const alert = error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : '';
  return page(
    `${amount}のお支払い`,
    `${header}${alert}
<section class="card" aria-label="カード情報">
<p class="label">カード情報</p>
<div class="field">1234 1234 1234 1234</div>
<div class="row"><div class="field">月 / 年</div><div class="field">セキュリティコード</div></div>
<p class="note">テスト環境：カード情報は入力不要です</p>
</section>
<form method="post" action="${escapeHtml(session.id)}">
<button class="primary" name="action" value="approve">お支払いを承認</button>
<button name="action" value="decline">拒否</button>
<button class="link" name="action" value="cancel">キャンセル</button>
</form>
<p class="note">「拒否」はカード会社に断られた場合を再現します（別のカードでやり直せます）。</p>`,
  );
}

function successUrl(session: StandinSession): string {
  return session.success_url.replaceAll('{CHECKOUT_SESSION_ID}', session.id);
}

/** Stripe expires state.sessions at expires_at on its own. */
export function lazyExpire(state: StripeState, session: StandinSession): void {
  if (session.status === 'open' && now() >= session.expires_at) deliverLater(state, doExpire(state, session));
}
