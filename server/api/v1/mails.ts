// The signed-in member's mailbox (decision 034): the two lists, one mail (reading marks it read), the
// attachment's claim (credited once, whatever the concurrency) and the unread count for the bell.
import { z } from 'zod';
import { apiSchema, defineOperation } from './registry';
import { decodeCursor, encodeCursor, isoDateTime, pageOf, pageQuery, requestHash } from './http';
import {
  claimAllPresents,
  claimMailAttachment,
  listMails,
  openMail,
  unreadMailCount,
  MAIL_CATEGORIES,
  type MailSummary,
} from '#modules/mailbox';
import { refuse } from '#modules/kernel';
import { answerOnce } from './idempotent';
import { mailClaimRules, shopMailboxOptions } from '#server/mailbox';

const attachmentSchema = z
  .object({
    coins: z.int().min(1).meta({ description: '受け取れる無償コイン' }),
    claimUntil: isoDateTime().nullable().meta({ description: '受け取り期限（null: 期限なし）' }),
    claimed: z.boolean().meta({ description: '受け取り済みか' }),
    expired: z.boolean().meta({ description: '期限を過ぎたか' }),
  })
  .nullable();

export const mailSummarySchema = apiSchema(
  'MailSummary',
  z.object({
    id: z.int().min(1),
    box: z.enum(['personal', 'broadcast']).meta({ description: 'personal: あなたへ、broadcast: お知らせ' }),
    category: z.enum(MAIL_CATEGORIES).meta({ description: '送り主の種類（operator: 運営、welcome、level_up…）' }),
    subject: z.string(),
    sentAt: isoDateTime(),
    read: z.boolean(),
    attachment: attachmentSchema,
  }),
);

const richTextBlock = z
  .record(z.string(), z.unknown())
  .meta({ description: 'Prismic 形式のリッチテキストのブロック（type, text, spans）。HTMLではありません。' });

export const mailSchema = apiSchema(
  'Mail',
  z.object({
    mail: mailSummarySchema.extend({ body: z.array(richTextBlock) }),
    unread: z.int().min(0).meta({ description: '開いた後の未読件数' }),
  }),
);

const mailClaimSchema = apiSchema(
  'MailClaim',
  z.object({ mailId: z.int().min(1), coins: z.int().min(1).meta({ description: '受け取った無償コイン' }) }),
);

const summaryOf = (mail: MailSummary) => ({
  id: mail.id,
  box: mail.audience,
  category: mail.category as (typeof MAIL_CATEGORIES)[number],
  subject: mail.subject,
  sentAt: mail.sendAt.toISOString(),
  read: mail.read,
  attachment: mail.attachment
    ? { ...mail.attachment, claimUntil: mail.attachment.claimUntil?.toISOString() ?? null }
    : null,
});

const mailIdParams = z.object({ mailId: z.string().max(20).meta({ description: 'メールID（正の整数）' }) });
/** A path id: a positive whole number, or null (answered "not found", like another member's mail). */
const mailIdOf = (text: string) =>
  /^[1-9]\d{0,15}$/.test(text) && Number.isSafeInteger(Number(text)) ? Number(text) : null;
const unauthenticated = { description: 'ログインが必要です。', codes: ['UNAUTHENTICATED'] } as const;
const notFound = {
  description: 'メールがありません（他の会員のメール、予約中・取消済みを含む）。',
  codes: ['MAIL_NOT_FOUND'],
} as const;
const listCursor = z.object({ before: z.int().min(1) });

const listOperation = defineOperation({
  operationId: 'listMyMails',
  method: 'get',
  path: '/me/mails',
  summary: 'メールボックス（新しい順）',
  description: 'box=personal は「あなたへ」、box=broadcast は「お知らせ」（会員のセグメントに届いたもの）。',
  tags: ['mailbox'],
  auth: 'member',
  query: pageQuery.extend({
    box: z
      .enum(['personal', 'broadcast'], { error: 'box は personal か broadcast を指定してください。' })
      .default('personal'),
  }),
  responses: {
    200: { description: 'メール', schema: apiSchema('MailList', pageOf(mailSummarySchema)) },
    400: { description: 'box または cursor が正しくありません。', codes: ['VALIDATION_FAILED', 'CURSOR_INVALID'] },
    401: unauthenticated,
  },
  handler: async ({ services, member, query }) => {
    const before = query.cursor ? decodeCursor(query.cursor, listCursor).before : undefined;
    const page = await listMails(
      services.db,
      member.id,
      query.box,
      { limit: query.limit, before },
      shopMailboxOptions(),
    );
    return {
      status: 200,
      body: {
        items: page.items.map(summaryOf),
        nextCursor: page.nextBefore ? encodeCursor({ before: page.nextBefore }) : null,
      },
    };
  },
});

const getOperation = defineOperation({
  operationId: 'getMyMail',
  method: 'get',
  path: '/me/mails/{mailId}',
  summary: 'メールを読む（既読にします）',
  tags: ['mailbox'],
  auth: 'member',
  params: mailIdParams,
  responses: {
    200: { description: 'メール本文と、開いた後の未読件数', schema: mailSchema },
    401: unauthenticated,
    404: notFound,
  },
  handler: async ({ services, member, params }) => {
    const mailId = mailIdOf(params.mailId);
    const mail = mailId ? await openMail(services.db, member.id, mailId, shopMailboxOptions()) : null;
    if (!mail) return refuse('MAIL_NOT_FOUND');
    const unread = await unreadMailCount(services.db, member.id, {
      ...shopMailboxOptions(),
      joinedAt: member.joinedAt,
    });
    return { status: 200, body: { mail: { ...summaryOf(mail), body: mail.body }, unread } };
  },
});

