// The member page's restriction actions (members:write; decision 084): ban and unban, hold and lift, each with
// the reason category the member is told and mailed; the decision on the member's appeal (another operator
// than the one who restricted; lifting ends the hold or ban); and a fresh statement link for a banned member.
// Each is audited in its transaction by its module.
import type { ShopRequest } from '#server/context';
import { supportRulesOf } from '#server/context';
import { actionOk, actionRefused } from '~/lib/admin-action';
import { refusedBy } from '~/controllers/admin-answers.server';
import {
  banMemberAsOperator,
  clearPurchaseHoldAsOperator,
  holdMemberAsOperator,
  memberBanSchema,
  memberHoldSchema,
  resendStatementLinkAsOperator,
  unbanMemberAsOperator,
  type Operator,
} from '#modules/admin';
import {
  APPEAL_OUTCOME_LABELS,
  RESTRICTION_CATEGORY_WORDS,
  RESTRICTION_KIND_LABELS,
  restrictionsOf,
  type RestrictionKind,
} from '#modules/identity';
import { appealDecisionSchema, appealReferencesOf, decideAppealAsOperator } from '#modules/support';

export const RESTRICTION_INTENTS = ['ban', 'unban', 'hold', 'clearHold', 'appealDecide', 'restrictionLink'] as const;
export type RestrictionIntent = (typeof RESTRICTION_INTENTS)[number];

const n = (value: number) => value.toLocaleString('ja-JP');
const firstIssue = (issues: { message: string }[], form: string) =>
  actionRefused(issues[0]?.message ?? '入力を確認してください。', { form });

/** One restriction action on the member, from the member page's form fields. */
export async function restrictionAction(
  shop: ShopRequest,
  operator: Operator,
  memberId: string,
  intent: RestrictionIntent,
  text: (name: string) => string | undefined,
) {
  const { db } = shop.services;
  const { site } = supportRulesOf(shop.services);
  switch (intent) {
    case 'ban': {
      const parsed = memberBanSchema.safeParse({
        category: text('category'),
        reason: text('reason'),
        until: text('until'),
      });
      if (!parsed.success) return firstIssue(parsed.error.issues, intent);
      const done = await banMemberAsOperator(db, operator, memberId, {
        reason: parsed.data.reason,
        expiresAt: parsed.data.until,
        category: parsed.data.category,
        site,
      });
      if (!done.ok) return refusedBy(done, intent);
      return actionOk(
        `利用停止にしました（ログイン中の${n(done.value.sessionsRevoked)}件のセッションを終了しました）。理由の区分と明細のリンクを会員にメールで送りました。`,
        { form: intent },
      );
    }
    case 'unban': {
      const done = await unbanMemberAsOperator(db, operator, memberId);
      if (!done.ok) return refusedBy(done, intent);
      return actionOk(done.value.lifted ? '利用停止を解除しました。' : 'この会員は利用停止になっていません。', {
        form: intent,
      });
    }
    case 'hold': {
      const parsed = memberHoldSchema.safeParse({ category: text('category'), reason: text('reason') });
      if (!parsed.success) return firstIssue(parsed.error.issues, intent);
      const done = await holdMemberAsOperator(db, operator, memberId, parsed.data.reason, {
        category: parsed.data.category,
        site,
      });
      if (!done.ok) return refusedBy(done, intent);
      return actionOk(
        done.value.placed
          ? 'コイン購入と発送依頼を停止しました。会員には理由の区分をメールとマイページでお知らせします。'
          : 'すでに停止中です（停止の種類は変わっていません）。',
        { form: intent },
      );
    }
    case 'clearHold': {
      const done = await clearPurchaseHoldAsOperator(db, operator, memberId);
      if (!done.ok) return refusedBy(done, intent);
      return actionOk(done.value.cleared ? '購入・発送の停止を解除しました。' : '停止はされていません。', {
        form: intent,
      });
    }
    case 'appealDecide': {
      const parsed = appealDecisionSchema.safeParse({ outcome: text('outcome'), statement: text('statement') });
      if (!parsed.success) return firstIssue(parsed.error.issues, intent);
      const done = await decideAppealAsOperator(db, operator, site, text('restrictionId') ?? '', parsed.data);
      if (!done.ok) return refusedBy(done, intent);
      return actionOk(
        `異議申し立てを「${APPEAL_OUTCOME_LABELS[done.value.outcome]}」と判断しました${done.value.lifted ? '（制限を解除しました）' : ''}。結果と説明を会員にメールで送りました。`,
        { form: intent },
      );
    }
    case 'restrictionLink': {
      const done = await resendStatementLinkAsOperator(db, operator, memberId, site);
      if (!done.ok) return refusedBy(done, intent);
      return actionOk(
        '明細と異議申し立てのページへの新しいリンクを会員にメールで送りました（以前のリンクは無効になります）。',
        {
          form: intent,
        },
      );
    }
  }
}

/** A restriction as the member page lists it (the member's appeal is read on the inquiry desk). */
export interface RestrictionRow {
  id: string;
  kind: RestrictionKind;
  kindLabel: string;
  categoryLabel: string;
  startedAt: string;
  until: string | null;
  endedAt: string | null;
  inForce: boolean;
  /** Whether this operator may decide its appeal (not the one who restricted). */
  mayDecide: boolean;
  appeal: {
    inquiryId: string;
    reference: string | null;
    at: string;
    outcomeLabel: string | null;
    statement: string | null;
    decidedAt: string | null;
  } | null;
}

/** The member's restrictions, newest first, for the member page. */
export async function restrictionRowsOf(shop: ShopRequest, operator: Operator, memberId: string) {
  const { db } = shop.services;
  const restrictions = await restrictionsOf(db, memberId);
  const references = await appealReferencesOf(
    db,
    restrictions.flatMap((r) => (r.appeal ? [r.appeal.inquiryId] : [])),
  );
  return restrictions.map((r): RestrictionRow => ({
    id: r.id,
    kind: r.kind,
    kindLabel: RESTRICTION_KIND_LABELS[r.kind],
    categoryLabel: RESTRICTION_CATEGORY_WORDS[r.category].label,
    startedAt: r.startedAt.toISOString(),
    until: r.until?.toISOString() ?? null,
    endedAt: r.endedAt?.toISOString() ?? null,
    inForce: r.inForce,
    mayDecide: r.startedBy !== (operator.memberId ?? operator.label),
    appeal: r.appeal && {
      inquiryId: r.appeal.inquiryId,
      reference: references.get(r.appeal.inquiryId) ?? null,
      at: r.appeal.at.toISOString(),
      outcomeLabel: r.appeal.outcome ? APPEAL_OUTCOME_LABELS[r.appeal.outcome] : null,
      statement: r.appeal.statement,
      decidedAt: r.appeal.decidedAt?.toISOString() ?? null,
    },
  }));
}
