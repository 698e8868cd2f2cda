// One inquiry at the desk: its thread, images and related item (each view audited as 'inquiry.view'), and
// an attached image's bytes from the media store.
import { asc, eq } from 'drizzle-orm';
import type { Database } from '#db/client';
import { runAdminAction, type Operator } from '#modules/admin';
import { isUuid, refuse, RefusalError, type Refusal } from '#modules/kernel';
import { attachmentKey } from './images';
import { describeRelated, type SupportRules } from './inquiries';
import {
  inquiries,
  inquiryAttachments,
  inquiryMessages,
  type InquiryAuthor,
  type InquiryCategory,
  type InquiryRelatedKind,
  type InquiryStatus,
} from './schema';
import { denied, type DeskOutcome } from './desk';

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
 * An attached image for the desk's authenticated route, or INQUIRY_NOT_FOUND when there is none (no row,
 * or no object: an erased one). Needs 'inquiries:read' (the inquiry's view is the audited read; its
 * thumbnails are not logged again). A store that cannot answer throws its MediaStoreUnavailable.
 * @example const image = await readInquiryAttachment(db, operator, rules, attachmentId, 'thumb')
 */
export async function readInquiryAttachment(
  db: Database,
  operator: Operator,
  rules: Pick<SupportRules, 'attachments'>,
  attachmentId: string,
  size: 'full' | 'thumb',
): Promise<{ ok: true; bytes: Uint8Array; contentType: string } | Refusal<string>> {
  if (!operator.permissions.has('inquiries:read')) return denied('inquiries:read');
  const [row] = isUuid(attachmentId)
    ? await db.select().from(inquiryAttachments).where(eq(inquiryAttachments.id, attachmentId))
    : [];
  if (!row) return refuse('INQUIRY_NOT_FOUND', { attachmentId });
  const bytes = await rules.attachments.get(attachmentKey(row.storageKey, size));
  if (!bytes) return refuse('INQUIRY_NOT_FOUND', { attachmentId });
  return { ok: true, bytes, contentType: row.contentType };
}
