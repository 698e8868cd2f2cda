// Guardrails on operators' mails with presents (docs/decisions/052): a present has a most per member, the
// operator confirms the recipients counted now and the most the present can cost, the server counts again
// and asks again when the audience grew, and above a total a second admin approves (as coin adjustments,
// decision 026). Every step is one admin action of 'mail:write' with its audit entry in its transaction.
import { asc, count, eq } from 'drizzle-orm';
import type { Database } from '#db/client';
import { isUuid, refuse, RefusalError, type Refusal } from '#modules/kernel';
import { paragraph } from '#modules/content';
import { composeMail, type MailDraft } from '#modules/mailbox';
import { auditTextDigest, runAdminAction, type Operator } from './audit';
import { mailSendRequests, type MailSendStatus } from './schema';
import type { OperatorOutcome } from './operations';

/** The refusals of the mail guardrails (words in refusal-words.ts). */
export const MAIL_SEND_REFUSAL_CODES = [
  'MAIL_PRESENT_OVER_CAP',
  'MAIL_CONFIRMATION_STALE',
  'MAIL_REQUEST_NOT_FOUND',
  'MAIL_REQUEST_NOT_PENDING',
  'MAIL_REQUEST_SELF_APPROVAL',
  'MAIL_REQUEST_APPROVER_NOT_ADMIN',
  'MAIL_REQUEST_KEY_REUSED',
] as const;
export type MailSendRefusalCode = (typeof MAIL_SEND_REFUSAL_CODES)[number];

const refused = (code: MailSendRefusalCode, details: Record<string, unknown> = {}): never => {
  throw new RefusalError(refuse(code, details));
};

/** The settings: the most coins one member's present may carry, and the total above which an admin approves. */
export interface MailPresentRules {
  maxCoinsPerMember: number;
  approvalThresholdCoins: number;
}

/**
 * Counts a mail's recipients as of `at` (the composition layer knows the segments: server/mail-segments.ts).
 * Runs in the caller's transaction.
 */
export type MailRecipientCounter = (db: Database, to: MailDraft['to'], at: Date) => Promise<number>;

/** What the operator was shown and confirmed. */
export interface MailConfirmation {
  recipients: number;
  coinsPerMember: number;
}

/** The figures of a mail about to be sent: who, how many coins each, the most it can cost, and whether an admin must approve. */
export interface MailCost {
  recipients: number;
  coinsPerMember: number;
  totalCoins: number;
  needsApproval: boolean;
  approvalThresholdCoins: number;
}

/**
 * A present above the per-member most is refused (MAIL_PRESENT_OVER_CAP); otherwise the cost of sending
 * to `recipients` members.
 * @example mailCostOf(draft, 1200, { maxCoinsPerMember: 3000, approvalThresholdCoins: 100_000 }) // { totalCoins: 120000, needsApproval: true, … }
 */
export function mailCostOf(
  draft: Pick<MailDraft, 'attachment'>,
  recipients: number,
  rules: MailPresentRules,
): MailCost | Refusal<MailSendRefusalCode> {
  const coinsPerMember = draft.attachment?.coins ?? 0;
  if (coinsPerMember > rules.maxCoinsPerMember)
    return refuse('MAIL_PRESENT_OVER_CAP', { coins: coinsPerMember, cap: rules.maxCoinsPerMember });
  const totalCoins = recipients * coinsPerMember;
  return {
    recipients,
    coinsPerMember,
    totalCoins,
    needsApproval: totalCoins > rules.approvalThresholdCoins,
    approvalThresholdCoins: rules.approvalThresholdCoins,
  };
}

/** A confirmed request as the pages show it. */
export interface MailSendRequestView {
  id: string;
  status: MailSendStatus;
  subject: string;
  to: MailDraft['to'];
  sendAt: Date;
  claimUntil: Date | null;
  coinsPerMember: number;
  recipients: number;
  totalCoins: number;
  requestedBy: string | null;
  requestedLabel: string;
  requestedAt: Date;
  decidedLabel: string | null;
  mailId: number | null;
}

