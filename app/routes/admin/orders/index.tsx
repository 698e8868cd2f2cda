// /admin/orders: coin purchases, newest first, with the review queue's count always in view. Filters
// by status, payment method, member (id or email), receipt number and JST days.
import { Form, Link, useNavigation } from 'react-router';
import type { Route } from './+types/index';
import { shopRequestContext } from '#server/context';
import { Button } from '~/components/Button';
import { MemberTag } from '~/components/admin/MemberTag';
import { formatStaffDateTime } from '#modules/kernel/dates';
import { ordersPageLoader } from '~/controllers/admin-orders.server';

export const handle = { title: '注文' };

export async function loader({ request, context }: Route.LoaderArgs) {
  return ordersPageLoader(context.get(shopRequestContext), request);
}

const field = 'mt-1 block min-h-11 rounded-lg border border-line bg-white px-3 text-sm';

export default function OrdersPage({ loaderData }: Route.ComponentProps) {
  const { orders, filter, filterError, reviewCount, statuses, methods, page, hasNext, members } = loaderData;
  const navigation = useNavigation();
  const pageLink = (to: number) => {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(filter)) if (value && key !== 'page') params.set(key, String(value));
    params.set('page', String(to));
    return `/admin/orders?${params.toString()}`;
  };
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

      <Form method="get" className="mt-4 flex flex-wrap items-end gap-3 rounded-2xl border border-line bg-white p-4">
        <label className="text-xs font-bold">
          状態
          <select name="status" defaultValue={filter.status} className={field}>
            <option value="">すべて</option>
            {statuses.map((s) => (
              <option key={s.id} value={s.id}>
                {s.label}
              </option>
            ))}
          </select>
        </label>
        <label className="text-xs font-bold">
          決済方法
          <select name="method" defaultValue={filter.method} className={field}>
            <option value="">すべて</option>
            {methods.map((m) => (
              <option key={m.id} value={m.id}>
                {m.label}
              </option>
            ))}
          </select>
        </label>
        <label className="text-xs font-bold">
          会員（会員ID・メールアドレス）
          <input name="memberId" defaultValue={filter.memberId} className={`${field} w-56`} />
        </label>
        <label className="text-xs font-bold">
          受付番号
          <input name="receiptNo" defaultValue={filter.receiptNo} className={`${field} w-44`} />
        </label>
        <label className="text-xs font-bold">
          注文日（から）
          <input type="date" name="from" defaultValue={filter.from} className={field} />
        </label>
        <label className="text-xs font-bold">
          注文日（まで）
          <input type="date" name="to" defaultValue={filter.to} className={field} />
        </label>
        <Button type="submit" variant="secondary" loading={navigation.state === 'loading'}>
          絞り込む
        </Button>
        <Link to="/admin/orders" className="py-3 text-sm underline">
          条件をクリア
        </Link>
      </Form>
      {filterError ? (
        <p role="alert" className="mt-2 text-sm font-bold text-danger">
          {filterError}（条件なしで表示しています）
        </p>
      ) : null}

      {orders.length === 0 ? (
        <p className="mt-4 rounded-2xl bg-white p-6 text-center text-sm text-muted">条件に合う注文はありません。</p>
      ) : (
        <div className="mt-4 overflow-x-auto rounded-2xl border border-line bg-white">
          <table className="w-full min-w-[760px] text-left text-sm">
            <caption className="sr-only">注文の一覧</caption>
            <thead className="bg-slate-50 text-xs">
              <tr>
                <th scope="col" className="p-3">
                  受付番号
                </th>
                <th scope="col" className="p-3">
                  状態
                </th>
                <th scope="col" className="p-3">
                  決済方法
                </th>
                <th scope="col" className="p-3 text-right">
                  金額
                </th>
                <th scope="col" className="p-3 text-right">
                  コイン
                </th>
                <th scope="col" className="p-3">
                  注文日時
                </th>
                <th scope="col" className="p-3">
                  会員
                </th>
              </tr>
            </thead>
            <tbody>
              {orders.map((o) => (
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
              ))}
            </tbody>
          </table>
        </div>
      )}
      <nav aria-label="ページ" className="mt-4 flex gap-4 text-sm">
        {page > 1 ? (
          <Link to={pageLink(page - 1)} className="underline">
            前のページ
          </Link>
        ) : null}
        {hasNext ? (
          <Link to={pageLink(page + 1)} className="underline">
            次のページ
          </Link>
        ) : null}
      </nav>
    </div>
  );
}
