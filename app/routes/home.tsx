// Home (layout top): banners, sort chips, every pack on sale, and the shop's winners feed (live).
import type { Route } from './+types/home';
import { catalogueDb, shopRequestContext } from '#server/context';
import { BannerCarousel } from '~/components/BannerCarousel';
import { SortChips } from '~/components/SortChips';
import { PackGrid } from '~/components/PackCard';
import { EmptyState, Container } from '~/components/PageFrame';
import { listGachas, parseGachaSort } from '#modules/gacha';
import { contentOf } from '#server/context';
import { NoticeList, noticeListItem } from '~/components/NoticeList';
import { AppLink } from '~/components/AppLink';
import { data } from 'react-router';
import { takeOneTimeNotice } from '~/controllers/one-time-notice.server';
import { listWins } from '#modules/draw';
import { FEED_READ, FEED_ROWS, shownWins } from '~/components/winners/feed';
import { ShopWinnersFeed } from '~/components/winners/WinnersFeed';
import { ripeCropsNudgeOf } from '~/controllers/farm.server';
import { CropArt } from '~/components/farm/CropArt';

export const handle = { title: 'トップ' };

/** Notices the home page lists (the rest are one tap away at /notices). */
const HOME_NOTICES = 3;

export async function loader({ request, context }: Route.LoaderArgs) {
  const shop = context.get(shopRequestContext);
  const services = shop.services;
  // Packs and wins may come from a replica that is close (decision 075).
  const db = catalogueDb(shop);
  const content = contentOf(services);
  const sort = parseGachaSort(new URL(request.url).searchParams.get('sort'));
  const [packs, banners, notices, wins, ripeCrops] = await Promise.all([
    listGachas(db, { sort }),
    content.listBanners(),
    content.listNotices(),
    listWins(db, { limit: FEED_READ }),
    // A signed-in member's ripe crops (issue 29 item 10); nothing is read for a visitor.
    ripeCropsNudgeOf(shop),
  ]);
  // A notice carried from the previous page (after 退会), shown once.
  const notice = takeOneTimeNotice(request);
  return data(
    {
      notice: notice.message,
      ripeCrops,
      packs,
      notices: notices.slice(0, HOME_NOTICES).map(noticeListItem),
      // The entries of the rows shown (repeats collapse into one row: decision 059).
      wins: shownWins(wins.items, FEED_ROWS),
      renderedAt: new Date().toISOString(),
      banners: banners.map((b) => ({
        id: b.uid,
        imagePath: b.image,
        title: b.title,
        alt: b.alt,
        period: b.period ?? null,
        to: b.link,
      })),
    },
    notice.clear ? { headers: { 'Set-Cookie': notice.clear, 'Cache-Control': 'private, no-store' } } : undefined,
  );
}

export default function Home({ loaderData }: Route.ComponentProps) {
  return (
    <Container className="flex flex-col gap-4">
      {loaderData.notice ? (
        <p role="status" className="rounded-xl bg-emerald-50 p-3 text-sm font-bold text-emerald-800">
          {loaderData.notice}
        </p>
      ) : null}
      {loaderData.ripeCrops ? (
        <AppLink
          to="/app/farm"
          data-testid="ripe-crop-nudge"
          className="flex items-center gap-3 rounded-2xl border border-emerald-300 bg-emerald-50 px-4 py-3 text-sm font-bold text-emerald-900"
        >
          <CropArt art="radish" stage={3} className="size-12 shrink-0" />
          <span className="min-w-0 flex-1">
            ファームで{loaderData.ripeCrops}つ収穫できます
            <span className="block text-xs font-normal">枯れる前に収穫して無償コインをもらおう</span>
          </span>
          <span className="shrink-0 rounded-full bg-emerald-700 px-3 py-1.5 text-xs text-white">収穫へ</span>
        </AppLink>
      ) : null}
      <BannerCarousel banners={loaderData.banners} />
      {loaderData.notices
        .filter((notice) => notice.important)
        .map((notice) => (
          <AppLink
            key={notice.uid}
            to={`/notices/${notice.uid}`}
            className="flex items-center gap-2 rounded-xl border border-primary/30 bg-primary-soft px-3 py-2.5 text-sm font-bold"
          >
            <span className="shrink-0 rounded bg-primary px-1.5 py-0.5 text-xs text-white">重要</span>
            <span className="min-w-0 truncate">{notice.title}</span>
          </AppLink>
        ))}
      <div className="flex items-center justify-between gap-3">
        <h1 className="shrink-0 text-lg font-black">オリパ一覧</h1>
        <SortChips />
      </div>
      {loaderData.packs.length > 0 ? (
        <PackGrid packs={loaderData.packs} />
      ) : (
        <EmptyState title="販売中のオリパはありません">新しいオリパの公開をお待ちください。</EmptyState>
      )}
      <ShopWinnersFeed wins={loaderData.wins} renderedAt={loaderData.renderedAt} />
      {loaderData.notices.length > 0 ? <NoticeList notices={loaderData.notices} /> : null}
    </Container>
  );
}
