// /admin/exports/<kind>.csv: a list as CSV, streamed (members, orders, draws, ledger, shipping); each
// export is audited. The columns are in README.md.
import type { Route } from './+types/export';
import { shopRequestContext } from '#server/context';
import { exportLoader } from '~/controllers/admin-exports.server';

export async function loader({ request, context, params }: Route.LoaderArgs) {
  // Only <list>.csv is a file here; anything else is the not-found answer.
  const name = params.file.endsWith('.csv') ? params.file.slice(0, -'.csv'.length) : '';
  return exportLoader(context.get(shopRequestContext), request, name);
}
