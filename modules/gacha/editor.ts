// The pack editor (docs/decisions/030): a draft is a pack row in status 'draft', written step by step
// (basics, sale, tiers, images) and checked whole before it is published. Only a draft changes: once
// published, the lots, prizes, price and title are fixed by the commitment and every step refuses
// (NOT_DRAFT). The numbers an operator sees before publishing (還元率, value ranges, margin) are in
// pack-numbers.ts and the pre-publish checks in pre-publish.ts, as pure functions over the definition
// where they can. A graded card's photo is also kept as uploaded, with its SHA-256, and its certificate
// number typed in the tier step (certificates.ts: what publishing then requires).
import { and, asc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '#db/client';
import { ceilingQuantity, personalKiribanQuantity } from '#modules/fairness';
import { drawModes, gachas, gachaTiers, genres, tierEffects } from './schema';
import {
  definitionOf,
  lotCountsOf,
  PackAdminError,
  tierDefinitionSchema,
  tierKeyOf,
  tierRowsOf,
  type PackDefinition,
} from './admin';
import {
  certificateNumberSchema,
  GRADE_COMPANIES,
  gradeCompanyOf,
  photoOf,
  photoSha256Schema,
  type TierPhoto,
} from './certificates';

const int = (what: string, min: number, max: number) =>
  z
    .number({ error: `${what}は数字で入力してください。` })
    .int(`${what}は整数で入力してください。`)
    .min(min, `${what}は${min.toLocaleString('ja-JP')}以上にしてください。`)
    .max(max, `${what}は${max.toLocaleString('ja-JP')}以下にしてください。`);

/** Step 1: what the pack is. The id is its address (/gacha/{genre}/{id}) and never changes. */
export const packBasicsSchema = z.object({
  id: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,59}$/, 'IDは英小文字・数字・ハイフン（60文字まで、先頭は英数字）で入力してください。'),
  genreId: z.string().min(1, 'ジャンルを選んでください。').max(60),
  title: z.string().trim().min(1, 'タイトルを入力してください。').max(100, 'タイトルは100文字までです。'),
  description: z.string().max(4000, '説明は4,000文字までです。'),
});
export type PackBasics = z.output<typeof packBasicsSchema>;

export const PACK_TAGS = ['new', 'hot', 'limited'] as const;

/** Step 2: how it is sold. Times are instants (the form reads them in Japan time). */
export const packSaleSchema = z
  .object({
    pricePerDraw: int('1回の価格', 1, 1_000_000),
    drawOptions: z
      .array(int('回数', 1, 100))
      .min(1, '引ける回数を1つ以上選んでください。')
      .max(5, '引ける回数は5つまでです。'),
    perMemberLimit: int('1人あたりの上限', 1, 1_000_000).nullable(),
    minRank: int('最低ランク', 0, 5).nullable(),
    tags: z.array(z.enum(PACK_TAGS, { error: 'タグを選び直してください。' })),
    sortOrder: int('表示順', -1_000_000, 1_000_000),
    saleStartsAt: z.date().nullable(),
    saleEndsAt: z.date().nullable(),
    /** How the lots are decided (decision 081): the committed order, or drand rounds after each draw. */
    drawMode: z.enum(drawModes, { error: '抽選方式を選んでください。' }).default('sequence'),
    /** The waiting room (decision 087): on or off, each member's window in seconds, windows open at a time. */
    waitingRoom: z.boolean().default(false),
    waitingRoomWindowSeconds: int('待機列の購入時間（秒）', 30, 3600).default(180),
    waitingRoomBatch: int('待機列の同時入場数', 1, 10_000).default(50),
  })
  .superRefine((sale, ctx) => {
    if (sale.saleStartsAt && sale.saleEndsAt && sale.saleEndsAt <= sale.saleStartsAt)
      ctx.addIssue({ code: 'custom', path: ['saleEndsAt'], message: '販売終了は販売開始より後にしてください。' });
    if (sale.pricePerDraw * Math.max(...sale.drawOptions, 1) > 2_000_000_000)
      ctx.addIssue({ code: 'custom', path: ['pricePerDraw'], message: '1回の購入額が大きすぎます。' });
    // A window lets a member draw up to the pack's cap: a waiting room without one would let the first
    // members take every lot.
    if (sale.waitingRoom && sale.perMemberLimit === null)
      ctx.addIssue({
        code: 'custom',
        path: ['perMemberLimit'],
        message: '待機列を使うときは1人あたりの上限を入力してください。',
      });
  });
