// /shop/backfrom{paidy,merpay,paypay,purchase,amazonpay}?order=…: where payment providers send the
// member back. The order is asked of the provider once more if still pending; the page then shows
// 処理中 (and keeps asking), 完了 or 失敗/キャンセル. Another member's or an unknown order is a 404.
import type { Route } from './+types/return';
import { shopRequestContext } from '#server/context';
import { returnLoader, syncReturnedOrder } from '~/controllers/checkout-return.server';
import { PurchaseStatus } from '~/components/shop/PurchaseStatus';
import { PageHeading, EmptyState } from '~/components/PageFrame';
import { ButtonLink } from '~/components/Button';

export const handle = { title: 'お支払い結果' };

/** The order is asked of the provider before any loader runs, so the header's balance includes it. */
export const middleware: Route.MiddlewareFunction[] = [
  ({ request, context }) => syncReturnedOrder(context.get(shopRequestContext), request),
];

export async function loader({ request, context }: Route.LoaderArgs) {
  return returnLoader(context.get(shopRequestContext), request);
}

export default function ShopReturn({ loaderData }: Route.ComponentProps) {
  if (loaderData.state === 'not-found') {
    return (
      <div className="mx-auto flex max-w-xl flex-col gap-4">
        <PageHeading title="お支払い結果" />
        <EmptyState
          title={loaderData.message}
          action={
            <div className="flex flex-wrap justify-center gap-2">
              <ButtonLink to="/mypage?tab=purchases" variant="secondary">
                購入履歴を見る
              </ButtonLink>
              <ButtonLink to="/shop">コインショップへ</ButtonLink>
            </div>
          }
        >
          お支払いの手続き中にこのページが表示された場合は、購入履歴をご確認ください。
        </EmptyState>
      </div>
    );
  }
  return (
    <PurchaseStatus
      order={loaderData.order}
      canceledByMember={loaderData.canceledByMember}
      balance={loaderData.balance}
      userId={loaderData.userId}
      refreshUrl={loaderData.refreshUrl}
      waitedTooLong={loaderData.waitedTooLong}
      continueDraw={loaderData.continueDraw}
    />
  );
}
