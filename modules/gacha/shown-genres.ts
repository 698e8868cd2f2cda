// The genres members see: shown, and inside their window if they have one.
import { and, asc, eq, gt, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { Database } from '#db/client';
import { genres, gachas } from './schema';
import { isCatalogueId } from './catalogue';

export interface GenreSummary {
  id: string;
  name: string;
  iconPath: string | null;
}

/** Packs whose genre members see (the lists and the sitemap): a hidden genre's pages answer 404. */
export const inShownGenre = (db: Database) =>
  inArray(gachas.genreId, db.select({ id: genres.id }).from(genres).where(genreShown()));

/**
 * A genre members see: shown, and inside its window if it has one (docs/decisions/031), compared at
 * read time with the server's clock.
 */
function genreShown() {
  const now = new Date();
  return and(
    eq(genres.visible, true),
    or(isNull(genres.startsAt), lte(genres.startsAt, now)),
    or(isNull(genres.endsAt), gt(genres.endsAt, now)),
  );
}

/** @example const tabs = await listGenres(db) */
export async function listGenres(db: Database): Promise<GenreSummary[]> {
  return db
    .select({ id: genres.id, name: genres.name, iconPath: genres.iconPath })
    .from(genres)
    .where(genreShown())
    .orderBy(asc(genres.sortOrder), asc(genres.id));
}

/**
 * The canonical genre id for an id or alias in any case, or null.
 * @example await resolveGenre(db, 'POKEMON-card') // 'pokemon'
 */
export async function resolveGenre(db: Database, idOrAlias: string): Promise<string | null> {
  const wanted = idOrAlias.trim().toLowerCase();
  if (!isCatalogueId(wanted)) return null;
  const rows = await db
    .select({ id: genres.id })
    .from(genres)
    .where(and(genreShown(), sql`(${genres.id} = ${wanted} or ${wanted} = any(${genres.aliases}))`))
    .limit(1);
  return rows[0]?.id ?? null;
}
