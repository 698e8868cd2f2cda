// Catalogue operations: genres and public packs (no sign-in), from modules/gacha.
import { z } from 'zod';
import {
  GACHA_SORTS,
  PUBLIC_GACHA_STATUSES,
  gachaIdSchema,
  getGachaDetail,
  countUnclaimed,
  kiribanProgress,
  listGachas,
  listGenres,
  resolveGenre,
  type GachaCard,
  type GachaStatus,
  type GenreSummary,
} from '#modules/gacha';
import { apiSchema, defineOperation } from './registry';
import { refuse } from '#modules/kernel';
import { decodeOffsetCursor, encodeOffsetCursor, pageOf, pageQuery, slicePage } from './http';

/** listGachas answers at most this many packs; paging reaches that far (see the note in listGachas). */
const CATALOGUE_WINDOW = 200;

/** A genre id or alias as the catalogue filter takes it. */
const catalogueId = z.string().min(1).max(100);

export const genreSchema = apiSchema(
  'Genre',
  z
    .object({
      id: z.string().meta({ description: 'ジャンルID（URLに使う英数字）', examples: ['pokemon'] }),
      name: z.string().meta({ description: '表示名', examples: ['ポケモン'] }),
      iconUrl: z.string().nullable().meta({ description: 'アイコン画像の絶対URL（ない場合は null）' }),
    })
    .meta({ description: 'ジャンル（カードゲームの種類）' }),
);

export const gachaStatusSchema = apiSchema(
  'GachaStatus',
  z
    .enum(PUBLIC_GACHA_STATUSES as [GachaStatus, ...GachaStatus[]])
    .meta({ description: 'scheduled: 販売前 / on_sale: 販売中 / sold_out: 完売 / ended: 販売終了' }),
);

export const gachaSchema = apiSchema(
  'Gacha',
  z
    .object({
      id: z.string().meta({ description: 'ガチャID', examples: ['stellar-pokemon-001'] }),
      genreId: z.string().meta({ description: 'ジャンルID' }),
      title: z.string(),
      imageUrl: z.string().meta({ description: 'パッケージ画像の絶対URL' }),
      pricePerDraw: z.int().min(0).meta({ description: '1回あたりのコイン数' }),
      totalLots: z.int().min(0).meta({ description: '口数（総数）' }),
      remainingLots: z.int().min(0).meta({ description: '残り口数' }),
      status: gachaStatusSchema,
      tags: z.array(z.string()).meta({ description: '表示用のタグ（hot, new, limited など）' }),
    })
    .meta({ description: 'ガチャ（オリパ）' }),
);

/** A pack's キリ番賞 as members see them (docs/decisions/027); shared with the remaining counts. */
export const kiribanProgressSchema = apiSchema(
  'KiribanProgress',
  z
    .object({
      numbers: z
        .array(z.int().min(1))
        .meta({ description: 'キリ番すべて（販売順で何口目か、昇順）', examples: [[100, 500]] }),
      sold: z.int().min(0).meta({ description: '販売済みの口数' }),
      next: z.int().min(1).nullable().meta({ description: 'まだ出ていない次のキリ番（なければ null）' }),
      lotsToNext: z
        .int()
        .min(1)
        .nullable()
        .meta({ description: '次のキリ番まであと何口か（1 = 次に売れる1口がキリ番）' }),
    })
    .meta({ description: 'キリ番賞: 販売順で N 口目を引いた人へのおまけの賞' }),
);

export const gachaDetailSchema = apiSchema(
  'GachaDetail',
  gachaSchema.extend({
    kiriban: kiribanProgressSchema.nullable().meta({ description: 'キリ番賞のあるガチャのみ。ほかは null' }),
  }),
);

export const genreListSchema = apiSchema('GenreList', pageOf(genreSchema));
export const gachaListSchema = apiSchema('GachaList', pageOf(gachaSchema));

/** An absolute URL for a path on the shop (paths from the catalogue are site-relative). */
function absoluteUrl(origin: string, pathOrUrl: string): string {
  return /^https?:\/\//.test(pathOrUrl) ? pathOrUrl : new URL(pathOrUrl, `${origin}/`).toString();
}

export const toGenreBody = (origin: string, genre: GenreSummary): z.input<typeof genreSchema> => ({
  id: genre.id,
  name: genre.name,
  iconUrl: genre.iconPath ? absoluteUrl(origin, genre.iconPath) : null,
});

