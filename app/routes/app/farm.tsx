// /app/farm: the farm mini game (decision 044). The loader and the action are the server's
// (app/lib/farm.server.ts): the page shows the farm it is given and posts intentions only.
import type { Route } from './+types/farm';
import { shopRequestContext } from '#server/context';
import { FarmGame } from '~/components/farm/FarmGame';
import { farmPageAction, farmPageLoader } from '~/controllers/farm.server';

export const handle = { title: 'ファーム' };

export async function loader({ request, context }: Route.LoaderArgs) {
  return farmPageLoader(context.get(shopRequestContext), request);
}

export async function action({ request, context }: Route.ActionArgs) {
  return farmPageAction(context.get(shopRequestContext), request);
}

export default function Farm({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto flex w-full max-w-xl flex-col">
      {/* PageHeading's markup written out: one chunk fewer within the farm's script budget (issue 16). */}
      <div className="mb-4">
        <h1 className="text-xl font-black sm:text-2xl">ファーム</h1>
        <p className="mt-1 text-sm text-muted">種を植えて水やりし、収穫で無償コインをもらおう</p>
      </div>
      <FarmGame data={loaderData} />
    </div>
  );
}