/** The stored draft (JSON) back as a MailDraft. */
function draftOfRow(row: typeof mailSendRequests.$inferSelect): MailDraft {
  const stored = row.draft as Omit<MailDraft, 'sendAt' | 'attachment'> & {
    sendAt: string;
    attachment: { coins: number; claimUntil: string | null } | null;
  };
  return {
    ...stored,
    sendAt: new Date(stored.sendAt),
    attachment: stored.attachment
      ? {
          coins: stored.attachment.coins,
          claimUntil: stored.attachment.claimUntil ? new Date(stored.attachment.claimUntil) : null,
        }
      : null,
  };
}

const toView = (row: typeof mailSendRequests.$inferSelect): MailSendRequestView => {
  const draft = draftOfRow(row);
  return {
    id: row.id,
    status: row.status,
    subject: row.subject,
    to: draft.to,
    sendAt: draft.sendAt,
    claimUntil: draft.attachment?.claimUntil ?? null,
    coinsPerMember: row.coinsPerMember,
    recipients: row.recipients,
    totalCoins: row.totalCoins,
    requestedBy: row.requestedBy,
    requestedLabel: row.requestedLabel,
    requestedAt: row.requestedAt,
    decidedLabel: row.decidedLabel,
    mailId: row.mailId,
  };
};

const mailTarget = (id: string) => ({ type: 'mail_send_request', id });

/** The counted figures, or a refusal when they exceed what the operator confirmed (the page asks again). */
async function checkedCost(
  tx: Database,
  draft: MailDraft,
  confirmed: MailConfirmation,
  rules: MailPresentRules,
  countRecipients: MailRecipientCounter,
  now: Date,
): Promise<MailCost> {
  const recipients = await countRecipients(tx, draft.to, now);
  const cost = mailCostOf(draft, recipients, rules);
  if ('ok' in cost) return refused(cost.code, cost.details);
  if (cost.coinsPerMember !== confirmed.coinsPerMember || cost.recipients > confirmed.recipients)
    return refused('MAIL_CONFIRMATION_STALE', {
      recipients: cost.recipients,
      coinsPerMember: cost.coinsPerMember,
      totalCoins: cost.totalCoins,
      confirmedRecipients: confirmed.recipients,
      confirmedCoinsPerMember: confirmed.coinsPerMember,
      needsApproval: cost.needsApproval,
    });
  return cost;
}

/** The audit facts of a mail: who, what, when, and its cost. */
const mailFacts = (draft: MailDraft, cost: MailCost) => ({
  to: draft.to,
  // A personal mail's subject is written to one member and may name them: the log keeps its digest
  // (decision 053); a broadcast's subject names nobody.
  subject: draft.to.audience === 'personal' ? auditTextDigest(draft.subject) : draft.subject,
  attachment: draft.attachment,
  sendAt: draft.sendAt.toISOString(),
  recipients: cost.recipients,
  coinsPerMember: cost.coinsPerMember,
  totalCoins: cost.totalCoins,
});

/**
 * Sends (or schedules) a composed mail the operator confirmed: counts the recipients again now, refuses
 * a present above the per-member most, asks again (MAIL_CONFIRMATION_STALE, with the new figures) when
 * the audience grew beyond what was confirmed or the present changed, and above the approval threshold
 * keeps it pending for another admin (`mail.request`) instead of sending (`mail.broadcast` or
 * `mail.personal`). The form's key makes a double submit one request (`replay`).
 * @example await sendMailAsOperator(db, operator, draft, { recipients: 120, coinsPerMember: 100 }, key, rules, countRecipients)
 */
