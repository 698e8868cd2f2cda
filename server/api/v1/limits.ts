// The signed-in member's own limits (docs/decisions/035): read them, change them (lower at once, raise after
// 7 days), cancel a waiting raise, and self-exclude for 1, 3 or 6 months. Only `me`: no member id in any path.
// Open during maintenance: none of them buys or draws, and a member must always be able to limit themselves.
import { z } from 'zod';
import { apiSchema, defineOperation } from './registry';
import { ApiError, isoDateTime, requestHash } from './http';
import {
  cancelPendingLimit,
  changeLimits,
  excludeSelf,
  limitChangeSchema,
  LIMIT_KINDS,
  RAISE_WAIT_DAYS,
  REMINDER_PERCENT,
  selfExclusionSchema,
} from '#modules/limits';
import { withIdempotency } from '#modules/idempotency';
import type { Database } from '#db/client';
import { describeRefusal, type RefusalCode } from '#modules/refusals';
import { selfLimitStateOf } from '#server/self-limits';
import type { Refusal } from '#modules/kernel';

const limitSettingSchema = (unit: string) =>
  z.object({
    limit: z
      .int()
      .min(0)
      .nullable()
      .meta({ description: `今かかっている上限（${unit}）。null は上限なし` }),
    pending: z
      .object({
        value: z
          .int()
          .min(0)
          .nullable()
          .meta({ description: `予約中の新しい上限（${unit}）。null は上限をなくす予約` }),
        effectiveAt: isoDateTime().meta({ description: '反映される時刻（この時刻から有効）' }),
      })
      .nullable()
      .meta({ description: `上げる・なくす変更の予約（${RAISE_WAIT_DAYS}日後に反映）。なければ null` }),
    used: z
      .int()
      .min(0)
      .meta({ description: `今月（日本時間の暦月）の利用額（${unit}）。上限がなければ 0` }),
    remaining: z
      .int()
      .min(0)
      .nullable()
      .meta({ description: `今月の残り（${unit}）。上限がなければ null` }),
    reminder: z.boolean().meta({ description: `上限の${REMINDER_PERCENT}%以上を今月使ったか` }),
  });

export const selfLimitsSchema = apiSchema(
  'SelfLimits',
  z.object({
    purchase: limitSettingSchema('円').meta({ description: '1か月のコイン購入上限' }),
    draw: limitSettingSchema('コイン').meta({ description: '1か月のガチャ消費上限' }),
    exclusion: z
      .object({
        until: isoDateTime().meta({ description: '自己除外が終わる時刻（最終日の翌日 0:00 日本時間）' }),
        lastDay: z
          .string()
          .regex(/^\d{4}-\d{2}-\d{2}$/)
          .meta({ description: '自己除外の最終日（日本時間、YYYY-MM-DD）' }),
      })
      .nullable()
      .meta({ description: '自己除外中ならその期間。なければ null' }),
    raiseWaitDays: z.int().meta({ description: '上限を上げる・なくす変更が反映されるまでの日数' }),
  }),
);

const limitChangeResultSchema = apiSchema(
  'SelfLimitChange',
  z.object({
    kind: z.enum(LIMIT_KINDS).meta({ description: 'purchase（購入上限）または draw（ガチャ消費上限）' }),
    applied: z.enum(['now', 'pending', 'unchanged']).meta({
      description: 'now: すぐ反映（下げる・初めて設定）、pending: 予約（上げる・なくす）、unchanged: 変更なし',
    }),
    value: z.int().min(0).nullable(),
    effectiveAt: isoDateTime(),
  }),
);

/** The member's state as the API answers it. */
async function stateOf(db: Database, memberId: string, now = new Date()): Promise<z.input<typeof selfLimitsSchema>> {
  const { limits, summary } = await selfLimitStateOf(db, memberId, now);
  const setting = (kind: 'purchase' | 'draw') => ({
    limit: limits[kind].limit,
    pending: limits[kind].pending
      ? { value: limits[kind].pending.value, effectiveAt: limits[kind].pending.effectiveAt.toISOString() }
      : null,
    used: summary[kind]?.used ?? 0,
    remaining: summary[kind]?.remaining ?? null,
    reminder: summary[kind]?.reminder ?? false,
  });
  return {
    purchase: setting('purchase'),
    draw: setting('draw'),
    exclusion: limits.exclusion
      ? { until: limits.exclusion.until.toISOString(), lastDay: limits.exclusion.lastDay }
      : null,
    raiseWaitDays: RAISE_WAIT_DAYS,
  };
}

type Stored = { status: number; body: unknown };

/**
 * Runs a change once per Idempotency-Key (docs/api.md: a retry answers the first result; the key with another
 * body is 409); without a key it just runs. A refusal is stored as its error body, so a replay says the same.
 */
async function onceByKey(
  db: Database,
  request: { memberId: string; key: string | null; operation: string; body: unknown },
  run: (tx: Database) => Promise<Stored | Refusal<RefusalCode>>,
): Promise<Stored> {
  const asStored = async (tx: Database): Promise<Stored> => {
    const result = await run(tx);
    if ('ok' in result && result.ok === false) {
      const { status, code, message, details } = describeRefusal(result);
      return { status, body: { error: { code, message, details } } };
    }
    return result as Stored;
  };
  const outcome = request.key
    ? await withIdempotency(
        db,
        {
          memberId: request.memberId,
          key: `api:${request.key}`,
          operation: request.operation,
          requestHash: requestHash(request.body),
        },
        asStored,
      )
    : { ok: true as const, ...(await asStored(db)) };
  if (!outcome.ok) {
    const { status, code, message, details } = describeRefusal(outcome);
    throw new ApiError(status as 409, code, message, details);
  }
  if (outcome.status >= 400) {
    const error = (outcome.body as { error: { code: string; message: string; details: Record<string, unknown> } })
      .error;
    throw new ApiError(outcome.status as 409, error.code, error.message, error.details);
  }
  return { status: outcome.status, body: outcome.body };
}

