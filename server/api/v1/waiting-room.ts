// A pack's waiting room (decision 087), for the signed-in member: their place (which also draws the order at
// the start and moves the queue on), joining (the captcha when the shop has one, a verified phone) and leaving.
import { z } from 'zod';
import { apiSchema, defineOperation } from './registry';
import { isoDateTime } from './http';
import { gachaIdSchema } from '#modules/gacha';
import { CLIENT_IP_HEADER } from '#modules/identity/server';
import { joinWaitingRoomAsMember, leaveWaitingRoomAsMember, memberWaitingRoom } from '../../waiting-room';

const gachaId = gachaIdSchema.meta({ description: 'ガチャID' });

export const waitingRoomSchema = apiSchema(
  'WaitingRoom',
  z.object({
    state: z.enum(['none', 'not_joined', 'registered', 'waiting', 'admitted', 'done', 'left', 'closed']).meta({
      description:
        'none: 待機列のないガチャ / not_joined: 未参加 / registered: 販売開始前に登録済み（順番は開始時刻に抽選） / waiting: 順番待ち / admitted: 購入できる時間中 / done: 購入時間の終了 / left: 待機列から抜けた / closed: 完売または販売終了',
    }),
    startsAt: isoDateTime().nullable().meta({ description: '販売開始（順番を抽選する時刻）' }),
    cap: z.int().nullable().meta({ description: 'お一人様が引ける口数の上限' }),
    windowSeconds: z.int().nullable().meta({ description: '1人あたりの購入時間（秒）' }),
    batch: z.int().nullable().meta({ description: '同時に購入できる人数' }),
    place: z.int().nullable().meta({ description: 'あなたの順番（1が最初）。抽選前と、後から並んだ方の入場前は null' }),
    ahead: z.int().nullable().meta({ description: 'あなたより前で待っている人数（waiting のとき）' }),
    estimateSeconds: z.int().nullable().meta({ description: '順番が来るまでの目安（秒、waiting のとき）' }),
    orderedCount: z.int().meta({ description: '開始時刻に順番を抽選した人数' }),
    windowOpenedAt: isoDateTime().nullable(),
    windowClosesAt: isoDateTime().nullable().meta({ description: '購入時間の終わり' }),
    lotsDrawn: z.int(),
    lotsLeft: z.int().nullable().meta({ description: '購入時間中に引ける残りの口数（admitted のとき）' }),
    now: isoDateTime().meta({ description: 'サーバーの現在時刻（残り時間の計算用）' }),
  }),
);

const getWaitingRoom = defineOperation({
  operationId: 'getWaitingRoom',
  method: 'get',
  path: '/gachas/{gachaId}/waiting-room',
  summary: '待機列での自分の順番',
  description:
    '販売開始前は登録済みかどうか、開始後は順番・前にいる人数・目安の待ち時間、購入時間中は残り時間と引ける口数を返します。数秒ごとに呼んでください。',
  tags: ['waiting-room'],
  auth: 'member',
  params: z.object({ gachaId }),
  responses: {
    200: { description: '待機列の状態', schema: waitingRoomSchema },
    401: { description: 'ログインが必要です。', codes: ['UNAUTHENTICATED'] },
  },
  handler: async ({ services, member, params }) => ({
    status: 200,
    body: await memberWaitingRoom(services, { memberId: member.id, gachaId: params.gachaId }),
  }),
});

const joinWaitingRoomOperation = defineOperation({
  operationId: 'joinWaitingRoom',
  method: 'post',
  path: '/gachas/{gachaId}/waiting-room',
  summary: '待機列に並ぶ',
  description:
    '電話番号の認証が必要です（電話番号ごとに1人まで）。ロボット対策の確認（Turnstile）を設定しているショップでは captchaToken が必要です。' +
    '販売開始前に並んだ方の順番は開始時刻にサーバーが無作為に抽選し、開始後に並んだ方はその後ろに並んだ順で続きます。もう一度送っても順番は変わりません。',
  tags: ['waiting-room'],
  auth: 'member',
  params: z.object({ gachaId }),
  body: z.object({ captchaToken: z.string().max(2048).optional() }),
  responses: {
    200: { description: '並びました（すでに並んでいる場合も同じ答え）。', schema: waitingRoomSchema },
    400: {
      description: 'ロボット対策の確認に失敗しました。',
      codes: ['WAITING_ROOM_CAPTCHA_FAILED', 'VALIDATION_FAILED'],
    },
    401: { description: 'ログインが必要です。', codes: ['UNAUTHENTICATED'] },
    403: { description: '電話番号の認証が必要です。', codes: ['WAITING_ROOM_PHONE_REQUIRED'] },
    404: { description: '待機列のないガチャです。', codes: ['WAITING_ROOM_NOT_FOUND'] },
    409: {
      description: '完売・販売終了、同じ電話番号ですでに並んでいる、または待機列から抜けた後です。',
      codes: ['WAITING_ROOM_CLOSED', 'WAITING_ROOM_PHONE_TAKEN', 'WAITING_ROOM_LEFT'],
    },
  },
  handler: async ({ c, services, member, params, body }) => {
    const joined = await joinWaitingRoomAsMember(services, {
      memberId: member.id,
      gachaId: params.gachaId,
      captchaToken: body.captchaToken ?? null,
      address: c.req.header(CLIENT_IP_HEADER),
    });
    if ('ok' in joined) return joined;
    return { status: 200, body: joined };
  },
});

const leaveWaitingRoomOperation = defineOperation({
  operationId: 'leaveWaitingRoom',
  method: 'delete',
  path: '/gachas/{gachaId}/waiting-room',
  summary: '待機列から抜ける',
  description: '順番を手放します（購入時間中なら、その時点で終了します）。同じガチャの待機列にはもう並べません。',
  tags: ['waiting-room'],
  auth: 'member',
  params: z.object({ gachaId }),
  responses: {
    200: { description: '抜けました。', schema: waitingRoomSchema },
    401: { description: 'ログインが必要です。', codes: ['UNAUTHENTICATED'] },
  },
  handler: async ({ services, member, params }) => {
    await leaveWaitingRoomAsMember(services, { memberId: member.id, gachaId: params.gachaId });
    return { status: 200, body: await memberWaitingRoom(services, { memberId: member.id, gachaId: params.gachaId }) };
  },
});

export const waitingRoomOperations = [getWaitingRoom, joinWaitingRoomOperation, leaveWaitingRoomOperation];
