// Draw operations: draw lots (createDraw), read a result, the live remaining counts and, once a
// pack is over, its reveal file. The same module functions serve the web pages.
import { z } from 'zod';
import { apiSchema, defineOperation } from './registry';
import { ApiError, isoDateTime } from './http';
import { drawRequestSchema, getDrawResult, getPackReveal, type DrawResult } from '#modules/draw';
import { resolveMember } from './auth';
import { kiribanProgressSchema } from './catalogue';
import { gachaIdSchema, getGacha, getRemaining, kiribanProgress } from '#modules/gacha';
import { isUuid, refuse } from '#modules/kernel';
import { drawForMember } from '../../draw';
import { drawBeaconBody, type DrawBeaconBody } from '../../draw-proof';
import type { BeaconService } from '../../beacon';
import { catalogueDbFor } from '../../read-routing';

const gachaId = gachaIdSchema.meta({ description: 'ガチャID' });

export const tierEffectSchema = apiSchema(
  'TierEffect',
  z.enum(['lastone', 'rainbow', 'gold', 'silver', 'normal']).meta({ description: '演出の種類（賞ごと）' }),
);
export const prizeStatusSchema = apiSchema(
  'PrizeStatus',
  z
    .enum(['pending', 'kept', 'converted', 'shipping'])
    .meta({ description: 'pending: 未選択 / kept: 発送用に保管 / converted: コイン交換済み / shipping: 発送手続き中' }),
);

export const prizeSchema = apiSchema(
  'Prize',
  z.object({
    id: z.string().meta({ description: '獲得商品ID' }),
    position: z.int().nullable().meta({ description: '口の番号（ラストワン賞・キリ番賞は null）' }),
    tierId: z.string(),
    tierLabel: z.string().meta({ examples: ['S賞'] }),
    tierRank: z.int().meta({ description: '1が最上位。ラストワン賞は0' }),
    effect: tierEffectSchema,
    cardName: z.string(),
    imagePath: z.string().meta({ description: 'カード画像のサイト内パス' }),
    rarity: z.string().nullable(),
    cardGrade: z.string().nullable(),
    conversionValue: z.int().min(0).meta({ description: 'コイン交換した場合の無償コイン数' }),
    isLastOne: z.boolean(),
    kiriban: z
      .int()
      .nullable()
      .meta({ description: 'キリ番賞なら、その番号（販売順で何口目か。例: 100 = 100口目）。ほかの賞は null' }),
    personalKiriban: z
      .int()
      .nullable()
      .meta({ description: '個人キリ番賞なら、その番号（この会員がこのガチャを何口目に引いたか）。ほかの賞は null' }),
    pitariOf: z
      .string()
      .nullable()
      .meta({ description: 'ピタリ賞なら、この抽選が最後の1口を引いた賞のID。ほかの賞は null' }),
    ceilingNo: z
      .int()
      .nullable()
      .meta({ description: '天井賞なら、この会員がこのガチャで受け取った何回目の天井賞か（1から）。ほかの賞は null' }),
    status: prizeStatusSchema,
    decideBy: isoDateTime().meta({ description: 'この時刻までに選ばないと自動でコインに交換されます' }),
  }),
);

export const balanceSchema = apiSchema(
  'Balance',
  z.object({ paid: z.int().min(0), free: z.int().min(0) }).meta({ description: '有償・無償コインの残高' }),
);

