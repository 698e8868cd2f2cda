// The order page's facts: what was sold and credited, the provider's references, what a refund or
// chargeback reversed, and the provider's events as they arrived.
import { Link } from 'react-router';
import type { Route } from './+types/order';
import { MemberTag } from '~/components/admin/MemberTag';
import { formatStaffDateTime } from '#modules/kernel/dates';

type OrderData = Route.ComponentProps['loaderData'];

export const n = (value: number) => value.toLocaleString('ja-JP');

/**
 * @example <OrderFacts order={order} reviewReason={reviewReason} members={members} />
 */
export function OrderFacts({ order: o, reviewReason, members }: Pick<OrderData, 'order' | 'reviewReason' | 'members'>) {
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
    <dl className="mt-4 grid gap-x-6 gap-y-2 rounded-2xl border border-line bg-white p-4 text-sm sm:grid-cols-[10rem_1fr]">
      {rows.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="font-bold">{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * @example <ProviderEvents events={events} />
 */
export function ProviderEvents({ events }: Pick<OrderData, 'events'>) {
  return (
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
  );
}
