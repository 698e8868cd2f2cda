// /mypage/shipping: the member's shipping requests, newest first: status, 発送予定日, the cards, and the
// carrier's tracking link once shipped. A new request starts from here or from the prize box.
import type { Route } from './+types/index';
import { shopRequestContext } from '#server/context';
import { PageHeading, EmptyState } from '~/components/PageFrame';
import { ButtonLink } from '~/components/Button';
import { AppLink } from '~/components/AppLink';
import { formatMemberDate } from '#modules/kernel/dates';
import { shippingListLoader } from '~/controllers/shipping-pages.server';

export const handle = { title: '発送状況' };

export async function loader({ request, context }: Route.LoaderArgs) {
  return shippingListLoader(context.get(shopRequestContext), request);
}

export default function ShippingList({ loaderData }: Route.ComponentProps) {
  const { requests } = loaderData;
  return (
    <div className="flex flex-col gap-4 pb-8">
      <PageHeading title="発送状況" lead="発送のお申し込みと、その進み具合です。" />
      <ButtonLink to="/mypage/shipping/new" fullWidth>
        発送を申し込む
      </ButtonLink>
      {requests.length === 0 ? (
        <EmptyState title="発送のお申し込みはまだありません">
          獲得商品から、保管中・未選択のカードを発送できます。
        </EmptyState>
      ) : (
        <ul className="flex flex-col gap-3">
          {requests.map((r) => (
            <li key={r.id}>
              <AppLink
                to={`/mypage/shipping/${r.id}`}
                className="block rounded-2xl bg-white p-4 shadow-sm hover:ring-2 hover:ring-primary/30"
              >
                <span className="flex items-center justify-between gap-2">
                  <span className="rounded-full bg-primary-ink px-2.5 py-0.5 text-xs font-bold text-white">
                    {r.statusLabel}
                  </span>
                  <span className="text-xs text-muted">申込 {formatMemberDate(r.requestedAt)}</span>
                </span>
                <span className="mt-2 block text-sm font-bold">
                  {r.previewItems.map((i) => i.cardName).join('、')}
                  {r.itemCount > r.previewItems.length ? ` ほか${r.itemCount - r.previewItems.length}枚` : ''}
                </span>
                <span className="mt-1 block text-xs text-muted">
                  {r.shippedAt
                    ? `${r.carrierName ?? ''} 発送済み ${formatMemberDate(r.shippedAt)}`
                    : r.status === 'canceled'
                      ? 'キャンセル済み'
                      : `発送予定日 ${r.promisedDate.replaceAll('-', '/')}${r.late ? '（遅れています。お詫びのコインをお送りしました）' : ''}`}
                </span>
              </AppLink>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
