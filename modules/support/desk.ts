// The operators' side of inquiries (/admin/inquiries): the list with counts per status and filters,
// one inquiry with its thread, images and related item (each view audited as 'inquiry.view'), answers
// (mailed to the inquirer), status, assignee, the internal note, and the reply templates. Every change
// goes through runAdminAction ('inquiries:write'): the change and its audit entry commit together.
import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, ilike, isNull, or, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '#db/client';
import { auditTextDigest, listStaff, runAdminAction, type AuditRecord, type Operator } from '#modules/admin';
import { isUuid, refuse, RefusalError, type Refusal } from '#modules/kernel';
import { attachmentFile } from './images';
import { describeRelated, type SupportRules } from './inquiries';
import { notifyInquirer } from './notices';
import {
  inquiries,
  inquiryAttachments,
  inquiryCategories,
  inquiryMessages,
  inquiryReplyTemplates,
  inquiryStatuses,
  type InquiryAuthor,
  type InquiryCategory,
  type InquiryRelatedKind,
  type InquiryStatus,
} from './schema';
import { INQUIRY_LIMITS, readInquiryReference } from './words';

type InquiryRow = typeof inquiries.$inferSelect;
type DeskOutcome<T> = Promise<{ ok: true; value: T } | Refusal<string>>;

const denied = (permission: string) => refuse('PERMISSION_DENIED', { permission });

/**
 * The audit entry's picture of an inquiry: what the desk changes, never the inquirer's text, and the
 * internal note as a digest (staff may quote the member; the note's row is what 退会 redacts, decision 053).
 */
const auditState = (row: InquiryRow) => ({
  status: row.status,
  assigneeId: row.assigneeId,
  internalNote: auditTextDigest(row.internalNote),
});
const auditOf = (action: string, before: InquiryRow, after: InquiryRow, extra: object = {}): AuditRecord => ({
  action,
  target: { type: 'inquiry', id: before.id },
  before: auditState(before),
  after: { ...auditState(after), ...extra },
});

async function lockOrRefuse(tx: Database, inquiryId: string): Promise<InquiryRow> {
  const [row] = isUuid(inquiryId)
    ? await tx.select().from(inquiries).where(eq(inquiries.id, inquiryId)).for('update')
    : [];
  if (!row) throw new RefusalError(refuse('INQUIRY_NOT_FOUND', { inquiryId }));
  return row;
}

// ── The list ─────────────────────────────────────────────────────────────────────────────────────

/** An optional filter: an empty field is no filter; anything else must pass `schema` (its own words). */
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === '' ? undefined : value), schema.optional());

/** The list's filters (the page's query string): `assignee` is a staff id, `me` or `none`. */
export const inquiryFilterSchema = z.object({
  status: optional(z.enum(inquiryStatuses, { error: '状態を選び直してください。' })),
  category: optional(z.enum(inquiryCategories, { error: '種類を選び直してください。' })),
  assignee: optional(z.string().trim().max(100)),
  /** A reference number, an email address (or part of one), or words of the subject. */
  q: optional(z.string().trim().max(200)),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});
export type InquiryFilter = z.output<typeof inquiryFilterSchema>;

export interface InquiryListItem {
  id: string;
  reference: string;
  category: InquiryCategory;
  status: InquiryStatus;
  subject: string;
  email: string;
  memberId: string | null;
  assigneeId: string | null;
  createdAt: string;
  updatedAt: string;
  /** Messages in the thread (the first is the inquiry itself). */
  messages: number;
  /** Who wrote last: the inquirer (waiting for us) or the staff. */
  lastAuthor: InquiryAuthor;
}

export interface InquiryList {
  items: InquiryListItem[];
  /** Inquiries per status with the other filters applied (not the status filter). */
  counts: Record<InquiryStatus, number>;
  page: number;
  hasNext: boolean;
}

export const INQUIRY_PAGE_SIZE = 50;

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The desk's list: open inquiries first (new, in progress, waiting), then newest first; filters and
 * the count of each status. Needs 'inquiries:read'.
 * @example const list = await listInquiries(db, operator, inquiryFilterSchema.parse({ status: 'new' }))
 */
