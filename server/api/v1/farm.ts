// The farm and friends for the web and the native app (decisions 044, 045). Every write is an intention
// (a plot, a seed, a friend); the server decides the time and the amounts and answers the farm after it.
// Writes take an optional Idempotency-Key (a retry answers the first answer) and count against the
// member's FARM_ACTIONS_PER_MINUTE (429 FARM_TOO_FAST with Retry-After).
import { z } from 'zod';
import { apiSchema, defineOperation } from './registry';
import { isoDateTime, requestHash } from './http';
import { answerOnce } from './idempotent';
import { FARM_CROP_ARTS, type FarmRefusalCode } from '#modules/farm';
import { requestFriend, type FriendRefusalCode } from '#modules/friends';
import {
  farmOf,
  farmNow,
  farmRateLimit,
  friendRulesOf,
  friendsViewOf,
  runFarmIntent,
  runFriendIntent,
  type FarmIntentInput,
} from '#server/farm';
import type { ShopServices } from '#server/services';

const jstDay = () =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .meta({ description: '日本時間の日付（YYYY-MM-DD）' });

const plotSchema = apiSchema(
  'FarmPlot',
  z.object({
    plotNo: z.int().min(1).meta({ description: '畑の番号（1から）' }),
    state: z.enum(['locked', 'empty', 'growing', 'ripe', 'withered']).meta({
      description: 'locked 未解放 / empty 空き / growing 成長中 / ripe 収穫できる / withered 枯れた',
    }),
    unlockLevel: z.int().nullable().meta({ description: '未解放の畑が開くレベル' }),
    seed: z
      .object({ id: z.string(), name: z.string(), art: z.string().meta({ description: FARM_CROP_ARTS.join(', ') }) })
      .nullable(),
    rewardCoins: z.int().nullable().meta({ description: '収穫で得られる無償コイン（1日の上限の前）' }),
    plantedAt: isoDateTime().nullable(),
    readyAt: isoDateTime().nullable().meta({ description: '収穫できる時刻（水やりで早まります）' }),
    witherAt: isoDateTime().nullable().meta({ description: '枯れる時刻' }),
    growth: z.number().min(0).max(1).meta({ description: 'now 時点の成長（0〜1）' }),
    stage: z.int().min(0).max(4).nullable().meta({ description: '0 種 / 1 芽 / 2 成長 / 3 収穫 / 4 枯れ' }),
    canWater: z.boolean(),
    nextWaterAt: isoDateTime().nullable().meta({ description: '次に水やりできる時刻' }),
    waterings: z.int().min(0),
  }),
);

export const farmSchema = apiSchema(
  'Farm',
  z.object({
    paused: z.boolean().meta({ description: '運営が一時停止中（操作はできません）' }),
    now: isoDateTime().meta({ description: 'サーバーの時刻（カウントダウンの基準）' }),
    day: jstDay(),
    nextDayAt: isoDateTime().meta({ description: '上限とフレンドの水やりが戻る時刻（日本時間0時）' }),
    level: z.int().min(1),
    plots: z.array(plotSchema),
    seeds: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        art: z.string(),
        growMinutes: z.int(),
        rewardCoins: z.int(),
        unlockLevel: z.int(),
        locked: z.boolean(),
      }),
    ),
    today: z.object({
      coins: z.int().min(0).meta({ description: '今日ファームで得た無償コイン' }),
      cap: z.int().min(0).meta({ description: '1日の上限' }),
      harvests: z.int().min(0),
      waterings: z.int().min(0),
      friendWaterings: z.int().min(0),
    }),
    streak: z.int().min(0).meta({ description: '連続プレイ日数（日本時間）' }),
    rules: z.object({
      waterCooldownMinutes: z.int(),
      waterSpeedupPercent: z.int(),
      witherAfterMinutes: z.int(),
      dailyCoinCap: z.int(),
      friendWaterCoins: z.int(),
    }),
  }),
);

const actionResultSchema = apiSchema(
  'FarmActionResult',
  z.object({
    action: z.enum(['plant', 'water', 'harvest', 'clear', 'friend_water']),
    plotNo: z.int().nullable(),
    coins: z.int().min(0).meta({ description: 'この操作で得た無償コイン（上限適用後）' }),
    cappedCoins: z.int().min(0).meta({ description: '1日の上限のため付与されなかったコイン' }),
    friendCoins: z.int().min(0).optional().meta({ description: 'フレンドに届いたコイン（水やりのとき）' }),
    farm: farmSchema,
  }),
);

