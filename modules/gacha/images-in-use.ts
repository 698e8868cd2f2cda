// Which uploaded images the catalogue still shows (decision 071): the media clean-up deletes an upload
// only when no module names it. A pack's image, a card's photo (and a graded card's original) and a
// genre's icon are named by their path; an image counts as named when its stored file name appears anywhere in that text, so a path
// written with the origin or through the resizer (/_img?src=…) keeps it too.
import { sql } from 'drizzle-orm';
import { pgTextArray, queryRows, type Database } from '#db/client';

/**
 * Of these stored file names (`<uuid>.webp`, `<hash>.webp`), the ones a pack, a card or a genre names.
 * Drafts are pack rows (decision 030), so a draft's images count until the draft is gone.
 * @example const kept = await catalogueImagesInUse(db, ['0f9c….webp']) // Set { '0f9c….webp' }
 */
export async function catalogueImagesInUse(db: Database, names: readonly string[]): Promise<Set<string>> {
  if (names.length === 0) return new Set();
  const rows = await queryRows<{ name: string }>(
    db,
    sql`select n as name from unnest(${pgTextArray(names)}::text[]) as n
        where exists (select 1 from gachas where position(n in image_path) > 0)
           or exists (select 1 from gacha_tiers where position(n in card_image_path) > 0
                                                  or position(n in coalesce(card_photo_original_path, '')) > 0)
           or exists (select 1 from genres where position(n in coalesce(icon_path, '')) > 0)`,
  );
  return new Set(rows.map((row) => row.name));
}
