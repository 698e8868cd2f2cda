// /admin/promo-codes: 特典コード for operators (docs/decisions/032): a single code, a batch of N random
// codes, the list with usage counts, deactivation, and a batch's CSV. Every change goes through the
// admin module's runAdminAction with 'promo:write' (audited in the same transaction); the CSV is audited
// as an export before it leaves.
import { randomUUID } from 'node:crypto';
import { data } from 'react-router';
import { z } from 'zod';
import type { ShopRequest } from '#server/context';
import { actionOk, actionRefused, type AdminActionResult } from '~/lib/admin-action';
import { requireOperator } from '~/controllers/admin.server';
import { readFormFields, UNREADABLE_FORM_MESSAGE } from '~/controllers/forms.server';
import { describeRefusal, type RefusalCode } from '#modules/refusals';
import { runAdminAction } from '#modules/admin';
import { jstText, parseJstDateTime, RefusalError, type Refusal } from '#modules/kernel';
import { RANKS, rankName } from '#modules/progression';
import {
  createPromoBatch,
  createPromoCode,
  deactivatePromoCode,
  listPromoCodes,
  MAX_BATCH_SIZE,
  promoBatchCsv,
  type PromoCodeTerms,
} from '#modules/promo';

export const PROMO_ADMIN_PATH = '/admin/promo-codes';

interface PromoExtra {
  /** The batch just made: its id for the CSV link and how many codes. */
  batch: { id: string; count: number };
}
/** The promo codes page's answer (decision 067), with the batch just made. */
export type PromoAdminActionData = AdminActionResult<PromoExtra>;

const optionalInt = (label: string, min: number, max: number) =>
  z
    .string()
    .optional()
    .transform((typed, ctx) => {
      const v = (typed ?? '').trim();
      if (v === '') return null;
      const n = Number(v);
      if (!Number.isSafeInteger(n) || n < min || n > max) {
        ctx.addIssue({ code: 'custom', message: `${label}は${min}〜${max}の整数で入力してください。` });
        return z.NEVER;
      }
      return n;
    });

const termsSchema = z
  .object({
    label: z
      .string()
      .default('')
      .transform((v) => v.trim())
      .pipe(
        z.string().min(1, 'キャンペーン名を入力してください。').max(60, 'キャンペーン名は60文字以内にしてください。'),
      ),
    coins: optionalInt('付与コイン', 1, 1_000_000),
    startsAt: z.string().default(''),
    endsAt: z.string().default(''),
    maxRedemptions: optionalInt('利用上限', 1, 10_000_000),
    newMemberDays: optionalInt('新規会員の日数', 1, 3650),
    minRank: optionalInt('最低ランク', 0, RANKS.at(-1)!.rank),
  })
  .transform((v, ctx): PromoCodeTerms => {
    const startsAt = parseJstDateTime(v.startsAt);
    const endsAt = parseJstDateTime(v.endsAt);
    if (v.coins === null) ctx.addIssue({ code: 'custom', message: '付与コインを入力してください。' });
    if (!startsAt || !endsAt)
      ctx.addIssue({ code: 'custom', message: '開始・終了の日時を入力してください（日本時間）。' });
    else if (endsAt <= startsAt) ctx.addIssue({ code: 'custom', message: '終了日時は開始日時より後にしてください。' });
    return {
      label: v.label,
      coins: v.coins ?? 0,
      startsAt: startsAt ?? new Date(0),
      endsAt: endsAt ?? new Date(0),
      maxRedemptions: v.maxRedemptions,
      newMemberDays: v.newMemberDays,
      minRank: v.minRank === 0 ? null : v.minRank,
    };
  });

export async function promoCodesLoader(shop: ShopRequest, request: Request) {
  await requireOperator(shop, request, 'promo:write');
  const codes = await listPromoCodes(shop.services.db, { limit: 300 });
  const now = new Date();
  return {
    maxBatch: MAX_BATCH_SIZE,
    ranks: RANKS.map((r) => ({ rank: r.rank, name: r.name })),
    codes: codes.map((c) => ({
      id: c.id,
      code: c.code,
      batchId: c.batchId,
      label: c.label,
      coins: c.coins,
      window: `${jstText(c.startsAt)}〜${jstText(c.endsAt)}`,
      used: c.redeemedCount,
      cap: c.maxRedemptions,
      conditions: [
        c.newMemberDays !== null ? `登録${c.newMemberDays}日以内` : null,
        c.minRank !== null ? `${rankName(c.minRank)}以上` : null,
      ]
        .filter(Boolean)
        .join('・'),
      state: !c.active ? '停止' : now < c.startsAt ? '開始前' : now >= c.endsAt ? '終了' : '受付中',
      active: c.active,
    })),
  };
}