export type PackSale = z.output<typeof packSaleSchema>;

export const TIER_KINDS = ['regular', 'lastone', 'kiriban', 'personal', 'pitari', 'ceiling'] as const;

/** An image path of a draft: empty until uploaded, else a site path. */
const draftImagePath = z
  .string()
  .regex(/^(|\/[A-Za-z0-9_./-]{1,300})$/, '画像のパスが不正です。ページを開き直してください。')
  .refine((p) => !p.includes('..'), '画像のパスが不正です。ページを開き直してください。');
const draftTierSchema = tierDefinitionSchema.extend({ cardImagePath: draftImagePath });

/** One row of the tier step, as the editor's table holds it (the row order is the tiers' rank). */
export const tierRowSchema = z
  .object({
    key: z.string().regex(/^[A-Za-z0-9_-]{1,30}$/, '賞の内部キーが不正です。ページを開き直してください。'),
    kind: z.enum(TIER_KINDS, { error: '賞の種類を選んでください。' }),
    label: z.string().trim().min(1, '賞の名前（S賞など）を入力してください。').max(40, '賞の名前は40文字までです。'),
    effect: z.enum(tierEffects, { error: '演出を選んでください。' }),
    cardName: z.string().trim().min(1, 'カード名を入力してください。').max(120, 'カード名は120文字までです。'),
    cardSet: z.string().trim().max(60, 'セット（弾）は60文字までです。'),
    cardNumber: z.string().trim().max(30, 'カード番号は30文字までです。'),
    rarity: z.string().trim().max(20, 'レアリティは20文字までです。'),
    gradeCompany: z.enum(['', ...GRADE_COMPANIES], { error: '鑑定会社を選び直してください。' }),
    gradeValue: z
      .string()
      .trim()
      .regex(/^(|10|[1-9](\.5)?|10\.0)$/, '鑑定グレードは1〜10（0.5刻み）で入力してください。'),
    cardCondition: z.string().trim().max(40, '状態は40文字までです。'),
    /** The graded card's certificate number as printed ('' for none); its company is the grade's. */
    certificateNumber: certificateNumberSchema,
    /** Empty until the photo is uploaded (the images step); publishing needs it. */
    cardImagePath: draftImagePath,
    quantity: int('数量', 1, 1_000_000),
    conversionValue: int('交換コイン', 0, 10_000_000),
    cardCostYen: int('仕入れ値', 0, 100_000_000).nullable(),
    kiribanAt: z.array(int('キリ番', 1, 1_000_000)).max(100, 'キリ番は1つの賞に100個までです。'),
    /** A 個人キリ番賞's numbers: a member's own Nth lots (decision 088). */
    personalKiribanAt: z
      .array(int('個人キリ番', 1, 1_000_000))
      .max(20, '個人キリ番は1つの賞に20個までです。')
      .default([]),
    /** A ピタリ賞's tier: the key of the regular row whose last lot it rewards ('' for none). */
    pitariOf: z.string().max(30).default(''),
    /** A 天井賞's lots in a row without a hit (decision 089); null for other rows. */
    ceilingAfter: int('天井の口数', 2, 1_000_000).nullable().default(null),
    /** A 天井賞's guarantee: the key of the lowest regular row it guarantees (「A賞以上」: A賞's key; '' for none). */
    ceilingFrom: z.string().max(30).default(''),
  })
  .superRefine((row, ctx) => {
    if (row.gradeCompany && !row.gradeValue)
      ctx.addIssue({ code: 'custom', path: ['gradeValue'], message: '鑑定グレードの数字を入力してください。' });
    if (!row.gradeCompany && row.gradeValue)
      ctx.addIssue({ code: 'custom', path: ['gradeCompany'], message: '鑑定会社を選んでください。' });
    if (row.certificateNumber && !row.gradeCompany)
      ctx.addIssue({
        code: 'custom',
        path: ['certificateNumber'],
        message: '鑑定番号は鑑定会社を選んだ賞（鑑定品）にだけ入力できます。',
      });
    if (row.certificateNumber && quantityOfRow(row, null) > 1)
      ctx.addIssue({
        code: 'custom',
        path: ['certificateNumber'],
        message: '鑑定番号は1枚のカードのものです。1枚ずつ別の賞に分けて、それぞれに鑑定番号を入力してください。',
      });
    if (row.kind === 'kiriban' && row.kiribanAt.length === 0)
      ctx.addIssue({
        code: 'custom',
        path: ['kiribanAt'],
        message: 'キリ番賞には何口目かを入力してください（例: 100, 500）。',
      });
    if (row.kind !== 'kiriban' && row.kiribanAt.length > 0)
      ctx.addIssue({ code: 'custom', path: ['kiribanAt'], message: 'キリ番はキリ番賞にだけ指定できます。' });
    if (row.kind === 'personal' && row.personalKiribanAt.length === 0)
      ctx.addIssue({
        code: 'custom',
        path: ['personalKiribanAt'],
        message: '個人キリ番賞には会員ごとの何口目かを入力してください（例: 10, 50）。',
      });
    if (row.kind !== 'personal' && row.personalKiribanAt.length > 0)
      ctx.addIssue({
        code: 'custom',
        path: ['personalKiribanAt'],
        message: '個人キリ番は個人キリ番賞にだけ指定できます。',
      });
    if (row.kind === 'pitari' && !row.pitariOf)
      ctx.addIssue({ code: 'custom', path: ['pitariOf'], message: 'ピタリ賞の対象の賞を選んでください。' });
    if (row.kind === 'ceiling' && !row.ceilingAfter)
      ctx.addIssue({
        code: 'custom',
        path: ['ceilingAfter'],
        message: '天井賞には何口で確定するかを入力してください（例: 100）。',
      });
    if (row.kind === 'ceiling' && !row.ceilingFrom)
      ctx.addIssue({ code: 'custom', path: ['ceilingFrom'], message: '天井で確定する賞を選んでください。' });
  });
