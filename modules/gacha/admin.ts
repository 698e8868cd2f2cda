// Operators' side of packs: define a pack with its tiers and publish it (lots fixed in a secret order and a
// commitment recorded, or a beacon pack's multiset). Ending a pack: pack-end.ts; its reveal: reveal-terms.ts.
import { and, asc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '#db/client';
import { gachaBeaconTerms, gachas, gachaSecrets, gachaTiers, genres, tierEffects, drawModes } from './schema';
import {
  beaconCommitment,
  canonicalLots,
  createPackCommitment,
  generateSeed,
  type BeaconSourceTerms,
  type PackTier,
} from '#modules/fairness';
import { refuse, RefusalError } from '#modules/kernel';
import { reserveStockForPack } from './pack-stock';
import { extraPrizeProblems, isLotTier, type ExtraPrizeFields } from './extra-prizes';
import {
  certificateMismatch,
  certificatesOf,
  certificateNumberSchema,
  certificateProblems,
  GRADE_COMPANIES,
  photoOf,
} from './certificates';

const catalogueId = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,60}$/, '英数字・ハイフン・アンダースコア（60文字まで）で指定してください。');
const imagePath = z
  .string()
  .regex(/^\/[A-Za-z0-9_./-]{1,300}$/, '画像はサイト内のパス（/で始まる）で指定してください。')
  .refine((p) => !p.includes('..'), '画像パスに .. は使えません。');
const coins = z.number().int().min(0).max(10_000_000);

export const tierDefinitionSchema = z.object({
  key: z.string().regex(/^[A-Za-z0-9_-]{1,30}$/),
  label: z.string().min(1).max(40),
  rank: z.number().int().min(0).max(99),
  effect: z.enum(tierEffects).default('normal'),
  cardName: z.string().min(1).max(120),
  cardImagePath: imagePath,
  rarity: z.string().max(20).nullish(),
  cardGrade: z.string().max(20).nullish(),
  cardSet: z.string().max(60).nullish(),
  cardNumber: z.string().max(30).nullish(),
  cardCondition: z.string().max(40).nullish(),
  /** A graded card's certificate (certificates.ts): the grade's company and the number printed on the slab. */
  certificateCompany: z.enum(GRADE_COMPANIES).nullish(),
  certificateNumber: certificateNumberSchema.pipe(z.string().min(1)).nullish(),
  cardCostYen: z.number().int().min(0).max(100_000_000).nullish(),
  quantity: z.number().int().min(1).max(1_000_000),
  conversionValue: coins,
  isLastOne: z.boolean().default(false),
  /**
   * A キリ番賞 (decision 027): the lot numbers, counted in sale order (100 = the 100th lot sold), whose draw
   * wins this card as an extra prize. Not a lot; quantity = how many numbers.
   */
  kiribanAt: z
    .array(
      z
        .number({ error: 'キリ番は整数で指定してください。' })
        .int('キリ番は整数で指定してください。')
        .min(1, 'キリ番は1口目以降で指定してください。'),
    )
    .min(1, 'キリ番を1つ以上指定してください。')
    .max(100, 'キリ番は1つの賞に100個までです。')
    .optional(),
  /**
   * A 個人キリ番賞 (decision 088): a member's own lot numbers in the pack (10 = their 10th lot), each won once per
   * member; quantity = the most it can give (Σ ⌊lots ÷ n⌋, extra-prizes.ts).
   */
  personalKiribanAt: z
    .array(z.number().int('個人キリ番は整数で指定してください。').min(1, '個人キリ番は1口目以降で指定してください。'))
    .min(1, '個人キリ番を1つ以上指定してください。')
    .max(20, '個人キリ番は1つの賞に20個までです。')
    .optional(),
  /** A ピタリ賞 (decision 088): the key of the lot tier whose last lot's draw wins this card. quantity = 1. */
  pitariOf: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,30}$/)
    .optional(),
  /**
   * A 天井賞 (decision 089): a member who draws this many lots in a row without one of `ceilingOf` (lot tier keys)
   * wins this card; quantity = the most it can give (⌊lots ÷ N⌋, extra-prizes.ts).
   */
  ceilingAfter: z
    .number()
    .int('天井の口数は整数で指定してください。')
    .min(2, '天井の口数は2口以上にしてください。')
    .max(1_000_000)
    .optional(),
  ceilingOf: z
    .array(z.string().regex(/^[A-Za-z0-9_-]{1,30}$/))
    .min(1, '天井で確定する賞を選んでください。')
    .max(50)
    .optional(),
});

