// Self-limits on the pages (docs/decisions/035): /mypage/settings/limits (its loader and actions), and the
// summary the shop, the pack page and /mypage show (this month's use, the 80 % reminder, an exclusion).
// The rules live in modules/limits; the month's use is server/self-limits.ts's.
import { data, redirect } from 'react-router';
import type { ShopRequest } from '#server/context';
import { signInPathFor } from '#modules/kernel/navigation';
import { visitorAnswer } from '~/controllers/members-only.server';
import { readFormFields, UNREADABLE_FORM_MESSAGE } from './forms.server';
import {
  cancelPendingLimit,
  changeLimits,
  excludeSelf,
  exclusionEndFor,
  exclusionLastDay,
  EXCLUSION_MONTHS,
  LIMIT_MAX,
  limitChangeSchema,
  limitKindSchema,
  RAISE_WAIT_DAYS,
  selfExclusionSchema,
  type LimitChangeResult,
  type LimitsRefusalCode,
} from '#modules/limits';
import { limitsViewOf, selfLimitStateOf, type SelfLimitSummary } from '#server/context';
import { describeRefusal } from '#modules/refusals';
import { parseWithMessage } from '#modules/kernel';
import { formatMemberDateTime } from '#modules/kernel/dates';
import type { Refusal } from '#modules/kernel';

export type { SelfLimitSummary };

/** The summary for a signed-in member (null for a visitor): what /shop, the pack page and /mypage show. */
export async function selfLimitSummaryOf(shop: ShopRequest): Promise<SelfLimitSummary | null> {
  if (!shop.member) return null;
  return (await selfLimitStateOf(shop.services.db, shop.member.id)).summary;
}

export async function limitsPageLoader(shop: ShopRequest, request: Request) {
  if (!shop.member) throw visitorAnswer(request);
  const now = new Date();
  const { limits, summary } = await selfLimitStateOf(shop.services.db, shop.member.id, now);
  return {
    limits: limitsViewOf(limits),
    summary,
    waitDays: RAISE_WAIT_DAYS,
    // Each length with the last day it would cover if chosen now (the confirmation sheet says it).
    exclusionChoices: EXCLUSION_MONTHS.map((months) => ({
      months,
      lastDay: exclusionLastDay(exclusionEndFor(now, months)),
    })),
    max: LIMIT_MAX,
  };
}

export type LimitsActionData =
  { ok: true; message: string; intent: string } | { ok: false; message: string; intent: string; field?: string };

/** A typed amount: full-width digits, commas, ¥ and 円 are accepted (１０，０００円 is 10000); blank is null. */
export function parseLimitAmount(text: string | undefined): number | null | undefined {
  const cleaned = (text ?? '').normalize('NFKC').replace(/[,\s¥￥円]|コイン/g, '');
  if (cleaned === '') return undefined;
  return /^-?\d{1,12}$/.test(cleaned) ? Number(cleaned) : Number.NaN;
}

const dayText = (day: string) => {
  const [y, m, d] = day.split('-').map(Number);
  return `${y}年${m}月${d}日`;
};
const KIND_LABEL = { purchase: '購入上限', draw: 'ガチャ消費上限' } as const;
const amountText = (kind: 'purchase' | 'draw', value: number | null) =>
  value === null
    ? '上限なし'
    : kind === 'purchase'
      ? `¥${value.toLocaleString('ja-JP')}`
      : `${value.toLocaleString('ja-JP')}コイン`;

/** What a change did, in the member's words. */
export function changeMessage(change: LimitChangeResult): string {
  const label = KIND_LABEL[change.kind];
  if (change.applied === 'unchanged') return `${label}は変わっていません（${amountText(change.kind, change.value)}）。`;
  if (change.applied === 'now')
    return `${label}を${amountText(change.kind, change.value)}にしました。すぐに反映されます。`;
  return `${label}を${amountText(change.kind, change.value)}に変更する予約をしました。${formatMemberDateTime(change.effectiveAt)}に反映されます（上限を上げる・なくす変更は${RAISE_WAIT_DAYS}日後）。`;
}

/**
 * The page's forms: intent=change (kind, amount; blank removes the limit), intent=cancel (kind), and
 * intent=exclude (months, confirm=yes from the confirmation sheet). Each answers its Japanese words.
 */
export async function limitsPageAction(shop: ShopRequest, request: Request) {
  if (!shop.member) throw redirect(signInPathFor(new URL(request.url).pathname));
  const memberId = shop.member.id;
  const { db } = shop.services;
  const form = await readFormFields(request);
  const refused = (intent: string, message: string, status = 400, field?: string) =>
    data<LimitsActionData>({ ok: false, intent, message, field }, { status });
  // A module's refusal in its catalogue words and status.
  const refusedBy = (intent: string, refusal: Refusal<LimitsRefusalCode>) => {
    const words = describeRefusal(refusal);
    return refused(intent, words.message, words.status);
  };
  if (!form) return refused('unknown', UNREADABLE_FORM_MESSAGE);
  const intent = form.intent ?? '';
  if (intent === 'change' || intent === 'remove') {
    const kind = limitKindSchema.safeParse(form.kind);
    if (!kind.success) return refused(intent, '上限の種類が正しくありません。');
    const amount = intent === 'remove' ? null : parseLimitAmount(form.amount);
    if (amount === undefined) return refused(intent, '上限の金額を入力してください。', 400, kind.data);
    const key = kind.data === 'purchase' ? 'purchaseLimitJpy' : 'drawLimitCoins';
    const parsed = parseWithMessage(limitChangeSchema, { [key]: amount });
    if (!parsed.ok) return refused(intent, parsed.message, 400, kind.data);
    const done = await changeLimits(db, memberId, parsed.data);
    return data<LimitsActionData>({ ok: true, intent, message: changeMessage(done.changes[0]!) });
  }
  if (intent === 'cancel') {
    const kind = limitKindSchema.safeParse(form.kind);
    if (!kind.success) return refused(intent, '上限の種類が正しくありません。');
    const done = await cancelPendingLimit(db, memberId, kind.data);
    if (!done.ok) return refusedBy(intent, done);
    return data<LimitsActionData>({
      ok: true,
      intent,
      message: `${KIND_LABEL[kind.data]}の変更予約を取り消しました。`,
    });
  }
  if (intent === 'exclude') {
    if (form.confirm !== 'yes') {
      return refused(intent, '期間中は解除・短縮できないことを確認し、チェックを入れてください。', 400, 'confirm');
    }
    const parsed = parseWithMessage(selfExclusionSchema, {
      months: Number(form.months),
      confirm: form.confirm === 'yes' ? true : undefined,
    });
    if (!parsed.ok) return refused(intent, parsed.message);
    const done = await excludeSelf(db, memberId, parsed.data.months);
    if (!done.ok) return refusedBy(intent, done);
    return data<LimitsActionData>({
      ok: true,
      intent,
      message: `自己除外を設定しました。${dayText(done.lastDay)}まで、コインの購入とガチャはできません。`,
    });
  }
  return refused(intent || 'unknown', '操作を選んでください。');
}