export type TierRow = z.output<typeof tierRowSchema>;

/**
 * The cards a row stands for: 1 for the ラストワン賞 and a ピタリ賞, one per キリ番, a 個人キリ番賞's and a 天井賞's most
 * (Σ ⌊lots ÷ n⌋, ⌊lots ÷ N⌋: decisions 088, 089) in a table of `lots` lots, or 2 when the lots are not known (never
 * one card: a certificate names one), and a regular row's quantity.
 */
function quantityOfRow(
  row: Pick<TierRow, 'kind' | 'kiribanAt' | 'personalKiribanAt' | 'ceilingAfter' | 'quantity'>,
  lots: number | null,
): number {
  switch (row.kind) {
    case 'lastone':
    case 'pitari':
      return 1;
    case 'kiriban':
      return row.kiribanAt.length;
    case 'personal':
      return lots === null ? 2 : Math.max(1, personalKiribanQuantity(row.personalKiribanAt, lots));
    case 'ceiling':
      return lots === null ? 2 : Math.max(1, ceilingQuantity(row.ceilingAfter ?? lots, lots));
    default:
      return row.quantity;
  }
}

export const packTiersSchema = z
  .array(tierRowSchema)
  .min(1, '賞を1つ以上入力してください。')
  .max(50, '賞は50個までです。')
  .superRefine((rows, ctx) => {
    if (rows.filter((r) => r.kind === 'lastone').length > 1)
      ctx.addIssue({ code: 'custom', path: [], message: 'ラストワン賞は1つまでです。' });
    if (new Set(rows.map((r) => r.key)).size !== rows.length)
      ctx.addIssue({ code: 'custom', path: [], message: '賞の内部キーが重複しています。ページを開き直してください。' });
  });

