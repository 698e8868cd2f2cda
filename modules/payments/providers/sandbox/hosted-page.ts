// The hosted sandbox's payment page (the member's side): 承認 / 拒否 / キャンセル, then back to the shop.
import type { Hono } from 'hono';
import { load, scheduleEvent, transition, type SandboxHost } from './hosted-payments';

/** Escapes text for HTML element content and double-quoted attributes (the hosted page is shop code, not a devtool). */
const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch] as string,
  );

/** Mounts /pay/:id on the sandbox app. */
export function mountHostedPage(app: Hono, host: SandboxHost): void {
  app.get('/pay/:id', async (c) => {
    const row = await load(host, c.req.param('id'));
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
    const row = await load(host, id);
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
    const saved = await transition(host, id, ['requires_action'], { status: next });
    const target = saved ?? row;
    if (saved)
      scheduleEvent(
        host,
        saved,
        next === 'succeeded' ? 'payment.succeeded' : next === 'declined' ? 'payment.declined' : 'payment.canceled',
      );
    const back = new URL(target.status === 'canceled' ? target.cancelUrl : target.returnUrl);
    back.searchParams.set('sandbox_payment', target.id);
    return c.redirect(back.toString(), 303);
  });
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
