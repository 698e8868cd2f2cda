// /app/friends/add: adding a farm friend by code or link, answering requests, the friend list
// (decision 045). The loader and the action are the server's (app/lib/farm.server.ts).
import type { Route } from './+types/friends-add';
import { shopRequestContext } from '#server/context';
import { FriendsPage } from '~/components/farm/FriendsPage';
import { friendsPageAction, friendsPageLoader } from '~/controllers/farm.server';

export const handle = { title: 'フレンド追加' };

export async function loader({ request, context }: Route.LoaderArgs) {
  return friendsPageLoader(context.get(shopRequestContext), request);
}

export async function action({ request, context }: Route.ActionArgs) {
  return friendsPageAction(context.get(shopRequestContext), request);
}

export default function FriendsAdd({ loaderData }: Route.ComponentProps) {
  return <FriendsPage data={loaderData} />;
}