/** The editor's rows as the pack's tier definitions (rank from the row order; grade as "PSA10"). */
export function tierDefinitionsOf(rows: TierRow[]): z.input<typeof tierDefinitionSchema>[] {
  let rank = 0;
  const lots = rows.filter((row) => row.kind === 'regular').reduce((sum, row) => sum + row.quantity, 0);
  // A 天井賞 guarantees the regular rows from the first down to the one chosen (「A賞以上」).
  const regular = rows.filter((row) => row.kind === 'regular').map((row) => row.key);
  const hitsDownTo = (key: string) => regular.slice(0, regular.indexOf(key) + 1);
  return rows.map((row) => ({
    key: row.key,
    label: row.label,
    rank: row.kind === 'lastone' ? 0 : Math.min(++rank, 99),
    effect: row.kind === 'lastone' ? 'lastone' : row.effect,
    cardName: row.cardName,
    cardImagePath: row.cardImagePath,
    rarity: row.rarity || null,
    cardGrade: row.gradeCompany ? `${row.gradeCompany}${row.gradeValue}` : null,
    cardSet: row.cardSet || null,
    cardNumber: row.cardNumber || null,
    cardCondition: row.cardCondition || null,
    certificateCompany: row.gradeCompany && row.certificateNumber ? row.gradeCompany : null,
    certificateNumber: row.gradeCompany && row.certificateNumber ? row.certificateNumber : null,
    cardCostYen: row.cardCostYen,
    quantity: quantityOfRow(row, lots),
    conversionValue: row.conversionValue,
    isLastOne: row.kind === 'lastone',
    ...(row.kind === 'kiriban' ? { kiribanAt: [...row.kiribanAt].sort((a, b) => a - b) } : {}),
    ...(row.kind === 'personal' ? { personalKiribanAt: [...row.personalKiribanAt].sort((a, b) => a - b) } : {}),
    ...(row.kind === 'pitari' ? { pitariOf: row.pitariOf } : {}),
    ...(row.kind === 'ceiling'
      ? { ceilingAfter: row.ceilingAfter ?? undefined, ceilingOf: hitsDownTo(row.ceilingFrom) }
      : {}),
  }));
}

/**
 * A tier definition back as an editor row; `tiers` (the pack's, in rank order) name a 天井賞's lowest hit.
 * @example definition.tiers.map(tierRowOf)
 */
export function tierRowOf(
  tier: PackDefinition['tiers'][number],
  _index?: number,
  tiers: readonly PackDefinition['tiers'][number][] = [],
): TierRow {
  const grade = /^(PSA|BGS|ARS)\s*(.+)$/.exec(tier.cardGrade ?? '');
  return {
    key: tier.key,
    kind: tier.isLastOne
      ? 'lastone'
      : tier.kiribanAt?.length
        ? 'kiriban'
        : tier.personalKiribanAt?.length
          ? 'personal'
          : tier.pitariOf
            ? 'pitari'
            : tier.ceilingAfter
              ? 'ceiling'
              : 'regular',
    label: tier.label,
    effect: tier.effect ?? 'normal',
    cardName: tier.cardName,
    cardSet: tier.cardSet ?? '',
    cardNumber: tier.cardNumber ?? '',
    rarity: tier.rarity ?? '',
    gradeCompany: (grade?.[1] as TierRow['gradeCompany']) ?? '',
    gradeValue: grade?.[2] ?? '',
    cardCondition: tier.cardCondition ?? '',
    certificateNumber: tier.certificateNumber ?? '',
    cardImagePath: tier.cardImagePath,
    quantity: tier.quantity,
    conversionValue: tier.conversionValue,
    cardCostYen: tier.cardCostYen ?? null,
    kiribanAt: tier.kiribanAt ?? [],
    personalKiribanAt: tier.personalKiribanAt ?? [],
    pitariOf: tier.pitariOf ?? '',
    ceilingAfter: tier.ceilingAfter ?? null,
    ceilingFrom: tiers.filter((t) => tier.ceilingOf?.includes(t.key)).at(-1)?.key ?? tier.ceilingOf?.at(-1) ?? '',
  };
}

/** The photos kept as uploaded, by tier key (graded cards only: the tier's certificate photo). */
function photosOf(gachaId: string, tiers: (typeof gachaTiers.$inferSelect)[]): Record<string, TierPhoto> {
  const photos: Record<string, TierPhoto> = {};
  for (const t of tiers) {
    const photo = photoOf(t);
    if (photo) photos[tierKeyOf(gachaId, t.id)] = photo;
  }
  return photos;
}

/**
 * A stored pack as the editor opens it (any status), or null: its definition and, by tier key, the photos
 * kept as uploaded (never part of a definition: only an upload sets them, setDraftTierImage).
 */
export async function packForEditor(db: Database, gachaId: string) {
  const [pack] = await db.select().from(gachas).where(eq(gachas.id, gachaId));
  if (!pack) return null;
  const tiers = await db.select().from(gachaTiers).where(eq(gachaTiers.gachaId, gachaId));
  return { pack, definition: definitionOf(pack, tiers), photos: photosOf(gachaId, tiers) };
}

