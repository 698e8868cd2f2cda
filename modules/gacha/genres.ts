// Genres for the operators: every genre (shown or hidden) with its pack count, and saving one (name,
// old ids that redirect to it, icon, order, shown or hidden, and an optional visibility window). No audit here: the admin module's
// saveGenreAsOperator wraps saveGenre in its audited action.
import { asc, count, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '#db/client';
import { refineWindow, refuse, RefusalError, saleWindowFields } from '#modules/kernel';
import { gachas, genres } from './schema';

/** The genre refusals (words in refusal-words.ts). */
export const GENRE_REFUSAL_CODES = ['GENRE_ALIAS_TAKEN'] as const;
export type GenreRefusalCode = (typeof GENRE_REFUSAL_CODES)[number];

const urlId = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9_-]{1,40}$/, { error: 'IDは半角英小文字・数字・ハイフン・アンダースコア（40文字まで）です。' });

/** A genre as the admin form writes it; `aliases` is the form's comma-separated text. */
export const genreFormSchema = z
  .object({
    id: urlId,
    name: z
      .string({ error: '名前を入力してください。' })
      .trim()
      .min(1, { error: '名前を入力してください。' })
      .max(30, { error: '名前は30文字以内で入力してください。' }),
    aliases: z
      .string()
      .optional()
      .transform((text) => [
        ...new Set(
          (text ?? '')
            .split(/[,、\s]+/)
            .map((a) => a.trim().toLowerCase())
            .filter(Boolean),
        ),
      ])
      .pipe(z.array(urlId).max(10, { error: '別名は10個までです。' })),
    iconPath: z
      .string()
      .trim()
      .max(300)
      .optional()
      .transform((v) => v || null)
      .refine((v) => v === null || (/^\/[A-Za-z0-9_./-]+$/.test(v) && !v.includes('..')), {
        error: 'アイコンはサイト内のパス（/で始まる）で入力してください。',
      }),
    sortOrder: z.coerce
      .number({ error: '表示順を入力してください。' })
      .int({ error: '表示順は整数で入力してください。' })
      .min(0, { error: '表示順は0以上です。' })
      .max(100_000, { error: '表示順は100,000までです。' }),
    visible: z
      .string()
      .optional()
      .transform((v) => v === 'on'),
    // Optional visibility window in Japan time (docs/decisions/031): the tab shows only inside it.
    ...saleWindowFields,
  })
  .superRefine(refineWindow);
export type GenreForm = z.output<typeof genreFormSchema>;

export interface GenreAdminView extends GenreForm {
  packs: number;
}

/** Every genre, shown or not, in the tabs' order, with how many packs it holds. */
export async function listAllGenres(db: Database): Promise<GenreAdminView[]> {
  const rows = await db
    .select({
      id: genres.id,
      name: genres.name,
      aliases: genres.aliases,
      iconPath: genres.iconPath,
      sortOrder: genres.sortOrder,
      visible: genres.visible,
      startsAt: genres.startsAt,
      endsAt: genres.endsAt,
      packs: sql<number>`(select ${count()} from ${gachas} where ${gachas.genreId} = ${genres.id})`,
    })
    .from(genres)
    .orderBy(asc(genres.sortOrder), asc(genres.id));
  return rows.map((r) => ({ ...r, packs: Number(r.packs) }));
}

/**
 * Creates or replaces a genre. An old id (alias) must not be another genre's id or alias, nor this
 * genre's own id (GENRE_ALIAS_TAKEN, thrown as a RefusalError so the caller's transaction rolls back).
 * @example const { before, after } = await saveGenre(tx, genreFormSchema.parse(form))
 */
export async function saveGenre(
  tx: Database,
  genre: GenreForm,
): Promise<{ before: GenreForm | null; after: GenreForm }> {
  // One genre saved at a time: two operators cannot give the same alias to two genres.
  await tx.execute(sql`select pg_advisory_xact_lock(20261124, 3)`);
  const all = await tx.select().from(genres);
  const before = all.find((g) => g.id === genre.id) ?? null;
  const taken = new Map<string, string>();
  for (const g of all) {
    if (g.id === genre.id) continue;
    taken.set(g.id, g.name);
    for (const alias of g.aliases) taken.set(alias, g.name);
  }
  for (const name of [genre.id, ...genre.aliases]) {
    const owner = taken.get(name);
    if (owner) throw new RefusalError(refuse('GENRE_ALIAS_TAKEN', { alias: name, genre: owner }));
  }
  if (genre.aliases.includes(genre.id))
    throw new RefusalError(refuse('GENRE_ALIAS_TAKEN', { alias: genre.id, genre: genre.name }));
  const values = {
    name: genre.name,
    aliases: genre.aliases,
    iconPath: genre.iconPath,
    sortOrder: genre.sortOrder,
    visible: genre.visible,
    startsAt: genre.startsAt,
    endsAt: genre.endsAt,
  };
  await tx
    .insert(genres)
    .values({ id: genre.id, ...values })
    .onConflictDoUpdate({ target: genres.id, set: values });
  const [after] = await tx.select().from(genres).where(eq(genres.id, genre.id));
  const view = (g: typeof genres.$inferSelect): GenreForm => ({
    id: g.id,
    name: g.name,
    aliases: g.aliases,
    iconPath: g.iconPath,
    sortOrder: g.sortOrder,
    visible: g.visible,
    startsAt: g.startsAt,
    endsAt: g.endsAt,
  });
  return { before: before ? view(before) : null, after: view(after!) };
}
