// The operators' side of inquiries (/admin/inquiries): the list with counts per status and filters,
// one inquiry with its thread, images and related item (each view audited as 'inquiry.view'), answers
// (mailed to the inquirer), status, assignee, the internal note, and the reply templates. Every change
// goes through runAdminAction ('inquiries:write'): the change and its audit entry commit together.
// Here: what the desk's actions share and the list; one inquiry: desk-inquiry.ts; answers and changes:
// desk-answers.ts; the reply templates: reply-templates.ts.
import { and, asc, desc, eq, ilike, isNull, or, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '#db/client';
import { auditTextDigest, type AuditRecord, type Operator } from '#modules/admin';
import { isUuid, refuse, RefusalError, type Refusal } from '#modules/kernel';
import {
  inquiries,
  inquiryCategories,
  inquiryStatuses,
  type InquiryAuthor,
  type InquiryCategory,
  type InquiryRelatedKind,
  type InquiryStatus,
} from './schema';
import { readInquiryReference } from './words';

type InquiryRow = typeof inquiries.$inferSelect;
export type DeskOutcome<T> = Promise<{ ok: true; value: T } | Refusal<string>>;

export const denied = (permission: string) => refuse('PERMISSION_DENIED', { permission });

/**
 * The audit entry's picture of an inquiry: what the desk changes, never the inquirer's text, and the
 * internal note as a digest (staff may quote the member; the note's row is what 退会 redacts, decision 053).
 */
const auditState = (row: InquiryRow) => ({
  status: row.status,
  assigneeId: row.assigneeId,
  internalNote: auditTextDigest(row.internalNote),
});
export const auditOf = (action: string, before: InquiryRow, after: InquiryRow, extra: object = {}): AuditRecord => ({
  action,
  target: { type: 'inquiry', id: before.id },
  before: auditState(before),
  after: { ...auditState(after), ...extra },
});

export async function lockOrRefuse(tx: Database, inquiryId: string): Promise<InquiryRow> {
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
