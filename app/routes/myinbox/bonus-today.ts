// /myinbox/bonus/today: today's login bonus as JSON for the sheet the first page of the day offers
// (decision 060). Read by the member's browser after the page has loaded, so no page (and no cached
// visitor page, decision 048) carries it; visitors are sent to sign in by the members-only guard.
import type { Route } from './+types/bonus-today';
import { shopRequestContext } from '#server/context';
import { loginBonusCardOf } from '~/controllers/login-bonus.server';

export async function loader({ context }: Route.LoaderArgs) {
  const shop = context.get(shopRequestContext);
  const bonus = shop.member ? await loginBonusCardOf(shop) : null;
  return Response.json({ bonus }, { headers: { 'Cache-Control': 'private, no-store' } });
}
