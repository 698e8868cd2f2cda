// Maintenance mode in the pages' actions (docs/decisions/025): each member write asks this first and,
// while maintenance is on, answers its own form's shape with the one Japanese message, 503 and
// Retry-After (never an error page). From this instance's cache: the draw and the checkout check the
// switch again inside their own transactions.
import { refuse } from '#modules/kernel';
import { maintenanceDetails } from '#modules/shop';
import { describeRefusal, type DescribedRefusal } from '#modules/refusals';
import type { ShopRequest } from '#server/context';

/**
 * The MAINTENANCE refusal worded for the page (status 503, message, Retry-After), or null when open.
 * @example const closed = await maintenanceRefusal(shop); if (closed) return data({ error: closed.message }, refusalInit(closed))
 */
export async function maintenanceRefusal(shop: ShopRequest): Promise<DescribedRefusal | null> {
  const state = await shop.services.maintenance.current();
  return state.on ? describeRefusal(refuse('MAINTENANCE', maintenanceDetails(state))) : null;
}

/**
 * A refusal's status and headers as a page answer's init (Retry-After of maintenance and a busy draw).
 * @example return data({ error: refused.message }, refusalInit(refused))
 */
export const refusalInit = (refused: Pick<DescribedRefusal, 'status' | 'headers'>) => ({
  status: refused.status,
  headers: { ...refused.headers },
});