/** A pack as an operator writes it (JSON file for the command line, later the admin form). */
export const packDefinitionSchema = z
  .object({
    id: catalogueId,
    genreId: catalogueId,
    title: z.string().min(1).max(100),
    description: z.string().max(4000).default(''),
    imagePath,
    pricePerDraw: z.number().int().min(1).max(1_000_000),
    drawOptions: z.array(z.number().int().min(1).max(100)).min(1).max(5).default([1, 10, 100]),
    perMemberLimit: z.number().int().min(1).nullish(),
    minRank: z.number().int().min(0).max(5).nullish(),
    tags: z.array(z.enum(['new', 'hot', 'limited'])).default([]),
    sortOrder: z.number().int().default(0),
    saleStartsAt: z.coerce.date().nullish(),
    saleEndsAt: z.coerce.date().nullish(),
    tiers: z.array(tierDefinitionSchema).min(1).max(50),
    /** How its lots are decided (decision 081): `sequence` (the default) or `beacon`. */
    drawMode: z.enum(drawModes).default('sequence'),
    /** The waiting room (decision 087): off by default; the window in seconds and windows open at a time. */
    waitingRoom: z.boolean().default(false),
    waitingRoomWindowSeconds: z.number().int().min(30).max(3600).default(180),
    waitingRoomBatch: z.number().int().min(1).max(10_000).default(50),
  })
  .superRefine((pack, ctx) => {
    if (pack.waitingRoom && pack.perMemberLimit == null)
      ctx.addIssue({
        code: 'custom',
        path: ['perMemberLimit'],
        message: '待機列を使うときは1人あたりの上限が必要です。',
      });
    const lots = lotsOf(pack.tiers);
    if (lots < 1) ctx.addIssue({ code: 'custom', path: ['tiers'], message: '口数のある賞が1つ以上必要です。' });
    if (lots > 1_000_000) ctx.addIssue({ code: 'custom', path: ['tiers'], message: '総口数は1,000,000口までです。' });
    const lastOnes = pack.tiers.filter((t) => t.isLastOne);
    if (lastOnes.length > 1) ctx.addIssue({ code: 'custom', path: ['tiers'], message: 'ラストワン賞は1つまでです。' });
    if (lastOnes.some((t) => t.quantity !== 1))
      ctx.addIssue({ code: 'custom', path: ['tiers'], message: 'ラストワン賞の数量は1です。' });
    pack.tiers.forEach((t, i) => {
      const problem = certificateMismatch(t);
      if (problem) ctx.addIssue({ code: 'custom', path: ['tiers', i], message: problem });
    });
    const kiribanSeen = new Set<number>();
    pack.tiers.forEach((t, i) => {
      if (!t.kiribanAt) return;
      const path = ['tiers', i, 'kiribanAt'];
      if (t.isLastOne) ctx.addIssue({ code: 'custom', path, message: 'ラストワン賞にはキリ番を指定できません。' });
      if (t.kiribanAt.length > 0 && t.quantity !== t.kiribanAt.length)
        ctx.addIssue({
          code: 'custom',
          path: ['tiers', i, 'quantity'],
          message: `キリ番賞の数量はキリ番の数（${t.kiribanAt.length}）と同じにしてください。`,
        });
      for (const n of t.kiribanAt) {
        if (kiribanSeen.has(n)) ctx.addIssue({ code: 'custom', path, message: `キリ番 ${n} 口目が重複しています。` });
        kiribanSeen.add(n);
        if (lots >= 1 && n >= lots)
          ctx.addIssue({
            code: 'custom',
            path,
            message: `キリ番 ${n} 口目は総口数（${lots}口）より前にしてください（最後の口はラストワン賞で設定します）。`,
          });
      }
    });
    for (const problem of extraPrizeProblems(pack.tiers, lots, pack.drawMode))
      ctx.addIssue({ code: 'custom', path: ['tiers', problem.index, problem.field], message: problem.message });
    if (new Set(pack.tiers.map((t) => t.key)).size !== pack.tiers.length)
      ctx.addIssue({ code: 'custom', path: ['tiers'], message: '賞のkeyが重複しています。' });
    if (pack.pricePerDraw * Math.max(...pack.drawOptions) > 2_000_000_000)
      ctx.addIssue({ code: 'custom', path: ['pricePerDraw'], message: '1回の購入額が大きすぎます。' });
    if (pack.saleStartsAt && pack.saleEndsAt && pack.saleEndsAt <= pack.saleStartsAt)
      ctx.addIssue({ code: 'custom', path: ['saleEndsAt'], message: '販売終了は販売開始より後にしてください。' });
  });
