// The Amazon Pay stand-in's HTML pages (every echoed value goes through escapeHtml).
import { escapeHtml } from '#devtools/standins/shared';
import type { AmazonPayStandinSession } from './index';

export function checkoutPage(s: AmazonPayStandinSession): string {
  const amount = Number(s.paymentDetails.chargeAmount.amount).toLocaleString('ja-JP');
  const store = s.merchantMetadata.merchantStoreName ?? 'ストア';
  return page(
    'Amazon Pay でお支払い',
    `<p class="brand">amazon pay <span class="tag">テスト環境</span></p>
<h1>${escapeHtml(store)}</h1>
<p class="item">${escapeHtml(s.merchantMetadata.noteToBuyer ?? 'ご注文')}</p>
<p class="amount">￥${escapeHtml(amount)}</p>
<p class="pay">お支払い方法: Visa ****1111（Amazon アカウントに登録済み）</p>
<p class="note">これは Amazon Pay のお支払いページを模したローカルのテスト画面です。実際の請求は発生しません。</p>
<form method="post">
<button type="submit" name="action" value="approve" class="primary">お支払いを承認</button>
<button type="submit" name="action" value="decline">拒否</button>
<button type="submit" name="action" value="cancel" class="link">キャンセル</button>
</form>`,
  );
}

export function errorPage(message: string, back?: string): string {
  const link = back ? `<p><a href="${escapeHtml(back)}">ストアに戻る</a></p>` : '';
  return page(
    'エラー',
    `<p class="brand">amazon pay <span class="tag">テスト環境</span></p><h1>お支払いを続けられません</h1><p>${escapeHtml(message)}</p>${link}`,
  );
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="ja"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body{margin:0;font-family:system-ui,-apple-system,"Hiragino Sans","Noto Sans JP",sans-serif;background:#f3f3f3;color:#0f1111}
main{max-width:420px;margin:0 auto;padding:24px 16px}
.brand{font-weight:700;margin:0 0 12px;color:#232f3e}.tag{font-size:12px;background:#fff3c4;color:#7a5b00;padding:2px 6px;border-radius:4px;font-weight:400}
h1{font-size:20px;margin:0 0 8px}.item{margin:0 0 4px}.amount{font-size:32px;font-weight:700;margin:8px 0 12px}
.pay{font-size:14px;background:#fff;border:1px solid #ddd;border-radius:8px;padding:10px}.note{font-size:13px;color:#555}
button{display:block;width:100%;padding:14px;margin:10px 0;font-size:16px;border-radius:8px;border:1px solid #a88734;background:#fff;color:#0f1111}
button.primary{background:#ffd814;border-color:#fcd200}button.link{border:none;background:none;text-decoration:underline;color:#555}
</style></head><body><main>${body}</main></body></html>`;
}
