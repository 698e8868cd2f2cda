// The member's claimed attachments, newest first: /myinbox/bonus/logs shows them beside the login bonus.
import { and, desc, eq, isNotNull, lt } from 'drizzle-orm';
import type { Database } from '#db/client';
import { mails, mailStates } from './schema';

export interface ClaimedAttachment {
  mailId: number;
  subject: string;
  category: string;
  coins: number;
  claimedAt: Date;
}

/**
 * One page of the member's claimed attachments, newest claim first (keyset on the claim time).
 * @example const page = await claimedAttachments(db, memberId, { limit: 20 }) // { items, nextBefore }
 */
export async function claimedAttachments(
  db: Database,
  memberId: string,
  page: { limit: number; before?: Date },
): Promise<{ items: ClaimedAttachment[]; nextBefore: Date | null }> {
  const rows = await db
    .select({
      mailId: mails.id,
      subject: mails.subject,
      category: mails.category,
      coins: mails.attachmentCoins,
      claimedAt: mailStates.claimedAt,
    })
    .from(mailStates)
    .innerJoin(mails, eq(mails.id, mailStates.mailId))
    .where(
      and(
        eq(mailStates.memberId, memberId),
        isNotNull(mailStates.claimedAt),
        page.before ? lt(mailStates.claimedAt, page.before) : undefined,
      ),
    )
    .orderBy(desc(mailStates.claimedAt), desc(mailStates.mailId))
    .limit(page.limit + 1);
  const items = rows.slice(0, page.limit).map((r) => ({ ...r, coins: r.coins ?? 0, claimedAt: r.claimedAt! }));
  return { items, nextBefore: rows.length > page.limit ? items.at(-1)!.claimedAt : null };
}
