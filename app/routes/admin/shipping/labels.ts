// /admin/shipping/labels.csv?id=…&shipDate=…&item=…: the carriers' label CSV of a batch (a download;
// each opened address is audited as 'address.export'). The columns are in modules/shipping/README.md.
import type { Route } from './+types/labels';
import { shopRequestContext } from '#server/context';
import { shippingLabelsLoader } from '~/controllers/admin-shipping.server';

export async function loader({ request, context }: Route.LoaderArgs) {
  return shippingLabelsLoader(context.get(shopRequestContext), request);
}