export const toGachaBody = (origin: string, gacha: GachaCard): z.input<typeof gachaSchema> => ({
  id: gacha.id,
  genreId: gacha.genreId,
  title: gacha.title,
  imageUrl: absoluteUrl(origin, gacha.imagePath),
  pricePerDraw: gacha.pricePerDraw,
  totalLots: gacha.totalLots,
  remainingLots: gacha.remainingLots,
  status: gacha.status,
  tags: gacha.tags,
});

const listGenresOperation = defineOperation({
  operationId: 'listGenres',
  method: 'get',
  path: '/genres',
  summary: 'ジャンルの一覧',
  description: '表示するジャンルを並び順で返します。',
  tags: ['catalogue'],
  auth: 'none',
  query: pageQuery,
  responses: { 200: { description: 'ジャンルの一覧', schema: genreListSchema } },
  handler: async ({ services, query }) => {
    const genres = (await listGenres(services.db)).map((genre) => toGenreBody(services.config.PUBLIC_ORIGIN, genre));
    return { status: 200, body: slicePage(genres, query, { list: 'genres' }) };
  },
});

const listGachasOperation = defineOperation({
  operationId: 'listGachas',
  method: 'get',
  path: '/gachas',
  summary: 'ガチャの一覧',
  description: '公開中のガチャを、販売中→販売前→完売・終了の順に、指定の並び順で返します。',
  tags: ['catalogue'],
  auth: 'none',
  query: pageQuery.extend({
    genreId: catalogueId.optional().meta({ description: 'ジャンルID（別名も可）で絞り込み' }),
    sort: z
      .enum(GACHA_SORTS)
      .default('recommended')
      .meta({ description: 'recommended: おすすめ / new: 新着 / price_asc: 価格の安い順 / price_desc: 価格の高い順' }),
  }),
  responses: {
    200: { description: 'ガチャの一覧', schema: gachaListSchema },
    404: { description: '指定のジャンルがありません。', codes: ['GENRE_NOT_FOUND'] },
  },
  handler: async ({ services, query }) => {
    let genreId: string | undefined;
    if (query.genreId) {
      genreId = (await resolveGenre(services.db, query.genreId)) ?? undefined;
      if (!genreId) return refuse('GENRE_NOT_FOUND');
    }
    const filters = { list: 'gachas', genreId: genreId ?? null, sort: query.sort };
    const offset = query.cursor ? decodeOffsetCursor(query.cursor, filters) : 0;
    // modules/gacha has no offset: read the first offset+limit+1 (it answers at most 200) and slice.
    const window = await listGachas(services.db, {
      genreId,
      sort: query.sort,
      limit: Math.min(offset + query.limit + 1, CATALOGUE_WINDOW),
    });
    const items = window.slice(offset, offset + query.limit);
    const hasMore = window.length > offset + query.limit;
    return {
      status: 200,
      body: {
        items: items.map((gacha) => toGachaBody(services.config.PUBLIC_ORIGIN, gacha)),
        nextCursor: hasMore ? encodeOffsetCursor(offset + query.limit, filters) : null,
      },
    };
  },
});

const getGachaOperation = defineOperation({
  operationId: 'getGacha',
  method: 'get',
  path: '/gachas/{gachaId}',
  summary: 'ガチャの詳細',
  tags: ['catalogue'],
  auth: 'none',
  params: z.object({ gachaId: gachaIdSchema.meta({ description: 'ガチャID' }) }),
  responses: {
    200: { description: 'ガチャ（キリ番賞があれば、その番号と次のキリ番まであと何口か）', schema: gachaDetailSchema },
    404: { description: 'ガチャがありません（非公開を含む）。', codes: ['GACHA_NOT_FOUND'] },
  },
  handler: async ({ services, params }) => {
    const gacha = await getGachaDetail(services.db, params.gachaId);
    if (!gacha) return refuse('GACHA_NOT_FOUND');
    // Counted from the lots (one query, キリ番 packs only): the cached count on the pack row may lag a second.
    const kiriban = gacha.tiers.some((t) => t.kiribanAt)
      ? kiribanProgress(
          gacha.tiers,
          gacha.totalLots,
          gacha.status === 'sold_out'
            ? 0
            : [...(await countUnclaimed(services.db, gacha.id, gacha.drawMode)).byTier.values()].reduce(
                (sum, n) => sum + n,
                0,
              ),
        )
      : null;
    return { status: 200, body: { ...toGachaBody(services.config.PUBLIC_ORIGIN, gacha), kiriban } };
  },
});

export const catalogueOperations = [listGenresOperation, listGachasOperation, getGachaOperation];