const friendSchema = z.object({
  friendshipId: z.int().min(1),
  nickname: z.string(),
  since: isoDateTime(),
  wateredToday: z.boolean().meta({ description: '今日この友達の畑に水やりしたか' }),
  growingPlots: z.int().min(0),
});
const requestSchema = z.object({ friendshipId: z.int().min(1), nickname: z.string(), requestedAt: isoDateTime() });

export const friendsSchema = apiSchema(
  'Friends',
  z.object({
    code: z.string().meta({ description: '自分のフレンドコード（友達招待と同じコード）' }),
    link: z.string().meta({ description: 'コード入りのフレンド追加リンク' }),
    share: z.object({ line: z.string(), x: z.string() }),
    limit: z.int().min(1),
    friends: z.array(friendSchema),
    incoming: z.array(requestSchema).meta({ description: '届いた申請' }),
    outgoing: z.array(requestSchema).meta({ description: '送った申請' }),
    friendWaterCoins: z.int().min(0),
  }),
);

const plotParams = z.object({ plotNo: z.coerce.number().int().min(1).max(64).meta({ description: '畑の番号' }) });
const friendshipParams = z.object({
  friendshipId: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER).meta({ description: 'フレンドのID' }),
});

const unauthenticated = { description: 'ログインが必要です。', codes: ['UNAUTHENTICATED'] } as const;
const tooFast = {
  description: '操作が速すぎます（Retry-After 秒後に）。',
  codes: ['FARM_TOO_FAST'],
  headers: { 'Retry-After': '再試行までの秒数' },
} as const;
const paused = { description: 'ファームが一時停止中です。', codes: ['FARM_PAUSED'] } as const;
const unavailable = { description: 'スタッフ・利用停止中のアカウントです。', codes: ['FARM_NOT_AVAILABLE'] } as const;

/** Counts the action against the member's rate, then runs it once per Idempotency-Key. */
async function farmWrite<T extends object>(
  services: ShopServices,
  memberId: string,
  idempotencyKey: string | null,
  operation: string,
  fingerprint: unknown,
  work: Parameters<typeof answerOnce<T>>[2],
) {
  const limited = await farmRateLimit(services, memberId);
  if (limited) return limited;
  return answerOnce<T>(
    services.db,
    { memberId, idempotencyKey, operation, requestHash: requestHash(fingerprint) },
    work,
  );
}

const intentOperation = (
  intent: 'plant' | 'water' | 'harvest' | 'clear',
  spec: { operationId: string; summary: string; description: string; codes: readonly FarmRefusalCode[] },
) =>
  defineOperation({
    operationId: spec.operationId,
    method: 'post',
    path: `/me/farm/plots/{plotNo}/${intent}`,
    summary: spec.summary,
    description: spec.description,
    tags: ['farm'],
    auth: 'member',
    idempotencyKey: 'optional',
    params: plotParams,
    ...(intent === 'plant'
      ? { body: z.object({ seedId: z.string().min(1).max(32).meta({ description: '種のID（seeds[].id）' }) }) }
      : {}),
    responses: {
      200: { description: '操作しました。変更後のファームを返します。', schema: actionResultSchema },
      401: unauthenticated,
      403: unavailable,
      404: { description: 'その種はありません。', codes: intent === 'plant' ? ['FARM_SEED_UNKNOWN'] : [] },
      409: {
        description: '今はできません（理由は code と details）。',
        codes: [...spec.codes, 'IDEMPOTENCY_KEY_REUSED'],
      },
      429: tooFast,
      503: paused,
    },
    handler: async ({ services, member, params, body, idempotencyKey }) => {
      const seedId = (body as { seedId?: string } | undefined)?.seedId;
      const input = (
        intent === 'plant' ? { intent, plotNo: params.plotNo, seedId } : { intent, plotNo: params.plotNo }
      ) as FarmIntentInput;
      const result = await farmWrite(services, member.id, idempotencyKey, spec.operationId, input, async (db) => {
        const outcome = await runFarmIntent(services, db, member.id, input);
        if (!outcome.ok) return outcome;
        const { ok: _ok, ...rest } = outcome;
        return rest;
      });
      if ('ok' in result && result.ok === false) return result;
      return { status: 200, body: result as z.input<typeof actionResultSchema> };
    },
  });

const getFarm = defineOperation({
  operationId: 'getFarm',
  method: 'get',
  path: '/me/farm',
  summary: '自分のファーム',
  description:
    '畑・種・今日の獲得コインと上限。時刻はすべてサーバーが決めます（now を基準にカウントダウンしてください）。',
  tags: ['farm'],
  auth: 'member',
  responses: { 200: { description: 'ファーム', schema: farmSchema }, 401: unauthenticated },
  handler: async ({ services, member }) => ({ status: 200, body: await farmOf(services, member.id) }),
});

