// Home (layout top): banners, sort chips and every pack on sale.
import type { Route } from './+types/home';
import { shopRequestContext } from '~/context';
import { BannerCarousel } from '~/components/BannerCarousel';
import { SortChips } from '~/components/SortChips';
import { PackGrid } from '~/components/PackCard';
import { EmptyState, Container } from '~/components/PageFrame';
import { listGachas, parseGachaSort } from '#modules/gacha';
import { listBanners } from '#modules/content';

export const handle = { title: 'トップ' };

export async function loader({ request, context }: Route.LoaderArgs) {
  const { db } = context.get(shopRequestContext).services;
  const sort = parseGachaSort(new URL(request.url).searchParams.get('sort'));
  const [packs, banners] = await Promise.all([listGachas(db, { sort }), listBanners(db)]);
  return {
    packs,
    banners: banners.map((b) => ({
      id: b.uid,
      imagePath: b.image,
      title: b.title,
      period: b.period ?? null,
      to: b.link,
    })),
  };
}

export default function Home({ loaderData }: Route.ComponentProps) {
  return (
    <Container className="flex flex-col gap-4">
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
    </Container>
  );
}
