// /app/return?order=…: where an app checkout comes back from the provider. The same status as the
// web's return pages (処理中 → 完了 / 失敗), then 「アプリに戻る」 to the app's own address with the
// order and its status. Exempt from the members redirect; the web view keeps the session it was
// given at /app/checkout.
import { data } from 'react-router';
import type { Route } from './+types/return';
import { shopRequestContext } from '#server/context';
import { returnLoader, syncReturnedOrder } from '~/controllers/checkout-return.server';
import { appReturnUrl, consumeAppHandoff } from '~/controllers/app-handoff.server';
import { PurchaseStatus } from '~/components/shop/PurchaseStatus';
import { EmptyState, PageHeading } from '~/components/PageFrame';

export const handle = { title: 'お支払い結果' };

/** The order is asked of the provider before any loader runs, so the header's balance includes it. */
export const middleware: Route.MiddlewareFunction[] = [
  ({ request, context }) => syncReturnedOrder(context.get(shopRequestContext), request),
];

export async function loader({ request, context }: Route.LoaderArgs) {
  const shop = context.get(shopRequestContext);
  await consumeAppHandoff(shop, request);
  const result = await returnLoader(shop, request);
  const order = result.data.state === 'order' ? result.data.order : null;
  const appUrl = appReturnUrl(
    shop.services.config.APP_RETURN_URL,
    order ? { order: order.id, status: order.status } : { status: 'unknown' },
  );
  return data(
    { result: result.data, appUrl },
    { status: result.init?.status ?? 200, headers: { 'Cache-Control': 'no-store' } },
  );
}

export default function AppReturn({ loaderData }: Route.ComponentProps) {
  const { result, appUrl } = loaderData;
  const back = (
    <a
      className="inline-flex min-h-12 items-center justify-center rounded-full border border-primary-ink px-6 font-bold text-primary-ink"
      href={appUrl}
    >
      アプリに戻る
    </a>
  );
  if (result.state === 'not-found') {
    return (
      <div className="mx-auto flex max-w-xl flex-col gap-4">
        <PageHeading title="お支払い結果" />
        <EmptyState title={result.message} action={back}>
          アプリの購入履歴をご確認ください。
        </EmptyState>
      </div>
    );
  }
  return (
    <PurchaseStatus
      order={result.order}
      canceledByMember={result.canceledByMember}
      balance={result.balance}
      userId={result.userId}
      refreshUrl={result.refreshUrl}
      waitedTooLong={result.waitedTooLong}
      links={{ draw: appUrl, shop: appUrl, history: appUrl }}
    >
      {back}
    </PurchaseStatus>
  );
}