/** Every pack for the editor's list, newest first, with its status and counts. */
export async function listPacksForEditor(db: Database, filter: { status?: string } = {}) {
  return db
    .select({
      id: gachas.id,
      title: gachas.title,
      genreId: gachas.genreId,
      status: gachas.status,
      pricePerDraw: gachas.pricePerDraw,
      totalLots: gachas.totalLots,
      remainingLots: gachas.remainingLots,
      saleStartsAt: gachas.saleStartsAt,
      saleEndsAt: gachas.saleEndsAt,
      createdAt: gachas.createdAt,
    })
    .from(gachas)
    .where(filter.status ? eq(gachas.status, filter.status as never) : undefined)
    .orderBy(sql`${gachas.createdAt} desc`, asc(gachas.id))
    .limit(500);
}

/** Locks a draft for a step, or refuses: missing (GACHA_NOT_FOUND) or published (NOT_DRAFT). */
async function lockDraft(tx: Database, gachaId: string) {
  const [pack] = await tx.select().from(gachas).where(eq(gachas.id, gachaId)).for('update');
  if (!pack) throw new PackAdminError('GACHA_NOT_FOUND', { gachaId });
  if (pack.status !== 'draft' || pack.commitment) throw new PackAdminError('NOT_DRAFT', { gachaId });
  return pack;
}

async function requireGenre(tx: Database, genreId: string) {
  const [genre] = await tx.select({ id: genres.id }).from(genres).where(eq(genres.id, genreId));
  if (!genre) throw new PackAdminError('GENRE_NOT_FOUND', { genreId });
}

/**
 * Step 1 of a new pack: a draft with no tiers yet (no lots), its image to come.
 * @example await createDraft(tx, { id: 'pokemon-xmas', genreId: 'pokemon', title: 'クリスマスオリパ', description: '' })
 */
export async function createDraft(tx: Database, basics: PackBasics): Promise<void> {
  await requireGenre(tx, basics.genreId);
  const inserted = await tx
    .insert(gachas)
    .values({ ...basics, imagePath: '', pricePerDraw: 100, totalLots: 0, remainingLots: 0, status: 'draft' })
    .onConflictDoNothing()
    .returning({ id: gachas.id });
  if (inserted.length === 0) throw new PackAdminError('GACHA_EXISTS', { gachaId: basics.id });
}

/** What a step changed: the draft's fields before and after (the audit entry's). */
export interface DraftChange {
  before: Record<string, unknown>;
  after: Record<string, unknown>;
}

const pick = (row: Record<string, unknown>, keys: string[]) => Object.fromEntries(keys.map((k) => [k, row[k]]));

/** Step 1 again (the id stays), or step 2: fields of the pack row only. */
export async function updateDraft(
  tx: Database,
  gachaId: string,
  patch: Omit<PackBasics, 'id'> | z.input<typeof packSaleSchema> | { imagePath: string },
): Promise<DraftChange> {
  const pack = await lockDraft(tx, gachaId);
  if ('genreId' in patch) await requireGenre(tx, patch.genreId);
  const values =
    'drawOptions' in patch ? { ...patch, drawOptions: [...new Set(patch.drawOptions)].sort((a, b) => a - b) } : patch;
  await tx.update(gachas).set(values).where(eq(gachas.id, gachaId));
  const keys = Object.keys(values);
  return { before: pick(pack, keys), after: pick(values as Record<string, unknown>, keys) };
}

/**
 * Step 3: the whole tier list replaces the draft's (a draft has no lots, so nothing refers to them). A
 * tier keeps its photo kept as uploaded (`photos`, by key: the draft's own unless given) while its card
 * stays graded; the form never carries a hash.
 */
