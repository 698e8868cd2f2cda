// The member's prize box: list, convert to coins, keep for shipping. Another member's prize is 404.
import { z } from 'zod';
import { apiSchema, defineOperation } from './registry';
import { ApiError, decodeCursor, encodeCursor, pageOf, pageQuery, requestHash, isoDateTime } from './http';
import { prizeSchema, prizeStatusSchema, balanceSchema } from './draws';
import {
  convertPrizes,
  keepPrizes,
  listPrizes,
  prizeBoxPositionSchema,
  prizeChoiceSchema,
  prizeConversionSchema,
  prizeStatuses,
  undoConversion,
  type PrizeStatus,
} from '#modules/draw';
import { answerOnce } from './idempotent';

const boxItemSchema = apiSchema(
  'PrizeBoxItem',
  prizeSchema.extend({
    drawId: z.string(),
    gachaId: z.string(),
    gachaTitle: z.string(),
    genreId: z.string(),
    createdAt: isoDateTime(),
    keepUntil: isoDateTime()
      .nullable()
      .meta({ description: '保管中のカードの保管期限（過ぎるとコインに自動交換）。保管中以外は null' }),
  }),
);

const listPrizesOperation = defineOperation({
  operationId: 'listPrizes',
  method: 'get',
  path: '/me/prizes',
  summary: '獲得商品（新しい順）',
  description: '既定は未選択（pending）と保管中（kept）。status をカンマ区切りで指定できます。',
  tags: ['prizes'],
  auth: 'member',
  query: pageQuery.extend({
    status: z.string().max(60).optional().meta({ description: 'pending,kept,converted,shipping のカンマ区切り' }),
  }),
  responses: {
    200: { description: '獲得商品', schema: apiSchema('PrizeBoxList', pageOf(boxItemSchema)) },
    400: { description: '条件が正しくありません。', codes: ['VALIDATION_FAILED', 'CURSOR_INVALID'] },
    401: { description: 'ログインが必要です。', codes: ['UNAUTHENTICATED'] },
  },
  handler: async ({ services, member, query }) => {
    const statuses = query.status ? query.status.split(',').map((s) => s.trim()) : undefined;
    if (statuses && !statuses.every((s) => (prizeStatuses as readonly string[]).includes(s))) {
      throw new ApiError(400, 'VALIDATION_FAILED', '入力内容に誤りがあります。', {
        fields: { 'query.status': 'pending, kept, converted, shipping から選んでください。' },
      });
    }
    const before = query.cursor ? decodeCursor(query.cursor, prizeBoxPositionSchema) : undefined;
    const page = await listPrizes(services.db, member.id, {
      status: statuses as PrizeStatus[] | undefined,
      limit: query.limit,
      before,
    });
    return {
      status: 200,
      body: {
        items: page.items.map((p) => ({
          id: p.prizeId,
          position: p.position,
          tierId: p.tierId,
          tierLabel: p.tierLabel,
          tierRank: p.tierRank,
          effect: p.effect,
          cardName: p.cardName,
          imagePath: p.imagePath,
          rarity: p.rarity,
          cardGrade: p.cardGrade,
          conversionValue: p.conversionValue,
          isLastOne: p.isLastOne,
          kiriban: p.kiriban ?? null,
          personalKiriban: p.personalKiriban ?? null,
          pitariOf: p.pitariOf ?? null,
          ceilingNo: p.ceilingNo ?? null,
          status: p.status,
          decideBy: p.decideBy,
          drawId: p.drawId,
          gachaId: p.gachaId,
          gachaTitle: p.gachaTitle,
          genreId: p.genreId,
          createdAt: p.createdAt,
          keepUntil: p.keepUntil,
        })),
        nextCursor: page.next ? encodeCursor(page.next) : null,
      },
    };
  },
});

const conversionSchema = apiSchema(
  'PrizeConversion',
  z.object({
    converted: z.array(z.object({ prizeId: z.string(), coins: z.int().min(0) })),
    total: z.int().min(0).meta({ description: '付与された無償コインの合計' }),
    balance: balanceSchema,
    undo: z
      .object({
        conversionId: z.string().meta({ description: 'undoPrizeConversion に渡す交換ID' }),
        until: isoDateTime().meta({ description: 'この時刻まで元に戻せます' }),
        seconds: z.int().min(1).meta({ description: '元に戻せる秒数（ショップの設定）' }),
      })
      .nullable()
      .meta({ description: '「元に戻す」の情報（自動交換など元に戻せない交換では null）' }),
  }),
);

