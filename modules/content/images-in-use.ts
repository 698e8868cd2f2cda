// Which uploaded images content still shows or may show again (decision 071): the media clean-up deletes
// an upload only when no module names it. Every document's served data and every saved version count
// (a rollback brings an old version back, decision 040), so does a banner's art; an image counts as named
// when its stored file name appears anywhere in the data, whatever form the path took there.
import { sql } from 'drizzle-orm';
import { pgTextArray, queryRows, type Database } from '#db/client';

/**
 * Of these stored file names (`<hash>.webp`, `<uuid>.webp`), the ones a content document or version names.
 * @example const kept = await contentImagesInUse(db, ['3f…e1.webp']) // Set { '3f…e1.webp' }
 */
export async function contentImagesInUse(db: Database, names: readonly string[]): Promise<Set<string>> {
  if (names.length === 0) return new Set();
  const rows = await queryRows<{ name: string }>(
    db,
    sql`select n as name from unnest(${pgTextArray(names)}::text[]) as n
        where exists (select 1 from content_documents where position(n in data::text) > 0)
           or exists (select 1 from content_versions where position(n in data::text) > 0)`,
  );
  return new Set(rows.map((row) => row.name));
}
