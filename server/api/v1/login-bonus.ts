// The signed-in member's daily login bonus (decision 033): today's state and the claim.
import { z } from 'zod';
import { apiSchema, defineOperation } from './registry';
import { isoDateTime, requestHash } from './http';
import { answerOnce } from './idempotent';
import { claimLoginBonus, loginBonusStateOf } from '#modules/bonus';
import { loginBonusRules } from '#server/login-bonus';

const jstDay = () =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .meta({ description: '日本時間の日付（YYYY-MM-DD）' });

export const loginBonusStateSchema = apiSchema(
  'LoginBonusState',
  z.object({
    enabled: z.boolean().meta({ description: 'ログインボーナスを実施中か' }),
    day: jstDay(),
    claimed: z.boolean().meta({ description: '今日受け取り済みか' }),
    streakDay: z
      .int()
      .min(1)
      .meta({ description: '今日の連続ログイン日数（受け取り済み、または今受け取ると何日目か）' }),
    coins: z.int().min(0).meta({ description: '今日の無償コイン' }),
    nextClaimAt: isoDateTime().meta({ description: '次に受け取れる時刻（翌日 0:00 日本時間）' }),
    streakCoins: z.array(z.int().min(1)).meta({ description: '連続1日目からのコイン表' }),
  }),
);

export const loginBonusClaimSchema = apiSchema(
  'LoginBonusClaim',
  z.object({
    day: jstDay(),
    streakDay: z.int().min(1),
    coins: z.int().min(1).meta({ description: '付与した無償コイン' }),
    nextClaimAt: isoDateTime(),
  }),
);

const getLoginBonus = defineOperation({
  operationId: 'getLoginBonus',
  method: 'get',
  path: '/me/login-bonus',
  summary: '今日のログインボーナス',
  description: '日付は日本時間（サーバーが決めます）。受け取り済みか、今日のコインと連続日数を返します。',
  tags: ['login-bonus'],
  auth: 'member',
  responses: {
    200: { description: '今日の状態', schema: loginBonusStateSchema },
    401: { description: 'ログインが必要です。', codes: ['UNAUTHENTICATED'] },
  },
  handler: async ({ services, member }) => {
    const state = await loginBonusStateOf(services.db, member.id, loginBonusRules(services.config));
    return { status: 200, body: { ...state, nextClaimAt: state.nextClaimAt.toISOString() } };
  },
});

const claimLoginBonusOperation = defineOperation({
  operationId: 'claimLoginBonus',
  method: 'post',
  path: '/me/login-bonus',
  summary: 'ログインボーナスを受け取る',
  description:
    '日本時間の1日に1回、無償コインを受け取ります。同時に何度送っても付与は1回です。2回目以降は 409 と次に受け取れる時刻を返します。Idempotency-Key を付けて再送すると最初の答えが返ります。メンテナンス中も受け取れます。',
  tags: ['login-bonus'],
  auth: 'member',
  idempotencyKey: 'optional',
  responses: {
    200: { description: '受け取りました。', schema: loginBonusClaimSchema },
    401: { description: 'ログインが必要です。', codes: ['UNAUTHENTICATED'] },
    403: {
      description: 'スタッフ、または利用停止・退会済みのアカウントです。',
      codes: ['LOGIN_BONUS_STAFF', 'LOGIN_BONUS_NOT_AVAILABLE'],
    },
    404: { description: 'ログインボーナスを実施していません。', codes: ['LOGIN_BONUS_DISABLED'] },
    409: {
      description: '今日は受け取り済み（details.nextClaimAt）、またはキーの再利用。',
      codes: ['LOGIN_BONUS_ALREADY_CLAIMED', 'IDEMPOTENCY_KEY_REUSED'],
    },
  },
  handler: async ({ services, member, idempotencyKey }) => {
    const claim = await answerOnce(
      services.db,
      { memberId: member.id, idempotencyKey, operation: 'claimLoginBonus', requestHash: requestHash({}) },
      async (db) => {
        const outcome = await claimLoginBonus(db, member.id, loginBonusRules(services.config));
        if (!outcome.ok) return outcome;
        const { ok: _ok, ...claimed } = outcome;
        return { ...claimed, nextClaimAt: claimed.nextClaimAt.toISOString() };
      },
    );
    return { status: 200, body: claim };
  },
});

export const loginBonusOperations = [getLoginBonus, claimLoginBonusOperation];
