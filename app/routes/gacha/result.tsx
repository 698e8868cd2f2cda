// /gacha/{genreId}/{gachaId}/result/{resultId} (layout gacha-result): a draw's reveal and cards.
// Draws arrive with the draw feature; until then no result exists, so every id is honestly a 404.
import type { Route } from './+types/result';
import { notFound } from '~/lib/not-found';

export const handle = { title: '抽選結果' };

export function loader({ request }: Route.LoaderArgs) {
  throw notFound(new URL(request.url).pathname);
}

export default function GachaResult() {
  return null;
}