export async function sendMailAsOperator(
  db: Database,
  operator: Operator,
  draft: Omit<MailDraft, 'createdBy'>,
  confirmed: MailConfirmation,
  key: string,
  rules: MailPresentRules,
  countRecipients: MailRecipientCounter,
  now = new Date(),
): Promise<OperatorOutcome<{ request: MailSendRequestView; replay: boolean }>> {
  return runAdminAction<{ request: MailSendRequestView; replay: boolean }>(db, operator, 'mail:write', async (tx) => {
    const mail: MailDraft = { ...draft, createdBy: operator.label };
    const requestKey = `${operator.memberId ?? operator.label}:${key}`;
    const [first] = await tx.select().from(mailSendRequests).where(eq(mailSendRequests.requestKey, requestKey));
    if (first) {
      if (first.subject !== mail.subject) return refused('MAIL_REQUEST_KEY_REUSED');
      return { value: { request: toView(first), replay: true }, audit: [] };
    }
    const cost = await checkedCost(tx, mail, confirmed, rules, countRecipients, now);
    const [row] = await tx
      .insert(mailSendRequests)
      .values({
        requestKey,
        draft: mail,
        subject: mail.subject,
        coinsPerMember: cost.coinsPerMember,
        recipients: cost.recipients,
        totalCoins: cost.totalCoins,
        status: cost.needsApproval ? 'pending' : 'sent',
        requestedBy: operator.memberId,
        requestedLabel: operator.label,
      })
      .onConflictDoNothing({ target: mailSendRequests.requestKey })
      .returning();
    if (!row) {
      // A double submit racing this one: it waited for the first on the key's index; the first answers.
      const [winner] = await tx.select().from(mailSendRequests).where(eq(mailSendRequests.requestKey, requestKey));
      if (!winner) return refused('MAIL_REQUEST_KEY_REUSED');
      return { value: { request: toView(winner), replay: true }, audit: [] };
    }
    const target = mailTarget(row.id);
    if (cost.needsApproval)
      return {
        value: { request: toView(row), replay: false },
        audit: {
          action: 'mail.request',
          target,
          after: { ...mailFacts(mail, cost), status: 'pending', threshold: rules.approvalThresholdCoins },
        },
      };
    const { mailId } = await composeMail(tx, mail);
    const [sent] = await tx.update(mailSendRequests).set({ mailId }).where(eq(mailSendRequests.id, row.id)).returning();
    return {
      value: { request: toView(sent!), replay: false },
      audit: {
        action: mail.to.audience === 'broadcast' ? 'mail.broadcast' : 'mail.personal',
        target: { type: 'mail', id: String(mailId) },
        after: { ...mailFacts(mail, cost), requestId: row.id },
      },
    };
  });
}

/** The pending request under its row lock, or a refusal; only another admin decides it. */
async function pendingForDecision(tx: Database, operator: Operator, requestId: string) {
  if (operator.role !== 'admin' || !operator.memberId) return refused('MAIL_REQUEST_APPROVER_NOT_ADMIN');
  if (!isUuid(requestId)) return refused('MAIL_REQUEST_NOT_FOUND');
  const [row] = await tx.select().from(mailSendRequests).where(eq(mailSendRequests.id, requestId)).for('update');
  if (!row) return refused('MAIL_REQUEST_NOT_FOUND');
  if (row.status !== 'pending') return refused('MAIL_REQUEST_NOT_PENDING', { status: row.status });
  if (row.requestedBy === operator.memberId) return refused('MAIL_REQUEST_SELF_APPROVAL');
  return row;
}

/**
 * Approves a pending mail and sends it (`mail.approve` and `mail.broadcast`/`mail.personal`), once: the
 * request row is locked, so of two admins approving at once the second finds it decided
 * (MAIL_REQUEST_NOT_PENDING). The approver confirms the figures they were shown; the recipients are
 * counted again and a grown audience asks again (MAIL_CONFIRMATION_STALE). A mail whose send time has
 * passed goes out now, and its claim deadline moves by as much (the member keeps the whole window).
 * @example await approveMailRequest(db, admin, requestId, { recipients: 1200, coinsPerMember: 100 }, rules, countRecipients)
 */
export async function approveMailRequest(
  db: Database,
  operator: Operator,
  requestId: string,
  confirmed: MailConfirmation,
  rules: MailPresentRules,
  countRecipients: MailRecipientCounter,
  now = new Date(),
): Promise<OperatorOutcome<MailSendRequestView>> {
  return runAdminAction(db, operator, 'mail:write', async (tx) => {
    const row = await pendingForDecision(tx, operator, requestId);
    const stored = draftOfRow(row);
    const late = Math.max(0, now.getTime() - stored.sendAt.getTime());
    const mail: MailDraft = {
      ...stored,
      sendAt: new Date(stored.sendAt.getTime() + late),
      attachment: stored.attachment && {
        coins: stored.attachment.coins,
        claimUntil: stored.attachment.claimUntil && new Date(stored.attachment.claimUntil.getTime() + late),
      },
    };
    const cost = await checkedCost(tx, mail, confirmed, rules, countRecipients, now);
    const { mailId } = await composeMail(tx, mail);
    const [saved] = await tx
      .update(mailSendRequests)
      .set({
        status: 'sent',
        mailId,
        decidedBy: operator.memberId,
        decidedLabel: operator.label,
        decidedAt: now,
      })
      .where(eq(mailSendRequests.id, row.id))
      .returning();
    return {
      value: toView(saved!),
      audit: [
        {
          action: 'mail.approve',
          target: mailTarget(row.id),
          before: { status: 'pending', requestedBy: row.requestedLabel, recipients: row.recipients },
          after: { status: 'sent', mailId, recipients: cost.recipients, totalCoins: cost.totalCoins },
        },
        {
          action: mail.to.audience === 'broadcast' ? 'mail.broadcast' : 'mail.personal',
          target: { type: 'mail', id: String(mailId) },
          after: { ...mailFacts(mail, cost), requestId: row.id, approvedBy: operator.label },
        },
      ],
    };
  });
}

