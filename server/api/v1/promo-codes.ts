// 特典コード for the app (docs/decisions/032): redeem a code for free coins, and the member's own
// redemptions. The same module function and limits as /mypage/tokutencode.
import { z } from 'zod';
import { apiSchema, defineOperation } from './registry';
import { isoDateTime } from './http';
import { CLIENT_IP_HEADER } from '#modules/identity';
import { listMemberRedemptions, PROMO_CODE_MAX_LENGTH, redeemPromoCode } from '#modules/promo';

export const promoRedemptionSchema = apiSchema(
  'PromoRedemption',
  z.object({
    id: z.int(),
    label: z.string().meta({ description: 'キャンペーン名' }),
    coins: z.int().min(1).meta({ description: '付与された無償コイン' }),
    redeemedAt: isoDateTime(),
  }),
);

const unauthenticated = { description: 'ログインが必要です。', codes: ['UNAUTHENTICATED'] } as const;

const redeemPromoCodeOperation = defineOperation({
  operationId: 'redeemPromoCode',
  method: 'post',
  path: '/me/promo-codes/redemptions',
  summary: '特典コードを使う',
  description:
    '大文字・小文字、全角・半角、空白とハイフンは区別しません。1つのコードは会員ごとに1回まで。試行回数は会員と接続元ごとに制限されます（429, Retry-After）。',
  tags: ['promo-codes'],
  auth: 'member',
  body: z.object({
    code: z
      .string()
      .min(1)
      .max(PROMO_CODE_MAX_LENGTH * 4)
      .meta({ description: '入力された特典コード' }),
  }),
  responses: {
    201: { description: '無償コインを付与しました。', schema: promoRedemptionSchema },
    400: { description: '入力内容に誤りがあります。', codes: ['VALIDATION_FAILED'] },
    401: unauthenticated,
    403: {
      description: 'このコードの条件（新規会員・ランク）を満たしていません。',
      codes: ['PROMO_CODE_NOT_NEW_MEMBER', 'PROMO_CODE_RANK_TOO_LOW'],
    },
    404: { description: 'コードが見つかりません（停止されたコードを含む）。', codes: ['PROMO_CODE_UNKNOWN'] },
    409: {
      description: '受付開始前、利用上限に達した、または利用済みのコードです。',
      codes: ['PROMO_CODE_NOT_YET_VALID', 'PROMO_CODE_USED_UP', 'PROMO_CODE_ALREADY_REDEEMED'],
    },
    410: { description: '有効期限が過ぎています。', codes: ['PROMO_CODE_EXPIRED'] },
    422: { description: 'コードの形式が正しくありません。', codes: ['PROMO_CODE_INVALID'] },
    429: { description: '試行回数が多すぎます。', codes: ['PROMO_CODE_RATE_LIMITED'] },
  },
  handler: async ({ c, services, member, body }) => {
    const done = await redeemPromoCode(services.db, {
      memberId: member.id,
      code: body.code,
      address: c.req.header(CLIENT_IP_HEADER) || null,
      lifetimeDays: { paid: services.config.PAID_COIN_EXPIRY_DAYS, free: services.config.FREE_COIN_EXPIRY_DAYS },
    });
    if (!done.ok) return done;
    return {
      status: 201,
      body: { id: done.redemptionId, label: done.label, coins: done.coins, redeemedAt: done.redeemedAt },
    };
  },
});

const listPromoRedemptions = defineOperation({
  operationId: 'listPromoRedemptions',
  method: 'get',
  path: '/me/promo-codes/redemptions',
  summary: '特典コードの利用履歴（新しい順、50件まで）',
  tags: ['promo-codes'],
  auth: 'member',
  responses: {
    200: {
      description: '利用履歴',
      schema: apiSchema('PromoRedemptionList', z.object({ items: z.array(promoRedemptionSchema) })),
    },
    401: unauthenticated,
  },
  handler: async ({ services, member }) => ({
    status: 200,
    body: { items: await listMemberRedemptions(services.db, member.id) },
  }),
});

export const promoCodeOperations = [redeemPromoCodeOperation, listPromoRedemptions];