const plant = intentOperation('plant', {
  operationId: 'plantFarmSeed',
  summary: '種を植える',
  description: '空いている、解放済みの畑に種を植えます。',
  codes: ['FARM_PLOT_LOCKED', 'FARM_PLOT_NOT_EMPTY', 'FARM_SEED_LOCKED'],
});
const water = intentOperation('water', {
  operationId: 'waterFarmPlot',
  summary: '水やり',
  description:
    '成長中の畑に水やりします（畑ごとに rules.waterCooldownMinutes に1回）。残り時間が rules.waterSpeedupPercent ％短くなります。',
  codes: ['FARM_NOTHING_TO_WATER', 'FARM_WATER_TOO_SOON'],
});
const harvest = intentOperation('harvest', {
  operationId: 'harvestFarmPlot',
  summary: '収穫',
  description:
    '実った作物を収穫し、無償コインを受け取ります（1日の上限まで。上限を超えた分は cappedCoins）。1回の作付けにつき1回だけです。',
  codes: ['FARM_NOTHING_TO_HARVEST', 'FARM_NOT_RIPE', 'FARM_WITHERED'],
});
const clear = intentOperation('clear', {
  operationId: 'clearFarmPlot',
  summary: '枯れた作物を片付ける',
  description: '枯れた作物を片付けて、畑を空きにします（コインはありません）。',
  codes: ['FARM_NOTHING_TO_CLEAR'],
});

const getFriends = defineOperation({
  operationId: 'getFriends',
  method: 'get',
  path: '/me/friends',
  summary: 'フレンドと申請',
  description: '自分のコードとリンク、フレンド（今日水やりしたか）、届いた申請・送った申請。',
  tags: ['friends'],
  auth: 'member',
  responses: { 200: { description: 'フレンド', schema: friendsSchema }, 401: unauthenticated },
  handler: async ({ services, member }) => ({ status: 200, body: await friendsViewOf(services, member.id) }),
});

const friendRefusals = (codes: readonly FriendRefusalCode[]) => [...codes, 'IDEMPOTENCY_KEY_REUSED'];

const requestFriendOperation = defineOperation({
  operationId: 'requestFriend',
  method: 'post',
  path: '/me/friends/requests',
  summary: 'フレンド申請を送る',
  description:
    '相手のフレンドコード（8文字、全角・ハイフン可）で申請します。相手からも申請が届いていれば、その場でフレンドになります（status: accepted）。',
  tags: ['friends'],
  auth: 'member',
  idempotencyKey: 'optional',
  body: z.object({ code: z.string().max(40).meta({ description: '相手のフレンドコード' }) }),
  responses: {
    200: {
      description: '申請しました。',
      schema: z.object({ friendshipId: z.int(), status: z.enum(['pending', 'accepted']), nickname: z.string() }),
    },
    400: { description: 'コードの形式が違います。', codes: ['FRIEND_CODE_INVALID'] },
    401: unauthenticated,
    403: { description: 'このアカウントでは使えません。', codes: ['FRIEND_NOT_AVAILABLE'] },
    404: { description: 'コードの会員がいません。', codes: ['FRIEND_CODE_UNKNOWN'] },
    409: {
      description: '申請できません（自分、フレンド済み、申請中、お断り直後、上限）。',
      codes: friendRefusals([
        'FRIEND_SELF',
        'FRIEND_ALREADY',
        'FRIEND_REQUEST_PENDING',
        'FRIEND_REQUEST_DECLINED_RECENTLY',
        'FRIEND_LIMIT_REACHED',
        'FRIEND_OTHER_LIMIT_REACHED',
      ]),
    },
    429: tooFast,
  },
  handler: async ({ services, member, body, idempotencyKey }) => {
    const result = await farmWrite(services, member.id, idempotencyKey, 'requestFriend', body, async (db) => {
      const outcome = await requestFriend(db, member.id, body.code, friendRulesOf(services.config), farmNow());
      if (!outcome.ok) return outcome;
      return { friendshipId: outcome.friendshipId, status: outcome.status, nickname: outcome.nickname };
    });
    if ('ok' in result && result.ok === false) return result;
    return { status: 200, body: result as { friendshipId: number; status: 'pending' | 'accepted'; nickname: string } };
  },
});