const claimOperation = defineOperation({
  operationId: 'claimMyMailAttachment',
  method: 'post',
  path: '/me/mails/{mailId}/claim',
  summary: 'メールのプレゼントを受け取る',
  description:
    '添付の無償コインを受け取ります。同時に何度送っても付与は1回です（2回目以降は 409）。Idempotency-Key を付けて再送すると最初の答えが返ります。',
  tags: ['mailbox'],
  auth: 'member',
  idempotencyKey: 'optional',
  params: mailIdParams,
  responses: {
    200: { description: '受け取りました。', schema: mailClaimSchema },
    401: unauthenticated,
    403: { description: 'スタッフ、または利用停止・退会済みのアカウントです。', codes: ['MAIL_CLAIM_NOT_AVAILABLE'] },
    404: notFound,
    409: {
      description: '受け取り済み、またはキーの再利用。',
      codes: ['MAIL_ALREADY_CLAIMED', 'IDEMPOTENCY_KEY_REUSED'],
    },
    410: { description: '受け取り期限を過ぎました。', codes: ['MAIL_CLAIM_EXPIRED'] },
    422: { description: 'このメールにはプレゼントがありません。', codes: ['MAIL_NO_ATTACHMENT'] },
  },
  handler: async ({ services, member, params, idempotencyKey }) => {
    const mailId = mailIdOf(params.mailId);
    if (!mailId) return refuse('MAIL_NOT_FOUND');
    const claim = await answerOnce(
      services.db,
      {
        memberId: member.id,
        idempotencyKey,
        operation: 'claimMyMailAttachment',
        requestHash: requestHash({ mailId }),
      },
      async (db) => {
        const outcome = await claimMailAttachment(
          db,
          member.id,
          mailId,
          mailClaimRules(services.config),
          shopMailboxOptions(),
        );
        return outcome.ok ? { mailId: outcome.mailId, coins: outcome.coins } : outcome;
      },
    );
    return { status: 200, body: claim };
  },
});

const unreadOperation = defineOperation({
  operationId: 'getMyUnreadMailCount',
  method: 'get',
  path: '/me/mails/unread-count',
  summary: '未読メールの件数（ヘッダーのベル）',
  tags: ['mailbox'],
  auth: 'member',
  responses: {
    200: {
      description: '未読件数（あなたへ・お知らせの合計）',
      schema: apiSchema('UnreadMailCount', z.object({ unread: z.int().min(0) })),
    },
    401: unauthenticated,
  },
  handler: async ({ services, member }) => ({
    status: 200,
    body: {
      unread: await unreadMailCount(services.db, member.id, { ...shopMailboxOptions(), joinedAt: member.joinedAt }),
    },
  }),
});

const claimAllOperation = defineOperation({
  operationId: 'claimAllMyMailAttachments',
  method: 'post',
  path: '/me/mails/claim-all',
  summary: 'プレゼントをすべて受け取る',
  description:
    'メールボックスの受け取れるプレゼント（期限内・未受け取り）をすべて受け取ります（マイページの「すべて受け取る」と同じ）。各プレゼントの付与は1回だけで、同時に送っても二重には付与されません。受け取れるものがなければ claimed 0 を返します。Idempotency-Key を付けて再送すると最初の答えが返ります。',
  tags: ['mailbox'],
  auth: 'member',
  idempotencyKey: 'optional',
  responses: {
    200: {
      description: 'この呼び出しで受け取った件数とコイン（受け取れるものがなければ 0）',
      schema: apiSchema(
        'MailClaimAll',
        z.object({
          claimed: z.int().min(0).meta({ description: '受け取ったプレゼントの件数' }),
          coins: z.int().min(0).meta({ description: '受け取った無償コインの合計' }),
          unread: z.int().min(0).meta({ description: '受け取った後の未読件数' }),
        }),
      ),
    },
    401: unauthenticated,
    403: { description: 'スタッフ、または利用停止・退会済みのアカウントです。', codes: ['MAIL_CLAIM_NOT_AVAILABLE'] },
    409: { description: 'キーの再利用（別の内容で同じキー）。', codes: ['IDEMPOTENCY_KEY_REUSED'] },
  },
  handler: async ({ services, member, idempotencyKey }) => {
    const claim = await answerOnce(
      services.db,
      {
        memberId: member.id,
        idempotencyKey,
        operation: 'claimAllMyMailAttachments',
        requestHash: requestHash({}),
      },
      async (db) => {
        const outcome = await claimAllPresents(db, member.id, mailClaimRules(services.config), shopMailboxOptions());
        return outcome.ok ? { claimed: outcome.claimed, coins: outcome.coins } : outcome;
      },
    );
    const unread = await unreadMailCount(services.db, member.id, {
      ...shopMailboxOptions(),
      joinedAt: member.joinedAt,
    });
    return { status: 200, body: { ...claim, unread } };
  },
});

// unread-count and claim-all before {mailId}: the literal paths must win over the parameter.
export const mailOperations = [listOperation, unreadOperation, claimAllOperation, getOperation, claimOperation];
