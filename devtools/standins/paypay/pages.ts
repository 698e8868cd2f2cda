// The PayPay stand-in's HTML (every echoed value goes through escapeHtml).
import type { PayPayStandinPayment } from './index';

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

function yen(amount: number): string {
  return `${amount.toLocaleString('ja-JP')}円`;
}

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="ja">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} | PayPay（ローカル代替）</title>
<style>
body{margin:0;font-family:system-ui,-apple-system,"Hiragino Sans","Noto Sans JP",sans-serif;background:#f4f4f4;color:#222}
header{background:#ff0033;color:#fff;padding:14px 16px;font-weight:700;font-size:18px}
main{max-width:420px;margin:0 auto;padding:16px}
.card{background:#fff;border-radius:12px;padding:20px;box-shadow:0 1px 3px rgba(0,0,0,.12)}
.amount{font-size:32px;font-weight:700;margin:8px 0 4px}
.muted{color:#666;font-size:14px}
button{display:block;width:100%;min-height:48px;margin-top:12px;border-radius:24px;font-size:16px;font-weight:700;cursor:pointer}
.approve{background:#ff0033;color:#fff;border:0}
.decline{background:#fff;color:#222;border:1px solid #999}
.cancel{background:transparent;color:#444;border:0;text-decoration:underline}
.note{margin-top:16px;font-size:12px;color:#777}
a{color:#d6002a}
</style>
</head>
<body>
<header>PayPay</header>
<main>${body}</main>
</body>
</html>`;
}

export function cashierPage(p: PayPayStandinPayment): string {
  const action = `/cashier/${encodeURIComponent(p.codeId)}`;
  return layout(
    'お支払い',
    `<div class="card">
<p class="muted">お支払い内容</p>
<p>${escapeHtml(p.orderDescription ?? 'ご注文')}</p>
<p class="amount">${escapeHtml(yen(p.amount))}</p>
<p class="muted">注文番号: ${escapeHtml(p.merchantPaymentId)}</p>
<form method="post" action="${escapeHtml(action)}">
<button class="approve" type="submit" name="action" value="approve">お支払いを承認</button>
<button class="decline" type="submit" name="action" value="decline">拒否</button>
<button class="cancel" type="submit" name="action" value="cancel">キャンセル</button>
</form>
<p class="note">これはローカル環境用のPayPay代替画面です。実際の請求は発生しません。</p>
</div>`,
  );
}

export function closedPage(p: PayPayStandinPayment): string {
  const reason =
    p.status === 'COMPLETED' || p.status === 'REFUNDED'
      ? 'このお支払いはすでに完了しています。'
      : p.status === 'CREATED' && !p.codeDeleted
        ? 'このお支払いの有効期限が切れました。'
        : 'このお支払いは受け付けられません。';
  return messagePage('お支払いできません', reason, p.redirectType === 'APP_DEEP_LINK' ? null : p.redirectUrl);
}

export function messagePage(title: string, text: string, backUrl: string | null): string {
  const back =
    backUrl && /^https?:\/\//i.test(backUrl) ? `<p><a href="${escapeHtml(backUrl)}">ショップに戻る</a></p>` : '';
  return layout(
    title,
    `<div class="card"><h1 style="font-size:20px">${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p>${back}</div>`,
  );
}