const hex = z.string().regex(/^[0-9a-f]*$/);
export const drawBeaconSchema = apiSchema(
  'DrawBeaconProof',
  z
    .object({
      settled: z.boolean().meta({ description: 'false の間は抽選中（乱数ビーコンのラウンドを待っています）' }),
      receipt: z.object({
        gachaId: z.string(),
        commitment: hex,
        drawId: z.string(),
        member: hex.meta({ description: 'このガチャでの会員の仮名（16桁の16進数）' }),
        slots: z.array(z.int().min(1)),
        acceptedAt: z.string(),
        round: z.int().min(1),
        afterHead: hex,
        afterRound: z.int().min(0),
      }),
      signature: hex.nullable().meta({ description: '受付証（oripa-receipt-v1）の Ed25519 署名' }),
      publicKey: hex.meta({ description: 'ガチャのコミットメントにある受付証の公開鍵' }),
      roundTime: isoDateTime(),
      closesAt: isoDateTime(),
      terms: z
        .object({
          gachaId: z.string(),
          title: z.string(),
          pricePerDraw: z.int(),
          tiers: z.array(
            z.object({
              id: z.string(),
              label: z.string(),
              cardName: z.string(),
              quantity: z.int(),
              conversionValue: z.int(),
              isLastOne: z.boolean(),
              kiribanAt: z.array(z.int()).optional(),
            }),
          ),
          beacon: z.object({
            chainHash: hex,
            scheme: z.string(),
            publicKey: hex,
            genesisTime: z.int(),
            period: z.int(),
          }),
          receiptKey: hex,
          certificates: z.array(
            z.object({ tierId: z.string(), company: z.string(), number: z.string(), photoSha256: hex }),
          ),
        })
        .meta({ description: 'コミットメント（oripa-commitment-b1）の入力: スマホで計算し直せます' }),
      closeMarginMs: z.int(),
      head: z
        .object({
          round: z.int(),
          head: hex,
          prevHead: hex,
          publishedAt: z.string(),
          settleRound: z.int(),
          receiptHashes: z.array(hex),
        })
        .nullable(),
      path: z.array(z.object({ round: z.int(), head: hex, prevHead: hex })),
      settlement: z
        .object({
          beacon: z.object({ round: z.int(), signature: hex, randomness: hex }),
        })
        .nullable(),
    })
    .meta({
      description:
        'ビーコン抽選（docs/decisions/081）の証明: 署名付き受付証、待っているラウンド、チェーンのヘッド、確定後はビーコン（当選の再計算は公開抽選ログから）',
    }),
);

export const drawResultSchema = apiSchema(
  'DrawResult',
  z.object({
    id: z.string().meta({ description: '抽選結果ID（結果ページ /gacha/{genreId}/{gachaId}/result/{id}）' }),
    gachaId: z.string(),
    count: z.int().min(1),
    cost: z.int().min(0),
    lastOne: z.boolean().meta({ description: 'ラストワン賞を獲得したか' }),
    kiriban: z.array(z.int().min(1)).meta({ description: 'この抽選で獲得したキリ番（販売順で何口目か）。ふつうは空' }),
    createdAt: isoDateTime(),
    replay: z.boolean().meta({ description: '同じ Idempotency-Key の再送に対する最初の結果の再送なら true' }),
    items: z.array(prizeSchema),
    balance: balanceSchema,
    beacon: drawBeaconSchema
      .nullable()
      .meta({ description: 'ビーコン抽選のガチャのみ。抽選中は items が空で、確定すると items が入ります' }),
  }),
);

export const remainingSchema = apiSchema(
  'GachaRemaining',
  z.object({
    gachaId: z.string(),
    total: z.int().min(0),
    remaining: z.int().min(0),
    soldOut: z.boolean(),
    tiers: z.array(
      z.object({
        tierId: z.string(),
        label: z.string(),
        quantity: z.int(),
        remaining: z.int().min(0),
        isLastOne: z.boolean(),
        kiribanAt: z
          .array(z.int().min(1))
          .nullable()
          .meta({ description: 'キリ番賞の番号（販売順で何口目か）。ほかの賞は null' }),
      }),
    ),
    kiriban: kiribanProgressSchema.nullable().meta({ description: 'キリ番賞のあるガチャのみ（docs/decisions/027）' }),
  }),
);

export const toPrizeBody = (item: DrawResult['items'][number]) => ({
  id: item.prizeId,
  position: item.position,
  tierId: item.tierId,
  tierLabel: item.tierLabel,
  tierRank: item.tierRank,
  effect: item.effect,
  cardName: item.cardName,
  imagePath: item.imagePath,
  rarity: item.rarity,
  cardGrade: item.cardGrade,
  conversionValue: item.conversionValue,
  isLastOne: item.isLastOne,
  kiriban: item.kiriban ?? null,
  personalKiriban: item.personalKiriban ?? null,
  pitariOf: item.pitariOf ?? null,
  ceilingNo: item.ceilingNo ?? null,
  status: item.status,
  decideBy: item.decideBy,
});

const toDrawBody = (result: DrawResult, beacon: DrawBeaconBody | null) => ({
  id: result.drawId,
  gachaId: result.gachaId,
  count: result.count,
  cost: result.cost,
  lastOne: result.lastOne,
  kiriban: result.kiriban,
  createdAt: result.createdAt,
  replay: result.replay,
  items: result.items.map(toPrizeBody),
  balance: result.balance,
  beacon,
});

