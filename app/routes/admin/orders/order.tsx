// /admin/orders/:orderId: one coin purchase. What was sold and credited, the provider's references,
// what a refund or chargeback reversed, the provider's events as they arrived, and the whole-order
// refund (orders:refund) after asking, with the reason kept in the audit log.
import { useEffect, useState } from 'react';
import { Form, Link, useActionData, useNavigation } from 'react-router';
import type { Route } from './+types/order';
import { shopRequestContext } from '#server/context';
import { Button } from '~/components/Button';
import { Sheet } from '~/components/Sheet';
import { MemberTag } from '~/components/admin/MemberTag';
import { formatStaffDateTime } from '#modules/kernel/dates';
import { orderPageAction, orderPageLoader, type OrderActionData } from '~/controllers/admin-orders.server';

export const handle = { title: '注文の詳細' };

export async function loader({ request, context, params }: Route.LoaderArgs) {
  return orderPageLoader(context.get(shopRequestContext), request, params.orderId);
}

export async function action({ request, context, params }: Route.ActionArgs) {
  return orderPageAction(context.get(shopRequestContext), request, params.orderId);
}

const n = (value: number) => value.toLocaleString('ja-JP');

/** The reason an operator gives for a decision, kept in the audit log. */
function ReasonField({ label }: { label: string }) {
  return (
    <label className="text-xs font-bold">
      {label}（監査ログに残ります）
      <textarea
        name="reason"
        required
        maxLength={500}
        rows={3}
        className="mt-1 block w-full rounded-lg border border-line p-2 text-sm"
      />
    </label>
  );
}