export type PackDefinition = z.input<typeof packDefinitionSchema>;

/** The pack's lots: every tier's quantity except the extra prizes' (ラストワン賞, キリ番賞, 個人キリ番賞, ピタリ賞). */
function lotsOf(tiers: ({ quantity: number } & ExtraPrizeFields)[]): number {
  return tiers.filter(isLotTier).reduce((sum, t) => sum + t.quantity, 0);
}

/** Every refusal of the pack lifecycle (create, publish, end); refusal-words.ts words each one. */
export const PACK_ADMIN_REFUSAL_CODES = [
  'GENRE_NOT_FOUND',
  'GACHA_EXISTS',
  'GACHA_NOT_FOUND',
  'ALREADY_PUBLISHED',
  'LOTS_MISMATCH',
  'NOT_PUBLISHED',
  'STOCK_SHORT',
  'PACK_INVALID',
  'NOT_DRAFT',
  'BEACON_NOT_CONFIGURED',
] as const;
export type PackAdminRefusalCode = (typeof PACK_ADMIN_REFUSAL_CODES)[number];

/** Thrown by the pack lifecycle: its refusal rolls the transaction back and stops the operator's command. */
export class PackAdminError extends RefusalError<PackAdminRefusalCode> {
  constructor(code: PackAdminRefusalCode, details: Record<string, unknown> = {}) {
    super(refuse(code, details));
    this.name = 'PackAdminError';
  }
}

const tierId = (gachaId: string, key: string) => `${gachaId}.${key}`;
/** A tier's key: its id without the pack's prefix. */
export const tierKeyOf = (gachaId: string, id: string) => id.slice(gachaId.length + 1);

type GachaRow = typeof gachas.$inferSelect;
type TierRow = typeof gachaTiers.$inferSelect;

/**
 * A stored pack (draft or published) as its definition: what the editor shows, what a copy starts
 * from, and what publishing checks whole. Tiers best first, the ラストワン賞 last.
 */
export function definitionOf(pack: GachaRow, tiers: TierRow[]): PackDefinition {
  const ordered = [...tiers].sort((a, b) => (a.rank || 100) - (b.rank || 100) || (a.id < b.id ? -1 : 1));
  return {
    id: pack.id,
    genreId: pack.genreId,
    title: pack.title,
    description: pack.description,
    imagePath: pack.imagePath,
    pricePerDraw: pack.pricePerDraw,
    drawOptions: pack.drawOptions,
    perMemberLimit: pack.perMemberLimit,
    minRank: pack.minRank,
    tags: pack.tags as ('new' | 'hot' | 'limited')[],
    sortOrder: pack.sortOrder,
    saleStartsAt: pack.saleStartsAt,
    saleEndsAt: pack.saleEndsAt,
    drawMode: pack.drawMode,
    waitingRoom: pack.waitingRoom,
    waitingRoomWindowSeconds: pack.waitingRoomWindowSeconds,
    waitingRoomBatch: pack.waitingRoomBatch,
    tiers: ordered.map((t) => ({
      key: tierKeyOf(pack.id, t.id),
      label: t.label,
      rank: t.rank,
      effect: t.effect,
      cardName: t.cardName,
      cardImagePath: t.cardImagePath,
      rarity: t.rarity,
      cardGrade: t.cardGrade,
      cardSet: t.cardSet,
      cardNumber: t.cardNumber,
      cardCondition: t.cardCondition,
      certificateCompany: t.certificateCompany as (typeof GRADE_COMPANIES)[number] | null,
      certificateNumber: t.certificateNumber,
      cardCostYen: t.cardCostYen,
      quantity: t.quantity,
      conversionValue: t.conversionValue,
      isLastOne: t.isLastOne,
      ...(t.kiribanAt?.length ? { kiribanAt: t.kiribanAt } : {}),
      ...(t.personalKiribanAt?.length ? { personalKiribanAt: t.personalKiribanAt } : {}),
      ...(t.pitariOf ? { pitariOf: tierKeyOf(pack.id, t.pitariOf) } : {}),
      ...(t.ceilingAfter
        ? { ceilingAfter: t.ceilingAfter, ceilingOf: (t.ceilingOf ?? []).map((id) => tierKeyOf(pack.id, id)) }
        : {}),
    })),
  };
}