export async function listInquiries(
  db: Database,
  operator: Operator,
  filter: InquiryFilter,
): Promise<{ ok: true; list: InquiryList } | Refusal<string>> {
  if (!operator.permissions.has('inquiries:read')) return denied('inquiries:read');
  const common: SQL[] = [];
  if (filter.category) common.push(eq(inquiries.category, filter.category));
  if (filter.assignee === 'none') common.push(isNull(inquiries.assigneeId));
  else if (filter.assignee === 'me') common.push(eq(inquiries.assigneeId, operator.memberId ?? ''));
  else if (filter.assignee) common.push(eq(inquiries.assigneeId, filter.assignee));
  if (filter.q) {
    const reference = readInquiryReference(filter.q);
    if (reference) common.push(eq(inquiries.reference, reference));
    else {
      const like = `%${escapeLike(filter.q)}%`;
      common.push(or(ilike(inquiries.email, like), ilike(inquiries.subject, like), ilike(inquiries.reference, like))!);
    }
  }
  const where = [...common, ...(filter.status ? [eq(inquiries.status, filter.status)] : [])];
  const rows = await db
    .select({
      row: inquiries,
      // Qualified by hand: inside the sub-select a bare "id" would be the message's.
      messages: sql<number>`(select count(*)::int from inquiry_messages m where m.inquiry_id = inquiries.id)`,
      lastAuthor: sql<InquiryAuthor>`(select m.author from inquiry_messages m where m.inquiry_id = inquiries.id order by m.id desc limit 1)`,
    })
    .from(inquiries)
    .where(where.length ? and(...where) : undefined)
    .orderBy(
      sql`case when ${inquiries.status} = 'closed' then 1 else 0 end`,
      desc(inquiries.createdAt),
      desc(inquiries.id),
    )
    .limit(INQUIRY_PAGE_SIZE + 1)
    .offset((filter.page - 1) * INQUIRY_PAGE_SIZE);
  const tallies = await db
    .select({ status: inquiries.status, n: sql<number>`count(*)::int` })
    .from(inquiries)
    .where(common.length ? and(...common) : undefined)
    .groupBy(inquiries.status);
  const counts = Object.fromEntries(inquiryStatuses.map((s) => [s, 0])) as Record<InquiryStatus, number>;
  for (const t of tallies) counts[t.status] = Number(t.n);
  return {
    ok: true,
    list: {
      items: rows.slice(0, INQUIRY_PAGE_SIZE).map(({ row, messages, lastAuthor }) => ({
        id: row.id,
        reference: row.reference,
        category: row.category,
        status: row.status,
        subject: row.subject,
        email: row.email,
        memberId: row.memberId,
        assigneeId: row.assigneeId,
        createdAt: row.createdAt.toISOString(),
        updatedAt: row.updatedAt.toISOString(),
        messages: Number(messages),
        lastAuthor,
      })),
      counts,
      page: filter.page,
      hasNext: rows.length > INQUIRY_PAGE_SIZE,
    },
  };
}

/** An inquiry not yet closed about one of the member's things (the shipping desk shows them first). */
export interface OpenInquiry {
  id: string;
  reference: string;
  subject: string;
  status: Exclude<InquiryStatus, 'closed'>;
  createdAt: string;
}

/** The most open inquiries about one item a page names (more than this is counted, not listed). */
const OPEN_INQUIRIES_SHOWN = 20;

/**
 * The inquiries about one order, draw or shipping request that are not closed (new, in progress, or
 * waiting for the inquirer), oldest first, through inquiries_related_idx. Not audited: the desk sees the
 * reference and subject only; opening the inquiry is the audited read.
 * @example await openInquiriesAbout(db, { kind: 'shipping_request', id: requestId })
 */
export async function openInquiriesAbout(
  db: Database,
  related: { kind: InquiryRelatedKind; id: string },
): Promise<OpenInquiry[]> {
  const rows = await db
    .select({
      id: inquiries.id,
      reference: inquiries.reference,
      subject: inquiries.subject,
      status: inquiries.status,
      createdAt: inquiries.createdAt,
    })
    .from(inquiries)
    .where(
      and(
        eq(inquiries.relatedKind, related.kind),
        eq(inquiries.relatedId, related.id),
        sql`${inquiries.status} <> 'closed'`,
      ),
    )
    .orderBy(asc(inquiries.createdAt), asc(inquiries.id))
    .limit(OPEN_INQUIRIES_SHOWN);
  return rows.map((r) => ({
    ...r,
    status: r.status as OpenInquiry['status'],
    createdAt: r.createdAt.toISOString(),
  }));
}

// ── One inquiry ─────────────────────────────────────────────────────────────────────────────────

