// /shop/checkout/{paymentMethod}?pack=ID: the final confirmation (特定商取引法 第12条の6), then the
// provider's page. Unknown methods and packs, caps and other refusals show their reason with their
// status (never a 500). The logic is shared with the native app's /app/checkout/{method}.
import type { Route } from './+types/checkout';
import { shopRequestContext } from '#server/context';
import { checkoutAction, checkoutLoader } from '~/controllers/checkout.server';
import { CheckoutConfirmation } from '~/components/shop/CheckoutConfirmation';
import type { CheckoutActionData } from '~/components/shop/types';
import { withDrawContext } from '~/lib/draw-context';

export const handle = { title: 'ご購入内容の確認' };

export async function loader({ request, params, context }: Route.LoaderArgs) {
  return checkoutLoader(context.get(shopRequestContext), request, params.paymentMethod, 'web');
}

export async function action({ request, params, context }: Route.ActionArgs) {
  return checkoutAction(context.get(shopRequestContext), request, params.paymentMethod, 'web');
}

export default function Checkout({ loaderData, actionData }: Route.ComponentProps) {
  // 「コインショップへ戻る」 keeps the draw the member came for.
  const draw = loaderData.state === 'confirm' ? loaderData.checkout.draw : (loaderData.draw ?? null);
  return (
    <CheckoutConfirmation
      data={loaderData}
      actionData={actionData as CheckoutActionData | undefined}
      backHref={withDrawContext('/shop', draw)}
    />
  );
}