/** The pack's tier rows as createPack writes them. */
export function tierRowsOf(gachaId: string, tiers: z.output<typeof tierDefinitionSchema>[]) {
  return tiers.map((t) => ({
    id: tierId(gachaId, t.key),
    gachaId,
    label: t.label,
    rank: t.isLastOne ? 0 : t.rank,
    effect: t.isLastOne ? ('lastone' as const) : t.effect,
    cardName: t.cardName,
    cardImagePath: t.cardImagePath,
    rarity: t.rarity ?? null,
    cardGrade: t.cardGrade ?? null,
    cardSet: t.cardSet ?? null,
    cardNumber: t.cardNumber ?? null,
    cardCondition: t.cardCondition ?? null,
    certificateCompany: t.certificateCompany ?? null,
    certificateNumber: t.certificateNumber ?? null,
    cardCostYen: t.cardCostYen ?? null,
    quantity: t.quantity,
    conversionValue: t.conversionValue,
    isLastOne: t.isLastOne,
    kiribanAt: t.kiribanAt ? [...t.kiribanAt].sort((a, b) => a - b) : null,
    personalKiribanAt: t.personalKiribanAt ? [...t.personalKiribanAt].sort((a, b) => a - b) : null,
    pitariOf: t.pitariOf ? tierId(gachaId, t.pitariOf) : null,
    ceilingAfter: t.ceilingAfter ?? null,
    ceilingOf: t.ceilingAfter ? [...(t.ceilingOf ?? [])].map((key) => tierId(gachaId, key)).sort() : null,
  }));
}

/** Lots of a tier list and the first キリ番 (createPack and the editor's tier step). */
export function lotCountsOf(tiers: ({ quantity: number } & ExtraPrizeFields)[]) {
  const kiriban = tiers.flatMap((t) => t.kiribanAt ?? []);
  return {
    totalLots: lotsOf(tiers),
    kiribanNext: kiriban.length ? Math.min(...kiriban) : null,
  };
}

/**
 * Creates a pack as a draft with its tiers. Lots exist only after publishPack.
 * @example await createPack(db, JSON.parse(await readFile('pack.json', 'utf8')))
 */
export async function createPack(db: Database, definition: PackDefinition): Promise<{ id: string; totalLots: number }> {
  const pack = packDefinitionSchema.parse(definition);
  const totalLots = lotsOf(pack.tiers);
  const kiriban = pack.tiers.flatMap((t) => t.kiribanAt ?? []);
  return db.transaction(async (tx) => {
    const [genre] = await tx.select({ id: genres.id }).from(genres).where(eq(genres.id, pack.genreId));
    if (!genre) throw new PackAdminError('GENRE_NOT_FOUND', { genreId: pack.genreId });
    const inserted = await tx
      .insert(gachas)
      .values({
        id: pack.id,
        genreId: pack.genreId,
        title: pack.title,
        description: pack.description,
        imagePath: pack.imagePath,
        pricePerDraw: pack.pricePerDraw,
        totalLots,
        remainingLots: totalLots,
        status: 'draft',
        tags: pack.tags,
        sortOrder: pack.sortOrder,
        saleStartsAt: pack.saleStartsAt ?? null,
        saleEndsAt: pack.saleEndsAt ?? null,
        drawOptions: [...new Set(pack.drawOptions)].sort((a, b) => a - b),
        drawMode: pack.drawMode,
        waitingRoom: pack.waitingRoom,
        waitingRoomWindowSeconds: pack.waitingRoomWindowSeconds,
        waitingRoomBatch: pack.waitingRoomBatch,
        perMemberLimit: pack.perMemberLimit ?? null,
        minRank: pack.minRank ?? null,
        kiribanNext: kiriban.length ? Math.min(...kiriban) : null,
        personalKiriban: pack.tiers.some((t) => t.personalKiribanAt?.length),
        pitari: pack.tiers.some((t) => t.pitariOf),
        ceiling: pack.tiers.some((t) => t.ceilingAfter),
      })
      .onConflictDoNothing()
      .returning({ id: gachas.id });
    if (inserted.length === 0) throw new PackAdminError('GACHA_EXISTS', { gachaId: pack.id });
    await tx.insert(gachaTiers).values(tierRowsOf(pack.id, pack.tiers));
    return { id: pack.id, totalLots };
  });
}