export interface DeskInquiry {
  id: string;
  reference: string;
  category: InquiryCategory;
  status: InquiryStatus;
  subject: string;
  email: string;
  memberId: string | null;
  assigneeId: string | null;
  internalNote: string | null;
  createdAt: string;
  updatedAt: string;
  /** The related item, checked against the inquiry's member; `missing` when it no longer is theirs or exists. */
  related: { kind: InquiryRelatedKind; kindLabel: string; id: string; label: string | null } | null;
  messages: {
    id: number;
    author: InquiryAuthor;
    staffId: string | null;
    body: string;
    at: string;
    attachments: { id: string; width: number; height: number; bytes: number }[];
  }[];
}

/**
 * One inquiry for the desk with its thread and attachments. Needs 'inquiries:read'; the view of the
 * inquirer's personal data is recorded ('inquiry.view') in the same transaction as the read.
 * @example const shown = await getInquiryForDesk(db, operator, inquiryId)
 */
export async function getInquiryForDesk(db: Database, operator: Operator, inquiryId: string): DeskOutcome<DeskInquiry> {
  return runAdminAction(db, operator, 'inquiries:read', async (tx) => {
    const [row] = isUuid(inquiryId) ? await tx.select().from(inquiries).where(eq(inquiries.id, inquiryId)) : [];
    if (!row) throw new RefusalError(refuse('INQUIRY_NOT_FOUND', { inquiryId }));
    const messages = await tx
      .select()
      .from(inquiryMessages)
      .where(eq(inquiryMessages.inquiryId, row.id))
      .orderBy(asc(inquiryMessages.at), asc(inquiryMessages.id));
    const attachments = await tx
      .select()
      .from(inquiryAttachments)
      .where(eq(inquiryAttachments.inquiryId, row.id))
      .orderBy(asc(inquiryAttachments.createdAt), asc(inquiryAttachments.id));
    let related: DeskInquiry['related'] = null;
    if (row.relatedKind && row.relatedId && row.memberId) {
      const found = await describeRelated(tx, row.memberId, { kind: row.relatedKind, id: row.relatedId });
      related = found ?? { kind: row.relatedKind, kindLabel: '', id: row.relatedId, label: null };
    }
    return {
      value: {
        id: row.id,
        reference: row.reference,
        category: row.category,
        status: row.status,
        subject: row.subject,
        email: row.email,
        memberId: row.memberId,
        assigneeId: row.assigneeId,
        internalNote: row.internalNote,
        createdAt: row.createdAt.toISOString(),
        updatedAt: row.updatedAt.toISOString(),
        related,
        messages: messages.map((m) => ({
          id: m.id,
          author: m.author,
          staffId: m.staffId,
          body: m.body,
          at: m.at.toISOString(),
          attachments: attachments
            .filter((a) => a.messageId === m.id)
            .map((a) => ({ id: a.id, width: a.width, height: a.height, bytes: a.bytes })),
        })),
      },
      audit: { action: 'inquiry.view', target: { type: 'inquiry', id: row.id } },
    };
  });
}

/**
 * The file of an attached image for the desk's authenticated route, or null when there is none.
 * Needs 'inquiries:read' (the inquiry's view is the audited read; its thumbnails are not logged again).
 * @example const file = await inquiryAttachmentFile(db, operator, rules, attachmentId, 'thumb')
 */
export async function inquiryAttachmentFile(
  db: Database,
  operator: Operator,
  rules: Pick<SupportRules, 'attachmentsDir'>,
  attachmentId: string,
  size: 'full' | 'thumb',
): Promise<{ ok: true; file: string; contentType: string } | Refusal<string>> {
  if (!operator.permissions.has('inquiries:read')) return denied('inquiries:read');
  const [row] = isUuid(attachmentId)
    ? await db.select().from(inquiryAttachments).where(eq(inquiryAttachments.id, attachmentId))
    : [];
  if (!row) return refuse('INQUIRY_NOT_FOUND', { attachmentId });
  return { ok: true, file: attachmentFile(rules.attachmentsDir, row.storageKey, size), contentType: row.contentType };
}

// ── Answers and changes ─────────────────────────────────────────────────────────────────────────

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

// ── Reply templates ─────────────────────────────────────────────────────────────────────────────

export interface ReplyTemplate {
  id: string;
  title: string;
  body: string;
  updatedAt: string;
}

