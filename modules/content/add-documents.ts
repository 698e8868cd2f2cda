// Adding the store's documents (the default and seeded pages, special pages, banners): only those not
// there yet, each starting its history at version 1.
import type { Database } from '#db/client';
import { contentDocuments } from './schema';
import { addFirstVersions } from './version-writes';

/** A content document as the store keeps it (pages, special pages, banners). */
export type ContentDocumentInput = typeof contentDocuments.$inferInsert;

/**
 * Adds the documents whose id does not exist yet; existing ones (perhaps edited since) stay. Each one
 * added starts its history at version 1 (published when it comes with published_at).
 * @example await addDocuments(db, legalAndEditorialPages())
 */
export async function addDocuments(db: Database, documents: ContentDocumentInput[]): Promise<void> {
  if (!documents.length) return;
  await db.transaction(async (tx) => {
    const added = await tx
      .insert(contentDocuments)
      .values(
        documents.map((d) => ({
          ...d,
          currentVersion: 1,
          publishedVersion: d.publishedAt && d.type !== 'banner' ? 1 : null,
        })),
      )
      .onConflictDoNothing()
      .returning({ id: contentDocuments.id });
    const ids = new Set(added.map((row) => row.id));
    await addFirstVersions(
      tx,
      documents.filter((d) => ids.has(d.id)),
    );
  });
}
