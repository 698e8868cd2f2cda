// /dev/outbox: the newest mails and SMS of the outbox, for a developer (links clickable). Only with
// the developer tools on (PAYMENT_SANDBOX) and from this machine; otherwise the shop's not-found page.
// The JSON form for tests is GET /dev/outbox.json?to=<address> (server/messaging.ts).
import type { Route } from './+types/outbox';
import { shopRequestContext } from '#server/context';
import { notFound } from '~/lib/not-found';
import { devToolsAllowed } from '#server/context';
import { recentMessages } from '#modules/messaging';

export const handle = { title: '送信メッセージ（開発用）' };

export const headers: Route.HeadersFunction = () => ({
  'X-Robots-Tag': 'noindex, nofollow',
  'Cache-Control': 'no-store',
});

const STATUS_LABELS: Record<string, string> = {
  queued: '送信待ち',
  sending: '送信中',
  sent: '送信済み',
  failed: '送信失敗',
  held: '保留（送信手段なし）',
};

export async function loader({ request, context }: Route.LoaderArgs) {
  const shop = context.get(shopRequestContext);
  const url = new URL(request.url);
  if (!devToolsAllowed(shop.services.config, request.headers)) throw notFound(url.pathname);
  const to = url.searchParams.get('to')?.trim() || undefined;
  const messages = await recentMessages(shop.services.db, { to, limit: 50 });
  return {
    to: to ?? null,
    messages: messages.map((message) => ({
      id: message.id,
      channel: message.channel,
      to: message.to,
      template: message.template,
      subject: message.subject,
      text: message.text,
      status: message.status,
      attempts: message.attempts,
      lastError: message.lastError,
      deliveryStatus: message.deliveryStatus,
      createdAt: message.createdAt.toISOString(),
    })),
  };
}

const dateFormat = new Intl.DateTimeFormat('ja-JP', {
  timeZone: 'Asia/Tokyo',
  dateStyle: 'short',
  timeStyle: 'medium',
});

/** The text with its http(s) links as anchors. */
function LinkedText({ text }: { text: string }) {
  const parts = text.split(/(https?:\/\/[^\s<>"）」]+)/g);
  return (
    <>
      {parts.map((part, index) =>
        index % 2 === 1 ? (
          <a key={index} href={part} className="break-all text-primary-ink underline">
            {part}
          </a>
        ) : (
          <span key={index}>{part}</span>
        ),
      )}
    </>
  );
}

export default function DevOutbox({ loaderData }: Route.ComponentProps) {
  const { messages, to } = loaderData;
  return (
    <main className="mx-auto max-w-3xl px-4 py-6">
      <meta name="robots" content="noindex, nofollow" />
      <h1 className="text-xl font-bold">送信メッセージ（開発用）</h1>
      <p className="mt-1 text-sm text-muted">
        新しい順に最大50件。送信手段（SMTP_URL・Twilio）が未設定のメッセージは「保留」のまま、ここでだけ読めます。
      </p>
      <form method="get" className="mt-4 flex flex-wrap items-end gap-2">
        <label className="flex flex-col text-sm">
          宛先で絞り込む
          <input
            type="text"
            name="to"
            defaultValue={to ?? ''}
            placeholder="member@example.jp / +819012345678"
            className="mt-1 min-h-11 rounded-lg border border-line px-3"
          />
        </label>
        <button type="submit" className="min-h-11 rounded-lg border border-line bg-white px-4 text-sm font-bold">
          表示
        </button>
      </form>
      {messages.length === 0 ? (
        <p className="mt-6 text-sm">メッセージはまだありません。</p>
      ) : (
        <ol className="mt-6 space-y-4">
          {messages.map((message) => (
            <li key={message.id} className="rounded-2xl border border-line bg-white p-4" data-message-id={message.id}>
              <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
                <dt className="text-muted">種類</dt>
                <dd>{message.channel === 'mail' ? 'メール' : 'SMS'}</dd>
                <dt className="text-muted">宛先</dt>
                <dd className="break-all">{message.to}</dd>
                {message.subject ? (
                  <>
                    <dt className="text-muted">件名</dt>
                    <dd className="font-bold">{message.subject}</dd>
                  </>
                ) : null}
                <dt className="text-muted">状態</dt>
                <dd>
                  {STATUS_LABELS[message.status] ?? message.status}
                  {message.attempts > 0 ? `（試行${message.attempts}回）` : ''}
                  {message.deliveryStatus ? `・配信: ${message.deliveryStatus}` : ''}
                  {message.lastError ? <span className="block text-xs text-muted">{message.lastError}</span> : null}
                </dd>
                <dt className="text-muted">作成</dt>
                <dd>
                  <time dateTime={message.createdAt}>{dateFormat.format(new Date(message.createdAt))}</time>
                </dd>
              </dl>
              {message.text === null ? (
                <p className="mt-3 text-sm text-muted">本文は保存期間を過ぎたため消去されました。</p>
              ) : (
                <pre className="mt-3 whitespace-pre-wrap break-words rounded-lg bg-canvas p-3 font-sans text-sm">
                  <LinkedText text={message.text} />
                </pre>
              )}
            </li>
          ))}
        </ol>
      )}
    </main>
  );
}
