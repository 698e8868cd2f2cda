// Home (layout top): banners, sort chips, every pack on sale, and the shop's winners feed (live).
import type { Route } from './+types/home';
import { shopRequestContext } from '~/context';
import { BannerCarousel } from '~/components/BannerCarousel';
import { SortChips } from '~/components/SortChips';
import { PackGrid } from '~/components/PackCard';
import { EmptyState, Container } from '~/components/PageFrame';
import { listGachas, parseGachaSort } from '#modules/gacha';
import { listBanners } from '#modules/content';
import { data } from 'react-router';
import { takeOneTimeNotice } from '~/lib/one-time-notice.server';
import { listWins } from '#modules/draw';
import { FEED_ROWS } from '~/components/winners/feed';
import { WinnersFeed, useShopWinsStream, useWinners } from '~/components/winners/WinnersFeed';

export const handle = { title: 'トップ' };

export async function loader({ request, context }: Route.LoaderArgs) {
  const { db } = context.get(shopRequestContext).services;
  const sort = parseGachaSort(new URL(request.url).searchParams.get('sort'));
  const [packs, banners, wins] = await Promise.all([
    listGachas(db, { sort }),
    listBanners(db),
    listWins(db, { limit: FEED_ROWS }),
  ]);
  // A notice carried from the previous page (after 退会), shown once.
  const notice = takeOneTimeNotice(request);
  return data(
    {
      notice: notice.message,
      packs,
      wins: wins.items,
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
    </Container>
  );
}
