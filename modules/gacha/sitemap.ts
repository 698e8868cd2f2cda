// The catalogue's indexable pages for sitemap.xml: every public pack (scheduled ones included) of a shown genre.
import { and, inArray } from 'drizzle-orm';
import type { Database } from '#db/client';
import { gachas } from './schema';
import { PUBLIC_GACHA_STATUSES } from './catalogue';
import { inShownGenre } from './shown-genres';

/** @example for (const { id, genreId } of await listPublicPackPaths(db)) paths.push(`/gacha/${genreId}/${id}`) */
export async function listPublicPackPaths(db: Database): Promise<{ id: string; genreId: string }[]> {
  return db
    .select({ id: gachas.id, genreId: gachas.genreId })
    .from(gachas)
    .where(and(inArray(gachas.status, PUBLIC_GACHA_STATUSES), inShownGenre(db)));
}
