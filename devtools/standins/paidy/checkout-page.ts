// The Paidy stand-in's Paidy Checkout look-alike: 承認 / 拒否 / 閉じる, then back to the shop.
import type { Context } from 'hono';
import { escapeHtml, isHttpUrl } from '#devtools/standins/shared';
import { createPayment, deliverLater } from './changes';
import { type PaidyState, WIDGET_PATH } from './state';

/** GET the widget look-alike: the order, amount and store, with 承認 / 拒否 / 閉じる. */
export function showCheckout(state: PaidyState, c: Context): Response {
  const q = readCheckoutFields((k) => c.req.query(k));
  if (typeof q === 'string') return c.html(errorPage(q), 400);
  return c.html(checkoutPage(q, state.storeName));
}

/** POST the widget: the member’s choice; back to the return (or cancel) URL with payment_id and status. */
export async function submitCheckout(state: PaidyState, c: Context): Promise<Response> {
  const form = await c.req.parseBody();
  const field = (k: string) => (typeof form[k] === 'string' ? (form[k] as string) : undefined);
  const q = readCheckoutFields(field);
  if (typeof q === 'string') return c.html(errorPage(q), 400);
  const action = field('action');
  if (action === 'cancel') {
    // The member closed the widget: Paidy calls back with status "closed" and no payment.
    const back = new URL(q.cancel);
    back.searchParams.set('status', 'closed');
    return c.redirect(back.toString(), 303);
  }
  if (action !== 'approve' && action !== 'decline') return c.html(errorPage('操作が正しくありません。'), 400);
  const payment = createPayment(
    state,
    { orderId: q.order, amountJpy: q.amount, description: q.description },
    action === 'approve' ? 'authorized' : 'rejected',
  );
  if (payment.status === 'authorized') deliverLater(state, payment, 'authorize_success');
  const back = new URL(q.return);
  back.searchParams.set('payment_id', payment.id);
  back.searchParams.set('status', payment.status);
  return c.redirect(back.toString(), 303);
}

interface CheckoutFields {
  order: string;
  amount: number;
  description: string;
  return: string;
  cancel: string;
}

/** The widget page's inputs (query on GET, hidden fields on POST), or a Japanese error message. */
function readCheckoutFields(get: (key: string) => string | undefined): CheckoutFields | string {
  const order = get('order') ?? '';
  const amountText = get('amount') ?? '';
  const description = get('description') ?? '';
  const ret = get('return') ?? '';
  const cancel = get('cancel') ?? '';
  if (!order || order.length > 100) return '注文番号がありません。';
  if (!/^[1-9][0-9]{0,8}$/.test(amountText)) return '金額が正しくありません。';
  if (!isHttpUrl(ret) || !isHttpUrl(cancel)) return '戻り先のURLが正しくありません。';
  return { order, amount: Number(amountText), description: description.slice(0, 200), return: ret, cancel };
}

function checkoutPage(q: CheckoutFields, storeName: string): string {
  const hidden = (['order', 'description', 'return', 'cancel'] as const)
    .map((k) => `<input type="hidden" name="${k}" value="${escapeHtml(q[k])}">`)
    .join('');
  return page(
    'ペイディでお支払い',
    `<p class="brand">あと払いペイディ <span class="tag">テスト環境</span></p>
<h1>${escapeHtml(storeName)}</h1>
<p class="item">${escapeHtml(q.description || 'ご注文')}</p>
<p class="amount">${escapeHtml(q.amount.toLocaleString('ja-JP'))}<small>円</small></p>
<p class="note">お支払いは翌月まとめて。これは Paidy Checkout を模したローカルのテスト画面です。実際の請求は発生しません。</p>
<form method="post" action="${WIDGET_PATH}">
${hidden}<input type="hidden" name="amount" value="${escapeHtml(String(q.amount))}">
<button type="submit" name="action" value="approve" class="primary">お支払いを承認</button>
<button type="submit" name="action" value="decline">拒否</button>
<button type="submit" name="action" value="cancel" class="link">キャンセル</button>
</form>`,
  );
}

function errorPage(message: string): string {
  return page(
    'エラー',
    `<p class="brand">あと払いペイディ <span class="tag">テスト環境</span></p><h1>お支払いを開始できません</h1><p>${escapeHtml(message)}</p>`,
  );
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="ja"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body{margin:0;font-family:system-ui,-apple-system,"Hiragino Sans","Noto Sans JP",sans-serif;background:#f4f0fa;color:#222}
main{max-width:420px;margin:0 auto;padding:24px 16px}
.brand{color:#5b2fb8;font-weight:700;margin:0 0 12px}.tag{font-size:12px;background:#fff3c4;color:#7a5b00;padding:2px 6px;border-radius:4px}
h1{font-size:20px;margin:0 0 8px}.item{margin:0 0 4px}.amount{font-size:32px;font-weight:700;margin:8px 0 16px}.amount small{font-size:16px;margin-left:4px}
.note{font-size:13px;color:#555}
button{display:block;width:100%;padding:14px;margin:10px 0;font-size:16px;border-radius:8px;border:1px solid #5b2fb8;background:#fff;color:#5b2fb8}
button.primary{background:#5b2fb8;color:#fff}button.link{border:none;background:none;text-decoration:underline;color:#555}
</style></head><body><main>${body}</main></body></html>`;
}