const convertPrizesOperation = defineOperation({
  operationId: 'convertPrizes',
  method: 'post',
  path: '/me/prizes/conversions',
  summary: '獲得商品をコインに交換',
  description:
    '指定したカードをすべて交換するか、1枚も交換しません。交換値は無償コイン（90日有効）で付与されます。発送用に保管中のカードは includeKept: true のときだけ交換されます。Idempotency-Key を付けると再送しても1回だけ交換されます。',
  tags: ['prizes'],
  auth: 'member',
  idempotencyKey: 'optional',
  body: prizeConversionSchema,
  responses: {
    200: { description: '交換しました。', schema: conversionSchema },
    400: { description: '入力が正しくありません。', codes: ['VALIDATION_FAILED'] },
    401: { description: 'ログインが必要です。', codes: ['UNAUTHENTICATED'] },
    404: { description: '獲得商品がありません（他の会員のものを含む）。', codes: ['PRIZE_NOT_FOUND'] },
    409: {
      description: '交換・発送手続き済み、保管中のカードを includeKept なしで指定、またはキーの再利用。',
      codes: ['PRIZE_ALREADY_DECIDED', 'PRIZE_KEPT', 'IDEMPOTENCY_KEY_REUSED'],
    },
  },
  handler: async ({ services, member, body, idempotencyKey }) => {
    const conversion = await answerOnce(
      services.db,
      { memberId: member.id, idempotencyKey, operation: 'convertPrizes', requestHash: requestHash(body) },
      async (db) => {
        const outcome = await convertPrizes(db, member.id, body.prizeIds, {
          freeCoinDays: services.config.FREE_COIN_EXPIRY_DAYS,
          includeKept: body.includeKept === true,
          undoSeconds: services.config.CONVERT_UNDO_SECONDS,
        });
        if (!outcome.ok) return outcome;
        const undo = outcome.undo ? { ...outcome.undo, seconds: services.config.CONVERT_UNDO_SECONDS } : null;
        return { converted: outcome.converted, total: outcome.total, balance: outcome.balance, undo };
      },
    );
    return { status: 200, body: conversion };
  },
});

const keepPrizesOperation = defineOperation({
  operationId: 'keepPrizes',
  method: 'post',
  path: '/me/prizes/keeps',
  summary: '獲得商品を発送用に保管',
  description: '未選択のカードを発送用に保管し、自動交換の対象から外します。',
  tags: ['prizes'],
  auth: 'member',
  body: prizeChoiceSchema,
  responses: {
    200: { description: '保管しました。', schema: z.object({ kept: z.int().min(0) }) },
    400: { description: '入力が正しくありません。', codes: ['VALIDATION_FAILED'] },
    401: { description: 'ログインが必要です。', codes: ['UNAUTHENTICATED'] },
    404: { description: '獲得商品がありません（他の会員のものを含む）。', codes: ['PRIZE_NOT_FOUND'] },
    409: { description: '交換・発送手続き済み。', codes: ['PRIZE_ALREADY_DECIDED'] },
  },
  handler: async ({ services, member, body }) => {
    const outcome = await keepPrizes(services.db, member.id, body.prizeIds, {
      storageDays: services.config.KEPT_PRIZE_STORAGE_DAYS,
    });
    if (!outcome.ok) return outcome;
    return { status: 200, body: { kept: outcome.kept } };
  },
});

const undoConversionOperation = defineOperation({
  operationId: 'undoPrizeConversion',
  method: 'post',
  path: '/me/prizes/conversions/{conversionId}/undo',
  summary: 'コイン交換を元に戻す',
  description:
    '交換の直後（convertPrizes の undo.until まで）なら、交換したカードを獲得商品に戻し、受け取った無償コインを差し引きます。同時に何度送っても取り消しは1回で、2回目以降は replay: true で最初の答えを返します。受け取ったコインをすでに使った場合や期限を過ぎた場合は元に戻せません。',
  tags: ['prizes'],
  auth: 'member',
  params: z.object({
    conversionId: z.string().max(64).meta({ description: '交換ID（convertPrizes の undo.conversionId）' }),
  }),
  responses: {
    200: {
      description: '元に戻しました（replay: true は取り消し済みの交換）。',
      schema: apiSchema(
        'PrizeConversionUndo',
        z.object({
          restored: z.int().min(0).meta({ description: '獲得商品に戻ったカードの枚数' }),
          total: z.int().min(0).meta({ description: '差し引いた無償コイン' }),
          replay: z.boolean().meta({ description: 'すでに取り消し済みだったか' }),
          balance: balanceSchema,
        }),
      ),
    },
    401: { description: 'ログインが必要です。', codes: ['UNAUTHENTICATED'] },
    404: { description: '元に戻せる交換がありません（他の会員のものを含む）。', codes: ['CONVERSION_NOT_FOUND'] },
    409: {
      description: '期限切れ、受け取ったコインを使用済み、またはカードの状態が変わった。',
      codes: ['UNDO_EXPIRED', 'COINS_SPENT', 'UNDO_UNAVAILABLE'],
    },
  },
  handler: async ({ services, member, params }) => {
    const outcome = await undoConversion(services.db, member.id, params.conversionId);
    if (!outcome.ok) return outcome;
    const { restored, total, replay, balance } = outcome;
    return { status: 200, body: { restored, total, replay, balance } };
  },
});

export const prizeOperations = [
  listPrizesOperation,
  convertPrizesOperation,
  undoConversionOperation,
  keepPrizesOperation,
];
export { prizeStatusSchema };
