// The content store's indexable pages for sitemap.xml: every published page and special page.
import { and, inArray, isNotNull, lte } from 'drizzle-orm';
import type { Database } from '#db/client';
import { contentDocuments } from './schema';

/** @example const uids = await listPublishedPageUids(db) // ['tokushoho', 'campaign/winter', …] */
export async function listPublishedPageUids(db: Database, now = new Date()): Promise<string[]> {
  const rows = await db
    .select({ uid: contentDocuments.uid })
    .from(contentDocuments)
    .where(
      and(
        inArray(contentDocuments.type, ['page', 'special']),
        isNotNull(contentDocuments.publishedAt),
        lte(contentDocuments.publishedAt, now),
      ),
    );
  return rows.map((row) => row.uid);
}
