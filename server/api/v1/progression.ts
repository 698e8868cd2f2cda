// The signed-in member's level and rank, and the ranking boards (decision 037), for the native app:
// the same read models as /mylevel, /myrank and /ranking/*. Members only, like the pages.
import { z } from 'zod';
import { apiSchema, defineOperation } from './registry';
import { isoDateTime } from './http';
import { getMemberLevel, getMemberProgress, rankUpRewardsTable, type RANKS } from '#modules/progression';
import { RANKING_BOARDS } from '#modules/ranking';
import { rankRulesOf } from '#server/progression';
import { boardView } from '#server/rankings';

const levelSchema = apiSchema(
  'MemberLevel',
  z.object({
    exp: z.int().min(0).meta({ description: '累計経験値（オリパに使ったコイン1枚につき1）' }),
    level: z.int().min(1),
    levelExp: z.int().min(0).meta({ description: '現在のレベルに到達した累計経験値' }),
    next: z
      .object({ level: z.int().min(2), expRequired: z.int().min(1) })
      .nullable()
      .meta({ description: '次のレベルと必要な累計経験値（最高レベルでは null）' }),
    rewards: z
      .array(
        z.object({
          level: z.int().min(2),
          expRequired: z.int().min(1),
          coins: z.int().min(0).meta({ description: 'レベルアップ報酬（無償コイン、メールボックスに届く）' }),
          reached: z.boolean().meta({ description: '到達済み（報酬のメールは送信済み）' }),
        }),
      )
      .meta({ description: 'レベルアップ報酬の一覧' }),
  }),
);

const rankOf = z.object({
  rank: z.int().min(0).max(5),
  name: z.string(),
  threshold: z.int().min(0).meta({ description: '前月の有償コイン購入数の条件' }),
  bonusPercent: z.int().min(0).max(5).meta({ description: 'コイン購入時の無償ボーナス（%）' }),
});

const rankSchema = apiSchema(
  'MemberRank',
  z.object({
    rank: rankOf.meta({ description: '今月のランク（前月の購入で決まり、月初に記録）' }),
    boughtThisMonth: z.int().min(0).meta({ description: '今月（日本時間）に購入した有償コイン' }),
    nextMonthRank: rankOf.meta({ description: 'このままなら来月のランク' }),
    nextTarget: z
      .object({ rank: rankOf, missing: z.int().min(1) })
      .nullable()
      .meta({ description: '来月さらに上のランクに必要な残りの購入数（最高ランクでは null）' }),
    monthEndsAt: isoDateTime().meta({ description: '今月の終わり（来月のランクが始まる時刻）' }),
    rankUpRewards: z
      .array(z.object({ rank: z.int().min(0).max(5), name: z.string(), coins: z.int().min(0) }))
      .meta({ description: 'ランクが上がった月に届くランクアップ報酬（無償コイン）' }),
  }),
);

const lineSchema = z.object({
  place: z.int().min(1),
  name: z.string().meta({ description: '公開ニックネーム（メールアドレスや会員IDは含みません）' }),
  score: z.int().min(0).meta({
    description: 'goodluck: 1回の価格に対する交換価値の倍率×100、exp: 獲得経験値、level: 上がったレベル数',
  }),
  tiebreak: z.int().min(0).meta({ description: 'level: 今月の獲得経験値（同数の順位を分ける）。ほかは 0' }),
  mine: z.boolean(),
  hit: z
    .object({
      label: z.string(),
      cardName: z.string(),
      packTitle: z.string(),
      conversionValue: z.int().min(0),
      pricePerDraw: z.int().min(0),
    })
    .nullable()
    .meta({ description: 'goodluck: そのスコアのカード' }),
});

const boardSchema = apiSchema(
  'RankingBoard',
  z.object({
    board: z.enum(RANKING_BOARDS),
    period: z.enum(['current', 'previous']),
    periodLabel: z.string(),
    from: isoDateTime(),
    to: isoDateTime(),
    lines: z.array(lineSchema).meta({ description: '上位100名' }),
    me: lineSchema.nullable().meta({ description: '自分の順位（100位より下でも）。集計に入っていなければ null' }),
    countedTo: isoDateTime().nullable().meta({ description: 'この時刻までの抽選を集計済み（数分ごとに更新）' }),
  }),
);

const getMyLevel = defineOperation({
  operationId: 'getMyLevel',
  method: 'get',
  path: '/me/level',
  summary: '自分のレベル',
  description: 'レベル、次のレベルまでの経験値、レベルアップ報酬の一覧。',
  tags: ['progression'],
  auth: 'member',
  responses: {
    200: { description: 'レベル', schema: levelSchema },
    401: { description: 'ログインが必要です。', codes: ['UNAUTHENTICATED'] },
  },
  handler: async ({ services, member }) => ({ status: 200, body: await getMemberLevel(services.db, member.id) }),
});

const getMyRank = defineOperation({
  operationId: 'getMyRank',
  method: 'get',
  path: '/me/rank',
  summary: '自分のランク',
  description:
    '今月のランクと特典、今月の購入（日本時間）と来月のランクの見込み。購入ボーナスとランク限定オリパはこのランクで決まります。',
  tags: ['progression'],
  auth: 'member',
  responses: {
    200: { description: 'ランク', schema: rankSchema },
    401: { description: 'ログインが必要です。', codes: ['UNAUTHENTICATED'] },
  },
  handler: async ({ services, member }) => {
    const progress = await getMemberProgress(services.db, member.id);
    const pick = (r: (typeof RANKS)[number]) => ({
      rank: r.rank,
      name: r.name,
      threshold: r.threshold,
      bonusPercent: r.bonusPercent,
    });
    return {
      status: 200,
      body: {
        rank: pick(progress.rank),
        boughtThisMonth: progress.boughtThisMonth,
        nextMonthRank: pick(progress.nextMonthRank),
        nextTarget: progress.nextTarget
          ? { rank: pick(progress.nextTarget.rank), missing: progress.nextTarget.missing }
          : null,
        monthEndsAt: progress.monthEndsAt.toISOString(),
        rankUpRewards: rankUpRewardsTable(rankRulesOf(services.config)),
      },
    };
  },
});

const getRankingBoard = defineOperation({
  operationId: 'getRankingBoard',
  method: 'get',
  path: '/rankings/{board}',
  summary: 'ランキング',
  description:
    'goodluck（日間の神引き）、exp（週間の経験値）、level（月間のレベル）。期間は日本時間。上位100名と自分の順位。period=previous で前の期間。',
  tags: ['progression'],
  auth: 'member',
  params: z.object({ board: z.enum(RANKING_BOARDS).meta({ description: 'goodluck、exp、level のどれか' }) }),
  query: z.object({
    period: z
      .enum(['current', 'previous'])
      .default('current')
      .meta({ description: 'current（今の期間）か previous（前の期間）' }),
  }),
  responses: {
    200: { description: 'ランキング', schema: boardSchema },
    401: { description: 'ログインが必要です。', codes: ['UNAUTHENTICATED'] },
  },
  handler: async ({ services, member, params, query }) => {
    const view = await boardView(services.db, params.board, query.period, member.id);
    return {
      status: 200,
      body: {
        ...view,
        from: view.from.toISOString(),
        to: view.to.toISOString(),
        countedTo: view.countedTo?.toISOString() ?? null,
      },
    };
  },
});

export const progressionOperations = [getMyLevel, getMyRank, getRankingBoard];
