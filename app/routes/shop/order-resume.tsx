// /shop/orders/:orderId/resume: back to the provider's page of a checkout the member left open, or to
// the order's result page when it is no longer open (decision 058). No page of its own.
import type { Route } from './+types/order-resume';
import { shopRequestContext } from '#server/context';
import { resumeCheckoutLoader } from '~/controllers/open-checkout.server';

export async function loader({ request, params, context }: Route.LoaderArgs) {
  return resumeCheckoutLoader(context.get(shopRequestContext), request, params.orderId);
}