/**
 * Rejects a pending mail (`mail.reject`): nothing is sent. Only an admin other than the requester decides.
 * @example await rejectMailRequest(db, admin, requestId, '金額が大きすぎるため')
 */
export async function rejectMailRequest(
  db: Database,
  operator: Operator,
  requestId: string,
  note: string,
  now = new Date(),
): Promise<OperatorOutcome<MailSendRequestView>> {
  return runAdminAction(db, operator, 'mail:write', async (tx) => {
    const row = await pendingForDecision(tx, operator, requestId);
    const decisionNote = note.trim().slice(0, 200) || null;
    const [saved] = await tx
      .update(mailSendRequests)
      .set({
        status: 'rejected',
        decidedBy: operator.memberId,
        decidedLabel: operator.label,
        decidedAt: now,
        decisionNote,
      })
      .where(eq(mailSendRequests.id, row.id))
      .returning();
    return {
      value: toView(saved!),
      audit: {
        action: 'mail.reject',
        target: mailTarget(row.id),
        before: { status: 'pending', requestedBy: row.requestedLabel },
        after: {
          status: 'rejected',
          subject: auditTextDigest(row.subject),
          totalCoins: row.totalCoins,
          note: auditTextDigest(decisionNote),
        },
      },
    };
  });
}

/** Mails waiting for an admin, oldest first, at most `limit` (the approvals page). */
export async function listPendingMailRequests(db: Database, limit: number): Promise<MailSendRequestView[]> {
  const rows = await db
    .select()
    .from(mailSendRequests)
    .where(eq(mailSendRequests.status, 'pending'))
    .orderBy(asc(mailSendRequests.requestedAt))
    .limit(limit);
  return rows.map(toView);
}

/** How many mails wait for an admin. */
export async function countPendingMailRequests(db: Database): Promise<number> {
  const [row] = await db.select({ n: count() }).from(mailSendRequests).where(eq(mailSendRequests.status, 'pending'));
  return Number(row?.n ?? 0);
}

/**
 * A test send of the composed mail to the operator's own mailbox (`mail.test`): the subject starts with
 * 【テスト送信】, and the present is never attached (no coins move): the body names it instead, so the
 * operator sees the whole mail without a claimable gift.
 * @example await sendTestMailAsOperator(db, operator, draft)
 */
export async function sendTestMailAsOperator(
  db: Database,
  operator: Operator,
  draft: Pick<MailDraft, 'subject' | 'body' | 'attachment'>,
  now = new Date(),
): Promise<OperatorOutcome<{ mailId: number }>> {
  // The command line has no mailbox of its own.
  if (!operator.memberId) return refuse('PERMISSION_DENIED', { permission: 'mail:write' });
  const memberId = operator.memberId;
  const present = draft.attachment
    ? [
        paragraph(
          `（テスト送信のため、プレゼント ${draft.attachment.coins.toLocaleString('ja-JP')}コイン／人 は付いていません。本番の送信では受け取りボタンが表示されます）`,
        ),
      ]
    : [];
  return runAdminAction(db, operator, 'mail:write', async (tx) => {
    const { mailId } = await composeMail(tx, {
      to: { audience: 'personal', memberId },
      subject: `【テスト送信】${draft.subject}`.slice(0, 120),
      body: [...present, ...draft.body],
      attachment: null,
      sendAt: now,
      createdBy: operator.label,
    });
    return {
      value: { mailId },
      audit: {
        action: 'mail.test',
        target: { type: 'mail', id: String(mailId) },
        after: {
          to: memberId,
          subject: auditTextDigest(draft.subject),
          presentShownNotAttached: draft.attachment?.coins ?? null,
        },
      },
    };
  });
}
