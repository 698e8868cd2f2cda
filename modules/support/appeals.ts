// Appeals against an account restriction (issue 34 item 6, decision 084). The member sends one appeal per
// restriction, from their statement (a held member's mypage, or a banned member's statement link); it is an
// inquiry of category 'appeal' on the contact desk, and the restriction records it once. Another operator
// than the one who restricted decides: the decision (continue or lift, with a statement to the member) is
// recorded once on the restriction, lifts the hold or ban when so decided, answers and closes the inquiry,
// mails the member and is audited (`member.appeal.decide`), all in one transaction.
import { eq, inArray } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '#db/client';
import { auditTextDigest, runAdminAction, type Operator } from '#modules/admin';
import {
  APPEAL_OUTCOME_LABELS,
  APPEAL_STATEMENT_MAX,
  RESTRICTION_KIND_LABELS,
  STANDING_PAGE_PATH,
  appealOutcomes,
  lockRestriction,
  recordAppeal,
  recordAppealDecision,
  renewStatementLink,
  staffAccountOf,
  statementLinkPath,
  unbanMember,
  type AppealOutcome,
  type Restriction,
} from '#modules/identity';
import { refuse, RefusalError, type Refusal } from '#modules/kernel';
import { refundLinkUntil } from '#modules/shop';
import { queueMail, type SiteIdentity } from '#modules/messaging';
import { clearPurchaseHold } from '#modules/payments';
import { insertInquiry } from './inquiries';
import { notifyInquirer } from './notices';
import { inquiries, inquiryMessages } from './schema';
import { INQUIRY_LIMITS } from './words';

export const APPEAL_REFUSAL_CODES = ['APPEAL_NOT_FOUND', 'APPEAL_ALREADY_SENT', 'APPEAL_WINDOW_CLOSED'] as const;
export type AppealRefusalCode = (typeof APPEAL_REFUSAL_CODES)[number];

/** The member's appeal: why the restriction is wrong, in their words. */
export const appealInputSchema = z.object({
  message: z
    .string({ error: '異議の内容を入力してください。' })
    .trim()
    .min(1, '異議の内容を入力してください。')
    .max(
      INQUIRY_LIMITS.message,
      `異議の内容は${INQUIRY_LIMITS.message.toLocaleString('ja-JP')}文字以内で入力してください。`,
    ),
});

const refused = (code: AppealRefusalCode, details: Record<string, unknown> = {}): never => {
  throw new RefusalError(refuse(code, details));
};

/**
 * Sends the member's appeal against their restriction: an inquiry (category appeal) with the member's words
 * and the usual acknowledgement mail, recorded on the restriction once. The restriction must be the member's
 * own, in force, and within its appeal window.
 * @example const sent = await submitAppeal(db, site, { memberId, restrictionId, message: '…' })
 */
export async function submitAppeal(
  db: Database,
  site: SiteIdentity,
  request: { memberId: string; restrictionId: string; message: string; now?: Date },
): Promise<{ ok: true; reference: string } | Refusal<AppealRefusalCode>> {
  const now = request.now ?? new Date();
  try {
    const reference = await db.transaction(async (tx) => {
      const restriction = await lockRestriction(tx, request.restrictionId, now);
      // Someone else's restriction is answered as a missing one.
      if (!restriction || restriction.memberId !== request.memberId || !restriction.inForce)
        return refused('APPEAL_NOT_FOUND');
      if (restriction.appeal) {
        const [sent] = await tx
          .select({ reference: inquiries.reference })
          .from(inquiries)
          .where(eq(inquiries.id, restriction.appeal.inquiryId));
        return refused('APPEAL_ALREADY_SENT', { reference: sent?.reference ?? null });
      }
      if (now.getTime() > restriction.appealUntil.getTime()) return refused('APPEAL_WINDOW_CLOSED');
      const account = await staffAccountOf(tx, request.memberId);
      if (!account || account.deleted) return refused('APPEAL_NOT_FOUND');
      const made = await insertInquiry(tx, {
        input: {
          email: account.email,
          category: 'appeal',
          subject: `${RESTRICTION_KIND_LABELS[restriction.kind]}への異議申し立て`,
          related: undefined,
        },
        memberId: request.memberId,
        now,
      });
      await tx
        .insert(inquiryMessages)
        .values({ inquiryId: made.id, author: 'inquirer', body: request.message, at: now });
      await recordAppeal(tx, restriction.id, made.id, now);
      await notifyInquirer(
        tx,
        site,
        { email: account.email, memberId: request.memberId },
        { kind: 'received', reference: made.reference, category: 'appeal' },
      );
      return made.reference;
    });
    return { ok: true, reference };
  } catch (error) {
    if (error instanceof RefusalError) return error.refusal as Refusal<AppealRefusalCode>;
    throw error;
  }
}

