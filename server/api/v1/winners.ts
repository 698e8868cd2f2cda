// The winners feed (当選履歴, public) and the signed-in member's own draw history with each draw's proof
// (decision 036). The feed's live updates are server-sent events at /api/v1/winners/events (server/live.ts).
import { z } from 'zod';
import { apiSchema, defineOperation } from './registry';
import { ApiError, decodeCursor, encodeCursor, isoDateTime, pageOf, pageQuery } from './http';
import {
  drawHistoryFilterSchema,
  drawHistoryPositionSchema,
  DRAW_HISTORY_MAX_PAGE,
  listDrawHistory,
  listWins,
  winnerFeedPositionSchema,
  WINNER_FEED_MAX_PAGE,
} from '#modules/draw';
import { shownPackIds } from '#modules/gacha';

const effectSchema = z.enum(['lastone', 'rainbow', 'gold', 'silver', 'normal']);

export const winnerFeedEntrySchema = apiSchema(
  'WinnerFeedEntry',
  z.object({
    id: z.string().meta({ description: '当選履歴の項目ID（不透明な文字列。ライブ更新との重複除去に使う）' }),
    wonAt: isoDateTime(),
    name: z.string().meta({ description: 'ニックネーム（本人が公開を選んだ場合）または「匿名」' }),
    tierLabel: z.string().meta({ description: '賞の名前（S賞など）' }),
    effect: effectSchema,
    cardName: z.string(),
    imagePath: z.string().meta({ description: 'カード画像のパス（/images/… で配信）' }),
    gachaId: z.string(),
    genreId: z.string(),
    gachaTitle: z.string(),
    sponsored: z.boolean().meta({
      description:
        '当選時に当ショップと提携していた会員（配信者・アフィリエイト）なら true: 「PR」と表示します（景品表示法）',
    }),
  }),
);

const pageLimit = (max: number) =>
  z.coerce
    .number()
    .int()
    .min(1)
    .max(max)
    .default(20)
    .meta({ description: `1ページの件数（1〜${max}、既定 20）。` });

const listWinners = defineOperation({
  operationId: 'listWinners',
  method: 'get',
  path: '/winners',
  summary: 'みんなの当選履歴（新しい順）',
  description:
    '上位賞（S賞クラス、または交換値が PRIZE_HIGHLIGHT_COINS 以上）の当選。gachaId でそのオリパだけに絞れます。' +
    '表示中のジャンルの公開オリパだけが載ります。名前は本人が選んだ場合だけニックネーム、それ以外は「匿名」。' +
    'ライブ更新は server-sent events の GET /api/v1/winners/events（イベント win）と、オリパごとの GET /api/v1/gachas/{gachaId}/events（イベント win）で受け取れます。',
  tags: ['winners'],
  auth: 'none',
  cacheControl: 'no-cache',
  query: pageQuery.extend({
    limit: pageLimit(WINNER_FEED_MAX_PAGE),
    gachaId: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,100}$/, 'オリパの指定が正しくありません。')
      .optional()
      .meta({ description: 'このオリパの当選だけ' }),
  }),
  responses: {
    200: { description: '当選履歴', schema: apiSchema('WinnerFeedList', pageOf(winnerFeedEntrySchema)) },
    400: { description: '条件が正しくありません。', codes: ['VALIDATION_FAILED', 'CURSOR_INVALID'] },
    404: { description: 'オリパがありません（非公開を含む）。', codes: ['GACHA_NOT_FOUND'] },
  },
  handler: async ({ services, query }) => {
    if (query.gachaId && !(await shownPackIds(services.db)).includes(query.gachaId))
      throw new ApiError(404, 'GACHA_NOT_FOUND', 'ガチャが見つかりません。');
    const before = query.cursor ? decodeCursor(query.cursor, winnerFeedPositionSchema) : undefined;
    const page = await listWins(services.db, { gachaId: query.gachaId, limit: query.limit, before });
    return {
      status: 200,
      body: { items: page.items, nextCursor: page.next ? encodeCursor(page.next) : null },
    };
  },
});

const drawHistoryItemSchema = apiSchema(
  'DrawHistoryItem',
  z.object({
    drawId: z.string(),
    gachaId: z.string(),
    genreId: z.string(),
    gachaTitle: z.string(),
    count: z.int().min(1).meta({ description: '引いた口数' }),
    cost: z.int().min(0).meta({ description: '使ったコイン' }),
    createdAt: isoDateTime(),
    lastOne: z.boolean().meta({ description: 'ラストワン賞を獲得したか' }),
    kiriban: z.array(z.int()).meta({ description: '獲得したキリ番（何口目か）' }),
    tiers: z
      .array(
        z.object({
          tierId: z.string(),
          tierLabel: z.string(),
          effect: effectSchema,
          cardName: z.string(),
          imagePath: z.string(),
          count: z.int().min(1),
          top: z.boolean().meta({ description: '上位賞（当選履歴に載る賞）か' }),
        }),
      )
      .meta({ description: '獲得した賞（良い順）' }),
    proof: z
      .object({
        seed: z.string().meta({ description: '公開されたシード（完売・販売終了後）' }),
        commitment: z.string().meta({ description: '販売開始前に公開したコミットメント（SHA-256）' }),
        committedAt: isoDateTime(),
        positions: z.array(z.int()).meta({ description: 'この抽選で引いた口の番号（公開された並びの位置）' }),
        verifyUrl: z.string().meta({ description: '検証用ファイル（JSON）のURL。npm run verify-pack で検証できます' }),
      })
      .nullable()
      .meta({ description: '完売・販売終了したオリパの抽選の証明。販売中は null' }),
  }),
);

const listMyDraws = defineOperation({
  operationId: 'listMyDraws',
  method: 'get',
  path: '/me/draws',
  summary: '自分の抽選履歴（新しい順、絞り込みと証明つき）',
  description:
    'ログイン中の会員自身の抽選だけを返します。period は 7d・30d・90d・all、hits は all・top（上位賞）・kiriban（キリ番賞・個人キリ番賞・ピタリ賞・天井賞）・lastone（ラストワン賞）。' +
    '完売・販売終了したオリパの抽選には、シード・コミットメント・引いた口の番号（proof）が付きます。',
  tags: ['winners'],
  auth: 'member',
  query: pageQuery.extend({ limit: pageLimit(DRAW_HISTORY_MAX_PAGE) }).extend(drawHistoryFilterSchema.shape),
  responses: {
    200: { description: '抽選履歴', schema: apiSchema('DrawHistoryList', pageOf(drawHistoryItemSchema)) },
    400: { description: '条件が正しくありません。', codes: ['VALIDATION_FAILED', 'CURSOR_INVALID'] },
    401: { description: 'ログインが必要です。', codes: ['UNAUTHENTICATED'] },
  },
  handler: async ({ services, member, query }) => {
    const before = query.cursor ? decodeCursor(query.cursor, drawHistoryPositionSchema) : undefined;
    const page = await listDrawHistory(
      services.db,
      member.id,
      { gachaId: query.gachaId, period: query.period, hits: query.hits },
      { limit: query.limit, before, highlightCoins: services.config.PRIZE_HIGHLIGHT_COINS },
    );
    return {
      status: 200,
      body: {
        items: page.items.map((item) => ({
          ...item,
          proof: item.proof ? { ...item.proof, verifyUrl: `/api/v1/gachas/${item.gachaId}/reveal` } : null,
        })),
        nextCursor: page.next ? encodeCursor(page.next) : null,
      },
    };
  },
});

export const winnerOperations = [listWinners, listMyDraws];