/** A pack's tiers as its commitment binds them, by id. */
export async function committedTiers(db: Database, gachaId: string): Promise<PackTier[]> {
  const rows = await db.select().from(gachaTiers).where(eq(gachaTiers.gachaId, gachaId)).orderBy(asc(gachaTiers.id));
  return rows.map((t) => ({
    id: t.id,
    label: t.label,
    cardName: t.cardName,
    quantity: t.quantity,
    conversionValue: t.conversionValue,
    isLastOne: t.isLastOne,
    ...(t.kiribanAt?.length ? { kiribanAt: t.kiribanAt } : {}),
    ...(t.personalKiribanAt?.length ? { personalKiribanAt: t.personalKiribanAt } : {}),
    ...(t.pitariOf ? { pitariOf: t.pitariOf } : {}),
    ...(t.ceilingAfter ? { ceilingAfter: t.ceilingAfter, ceilingOf: [...(t.ceilingOf ?? [])].sort() } : {}),
  }));
}

/** What a beacon pack (decision 081) commits to besides its tiers: the drand chain and the receipts' key. */
export interface BeaconPublishTerms {
  source: BeaconSourceTerms;
  /** The shop's Ed25519 public key for receipts (hex). */
  receiptKey: string;
  /** A round closes this many milliseconds before its time (BEACON_CLOSE_MARGIN_MS). */
  closeMarginMs: number;
}

/** What a publisher gives and asks of a pack beyond its definition (the pack editor's rules, the beacon's terms). */
export interface PublishRequirements {
  /**
   * CERTIFIED_PRIZE_MIN_COINS: a graded card worth this much needs its certificate and its photo kept as
   * uploaded (certificates.ts), checked under the pack's lock. Unset: not asked (the command line, demo data).
   */
  certifiedPrizeMinCoins?: number;
  /** A beacon pack's chain and receipt key (refused with BEACON_NOT_CONFIGURED when absent). */
  beacon?: BeaconPublishTerms | null;
}

/**
 * Publishes a draft: reserves the stock of every tier's card (refused whole with STOCK_SHORT naming
 * each short card), fixes its lots in an order drawn from a fresh secret seed, records the
 * commitment, creates the pack's position sequence, and puts it on sale (or schedules it). A beacon
 * pack (decision 081) fixes slots without tiers instead and commits to its multiset, its drand chain and
 * the receipts' key (`beacon`, refused with BEACON_NOT_CONFIGURED when the shop has none).
 * @example const { commitment } = await publishPack(db, 'stellar-pokemon-001')
 */
