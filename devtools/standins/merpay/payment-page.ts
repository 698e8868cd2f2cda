// The Merpay stand-in's hosted payment page, standing in for the Mercari app.
import type { Context } from 'hono';
import { escapeHtml } from '#devtools/standins/shared';
import type { MerpayStandinState, MerpayStandinTransaction } from './index';
import { decide } from './callbacks';
import type { MerpayState } from './state';

/** GET /payment?transaction_id=…: the hosted page standing in for the Mercari app. */
export function showPaymentPage(state: MerpayState, c: Context): Response {
  const t = state.transactions.get(c.req.query('transaction_id') ?? '');
  if (!t) return c.html(page('エラー', '<h1>お支払いが見つかりません</h1>'), 404);
  if (t.state !== 'created') return c.html(closedPage(t), 409);
  return c.html(paymentPage(t));
}

/** POST /payment: the member’s button (approve, decline, cancel): callbacks, then back to the shop. */
export async function submitPaymentPage(state: MerpayState, c: Context): Promise<Response> {
  const form = await c.req.parseBody();
  const t = state.transactions.get(typeof form.transaction_id === 'string' ? form.transaction_id : '');
  if (!t) return c.html(page('エラー', '<h1>お支払いが見つかりません</h1>'), 404);
  const action = form.action;
  if (action !== 'approve' && action !== 'decline' && action !== 'cancel')
    return c.html(page('エラー', '<h1>操作が正しくありません</h1>'), 400);
  const result = await decide(state, t, action);
  if ('problem' in result) return c.html(closedPage(t), 409);
  return c.redirect(result.redirectUrl, 303);
}

function paymentPage(t: MerpayStandinTransaction): string {
  const items = t.request.items
    .map(
      (i) =>
        `<li>${escapeHtml(i.name)} × ${escapeHtml(String(i.quantity))}　${escapeHtml(i.unitPrice.toLocaleString('ja-JP'))}円</li>`,
    )
    .join('');
  return page(
    'メルペイでお支払い',
    `<p class="brand">メルペイ <span class="tag">テスト環境</span></p>
<h1>${escapeHtml(t.request.orderName || 'ご注文')}</h1>
<p class="amount">${escapeHtml(t.request.amount.toLocaleString('ja-JP'))}<small>円</small></p>
<ul class="items">${items}</ul>
<p class="note">注文番号: ${escapeHtml(t.request.orderId)}<br>これはメルペイを模したローカルのテスト画面です。実際の請求は発生しません。</p>
<form method="post" action="/payment">
<input type="hidden" name="transaction_id" value="${escapeHtml(t.transactionId)}">
<button type="submit" name="action" value="approve" class="primary">お支払いを承認</button>
<button type="submit" name="action" value="decline">拒否</button>
<button type="submit" name="action" value="cancel" class="link">キャンセル</button>
</form>`,
  );
}

function closedPage(t: MerpayStandinTransaction): string {
  const reason: Partial<Record<MerpayStandinState, string>> = {
    refused_by_merchant: 'ショップがご注文を確認できなかったため、お支払いは行われませんでした。',
    declined: 'お支払いができませんでした。',
    canceled_by_member: 'お支払いはキャンセルされました。',
    canceled: 'このお支払いは取り消されました。',
    confirming: 'お支払いを処理しています。',
  };
  return page(
    'お支払い',
    `<h1>このお支払いは受付を終了しています</h1><p>${escapeHtml(reason[t.state] ?? 'お支払いは完了しています。')}</p>`,
  );
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="ja"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body{margin:0;font-family:system-ui,-apple-system,"Hiragino Sans","Noto Sans JP",sans-serif;background:#f3f6fb;color:#222}
main{max-width:420px;margin:0 auto;padding:24px 16px}
.brand{color:#e0263b;font-weight:700;margin:0 0 12px}.tag{font-size:12px;background:#fff3c4;color:#7a5b00;padding:2px 6px;border-radius:4px}
h1{font-size:20px;margin:0 0 8px}.amount{font-size:32px;font-weight:700;margin:8px 0 16px}.amount small{font-size:16px;margin-left:4px}
.items{font-size:14px;padding-left:18px}.note{font-size:13px;color:#555}
button{display:block;width:100%;padding:14px;margin:10px 0;font-size:16px;border-radius:8px;border:1px solid #e0263b;background:#fff;color:#e0263b}
button.primary{background:#e0263b;color:#fff}button.link{border:none;background:none;text-decoration:underline;color:#555}
</style></head><body><main>${body}</main></body></html>`;
}