export const createDraw = defineOperation({
  operationId: 'createDraw',
  method: 'post',
  path: '/gachas/{gachaId}/draws',
  summary: 'ガチャを引く',
  description:
    '指定回数（ガチャの選択肢のいずれか）の口を、回数×価格のコインで引きます。1つのトランザクションで全部か何もしないかのどちらかです。' +
    '残り口数が足りなければ残り数とともに断ります（409 NOT_ENOUGH_LOTS）。Idempotency-Key が必須で、同じキーの再送には最初の結果を返します。' +
    '最後の1口を引いた場合はラストワン賞も、キリ番（販売順で N 口目）の口を引いた場合はキリ番賞も付きます。スタッフアカウントは引けません。',
  tags: ['draws'],
  // One round trip: the session is resolved inside the draw's own database call.
  auth: 'session',
  idempotencyKey: 'required',
  params: z.object({ gachaId }),
  body: drawRequestSchema,
  responses: {
    201: { description: '抽選しました。', schema: drawResultSchema },
    200: { description: '同じキーの最初の結果です（replay: true）。', schema: drawResultSchema },
    400: {
      description: '回数がこのガチャの選択肢にありません。',
      codes: ['DRAW_COUNT_INVALID', 'VALIDATION_FAILED', 'IDEMPOTENCY_KEY_REQUIRED'],
    },
    401: { description: 'ログインが必要です。', codes: ['UNAUTHENTICATED'] },
    403: {
      description: 'スタッフ、ランク不足、自己除外期間中、または待機列のあるガチャで待機列に並んでいません。',
      codes: ['STAFF_CANNOT_DRAW', 'RANK_TOO_LOW', 'SELF_EXCLUDED', 'WAITING_ROOM_NOT_JOINED'],
    },
    404: { description: 'ガチャがありません。', codes: ['GACHA_NOT_FOUND'] },
    409: {
      description: '完売・残り不足・キーの再利用・混雑、または待機列の順番前・購入時間の終了。',
      codes: [
        'SOLD_OUT',
        'NOT_ENOUGH_LOTS',
        'IDEMPOTENCY_KEY_REUSED',
        'DRAW_BUSY',
        'WAITING_ROOM_NOT_YOUR_TURN',
        'WAITING_ROOM_WINDOW_CLOSED',
      ],
    },
    422: {
      description: 'コイン不足・販売期間外・購入上限・会員ご本人が設定した今月のガチャ消費上限。',
      codes: [
        'INSUFFICIENT_COINS',
        'GACHA_NOT_ON_SALE',
        'GACHA_ENDED',
        'DRAW_LIMIT_REACHED',
        'DRAW_SPEND_LIMIT_REACHED',
      ],
    },
  },
  handler: ({ c, services, params, body, idempotencyKey, sessionToken }) =>
    createDrawAnswer(services, {
      sessionToken,
      resolveMember: () => resolveMember(services, c.req.raw.headers),
      gachaId: params.gachaId,
      count: body.count,
      idempotencyKey: idempotencyKey!,
    }),
});

/**
 * createDraw's work once the request is read (its operation here and the draw lane, server/api/v1/draw-lane.ts):
 * the one draw use case the pack page also calls (server/draw.ts), with the session resolved in it.
 * @example const answer = await createDrawAnswer(services, { sessionToken, resolveMember, gachaId, count: 1, idempotencyKey })
 */
export async function createDrawAnswer(
  services: Parameters<typeof drawForMember>[0] & { beacon?: BeaconService },
  input: {
    sessionToken: string;
    resolveMember: () => Promise<{ id: string } | null>;
    gachaId: string;
    count: number;
    idempotencyKey: string;
  },
) {
  const outcome = await drawForMember(
    services,
    { sessionToken: input.sessionToken, resolveMember: input.resolveMember },
    { gachaId: input.gachaId, count: input.count, idempotencyKey: `api:${input.idempotencyKey}` },
  );
  if (!outcome) throw new ApiError(401, 'UNAUTHENTICATED', 'ログインしてください。');
  // Status, message and DRAW_BUSY's Retry-After come from modules/refusals.
  if (!outcome.ok) return refuse(outcome.code, outcome.details);
  const beacon = await drawBeaconBody(services, outcome.result);
  return {
    status: outcome.result.replay ? (200 as const) : (201 as const),
    body: toDrawBody(outcome.result, beacon),
  };
}