export async function setDraftTiers(
  tx: Database,
  gachaId: string,
  rows: TierRow[],
  photos?: Record<string, TierPhoto>,
): Promise<DraftChange> {
  await lockDraft(tx, gachaId);
  const parsed = z.array(draftTierSchema).safeParse(tierDefinitionsOf(rows));
  if (!parsed.success)
    throw new PackAdminError('PACK_INVALID', { gachaId, problems: parsed.error.issues.map((i) => i.message) });
  const definitions = parsed.data;
  const before = await tx.select().from(gachaTiers).where(eq(gachaTiers.gachaId, gachaId));
  const kept = photos ?? photosOf(gachaId, before);
  await tx.delete(gachaTiers).where(eq(gachaTiers.gachaId, gachaId));
  await tx.insert(gachaTiers).values(
    tierRowsOf(gachaId, definitions).map((tier, i) => {
      const photo = gradeCompanyOf(tier.cardGrade) ? kept[definitions[i]!.key] : undefined;
      return { ...tier, cardPhotoSha256: photo?.sha256 ?? null, cardPhotoOriginalPath: photo?.originalPath ?? null };
    }),
  );
  const { totalLots, kiribanNext } = lotCountsOf(definitions);
  await tx.update(gachas).set({ totalLots, remainingLots: totalLots, kiribanNext }).where(eq(gachas.id, gachaId));
  // A certificate number is part of what the entry records: it is published with the pack.
  type Summarised = { id: string; label: string; quantity: number; conversionValue: number };
  const summary = (ts: (Summarised & { certificateCompany: string | null; certificateNumber: string | null })[]) =>
    ts.map((t) => ({
      id: t.id,
      label: t.label,
      quantity: t.quantity,
      conversionValue: t.conversionValue,
      ...(t.certificateNumber ? { certificate: `${t.certificateCompany} ${t.certificateNumber}` } : {}),
    }));
  return { before: { tiers: summary(before) }, after: { tiers: summary(tierRowsOf(gachaId, definitions)), totalLots } };
}

const tierPhotoSchema = z.object({ sha256: photoSha256Schema, originalPath: draftImagePath.pipe(z.string().min(1)) });

/**
 * A tier's photo (the image step): only a draft's, only an existing tier. A graded card's photo comes with
 * the original's hash and path (the server computed the hash from the uploaded bytes); any other tier's
 * photo clears them, so a tier never shows a hash of another picture than its own.
 * @example await setDraftTierImage(tx, 'xmas', 't1', '/media/packs/….webp', { sha256: '9f…', originalPath: '/media/originals/9f….jpg' })
 */
export async function setDraftTierImage(
  tx: Database,
  gachaId: string,
  key: string,
  imagePath: string,
  original: TierPhoto | null = null,
) {
  await lockDraft(tx, gachaId);
  const photo = original ? tierPhotoSchema.parse(original) : null;
  const updated = await tx
    .update(gachaTiers)
    .set({
      cardImagePath: imagePath,
      cardPhotoSha256: photo?.sha256 ?? null,
      cardPhotoOriginalPath: photo?.originalPath ?? null,
    })
    .where(and(eq(gachaTiers.gachaId, gachaId), eq(gachaTiers.id, `${gachaId}.${key}`)))
    .returning({ id: gachaTiers.id });
  if (updated.length === 0) throw new PackAdminError('GACHA_NOT_FOUND', { gachaId, tier: key });
}

/**
 * A new draft with everything of another pack (any status) but its id, title and sale window: the way
 * to change a published pack's lots is a new pack.
 */
export async function copyPackToDraft(
  tx: Database,
  fromId: string,
  to: { id: string; title: string },
): Promise<{ id: string }> {
  const source = await packForEditor(tx, fromId);
  if (!source) throw new PackAdminError('GACHA_NOT_FOUND', { gachaId: fromId });
  const def = source.definition;
  await createDraft(tx, { id: to.id, genreId: def.genreId, title: to.title, description: def.description ?? '' });
  await tx
    .update(gachas)
    .set({
      imagePath: def.imagePath,
      pricePerDraw: def.pricePerDraw,
      drawOptions: def.drawOptions,
      perMemberLimit: def.perMemberLimit ?? null,
      minRank: def.minRank ?? null,
      drawMode: def.drawMode ?? 'sequence',
      waitingRoom: def.waitingRoom ?? false,
      waitingRoomWindowSeconds: def.waitingRoomWindowSeconds ?? 180,
      waitingRoomBatch: def.waitingRoomBatch ?? 50,
      tags: def.tags ?? [],
      sortOrder: def.sortOrder ?? 0,
    })
    .where(eq(gachas.id, to.id));
  // The same graded cards keep their photos and certificates: the copy is the same cards on sale again.
  if (def.tiers.length) await setDraftTiers(tx, to.id, def.tiers.map(tierRowOf), source.photos);
  return { id: to.id };
}
