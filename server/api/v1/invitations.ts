// The signed-in member's invitations (decision 038): their code, link and invitees, and a new member's
// code typed by hand (the web's sign-up attaches the /r link's code by itself).
import { z } from 'zod';
import { apiSchema, defineOperation } from './registry';
import { isoDateTime } from './http';
import { INVITEE_STATE_LABELS, attachInvitation, publicInviterName } from '#modules/invitation';
import { invitationViewOf } from '#server/invitation';

const STATES = Object.keys(INVITEE_STATE_LABELS) as [
  keyof typeof INVITEE_STATE_LABELS,
  ...(keyof typeof INVITEE_STATE_LABELS)[],
];
const stateSchema = z.enum(STATES).meta({
  description:
    'registered 登録済み → phone_verified 電話番号認証済み → purchased 初回購入済み → rewarded 報酬付与済み / capped 上限のため対象外 / refused_self 本人の招待 / refused_suspicious 不正の疑いで対象外',
});

export const invitationSchema = apiSchema(
  'Invitation',
  z.object({
    code: z.string().meta({ description: 'あなたの招待コード（8文字、0・1・O・Iを使わない英数字）' }),
    link: z.string().meta({ description: '招待リンク（/r?code=…）' }),
    shareText: z.string().meta({ description: '共有する文面' }),
    share: z.object({
      line: z.string().meta({ description: 'LINEで送るURL' }),
      x: z.string().meta({ description: 'Xでポストする URL' }),
    }),
    month: z.object({
      label: z.string().meta({ description: '日本時間の今月（例: 2026年11月）' }),
      rewarded: z.int().min(0).meta({ description: '今月の特典付与人数' }),
      cap: z.int().min(0).meta({ description: '1か月の上限人数' }),
    }),
    rewardCoins: z.int().min(0).meta({ description: '1人の招待で双方が受け取る無償コイン' }),
    claimDays: z.int().min(1).meta({ description: 'メールボックスで受け取れる日数' }),
    totals: z.object({ invited: z.int().min(0), rewarded: z.int().min(0) }),
    invitees: z.array(
      z.object({
        name: z.string().meta({ description: 'ニックネーム（公開名）' }),
        joinedOn: z.string().meta({ description: '登録日（日本時間、YYYY/MM/DD）' }),
        joinedAt: isoDateTime(),
        state: stateSchema,
        stateLabel: z.string(),
        phoneVerified: z.boolean(),
        purchased: z.boolean(),
      }),
    ),
    invitedBy: z
      .object({ name: z.string(), state: stateSchema, stateLabel: z.string() })
      .nullable()
      .meta({ description: 'あなたを招待した会員（いなければ null）' }),
    canEnterCode: z.boolean().meta({ description: '招待コードを手入力できるか（登録から72時間以内・初回購入前）' }),
  }),
);

const unauthenticated = { description: 'ログインが必要です。', codes: ['UNAUTHENTICATED'] } as const;

const getInvitation = defineOperation({
  operationId: 'getInvitation',
  method: 'get',
  path: '/me/invitation',
  summary: '友達招待（自分のコード・リンク・招待した友達）',
  description:
    '招待した友達は自分の分だけ、新しい順に limit 件まで。特典は友達が電話番号認証と初回購入を終えると双方に届きます（日本時間の月ごとの上限あり）。',
  tags: ['invitations'],
  auth: 'member',
  query: z.object({
    limit: z.coerce.number().int().min(1).max(200).default(100).meta({ description: '招待した友達の件数（1〜200）' }),
  }),
  responses: {
    200: { description: '友達招待', schema: invitationSchema },
    400: { description: '入力内容に誤りがあります。', codes: ['VALIDATION_FAILED'] },
    401: unauthenticated,
  },
  handler: async ({ services, member, query }) => ({
    status: 200,
    body: await invitationViewOf(services, member.id, query.limit),
  }),
});

const enterInvitationCode = defineOperation({
  operationId: 'enterInvitationCode',
  method: 'post',
  path: '/me/invitation/inviter',
  summary: '招待コードを入力する（新規会員）',
  description:
    '招待リンクを使わずに登録した会員が、友達の招待コードを登録します。会員登録から72時間以内・初回購入の前まで、1回だけ。大文字・小文字と全角・半角、空白とハイフンは区別しません。入力は1時間に10回まで（429, Retry-After）。',
  tags: ['invitations'],
  auth: 'member',
  body: z.object({ code: z.string().min(1).max(40).meta({ description: '友達の招待コード' }) }),
  responses: {
    201: {
      description: '登録しました。',
      schema: apiSchema(
        'InvitationEntered',
        z.object({ inviterName: z.string().meta({ description: '招待した会員の公開名' }) }),
      ),
    },
    400: { description: 'コードの形式が正しくありません。', codes: ['VALIDATION_FAILED', 'INVITATION_CODE_INVALID'] },
    401: unauthenticated,
    404: { description: 'コードが見つかりません。', codes: ['INVITATION_CODE_NOT_FOUND'] },
    409: {
      description: '登録済み、または登録から72時間を過ぎたか初回購入後です。',
      codes: ['INVITATION_ALREADY_ATTACHED', 'INVITATION_TOO_LATE'],
    },
    422: { description: 'ご自身のコードです。', codes: ['INVITATION_SELF'] },
    429: { description: '入力回数が多すぎます（1時間に10回まで）。', codes: ['INVITATION_RATE_LIMITED'] },
  },
  handler: async ({ services, member, body }) => {
    const outcome = await attachInvitation(services.db, { inviteeId: member.id, code: body.code, lateEntry: true });
    if (!outcome.ok) return outcome;
    return { status: 201, body: { inviterName: await publicInviterName(services.db, outcome.inviterId) } };
  },
});

export const invitationOperations = [getInvitation, enterInvitationCode];