export async function publishPack(
  db: Database,
  gachaId: string,
  now = new Date(),
  options: PublishRequirements = {},
): Promise<{ commitment: string; totalLots: number; status: string }> {
  return db
    .transaction(async (tx) => {
      const [pack] = await tx.select().from(gachas).where(eq(gachas.id, gachaId)).for('update');
      if (!pack) throw new PackAdminError('GACHA_NOT_FOUND', { gachaId });
      if (pack.status !== 'draft' || pack.commitment) throw new PackAdminError('ALREADY_PUBLISHED', { gachaId });
      // A draft written step by step in the editor is checked whole before its lots are fixed.
      const tierRows = await tx.select().from(gachaTiers).where(eq(gachaTiers.gachaId, gachaId));
      const whole = packDefinitionSchema.safeParse(definitionOf(pack, tierRows));
      if (!whole.success)
        throw new PackAdminError('PACK_INVALID', { gachaId, problems: whole.error.issues.map((i) => i.message) });
      if (options.certifiedPrizeMinCoins !== undefined) {
        const rows = tierRows.map((t) => ({ ...t, photo: photoOf(t) }));
        const problems = certificateProblems(rows, options.certifiedPrizeMinCoins);
        if (problems.length) throw new PackAdminError('PACK_INVALID', { gachaId, problems });
      }
      const tiers = await committedTiers(tx, gachaId);
      const terms = { gachaId, title: pack.title, pricePerDraw: pack.pricePerDraw, tiers };
      const beacon = pack.drawMode === 'beacon' ? options.beacon : undefined;
      if (pack.drawMode === 'beacon' && !beacon) throw new PackAdminError('BEACON_NOT_CONFIGURED', { gachaId });
      // A beacon pack's slots carry no tier (null) until their draw is settled; nothing about them is secret.
      const { seed, lots, commitment } = beacon
        ? {
            seed: null,
            lots: canonicalLots(tiers).map(() => null),
            commitment: beaconCommitment({
              ...terms,
              beacon: beacon.source,
              receiptKey: beacon.receiptKey,
              certificates: certificatesOf(tierRows),
            }),
          }
        : createPackCommitment(terms);
      if (lots.length !== pack.totalLots) throw new PackAdminError('LOTS_MISMATCH', { gachaId });
      // Every card promised by the pack must be on the shelf and not promised elsewhere (decision 023).
      const stock = await reserveStockForPack(tx, gachaId, now);
      if (!stock.ok) throw new PackAdminError('STOCK_SHORT', { gachaId, cards: stock.shortfalls });
      // The lots and the position sequence through the owner's function (decision 051): the shop's role
      // neither inserts lots nor creates objects.
      await tx.execute(sql`select gacha_fix_lots(${gachaId}, ${JSON.stringify(lots)}::jsonb)`);
      await tx.insert(gachaSecrets).values({ gachaId, seed, revealSalt: generateSeed() });
      if (beacon) {
        await tx.insert(gachaBeaconTerms).values({
          gachaId,
          chainHash: beacon.source.chainHash,
          scheme: beacon.source.scheme,
          publicKey: beacon.source.publicKey,
          genesisTime: beacon.source.genesisTime,
          period: beacon.source.period,
          receiptKey: beacon.receiptKey,
          closeMarginMs: beacon.closeMarginMs,
        });
      }
      const status = pack.saleStartsAt && pack.saleStartsAt > now ? 'scheduled' : 'on_sale';
      await tx
        .update(gachas)
        .set({
          status,
          commitment,
          committedAt: now,
          remainingLots: lots.length,
          saleStartsAt: pack.saleStartsAt ?? now,
        })
        .where(eq(gachas.id, gachaId));
      return { commitment, totalLots: lots.length, status };
    })
    .then(async (published) => {
      // Fresh statistics, so the planner knows the new lots before the first draw.
      await db.execute(sql`select gacha_analyze_lots()`);
      return published;
    });
}

/** Packs whose lots exist (published), for the invariant checks and the operator's list. */
export async function listPublishedPackIds(db: Database): Promise<string[]> {
  return (await db.select({ id: gachas.id }).from(gachas).where(isNotNull(gachas.commitment))).map((r) => r.id);
}

/** A genre as an operator (or the demo data) defines it. */
export type GenreDefinition = Pick<typeof genres.$inferInsert, 'id' | 'name' | 'aliases' | 'iconPath' | 'sortOrder'>;

/**
 * Adds the genres that do not exist yet (existing ones are left as they are).
 * @example await addGenres(db, [{ id: 'pokemon', name: 'ポケモン', aliases: [], iconPath: null, sortOrder: 1 }])
 */
export async function addGenres(db: Database, definitions: GenreDefinition[]): Promise<void> {
  if (definitions.length) await db.insert(genres).values(definitions).onConflictDoNothing();
}

/** Whether a pack with this id exists, in any status. */
export async function packExists(db: Database, gachaId: string): Promise<boolean> {
  const [row] = await db.select({ id: gachas.id }).from(gachas).where(eq(gachas.id, gachaId));
  return Boolean(row);
}

/**
 * Deletes the given packs if they were never published (no lots, no commitment): drafts only.
 * @example await deleteUnpublishedPacks(db, ['old-demo-pack'])
 */
export async function deleteUnpublishedPacks(db: Database, gachaIds: string[]): Promise<void> {
  if (gachaIds.length) await db.delete(gachas).where(and(inArray(gachas.id, gachaIds), isNull(gachas.commitment)));
}