export const replyTemplateSchema = z.object({
  title: z
    .string({ error: 'テンプレート名を入力してください。' })
    .trim()
    .min(1, 'テンプレート名を入力してください。')
    .max(INQUIRY_LIMITS.templateTitle, `テンプレート名は${INQUIRY_LIMITS.templateTitle}文字以内で入力してください。`),
  body: z
    .string({ error: '本文を入力してください。' })
    .trim()
    .min(1, '本文を入力してください。')
    .max(
      INQUIRY_LIMITS.templateBody,
      `本文は${INQUIRY_LIMITS.templateBody.toLocaleString('ja-JP')}文字以内で入力してください。`,
    ),
});

/** Every template, by title. Needs 'inquiries:read'. */
export async function listReplyTemplates(
  db: Database,
  operator: Operator,
): Promise<{ ok: true; templates: ReplyTemplate[] } | Refusal<string>> {
  if (!operator.permissions.has('inquiries:read')) return denied('inquiries:read');
  const rows = await db.select().from(inquiryReplyTemplates).orderBy(asc(inquiryReplyTemplates.title));
  return {
    ok: true,
    templates: rows.map((r) => ({ id: r.id, title: r.title, body: r.body, updatedAt: r.updatedAt.toISOString() })),
  };
}

/**
 * Creates a template, or changes one (`id`).
 * @example await saveReplyTemplate(db, operator, { title: '発送状況のご案内', body: '…' })
 */
export async function saveReplyTemplate(
  db: Database,
  operator: Operator,
  template: z.output<typeof replyTemplateSchema> & { id?: string },
  now = new Date(),
): DeskOutcome<{ id: string }> {
  return runAdminAction(db, operator, 'inquiries:write', async (tx) => {
    if (template.id) {
      const [before] = isUuid(template.id)
        ? await tx.select().from(inquiryReplyTemplates).where(eq(inquiryReplyTemplates.id, template.id)).for('update')
        : [];
      if (!before) throw new RefusalError(refuse('INQUIRY_TEMPLATE_NOT_FOUND', { templateId: template.id }));
      await tx
        .update(inquiryReplyTemplates)
        .set({ title: template.title, body: template.body, updatedAt: now })
        .where(eq(inquiryReplyTemplates.id, before.id));
      return {
        value: { id: before.id },
        audit: {
          action: 'inquiry_template.update',
          target: { type: 'inquiry_template', id: before.id },
          before: { title: before.title, body: before.body },
          after: { title: template.title, body: template.body },
        },
      };
    }
    const id = randomUUID();
    await tx
      .insert(inquiryReplyTemplates)
      .values({ id, title: template.title, body: template.body, createdAt: now, updatedAt: now });
    return {
      value: { id },
      audit: {
        action: 'inquiry_template.create',
        target: { type: 'inquiry_template', id },
        after: { title: template.title, body: template.body },
      },
    };
  });
}

/** @example await deleteReplyTemplate(db, operator, templateId) */
export async function deleteReplyTemplate(db: Database, operator: Operator, templateId: string): DeskOutcome<null> {
  return runAdminAction(db, operator, 'inquiries:write', async (tx) => {
    const [before] = isUuid(templateId)
      ? await tx.delete(inquiryReplyTemplates).where(eq(inquiryReplyTemplates.id, templateId)).returning()
      : [];
    if (!before) throw new RefusalError(refuse('INQUIRY_TEMPLATE_NOT_FOUND', { templateId }));
    return {
      value: null,
      audit: {
        action: 'inquiry_template.delete',
        target: { type: 'inquiry_template', id: before.id },
        before: { title: before.title, body: before.body },
      },
    };
  });
}

/** A member's inquiries, newest first (the desk shows a member's earlier ones). Needs 'inquiries:read'. */
export async function inquiriesOfMember(
  db: Database,
  operator: Operator,
  memberId: string,
  limit = 10,
): Promise<{ id: string; reference: string; subject: string; status: InquiryStatus; createdAt: string }[]> {
  if (!operator.permissions.has('inquiries:read')) return [];
  const rows = await db
    .select()
    .from(inquiries)
    .where(eq(inquiries.memberId, memberId))
    .orderBy(desc(inquiries.createdAt))
    .limit(limit);
  return rows.map((r) => ({
    id: r.id,
    reference: r.reference,
    subject: r.subject,
    status: r.status,
    createdAt: r.createdAt.toISOString(),
  }));
}