const getDrawResultOperation = defineOperation({
  operationId: 'getDrawResult',
  method: 'get',
  path: '/gachas/{gachaId}/draws/{drawId}',
  summary: '抽選結果',
  description: '自分の抽選結果だけを返します。他の会員の結果は存在しないものとして 404 です。',
  tags: ['draws'],
  auth: 'member',
  params: z.object({ gachaId, drawId: z.string().max(100) }),
  responses: {
    200: { description: '抽選結果', schema: drawResultSchema },
    401: { description: 'ログインが必要です。', codes: ['UNAUTHENTICATED'] },
    404: { description: '結果がありません（他の会員の結果を含む）。', codes: ['DRAW_NOT_FOUND'] },
  },
  handler: async ({ services, member, params }) => {
    const result = isUuid(params.drawId) ? await getDrawResult(services.db, member.id, params.drawId) : null;
    if (!result || result.gachaId !== params.gachaId) return refuse('DRAW_NOT_FOUND');
    return { status: 200, body: toDrawBody(result, await drawBeaconBody(services, result)) };
  },
});

const getGachaRemaining = defineOperation({
  operationId: 'getGachaRemaining',
  method: 'get',
  path: '/gachas/{gachaId}/remaining',
  summary: '残り口数（全体と賞ごと）',
  description:
    'ライブ更新は server-sent events の GET /api/v1/gachas/{gachaId}/events（イベント remaining, soldOut、このオリパの当選履歴の win）で受け取れます。',
  tags: ['catalogue'],
  auth: 'none',
  cacheControl: 'no-cache',
  params: z.object({ gachaId }),
  responses: {
    200: { description: '残り口数', schema: remainingSchema },
    404: { description: 'ガチャがありません。', codes: ['GACHA_NOT_FOUND'] },
  },
  handler: async ({ services, params }) => {
    const pack = await getGacha(services.db, params.gachaId);
    if (!pack) return refuse('GACHA_NOT_FOUND');
    const counts = await getRemaining(services.db, pack.id);
    return {
      status: 200,
      body: {
        gachaId: pack.id,
        total: counts.total,
        remaining: counts.remaining,
        soldOut: counts.soldOut,
        tiers: counts.tiers.map((t) => ({
          tierId: t.tierId,
          label: t.label,
          quantity: t.quantity,
          remaining: t.remaining,
          isLastOne: t.isLastOne,
          kiribanAt: t.kiribanAt,
        })),
        kiriban: counts.tiers.some((t) => t.kiribanAt)
          ? kiribanProgress(counts.tiers, counts.total, counts.remaining)
          : null,
      },
    };
  },
});

const getGachaReveal = defineOperation({
  operationId: 'getGachaReveal',
  method: 'get',
  path: '/gachas/{gachaId}/reveal',
  summary: '公平性の検証ファイル（シードと匿名化した抽選ログ）',
  description:
    '完売または販売終了したガチャのシード・全口の並び・匿名化した抽選ログです。`npm run verify-pack -- <file>` で検証できます（docs/decisions/005）。',
  tags: ['catalogue'],
  auth: 'none',
  params: z.object({ gachaId }),
  responses: {
    200: {
      description: '検証ファイル（format: oripa-pack-reveal/1、キリ番賞のあるガチャは oripa-pack-reveal/2）',
      schema: z.record(z.string(), z.unknown()),
    },
    404: { description: 'ガチャがありません。', codes: ['GACHA_NOT_FOUND'] },
    409: { description: 'まだ販売中で、公開前です。', codes: ['NOT_REVEALED_YET'] },
  },
  handler: async ({ services, params, c }) => {
    const pack = await getGacha(services.db, params.gachaId);
    if (!pack) return refuse('GACHA_NOT_FOUND');
    // A reveal never changes once written: a close replica may serve it, and the primary is asked when the
    // replica has not replayed it yet (decision 075).
    const replica = catalogueDbFor(c, services.reads, services.db);
    const reveal =
      (await getPackReveal(replica, pack.id)) ??
      (replica === services.db ? null : await getPackReveal(services.db, pack.id));
    if (!reveal) return refuse('NOT_REVEALED_YET');
    c.header('Content-Disposition', `attachment; filename="${pack.id}-reveal.json"`);
    return c.json(reveal);
  },
});

export const drawOperations = [createDraw, getDrawResultOperation, getGachaRemaining, getGachaReveal];