const fail = (error: string, status: number) => actionRefused(error, { status });

export async function promoCodesAction(shop: ShopRequest, request: Request) {
  const operator = await requireOperator(shop, request, 'promo:write');
  const form = await readFormFields(request);
  if (!form) return fail(UNREADABLE_FORM_MESSAGE, 400);
  const { db } = shop.services;
  const refused = (r: Refusal<string>) => {
    const described = describeRefusal(r as Refusal<RefusalCode>);
    return fail(described.message, described.status);
  };

  if (form.intent === 'deactivate') {
    const id = Number(form.id);
    if (!Number.isSafeInteger(id) || id < 1) return fail('停止するコードを選び直してください。', 400);
    const done = await runAdminAction(db, operator, 'promo:write', async (tx) => {
      const stopped = await deactivatePromoCode(tx, { id });
      if (!stopped.ok) throw new RefusalError(stopped);
      return {
        value: stopped.count,
        audit: { action: 'promo.deactivate', target: { type: 'promo_code', id: String(id) } },
      };
    });
    if (!done.ok) return refused(done);
    return actionOk('特典コードを停止しました。');
  }

  if (form.intent !== 'create' && form.intent !== 'batch') return fail('操作を選び直してください。', 400);
  const parsed = termsSchema.safeParse(form);
  if (!parsed.success) return fail(parsed.error.issues[0]?.message ?? '入力を確認してください。', 400);
  const terms = parsed.data;

  if (form.intent === 'create') {
    const done = await runAdminAction(db, operator, 'promo:write', async (tx) => {
      const made = await createPromoCode(tx, { ...terms, code: form.code ?? '', createdBy: operator.label });
      if (!made.ok) throw new RefusalError(made);
      return {
        value: made.code,
        audit: {
          action: 'promo.create',
          target: { type: 'promo_code', id: String(made.id) },
          after: { ...terms, code: made.code },
        },
      };
    });
    if (!done.ok) return refused(done);
    return actionOk(`特典コード ${done.value} を登録しました。`);
  }

  const count = Number(form.count);
  if (!Number.isSafeInteger(count) || count < 1 || count > MAX_BATCH_SIZE)
    return fail(`発行数は1〜${MAX_BATCH_SIZE}の整数で入力してください。`, 400);
  const batchId = randomUUID();
  const done = await runAdminAction(db, operator, 'promo:write', async (tx) => {
    const batch = await createPromoBatch(tx, { ...terms, count, batchId, createdBy: operator.label });
    return {
      value: batch.codes.length,
      audit: { action: 'promo.batch', target: { type: 'promo_batch', id: batchId }, after: { ...terms, count } },
    };
  });
  if (!done.ok) return refused(done);
  return actionOk<PromoExtra>(`特典コードを${done.value}件発行しました。CSVでダウンロードできます。`, {
    batch: { id: batchId, count: done.value },
  });
}

/** /admin/promo-codes/batch.csv?id=…: a batch's codes, audited as 'promo.export' before they leave. */
export async function promoBatchCsvLoader(shop: ShopRequest, request: Request) {
  const operator = await requireOperator(shop, request, 'promo:write');
  const batchId = new URL(request.url).searchParams.get('id') ?? '';
  if (!z.uuid().safeParse(batchId).success) throw data('バッチを選び直してください。', { status: 400 });
  const { db } = shop.services;
  const csv = await promoBatchCsv(db, batchId);
  if (csv.split('\r\n').length <= 2) throw data('このバッチは見つかりません。', { status: 404 });
  const recorded = await runAdminAction(db, operator, 'promo:write', async () => ({
    value: null,
    audit: { action: 'promo.export', target: { type: 'promo_batch', id: batchId } },
  }));
  if (!recorded.ok) throw data('この操作を行う権限がありません。', { status: 403 });
  return new Response(`\uFEFF${csv}`, {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="promo-codes-${batchId.slice(0, 8)}.csv"`,
      'cache-control': 'no-store',
    },
  });
}