/** The operator's decision on an appeal: continue or lift, and what the member is told. */
export const appealDecisionSchema = z.object({
  outcome: z.enum(appealOutcomes, { error: '判断（継続・解除）を選んでください。' }),
  statement: z
    .string({ error: '会員への説明を入力してください。' })
    .trim()
    .min(1, '会員への説明を入力してください。')
    .max(APPEAL_STATEMENT_MAX, `説明は${APPEAL_STATEMENT_MAX.toLocaleString('ja-JP')}文字以内で入力してください。`),
});
export type AppealDecision = z.output<typeof appealDecisionSchema>;

const absolute = (site: SiteIdentity, path: string) => `${site.origin.replace(/\/$/, '')}${path}`;

/**
 * Decides a member's appeal (`member.appeal.decide`), once: refused when there is none waiting
 * (APPEAL_NOT_OPEN) or when the operator is the one who restricted (APPEAL_SAME_OPERATOR). Lifting ends the
 * ban or the operator's hold in the same transaction; the appeal's inquiry gets the statement as the staff's
 * answer and is closed; the member is mailed the outcome with the statement.
 * @example await decideAppealAsOperator(db, operator, site, restrictionId, { outcome: 'lifted', statement: '…' })
 */
export async function decideAppealAsOperator(
  db: Database,
  operator: Operator,
  site: SiteIdentity,
  restrictionId: string,
  decision: AppealDecision,
  now = new Date(),
): Promise<{ ok: true; value: { outcome: AppealOutcome; lifted: boolean } } | Refusal<string>> {
  return runAdminAction(db, operator, 'members:write', async (tx) => {
    const restriction = await lockRestriction(tx, restrictionId, now);
    if (!restriction) throw new RefusalError(refuse('RESTRICTION_NOT_FOUND', { restrictionId }));
    if (!restriction.appeal || restriction.appeal.outcome)
      throw new RefusalError(refuse('APPEAL_NOT_OPEN', { outcome: restriction.appeal?.outcome ?? null }));
    const by = operator.memberId ?? operator.label;
    if (restriction.startedBy === by) throw new RefusalError(refuse('APPEAL_SAME_OPERATOR'));
    const decided = (await recordAppealDecision(tx, restriction.id, { ...decision, by }, now))!;
    const lifted = decision.outcome === 'lifted' && restriction.inForce && (await lift(tx, restriction));
    await answerAppeal(tx, operator, restriction.appeal.inquiryId, decision.statement, now);
    await mailDecision(tx, site, decided, decision);
    return {
      value: { outcome: decision.outcome, lifted },
      audit: {
        action: 'member.appeal.decide',
        target: { type: 'member', id: restriction.memberId },
        before: { restrictionId: restriction.id, kind: restriction.kind, inForce: restriction.inForce, outcome: null },
        after: {
          restrictionId: restriction.id,
          outcome: decision.outcome,
          statement: auditTextDigest(decision.statement),
          lifted,
          inquiryId: restriction.appeal.inquiryId,
        },
      },
    };
  });
}

/** Ends the hold or ban itself (the restriction row was ended by the decision). */
async function lift(tx: Database, restriction: Restriction): Promise<boolean> {
  if (restriction.kind === 'ban') return Boolean((await unbanMember(tx, restriction.memberId))?.before.banned);
  return clearPurchaseHold(tx, restriction.memberId);
}

async function answerAppeal(tx: Database, operator: Operator, inquiryId: string, statement: string, now: Date) {
  await tx.insert(inquiryMessages).values({
    inquiryId,
    author: 'staff',
    staffId: operator.memberId ?? operator.label,
    body: statement,
    at: now,
  });
  await tx
    .update(inquiries)
    .set({ status: 'closed', assigneeId: operator.memberId, updatedAt: now })
    .where(eq(inquiries.id, inquiryId));
}

async function mailDecision(tx: Database, site: SiteIdentity, decided: Restriction, decision: AppealDecision) {
  const account = await staffAccountOf(tx, decided.memberId);
  if (!account || account.deleted) return;
  // A ban that goes on has no session to read the statement with: a fresh link comes with the outcome.
  const stillBanned = decided.kind === 'ban' && decision.outcome === 'upheld' && decided.inForce;
  const token = stillBanned ? await renewStatementLink(tx, decided.id, new Date(), await refundLinkUntil(tx)) : null;
  await queueMail(tx, site, {
    to: account.email,
    template: 'appeal-decided',
    vars: {
      outcome: APPEAL_OUTCOME_LABELS[decision.outcome],
      statement: decision.statement,
      url: absolute(site, token ? statementLinkPath(token) : STANDING_PAGE_PATH),
    },
    memberId: decided.memberId,
  });
}

/**
 * The reference numbers of appeal inquiries, for the member's statement (受付番号).
 * @example (await appealReferencesOf(db, [inquiryId])).get(inquiryId) // 'Q-20261201-8K3F'
 */
export async function appealReferencesOf(db: Database, inquiryIds: string[]): Promise<Map<string, string>> {
  if (inquiryIds.length === 0) return new Map();
  const rows = await db
    .select({ id: inquiries.id, reference: inquiries.reference })
    .from(inquiries)
    .where(inArray(inquiries.id, inquiryIds));
  return new Map(rows.map((r) => [r.id, r.reference]));
}
