// /mypage/draws (当選履歴): the member's own draws read from the URL's filters and page position, the
// same filter schema as GET /api/v1/me/draws. A bad value falls back to its default (links are input too).
import type { ShopRequest } from '#server/context';
import { visitorAnswer } from '~/controllers/members-only.server';
import {
  drawHistoryFilterSchema,
  drawHistoryPositionSchema,
  listDrawHistory,
  type DrawHistoryFilter,
} from '#modules/draw';

/** Draws a page shows. */
export const DRAW_HISTORY_PAGE = 20;

/** The filters of a URL: each field checked alone, a bad one is its default. */
export function drawHistoryFilterOf(url: URL): DrawHistoryFilter {
  const field = <K extends keyof DrawHistoryFilter>(key: K, param: string) => {
    const value = url.searchParams.get(param) || undefined;
    const parsed = drawHistoryFilterSchema.shape[key].safeParse(value);
    return (parsed.success ? parsed.data : drawHistoryFilterSchema.shape[key].parse(undefined)) as DrawHistoryFilter[K];
  };
  return { gachaId: field('gachaId', 'pack'), period: field('period', 'period'), hits: field('hits', 'hits') };
}

/** The history page's data: only the signed-in member's own draws (visitors are sent to sign in). */
export async function drawHistoryLoader(shop: ShopRequest, request: Request) {
  const url = new URL(request.url);
  if (!shop.member) throw visitorAnswer(request);
  const filter = drawHistoryFilterOf(url);
  const position = drawHistoryPositionSchema.safeParse({
    createdAt: url.searchParams.get('at') ?? '',
    id: url.searchParams.get('id') ?? '',
  });
  const before = position.success ? position.data : undefined;
  const { db, config } = shop.services;
  const page = await listDrawHistory(db, shop.member.id, filter, {
    limit: DRAW_HISTORY_PAGE,
    before,
    highlightCoins: config.PRIZE_HIGHLIGHT_COINS,
    withPacks: true,
  });
  const packs = page.packs ?? [];
  const next = page.next
    ? `?${new URLSearchParams({
        ...(filter.gachaId ? { pack: filter.gachaId } : {}),
        period: filter.period,
        hits: filter.hits,
        at: page.next.createdAt,
        id: page.next.id,
      })}`
    : null;
  return { filter, packs, items: page.items, next, paged: Boolean(before) };
}