const decision = (decide: 'accept' | 'decline', spec: { operationId: string; summary: string; description: string }) =>
  defineOperation({
    operationId: spec.operationId,
    method: 'post',
    path: `/me/friends/{friendshipId}/${decide}`,
    summary: spec.summary,
    description: spec.description,
    tags: ['friends'],
    auth: 'member',
    idempotencyKey: 'optional',
    params: friendshipParams,
    responses: {
      200: { description: '処理しました。', schema: friendsSchema },
      401: unauthenticated,
      403: { description: 'このアカウントでは使えません。', codes: ['FRIEND_NOT_AVAILABLE'] },
      404: { description: '自分宛ての申請がありません。', codes: ['FRIEND_NOT_FOUND'] },
      409: { description: '上限です。', codes: friendRefusals(['FRIEND_LIMIT_REACHED']) },
      429: tooFast,
    },
    handler: async ({ services, member, params, idempotencyKey }) => {
      const result = await farmWrite(services, member.id, idempotencyKey, spec.operationId, params, async (db) => {
        const outcome = await runFriendIntent(services, db, member.id, {
          intent: decide,
          friendshipId: params.friendshipId,
        });
        if (!outcome.ok) return outcome;
        return { done: true };
      });
      if ('ok' in result && result.ok === false) return result;
      return { status: 200, body: await friendsViewOf(services, member.id) };
    },
  });

const acceptFriend = decision('accept', {
  operationId: 'acceptFriendRequest',
  summary: '申請を承認',
  description: '届いた申請を承認してフレンドになります。',
});
const declineFriend = decision('decline', {
  operationId: 'declineFriendRequest',
  summary: '申請をお断り',
  description: '届いた申請をお断りします（相手は FRIEND_DECLINED_COOLDOWN_DAYS 日のあいだ再申請できません）。',
});

const removeFriendOperation = defineOperation({
  operationId: 'removeFriend',
  method: 'delete',
  path: '/me/friends/{friendshipId}',
  summary: 'フレンドを削除 / 送った申請を取り消し',
  description: 'フレンドを削除します。まだ承認されていない自分の申請なら取り消します。',
  tags: ['friends'],
  auth: 'member',
  idempotencyKey: 'optional',
  params: friendshipParams,
  responses: {
    200: { description: '削除しました。', schema: friendsSchema },
    401: unauthenticated,
    404: { description: 'フレンド・申請がありません。', codes: ['FRIEND_NOT_FOUND'] },
    409: { description: 'キーの再利用', codes: ['IDEMPOTENCY_KEY_REUSED'] },
    429: tooFast,
  },
  handler: async ({ services, member, params, idempotencyKey }) => {
    const result = await farmWrite(services, member.id, idempotencyKey, 'removeFriend', params, async (db) => {
      const removed = await runFriendIntent(services, db, member.id, {
        intent: 'remove',
        friendshipId: params.friendshipId,
      });
      if (removed.ok) return { done: true };
      const canceled = await runFriendIntent(services, db, member.id, {
        intent: 'cancel',
        friendshipId: params.friendshipId,
      });
      if (!canceled.ok) return canceled;
      return { done: true };
    });
    if ('ok' in result && result.ok === false) return result;
    return { status: 200, body: await friendsViewOf(services, member.id) };
  },
});

const waterFriendOperation = defineOperation({
  operationId: 'waterFriendFarm',
  method: 'post',
  path: '/me/friends/{friendshipId}/water',
  summary: 'フレンドの畑に水やり',
  description:
    '日本時間の1日に1回、フレンドごとに水やりできます。フレンドの成長中の畑（残り時間が最も長いもの）が早まり、あなたとフレンドにそれぞれ rules.friendWaterCoins（各自の1日の上限まで）が届きます。',
  tags: ['farm', 'friends'],
  auth: 'member',
  idempotencyKey: 'optional',
  params: friendshipParams,
  responses: {
    200: { description: '水やりしました。', schema: actionResultSchema },
    401: unauthenticated,
    403: unavailable,
    404: { description: 'フレンドではありません。', codes: ['FARM_NOT_FRIENDS'] },
    409: {
      description: '今日は水やり済み（details.nextDayAt）。',
      codes: ['FARM_FRIEND_ALREADY_WATERED', 'IDEMPOTENCY_KEY_REUSED'],
    },
    429: tooFast,
    503: paused,
  },
  handler: async ({ services, member, params, idempotencyKey }) => {
    const input = { intent: 'water-friend' as const, friendshipId: params.friendshipId };
    const result = await farmWrite(services, member.id, idempotencyKey, 'waterFriendFarm', input, async (db) => {
      const outcome = await runFarmIntent(services, db, member.id, input);
      if (!outcome.ok) return outcome;
      const { ok: _ok, ...rest } = outcome;
      return rest;
    });
    if ('ok' in result && result.ok === false) return result;
    return { status: 200, body: result as z.input<typeof actionResultSchema> };
  },
});

export const farmOperations = [
  getFarm,
  plant,
  water,
  harvest,
  clear,
  getFriends,
  requestFriendOperation,
  acceptFriend,
  declineFriend,
  removeFriendOperation,
  waterFriendOperation,
];
