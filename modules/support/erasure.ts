// 退会 in the support desk: the member's inquiries stay as the record of what was asked and answered
// (status, dates, category, the staff's answers), but nothing the member wrote or sent: the address,
// the subject, their messages and their images go (docs/personal-data.md, decision 053).
import { and, eq, inArray, isNotNull, or, sql } from 'drizzle-orm';
import type { Database } from '#db/client';
import { ERASED_MARK, mentions, redactedText } from '#db/redact';
import type { MediaStore } from '#modules/kernel';
import { ATTACHMENTS_PREFIX, attachmentKey } from './images';
import { inquiries, inquiryAttachments, inquiryMessages } from './schema';

/** What an erased inquiry's address becomes (RFC 6761: never delivered), unique per member. */
export const erasedInquirerEmailOf = (memberId: string) => `deleted-${memberId}@invalid`;

/**
 * In the deletion's transaction: the member's inquiries (by member id, or sent from their address
 * as a visitor) lose the address, the subject, the member's messages and the image rows; the staff's
 * answers and the internal note keep their text with the member's identifiers redacted. Answers the
 * storage keys of the images, to remove with removeInquiryImages once the transaction has committed.
 * @example const keys = await eraseInquirer(tx, { memberId, email, spellings }); … await removeInquiryImages(store, keys)
 */
export async function eraseInquirer(
  tx: Database,
  member: { memberId: string; email: string; spellings: readonly string[] },
): Promise<string[]> {
  const theirs = await tx
    .update(inquiries)
    .set({
      email: erasedInquirerEmailOf(member.memberId),
      subject: ERASED_MARK,
      internalNote: sql`case when ${inquiries.internalNote} is null then null else ${redactedText(inquiries.internalNote, member.spellings)} end`,
    })
    .where(or(eq(inquiries.memberId, member.memberId), sql`lower(${inquiries.email}) = ${member.email.toLowerCase()}`))
    .returning({ id: inquiries.id });
  const ids = theirs.map((row) => row.id);
  if (ids.length === 0) return [];
  await tx
    .update(inquiryMessages)
    .set({ body: ERASED_MARK })
    .where(and(inArray(inquiryMessages.inquiryId, ids), eq(inquiryMessages.author, 'inquirer')));
  await tx
    .update(inquiryMessages)
    .set({ body: redactedText(inquiryMessages.body, member.spellings) })
    .where(
      and(
        inArray(inquiryMessages.inquiryId, ids),
        eq(inquiryMessages.author, 'staff'),
        isNotNull(inquiryMessages.staffId),
        mentions(inquiryMessages.body, member.spellings),
      ),
    );
  const images = await tx
    .delete(inquiryAttachments)
    .where(inArray(inquiryAttachments.inquiryId, ids))
    .returning({ storageKey: inquiryAttachments.storageKey });
  return images.map((image) => image.storageKey);
}

/**
 * Removes stored images (and their thumbnails) after their rows are gone. Idempotent: an object already
 * gone is not an error, so a retry (or the orphan sweep) may run it again.
 * @example await removeInquiryImages(store, keys)
 */
export async function removeInquiryImages(store: MediaStore, storageKeys: readonly string[]): Promise<void> {
  for (const key of storageKeys)
    for (const size of ['full', 'thumb'] as const) await store.delete(attachmentKey(key, size));
}

/** An object's age before the sweep may take it: a new inquiry writes its images before its transaction. */
const ORPHAN_GRACE_MS = 60 * 60 * 1000;

/** An attachment's object (`inquiries/YYYY/MM/<uuid>(-thumb).webp`), or a disk store's interrupted write of one. */
const ATTACHMENT_OBJECT = /^inquiries\/(\d{4}\/\d{2}\/[0-9a-f-]{36})(-thumb)?\.webp(\..*\.tmp)?$/;

/**
 * Removes stored images that no attachment row names, older than an hour: those of an erased inquiry
 * whose removal was interrupted (the store was away), and those of an inquiry whose transaction never
 * committed (decision 024). Answers the objects removed.
 * @example await sweepOrphanInquiryImages(db, store, new Date())
 */
export async function sweepOrphanInquiryImages(db: Database, store: MediaStore, now: Date): Promise<number> {
  const candidates = new Map<string, string[]>();
  for await (const object of store.list(ATTACHMENTS_PREFIX)) {
    const match = ATTACHMENT_OBJECT.exec(object.key);
    if (!match || now.getTime() - object.lastModified.getTime() < ORPHAN_GRACE_MS) continue;
    candidates.set(match[1]!, [...(candidates.get(match[1]!) ?? []), object.key]);
  }
  if (candidates.size === 0) return 0;
  const kept = new Set(
    (
      await db
        .select({ key: inquiryAttachments.storageKey })
        .from(inquiryAttachments)
        .where(inArray(inquiryAttachments.storageKey, [...candidates.keys()]))
    ).map((row) => row.key),
  );
  let removed = 0;
  for (const [key, objects] of candidates) {
    if (kept.has(key)) continue;
    for (const object of objects) await store.delete(object);
    removed += objects.length;
  }
  return removed;
}