const unauthenticated = { description: 'ログインが必要です。', codes: ['UNAUTHENTICATED'] } as const;
const badInput = { description: '入力内容に誤りがあります。', codes: ['VALIDATION_FAILED'] } as const;

const getSelfLimits = defineOperation({
  operationId: 'getSelfLimits',
  method: 'get',
  path: '/me/limits',
  summary: '利用上限と自己除外',
  description:
    '自分で設定した1か月の購入上限（円）とガチャ消費上限（コイン）、今月（日本時間の暦月）の利用額、予約中の変更、自己除外の期間を返します。',
  tags: ['limits'],
  auth: 'member',
  responses: {
    200: { description: '現在の設定と今月の利用額', schema: selfLimitsSchema },
    401: unauthenticated,
  },
  handler: async ({ services, member }) => ({ status: 200, body: await stateOf(services.db, member.id) }),
});

const changeSelfLimits = defineOperation({
  operationId: 'changeSelfLimits',
  method: 'put',
  path: '/me/limits',
  summary: '利用上限を変更する',
  description: `指定した上限だけを変更します（null は上限なし）。下げる変更・初めての設定はすぐに、上げる・なくす変更は${RAISE_WAIT_DAYS}日後に反映されます（予約は changes[].effectiveAt）。Idempotency-Key を付けて再送すると最初の答えが返ります。`,
  tags: ['limits'],
  auth: 'member',
  duringMaintenance: 'open',
  idempotencyKey: 'optional',
  body: limitChangeSchema,
  responses: {
    200: {
      description: '変更しました。',
      schema: apiSchema(
        'SelfLimitsChanged',
        z.object({ changes: z.array(limitChangeResultSchema), limits: selfLimitsSchema }),
      ),
    },
    400: badInput,
    401: unauthenticated,
    409: { description: 'キーが別の内容で使われています。', codes: ['IDEMPOTENCY_KEY_REUSED'] },
  },
  handler: async ({ services, member, body, idempotencyKey }) => {
    const result = await onceByKey(
      services.db,
      { memberId: member.id, key: idempotencyKey, operation: 'changeSelfLimits', body },
      async (tx) => {
        const done = await changeLimits(tx, member.id, body);
        const changes = done.changes.map((c) => ({ ...c, effectiveAt: c.effectiveAt.toISOString() }));
        return { status: 200, body: { changes, limits: await stateOf(tx, member.id) } };
      },
    );
    return { status: 200, body: result.body as never };
  },
});

const cancelSelfLimitChange = defineOperation({
  operationId: 'cancelSelfLimitChange',
  method: 'delete',
  path: '/me/limits/{kind}/pending',
  summary: '上限変更の予約を取り消す',
  description: '上げる・なくす変更の予約を取り消します。今かかっている上限はそのままです。',
  tags: ['limits'],
  auth: 'member',
  duringMaintenance: 'open',
  params: z.object({
    kind: z.enum(LIMIT_KINDS, { error: '上限の種類は purchase か draw を指定してください。' }),
  }),
  responses: {
    200: { description: '取り消しました。', schema: selfLimitsSchema },
    400: badInput,
    401: unauthenticated,
    409: { description: '取り消せる予約がありません。', codes: ['NO_PENDING_LIMIT_CHANGE'] },
  },
  handler: async ({ services, member, params }) => {
    const done = await cancelPendingLimit(services.db, member.id, params.kind);
    if (!done.ok) return done;
    return { status: 200, body: await stateOf(services.db, member.id) };
  },
});

const startSelfExclusion = defineOperation({
  operationId: 'startSelfExclusion',
  method: 'post',
  path: '/me/self-exclusion',
  summary: '自己除外を始める',
  description:
    '1・3・6か月のあいだ、コインの購入とガチャを止めます（最終日は日本時間で同じ日付の N か月後）。期間中は解除も短縮もできません（confirm: true で確認）。ログイン、獲得商品の発送・交換は使えます。より長い期間への延長はできます。Idempotency-Key を付けて再送すると最初の答えが返ります。',
  tags: ['limits'],
  auth: 'member',
  duringMaintenance: 'open',
  idempotencyKey: 'optional',
  body: selfExclusionSchema,
  responses: {
    201: {
      description: '自己除外を始めました。',
      schema: apiSchema(
        'SelfExclusionStarted',
        z.object({
          until: isoDateTime(),
          lastDay: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
          limits: selfLimitsSchema,
        }),
      ),
    },
    400: badInput,
    401: unauthenticated,
    409: {
      description: 'すでにより長い自己除外中です（短縮はできません）、またはキーの再利用。',
      codes: ['SELF_EXCLUSION_ALREADY_LONGER', 'IDEMPOTENCY_KEY_REUSED'],
    },
  },
  handler: async ({ services, member, body, idempotencyKey }) => {
    const result = await onceByKey(
      services.db,
      { memberId: member.id, key: idempotencyKey, operation: 'startSelfExclusion', body },
      async (tx) => {
        const done = await excludeSelf(tx, member.id, body.months);
        if (!done.ok) return done;
        return {
          status: 201,
          body: { until: done.until.toISOString(), lastDay: done.lastDay, limits: await stateOf(tx, member.id) },
        };
      },
    );
    return { status: 201, body: result.body as never };
  },
});

export const limitsOperations = [getSelfLimits, changeSelfLimits, cancelSelfLimitChange, startSelfExclusion];