export default function OrderPage({ loaderData }: Route.ComponentProps) {
  const { order: o, events, canRefund, refundable, reviewReason, reviewDecisions, members } = loaderData;
  const answer = useActionData<OrderActionData>();
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting';
  const [asking, setAsking] = useState(false);
  const [deciding, setDeciding] = useState<'credit' | 'keep' | null>(null);
  useEffect(() => {
    if (answer?.ok || answer?.error) setDeciding(null);
    if (answer?.ok) setAsking(false);
  }, [answer]);
  const rows: [string, React.ReactNode][] = [
    [
      '受付番号',
      <span key="receipt" className="font-mono">
        {o.receiptNo}
      </span>,
    ],
    [
      '状態',
      `${o.statusLabel}${reviewReason ? `（${reviewReason}）` : o.failureReason ? `（${o.failureReason}）` : ''}`,
    ],
    [
      '会員',
      <span key="member">
        <MemberTag tag={members[o.memberId]} memberId={o.memberId} />
        <Link to={`/admin/orders?memberId=${encodeURIComponent(o.memberId)}`} className="ml-3 text-xs underline">
          この会員の購入
        </Link>
      </span>,
    ],
    ['コインパック', o.packName],
    ['金額', `¥${n(o.amountJpy)}`],
    ['有償コイン', n(o.paidCoins)],
    [
      'ボーナス（無償）',
      `${n(o.bonusCoins)}${o.rankBonusCoins ? ` ＋ ランクボーナス ${n(o.rankBonusCoins)}（${o.rankBonusPercent}%）` : ''}`,
    ],
    ['決済方法', `${o.method}（${o.channel === 'app' ? 'アプリ' : 'Web'}）`],
    [
      '決済事業者の参照',
      <span key="refs" className="font-mono break-all">
        {o.providerRef ?? '—'} / {o.providerPaymentId ?? '—'}
      </span>,
    ],
    ['注文日時', formatStaffDateTime(o.createdAt)],
    ['付与日時', o.creditedAt ? formatStaffDateTime(o.creditedAt) : '—'],
  ];
  if (o.reversedAt)
    rows.push([
      '取り消し',
      `${formatStaffDateTime(o.reversedAt)}・返金 ¥${n(o.refundedJpy)}・取り消したコイン 有償${n(o.reversedPaid)} 無償${n(o.reversedFree)}${o.unrecoveredCoins ? `・使用済みで取り消せなかったコイン ${n(o.unrecoveredCoins)}` : ''}`,
    ]);
  return (
    <div className="max-w-5xl">
      <p className="text-sm">
        <Link to="/admin/orders" className="underline">
          注文の一覧に戻る
        </Link>
      </p>
      <h1 className="mt-2 text-2xl font-black">
        注文 <span className="font-mono">{o.receiptNo}</span>
      </h1>
      {answer?.error ? (
        <p role="alert" className="mt-3 rounded-lg bg-red-50 p-3 text-sm font-bold text-danger">
          {answer.error}
        </p>
      ) : answer?.ok ? (
        <p role="status" className="mt-3 rounded-lg bg-green-50 p-3 text-sm font-bold text-green-800">
          {answer.ok}
        </p>
      ) : null}
      <dl className="mt-4 grid gap-x-6 gap-y-2 rounded-2xl border border-line bg-white p-4 text-sm sm:grid-cols-[10rem_1fr]">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="font-bold">{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>

      {reviewReason ? (
        <section aria-labelledby="review" className="mt-4 rounded-2xl border border-amber-300 bg-amber-50 p-4">
          <h2 id="review" className="text-base font-bold">
            確認中（保留）の判断
          </h2>
          <p className="mt-1 text-sm">保留の理由: {reviewReason}</p>
          {reviewDecisions.includes('credit') ? (
            <>
              <p className="mt-1 text-sm">
                支払いは確認できています。会員に確認のうえ問題なければ、この注文のコインを付与して完了します（上限や初回限定の条件はこの判断で例外とします）。そうでなければ返金してください。
              </p>
              <Button className="mt-3" onClick={() => setDeciding('credit')}>
                コインを付与して完了する
              </Button>
            </>
          ) : reviewDecisions.includes('keep') ? (
            <>
              <p className="mt-1 text-sm">
                決済事業者で一部が返金されました。コインを取り消さずに完了するか、全額返金してください。
              </p>
              <Button variant="secondary" className="mt-3" onClick={() => setDeciding('keep')}>
                コインはそのままで完了する
              </Button>
            </>
          ) : (
            <p className="mt-1 text-sm">
              {canRefund ? 'この理由の注文は返金で対応します。' : '判断には「注文の返金」の権限が必要です。'}
            </p>
          )}
        </section>
      ) : null}

      {canRefund ? (
        <section aria-labelledby="refund" className="mt-4 rounded-2xl border border-line bg-white p-4">
          <h2 id="refund" className="text-base font-bold">
            返金
          </h2>
          <p className="mt-1 text-sm text-muted">
            全額を決済事業者で返金し、この注文で付与したコインのうち残っている分を取り消します。
          </p>
          <Button variant="danger" className="mt-3" onClick={() => setAsking(true)}>
            全額返金する
          </Button>
        </section>
      ) : refundable ? (
        <p className="mt-4 text-sm text-muted">返金には「注文の返金」の権限が必要です。</p>
      ) : null}

      <section aria-labelledby="events" className="mt-4 rounded-2xl border border-line bg-white p-4">
        <h2 id="events" className="text-base font-bold">
          決済事業者からの通知（{events.length}件）
        </h2>
        {events.length === 0 ? (
          <p className="mt-2 text-sm text-muted">通知はまだありません（戻りページでの確認のみの場合もあります）。</p>
        ) : (
          <div className="mt-2 overflow-x-auto">
            <table className="w-full min-w-[640px] text-left text-xs">
              <thead>
                <tr className="border-b border-line">
                  <th scope="col" className="p-2">
                    受信
                  </th>
                  <th scope="col" className="p-2">
                    事業者・種類
                  </th>
                  <th scope="col" className="p-2">
                    処理
                  </th>
                  <th scope="col" className="p-2">
                    イベントID
                  </th>
                </tr>
              </thead>
              <tbody>
                {events.map((e) => (
                  <tr key={e.id} className="border-b border-line align-top">
                    <td className="p-2">{formatStaffDateTime(e.receivedAt)}</td>
                    <td className="p-2">
                      {e.provider}・{e.type}
                    </td>
                    <td className="p-2">
                      {e.processedAt
                        ? `${formatStaffDateTime(e.processedAt)} ${e.outcome ?? ''}`
                        : `未処理（試行${e.attempts}回）`}
                      {e.lastError ? <span className="block text-danger">{e.lastError}</span> : null}
                    </td>
                    <td className="p-2 font-mono break-all">{e.eventId}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      {deciding ? (
        <Sheet
          title={deciding === 'credit' ? 'コインを付与して完了しますか？' : 'コインはそのままで完了しますか？'}
          onClose={() => setDeciding(null)}
          busy={busy}
        >
          <Form method="post" className="grid gap-3 text-sm">
            <input type="hidden" name="intent" value="review" />
            <input type="hidden" name="decision" value={deciding} />
            <p>
              {deciding === 'credit'
                ? `有償${n(o.paidCoins)}コイン${o.bonusCoins + o.rankBonusCoins ? `と無償${n(o.bonusCoins + o.rankBonusCoins)}コイン` : ''}を会員に付与し、注文を「支払い済み」にします。元に戻すには返金が必要です。`
                : '付与済みのコインは取り消さず、注文を「支払い済み」にします。'}
            </p>
            <ReasonField label="判断の理由" />
            <div className="flex flex-wrap gap-3">
              <Button type="submit" loading={busy}>
                {deciding === 'credit' ? '付与して完了する' : '完了する'}
              </Button>
              <Button variant="secondary" onClick={() => setDeciding(null)} disabled={busy}>
                やめる
              </Button>
            </div>
          </Form>
        </Sheet>
      ) : null}

      {asking ? (
        <Sheet title={`¥${n(o.amountJpy)}を返金しますか？`} onClose={() => setAsking(false)} busy={busy}>
          <Form method="post" className="grid gap-3 text-sm">
            <input type="hidden" name="intent" value="refund" />
            <p>
              決済事業者で全額を返金し、残っているコインを取り消します。元に戻せません。会員が使ったコインは取り消せず、記録に残ります。
            </p>
            <ReasonField label="返金の理由" />
            <div className="flex flex-wrap gap-3">
              <Button type="submit" variant="danger" loading={busy}>
                返金する
              </Button>
              <Button variant="secondary" onClick={() => setAsking(false)} disabled={busy}>
                やめる
              </Button>
            </div>
          </Form>
        </Sheet>
      ) : null}
    </div>
  );
}
