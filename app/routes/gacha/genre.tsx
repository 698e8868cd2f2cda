// /gacha/{genreId} (layout top): the genre's packs. Guards redirect-gacha and check-genre-valid run first.
import type { Route } from './+types/genre';
import { catalogueDb, shopRequestContext } from '#server/context';
import { SortChips } from '~/components/SortChips';
import { PackGrid } from '~/components/PackCard';
import { EmptyState, Container } from '~/components/PageFrame';
import { ButtonLink } from '~/components/Button';
import { notFound } from '~/lib/not-found';
import { listGachas, parseGachaSort } from '#modules/gacha';
import { genresOf } from '~/controllers/request-reads.server';

export const handle = {
  title: (data: { genre: { name: string } }) => `${data.genre.name}のオリパ一覧`,
  description: (data: { genre: { name: string } }) =>
    `${data.genre.name}のオリパ一覧。排出率と残り口数を公開している${data.genre.name}のオリパから、販売中のものを選べます。`,
};

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const shop = context.get(shopRequestContext);
  const db = catalogueDb(shop);
  const genre = (await genresOf(shop)).find((g) => g.id === params.genreId);
  if (!genre) throw notFound(new URL(request.url).pathname);
  const sort = parseGachaSort(new URL(request.url).searchParams.get('sort'));
  return { genre, packs: await listGachas(db, { genreId: genre.id, sort }) };
}

export default function GenreTop({ loaderData }: Route.ComponentProps) {
  const { genre, packs } = loaderData;
  return (
    <Container className="flex flex-col gap-4">
      <div className="flex items-center justify-between gap-3">
        <h1 className="shrink-0 text-lg font-black">{genre.name}のオリパ</h1>
        <SortChips />
      </div>
      {packs.length > 0 ? (
        <PackGrid packs={packs} />
      ) : (
        <EmptyState
          title={`${genre.name}のオリパは準備中です`}
          action={
            <ButtonLink to="/" variant="secondary">
              すべてのオリパを見る
            </ButtonLink>
          }
        >
          新しいオリパの公開をお待ちください。
        </EmptyState>
      )}
    </Container>
  );
}
