// Home (layout top): banners, sort chips, every pack on sale, and the shop's winners feed (live).
import type { Route } from './+types/home';
import { shopRequestContext } from '~/context';
import { BannerCarousel } from '~/components/BannerCarousel';
import { SortChips } from '~/components/SortChips';
import { PackGrid } from '~/components/PackCard';
import { EmptyState, Container } from '~/components/PageFrame';
import { listGachas, parseGachaSort } from '#modules/gacha';
import { contentOf } from '~/lib/content.server';
import { NoticeList, noticeListItem } from '~/components/NoticeList';
import { AppLink } from '~/components/AppLink';
import { data } from 'react-router';
import { takeOneTimeNotice } from '~/lib/one-time-notice.server';
import { listWins } from '#modules/draw';
import { FEED_READ, FEED_ROWS, shownWins } from '~/components/winners/feed';
import { WinnersFeed, useShopWinsStream, useWinners } from '~/components/winners/WinnersFeed';

export const handle = { title: 'トップ' };

/** Notices the home page lists (the rest are one tap away at /notices). */
const HOME_NOTICES = 3;

export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(shopRequestContext).services;
  const { db } = services;
  const content = contentOf(services);
  const sort = parseGachaSort(new URL(request.url).searchParams.get('sort'));
  const [packs, banners, notices, wins] = await Promise.all([
    listGachas(db, { sort }),
    content.listBanners(),
    content.listNotices(),
    listWins(db, { limit: FEED_READ }),
  ]);
  // A notice carried from the previous page (after 退会), shown once.
  const notice = takeOneTimeNotice(request);
  return data(
    {
      notice: notice.message,
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
  const feed = useWinners(loaderData.wins, loaderData.renderedAt);
  useShopWinsStream((entry) => feed.add(entry, true));
  return (
    <Container className="flex flex-col gap-4">
      {loaderData.notice ? (
        <p role="status" className="rounded-xl bg-emerald-50 p-3 text-sm font-bold text-emerald-800">
          {loaderData.notice}
        </p>
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
            <span className="shrink-0 rounded bg-primary px-1.5 py-0.5 text-[11px] text-white">重要</span>
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
      <WinnersFeed entries={feed.entries} now={feed.now} announcement={feed.announcement} withPack />
      {loaderData.notices.length > 0 ? <NoticeList notices={loaderData.notices} /> : null}
    </Container>
  );
}
