// /admin/promo-codes/batch.csv?id=…: a batch of 特典コード as CSV (a download, audited as 'promo.export').
import type { Route } from './+types/promo-codes-csv';
import { shopRequestContext } from '#server/context';
import { promoBatchCsvLoader } from '~/controllers/admin-promo-codes.server';

export async function loader({ request, context }: Route.LoaderArgs) {
  return promoBatchCsvLoader(context.get(shopRequestContext), request);
}
