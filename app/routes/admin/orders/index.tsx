// /admin/orders: coin purchases, newest first, with the review queue's count always in view. Filters
// by status, payment method, member (id or email), receipt number and JST days.
import { Link } from 'react-router';
import type { Route } from './+types/index';
import { shopRequestContext } from '#server/context';
import {
  FilterBar,
  FilterDateRange,
  FilterSelect,
  ListTable,
  PageLinks,
  filterFieldClass,
  pageHref,
} from '~/components/admin/ListPage';
import { MemberTag } from '~/components/admin/MemberTag';
import { formatStaffDateTime } from '#modules/kernel/dates';
import { ordersPageLoader } from '~/controllers/admin-orders.server';

export const handle = { title: '注文' };

export async function loader({ request, context }: Route.LoaderArgs) {
  return ordersPageLoader(context.get(shopRequestContext), request);
}

export default function OrdersPage({ loaderData }: Route.ComponentProps) {
  const { orders, filter, filterError, reviewCount, statuses, methods, page, hasNext, members } = loaderData;
  return (
    <div className="max-w-6xl">
      <h1 className="text-2xl font-black">注文</h1>
      <p className="mt-1 text-sm text-muted">
        コインの購入です。「確認中」は、金額の不一致や上限超過などで自動で付与しなかった注文です。内容を確かめて返金してください。
      </p>
      <p className="mt-3">
        <Link
          to="/admin/orders?status=review"
          className={`inline-block rounded-full px-3 py-1.5 text-sm font-bold ${reviewCount > 0 ? 'bg-red-600 text-white' : 'bg-slate-100 text-muted'}`}
        >
          確認中の注文 {reviewCount.toLocaleString('ja-JP')}件
        </Link>
      </p>

      <FilterBar clearTo="/admin/orders" filterError={filterError}>
        <FilterSelect label="状態" name="status" defaultValue={filter.status} options={statuses} />
        <FilterSelect label="決済方法" name="method" defaultValue={filter.method} options={methods} />
        <label className="text-xs font-bold">
          会員（会員ID・メールアドレス）
          <input name="memberId" defaultValue={filter.memberId} className={`${filterFieldClass} w-56`} />
        </label>
        <label className="text-xs font-bold">
          受付番号
          <input name="receiptNo" defaultValue={filter.receiptNo} className={`${filterFieldClass} w-44`} />
        </label>
        <FilterDateRange label="注文日" from={filter.from} to={filter.to} />
      </FilterBar>

      <ListTable
        items={orders}
        empty="条件に合う注文はありません。"
        caption="注文の一覧"
        minWidth="min-w-[760px]"
        head={['受付番号', '状態', '決済方法', ['金額', 'text-right'], ['コイン', 'text-right'], '注文日時', '会員']}
        row={(o) => (
          <tr key={o.id} className={`border-t border-line ${o.status === 'review' ? 'bg-red-50' : ''}`}>
            <td className="p-3">
              <Link to={`/admin/orders/${o.id}`} className="font-mono font-bold underline">
                {o.receiptNo}
              </Link>
            </td>
            <td className="p-3">
              {o.statusLabel}
              {o.failureReason ? <span className="block text-xs text-muted">{o.failureReason}</span> : null}
            </td>
            <td className="p-3">{o.method}</td>
            <td className="p-3 text-right">¥{o.amountJpy.toLocaleString('ja-JP')}</td>
            <td className="p-3 text-right">{o.coins.toLocaleString('ja-JP')}</td>
            <td className="p-3 text-xs">{formatStaffDateTime(o.createdAt)}</td>
            <td className="max-w-56 p-3 text-xs">
              <MemberTag tag={members[o.memberId]} memberId={o.memberId} />
            </td>
          </tr>
        )}
      />
      <PageLinks page={page} hasNext={hasNext} href={(p) => pageHref('/admin/orders', filter, p)} />
    </div>
  );
}
