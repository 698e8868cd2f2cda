// The desk's answers and changes to an inquiry: an answer (mailed to the inquirer), status, assignee and the
// internal note, each through runAdminAction ('inquiries:write') with its audit entry.
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '#db/client';
import { auditTextDigest, listStaff, runAdminAction, type Operator } from '#modules/admin';
import { refuse, RefusalError } from '#modules/kernel';
import type { SupportRules } from './inquiries';
import { notifyInquirer } from './notices';
import { inquiries, inquiryMessages, inquiryStatuses, type InquiryStatus } from './schema';
import { INQUIRY_LIMITS } from './words';
import { auditOf, lockOrRefuse, type DeskOutcome } from './desk';

/** An answer: its text and the status the inquiry takes after it (waiting for the inquirer by default). */
export const inquiryReplySchema = z.object({
  body: z
    .string({ error: '回答を入力してください。' })
    .trim()
    .min(1, '回答を入力してください。')
    .max(INQUIRY_LIMITS.reply, `回答は${INQUIRY_LIMITS.reply.toLocaleString('ja-JP')}文字以内で入力してください。`),
  status: z.enum(inquiryStatuses, { error: '回答後の状態を選び直してください。' }).default('waiting'),
});
export type InquiryReply = z.output<typeof inquiryReplySchema>;

/**
 * Answers an inquiry: the answer joins the thread, the inquiry takes the chosen status (and the operator
 * as its assignee when it had none), and the inquirer is told (notices.ts: a mail until the mailbox).
 * @example await replyToInquiry(db, operator, rules, inquiryId, { body: 'ご連絡ありがとうございます。…', status: 'waiting' })
 */
export async function replyToInquiry(
  db: Database,
  operator: Operator,
  rules: Pick<SupportRules, 'site'>,
  inquiryId: string,
  reply: InquiryReply,
  now = new Date(),
): DeskOutcome<{ messageId: number; status: InquiryStatus }> {
  return runAdminAction(db, operator, 'inquiries:write', async (tx) => {
    const before = await lockOrRefuse(tx, inquiryId);
    const [message] = await tx
      .insert(inquiryMessages)
      .values({
        inquiryId: before.id,
        author: 'staff',
        staffId: operator.memberId ?? operator.label,
        body: reply.body,
        at: now,
      })
      .returning({ id: inquiryMessages.id });
    const [after] = await tx
      .update(inquiries)
      .set({ status: reply.status, assigneeId: before.assigneeId ?? operator.memberId, updatedAt: now })
      .where(eq(inquiries.id, before.id))
      .returning();
    await notifyInquirer(
      tx,
      rules.site,
      { email: before.email, memberId: before.memberId },
      { kind: 'answered', reference: before.reference, reply: reply.body },
    );
    return {
      value: { messageId: message!.id, status: after!.status },
      // The answer is kept as its digest: its message row is the record, and 退会 redacts it (decision 053).
      audit: auditOf('inquiry.reply', before, after!, { messageId: message!.id, reply: auditTextDigest(reply.body) }),
    };
  });
}

/** A change of status and assignee (an empty assignee: nobody). */
export const inquiryUpdateSchema = z.object({
  status: z.enum(inquiryStatuses, { error: '状態を選び直してください。' }),
  assigneeId: z
    .string()
    .trim()
    .max(100)
    .optional()
    .transform((v) => v || null),
});

/** Staff who may be assigned: admins and staff holding 'inquiries:read'. */
export async function inquiryAssignees(db: Database): Promise<{ id: string; name: string; email: string }[]> {
  const staff = await listStaff(db);
  return staff
    .filter((s) => !s.deleted && s.permissions.includes('inquiries:read'))
    .map((s) => ({ id: s.id, name: s.name, email: s.email }));
}

/**
 * Sets an inquiry's status and assignee (a staff member who may read inquiries, or nobody).
 * @example await updateInquiry(db, operator, inquiryId, { status: 'in_progress', assigneeId: operator.memberId })
 */
export async function updateInquiry(
  db: Database,
  operator: Operator,
  inquiryId: string,
  change: z.output<typeof inquiryUpdateSchema>,
  now = new Date(),
): DeskOutcome<{ status: InquiryStatus; assigneeId: string | null }> {
  return runAdminAction(db, operator, 'inquiries:write', async (tx) => {
    const before = await lockOrRefuse(tx, inquiryId);
    if (change.assigneeId && change.assigneeId !== before.assigneeId) {
      const allowed = await inquiryAssignees(tx);
      if (!allowed.some((s) => s.id === change.assigneeId))
        throw new RefusalError(refuse('INQUIRY_ASSIGNEE_INVALID', { assigneeId: change.assigneeId }));
    }
    const [after] = await tx
      .update(inquiries)
      .set({ status: change.status, assigneeId: change.assigneeId, updatedAt: now })
      .where(eq(inquiries.id, before.id))
      .returning();
    const changed = before.status !== after!.status || before.assigneeId !== after!.assigneeId;
    return {
      value: { status: after!.status, assigneeId: after!.assigneeId },
      audit: changed ? auditOf('inquiry.update', before, after!) : [],
    };
  });
}

/** The internal note (empty clears it). */
export const inquiryNoteSchema = z.object({
  note: z
    .string()
    .max(INQUIRY_LIMITS.note, `メモは${INQUIRY_LIMITS.note.toLocaleString('ja-JP')}文字以内で入力してください。`)
    .transform((v) => v.trim() || null),
});

/** @example await setInquiryNote(db, operator, inquiryId, '返金済み。次回は担当: 佐藤') */
export async function setInquiryNote(
  db: Database,
  operator: Operator,
  inquiryId: string,
  note: string | null,
  now = new Date(),
): DeskOutcome<{ internalNote: string | null }> {
  return runAdminAction(db, operator, 'inquiries:write', async (tx) => {
    const before = await lockOrRefuse(tx, inquiryId);
    const [after] = await tx
      .update(inquiries)
      .set({ internalNote: note, updatedAt: now })
      .where(eq(inquiries.id, before.id))
      .returning();
    return { value: { internalNote: after!.internalNote }, audit: auditOf('inquiry.note', before, after!) };
  });
}
