// The operators' side of the farm (decision 044): the rules' and the seed table's form schemas, the
// writes behind /admin/farm (each answers before/after for the admin module's audit entry), and the
// daily economy view read from farm_days through its day index.
import { between, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '#db/client';
import { refuse, RefusalError } from '#modules/kernel';
import {
  FARM_CROP_ARTS,
  FARM_GROW_MINUTES_MAX,
  FARM_GROW_MINUTES_MIN,
  farmDayOf,
  type FarmRules,
  type FarmSeed,
} from './rules';
import { farmActions, farmDays, farmPlots, farmRules, farmSeeds } from './schema';
import { FARM_RULES_ID, farmRulesOf, readFarmRules } from './store';

export const FARM_ADMIN_REFUSAL_CODES = [
  'FARM_SEED_NOT_FOUND',
  'FARM_SEED_TAKEN',
  'FARM_SEED_PLANTED',
  'FARM_ECONOMY_RANGE',
  'FARM_INPUT_INVALID',
] as const;
export type FarmAdminRefusalCode = (typeof FARM_ADMIN_REFUSAL_CODES)[number];

/** The economy view's longest range: about a quarter, so one page stays readable and one query cheap. */
export const FARM_ECONOMY_MAX_DAYS = 92;
/** The plots a level-1 member may have at most (docs/product.md: four at the start). */
export const FARM_STARTING_PLOTS_MAX = 4;
export const FARM_PLOTS_MAX = 12;
export const FARM_SEED_NAME_MAX = 20;

/** A form's text ('30', '３０') or the API's number; written otherwise ('1e3', '0x10', '1.5') it is no number. */
const wholeNumberText = (v: unknown) => {
  if (typeof v !== 'string') return v;
  const text = v.normalize('NFKC').trim();
  if (text === '') return undefined;
  return /^-?\d{1,9}$/.test(text) ? Number(text) : Number.NaN;
};

/** A whole number in bounds, each message naming the field and its unit. */
const wholeNumber = (label: string, min: number, max: number, unit: string) => {
  const bounds = `${label}は${min.toLocaleString('ja-JP')}〜${max.toLocaleString('ja-JP')}${unit}です。`;
  return z.preprocess(
    wholeNumberText,
    z
      .number({
        error: (issue) =>
          issue.input === undefined ? `${label}を入力してください。` : `${label}は整数で入力してください。`,
      })
      .int({ error: `${label}は整数で入力してください。` })
      .min(min, { error: bounds })
      .max(max, { error: bounds }),
  );
};

/** A checkbox ('on'), the API's boolean, or missing (off). */
const switchField = z.preprocess(
  (v) => (typeof v === 'string' ? v === 'on' || v === 'true' : (v ?? false)),
  z.boolean({ error: 'オンかオフで指定してください。' }),
);

/** The plot unlock levels as the form writes them ('1, 1, 1, 1, 5, 10') or as the API sends them. */
const plotUnlockLevelsField = z.preprocess(
  (v) =>
    typeof v === 'string'
      ? v
          .normalize('NFKC')
          .split(/[,、\s]+/)
          .filter(Boolean)
          .map((part) => (/^\d+$/.test(part) ? Number(part) : Number.NaN))
      : v,
  z
    .array(
      z
        .number({ error: '畑の解放レベルは数字をカンマ区切りで入力してください（例: 1, 1, 1, 1, 5, 10）。' })
        .int({ error: '畑の解放レベルは整数で入力してください。' })
        .min(1, { error: '畑の解放レベルは1〜999で入力してください。' })
        .max(999, { error: '畑の解放レベルは1〜999で入力してください。' }),
      { error: '畑の解放レベルをカンマ区切りで入力してください。' },
    )
    .min(1, { error: '畑の解放レベルを1つ以上入力してください。' })
    .max(FARM_PLOTS_MAX, { error: `畑は${FARM_PLOTS_MAX}面までです（解放レベルは${FARM_PLOTS_MAX}個まで）。` })
    .refine((levels) => levels[0] === 1, { error: '最初の畑はレベル1で使えるようにしてください（先頭は1）。' })
    .refine((levels) => levels.every((level, i) => i === 0 || level >= levels[i - 1]!), {
      error: '畑の解放レベルは小さい順（同じ値は可）に並べてください。',
    })
    .refine((levels) => levels.slice(FARM_STARTING_PLOTS_MAX).every((level) => level >= 2), {
      error: `レベル1で使える畑は${FARM_STARTING_PLOTS_MAX}面までです（5番目からは2以上）。`,
    }),
);

/** The rules form (/admin/farm) and the API alike; `paused` has its own switch (setFarmPaused). */
export const farmRulesSchema = z.object({
  plotUnlockLevels: plotUnlockLevelsField,
  waterCooldownMinutes: wholeNumber('水やりの間隔', 60, 1440, '分'),
  waterSpeedupPercent: wholeNumber('水やりの短縮率', 0, 90, '%'),
  witherAfterMinutes: wholeNumber('枯れるまでの時間', 60, 10080, '分'),
  dailyCoinCap: wholeNumber('1日の上限', 0, 10000, 'コイン'),
  friendWaterCoins: wholeNumber('友達の水やりの報酬', 0, 100, 'コイン'),
});
export type FarmRulesInput = z.output<typeof farmRulesSchema>;

/** One seed of the table as the form and the API write it. */
export const farmSeedSchema = z.object({
  id: z
    .string({ error: '種のIDを入力してください。' })
    .trim()
    .regex(/^[a-z][a-z0-9-]{1,31}$/, {
      error: '種のIDは英小文字で始まる2〜32文字の半角英小文字・数字・ハイフンで入力してください。',
    }),
  name: z
    .string({ error: '名前を入力してください。' })
    .trim()
    .min(1, { error: '名前を入力してください。' })
    .max(FARM_SEED_NAME_MAX, { error: `名前は${FARM_SEED_NAME_MAX}文字以内で入力してください。` }),
  art: z.enum(FARM_CROP_ARTS, { error: '絵柄を一覧から選んでください。' }),
  growMinutes: wholeNumber('育つ時間', FARM_GROW_MINUTES_MIN, FARM_GROW_MINUTES_MAX, '分'),
  rewardCoins: wholeNumber('収穫の報酬', 0, 1000, 'コイン'),
  unlockLevel: wholeNumber('植えられるレベル', 1, 999, ''),
  active: switchField,
  sort: wholeNumber('表示順', 0, 9999, ''),
});
export type FarmSeedInput = z.output<typeof farmSeedSchema>;

/** A day range of the economy view (Japan-time days, inclusive). */
export const farmEconomyRangeSchema = z.object({
  from: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { error: '開始日は 2026-11-24 の形で入力してください。' }),
  to: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { error: '終了日は 2026-11-24 の形で入力してください。' }),
});

/**
 * Parses a form's fields or the API's JSON with one of the schemas above, or throws FARM_INPUT_INVALID
 * with one Japanese message per field (`fields`) and the first one (`message`), so an admin action
 * refuses bad input inside its transaction and the page shows each message beside its field.
 * @example const seed = farmInputOf(farmSeedSchema, form)
 */
export function farmInputOf<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const fields: Record<string, string> = {};
  for (const issue of parsed.error.issues) fields[issue.path.map(String).join('.') || 'root'] ??= issue.message;
  throw new RefusalError(
    refuse('FARM_INPUT_INVALID', { fields, message: parsed.error.issues[0]?.message ?? '入力を確認してください。' }),
  );
}

/** The rules row locked for the change (two operators saving at once apply one after the other). */
async function lockedRules(tx: Database): Promise<FarmRules> {
  const [row] = await tx.select().from(farmRules).where(eq(farmRules.id, FARM_RULES_ID)).for('update');
  if (!row) return readFarmRules(tx); // throws the migration's message
  return farmRulesOf(row);
}

/**
 * Changes the rules (every field given; `paused` untouched). Members see them on their next request.
 * @example const { before, after } = await setFarmRules(tx, { dailyCoinCap: 50 }, operator.label)
 */
export async function setFarmRules(
  tx: Database,
  patch: Partial<FarmRulesInput>,
  actorId: string,
): Promise<{ before: FarmRules; after: FarmRules }> {
  const before = await lockedRules(tx);
  const [row] = await tx
    .update(farmRules)
    .set({
      ...patch,
      plotUnlockLevels: patch.plotUnlockLevels ? [...patch.plotUnlockLevels] : undefined,
      updatedAt: new Date(),
      updatedBy: actorId,
    })
    .where(eq(farmRules.id, FARM_RULES_ID))
    .returning();
  return { before, after: farmRulesOf(row!) };
}

/**
 * Pauses or resumes the farm: while paused every member action is refused; crops keep their times.
 * @example await setFarmPaused(tx, true, operator.label)
 */
export async function setFarmPaused(
  tx: Database,
  paused: boolean,
  actorId: string,
): Promise<{ before: FarmRules; after: FarmRules }> {
  const before = await lockedRules(tx);
  const [row] = await tx
    .update(farmRules)
    .set({ paused, updatedAt: new Date(), updatedBy: actorId })
    .where(eq(farmRules.id, FARM_RULES_ID))
    .returning();
  return { before, after: farmRulesOf(row!) };
}

const seedOf = (row: typeof farmSeeds.$inferSelect): FarmSeed => ({
  id: row.id,
  name: row.name,
  art: row.art,
  growMinutes: row.growMinutes,
  rewardCoins: row.rewardCoins,
  unlockLevel: row.unlockLevel,
  active: row.active,
  sort: row.sort,
});

/**
 * Adds a seed or replaces one (before is null for a new one). A crop already planted keeps the reward
 * and ready time it was promised; only new plantings use the changed numbers.
 * @example const { before, after } = await saveFarmSeed(tx, { id: 'melon', name: 'メロン', art: 'pumpkin', … })
 */
export async function saveFarmSeed(
  tx: Database,
  seed: FarmSeedInput,
): Promise<{ before: FarmSeed | null; after: FarmSeed }> {
  const [old] = await tx.select().from(farmSeeds).where(eq(farmSeeds.id, seed.id)).for('update');
  const values = { ...seed, updatedAt: new Date() };
  const [row] = await tx
    .insert(farmSeeds)
    .values(values)
    .onConflictDoUpdate({ target: farmSeeds.id, set: values })
    .returning();
  return { before: old ? seedOf(old) : null, after: seedOf(row!) };
}

/**
 * Whether a member ever planted the seed: its plantings are in the log and its crops on the plots.
 * Such a seed stays (deactivate it): the history and the plots name it.
 */
async function wasPlanted(tx: Database, seedId: string): Promise<boolean> {
  const [onPlot] = await tx
    .select({ one: sql<number>`1` })
    .from(farmPlots)
    .where(eq(farmPlots.seedId, seedId))
    .limit(1);
  if (onPlot) return true;
  const [inLog] = await tx
    .select({ one: sql<number>`1` })
    .from(farmActions)
    .where(eq(farmActions.seedId, seedId))
    .limit(1);
  return Boolean(inLog);
}

/**
 * Deletes a seed nobody has planted; a planted one is refused (FARM_SEED_PLANTED: deactivate it).
 * Throws RefusalError, so the caller's transaction (and its audit entry) rolls back.
 * @example const { before } = await deleteFarmSeed(tx, 'melon')
 */
export async function deleteFarmSeed(tx: Database, seedId: string): Promise<{ before: FarmSeed }> {
  // Locked first, so a planting that reads the seed row after this waits for the delete and then finds nothing.
  const [old] = await tx.select().from(farmSeeds).where(eq(farmSeeds.id, seedId)).for('update');
  if (!old) throw new RefusalError(refuse('FARM_SEED_NOT_FOUND', { seedId }));
  if (await wasPlanted(tx, seedId)) throw new RefusalError(refuse('FARM_SEED_PLANTED', { seedId, name: old.name }));
  await tx.delete(farmSeeds).where(eq(farmSeeds.id, seedId));
  return { before: seedOf(old) };
}

/** One Japan-time day of the economy view. */
export interface FarmEconomyDay {
  day: string;
  /** Free coins the farm granted (harvests and friends' watering, after the cap). */
  coins: number;
  /** Members who played that day (one farm_days row each). */
  players: number;
  harvests: number;
  waterings: number;
  friendWaterings: number;
  /** Members whose streak reached 3 days (and 7 days) that day. */
  streak3: number;
  streak7: number;
  longestStreak: number;
}

export interface FarmEconomy {
  from: string;
  to: string;
  days: FarmEconomyDay[];
  /** As the days, except: streak3/streak7 count different members who reached the streak in the range. */
  totals: Omit<FarmEconomyDay, 'day' | 'players'> & {
    /** Member-days (the sum of the days' players). */
    playerDays: number;
    /** Different members who played in the range. */
    members: number;
  };
}

const DAY_MS = 86_400_000;
const dayNumber = (day: string) => Date.parse(`${day}T00:00:00Z`);
const isRealDay = (day: string) =>
  !Number.isNaN(dayNumber(day)) && new Date(dayNumber(day)).toISOString().slice(0, 10) === day;

/** The economy view's default: the last 14 Japan-time days, today included. */
export const FARM_ECONOMY_DEFAULT_DAYS = 14;

/**
 * The default range at `now`: Japan-time days, so at 00:30 in Japan (15:30 UTC) today is already the new day.
 * @example defaultFarmEconomyRange(new Date('2026-11-24T15:30:00Z')) // { from: '2026-11-12', to: '2026-11-25' }
 */
export function defaultFarmEconomyRange(now: Date): { from: string; to: string } {
  const to = farmDayOf(now);
  const from = new Date(dayNumber(to) - (FARM_ECONOMY_DEFAULT_DAYS - 1) * DAY_MS).toISOString().slice(0, 10);
  return { from, to };
}

/**
 * The farm's economy per Japan-time day from `from` to `to` (inclusive, at most FARM_ECONOMY_MAX_DAYS),
 * days nobody played as zeros, and the totals. Reads farm_days by its day index (one range scan).
 * Refuses FARM_ECONOMY_RANGE for a day that does not exist, a reversed range or a longer one.
 * @example const economy = await farmEconomy(db, { from: '2026-11-11', to: '2026-11-24' })
 */
export async function farmEconomy(db: Database, range: { from: string; to: string }): Promise<FarmEconomy> {
  const { from, to } = range;
  if (!isRealDay(from) || !isRealDay(to) || dayNumber(to) < dayNumber(from))
    throw new RefusalError(refuse('FARM_ECONOMY_RANGE', { from, to, maxDays: FARM_ECONOMY_MAX_DAYS }));
  const count = (dayNumber(to) - dayNumber(from)) / DAY_MS + 1;
  if (count > FARM_ECONOMY_MAX_DAYS)
    throw new RefusalError(refuse('FARM_ECONOMY_RANGE', { from, to, maxDays: FARM_ECONOMY_MAX_DAYS }));
  const inRange = between(farmDays.jstDay, from, to);
  const rows = await db
    .select({
      day: farmDays.jstDay,
      coins: sql<number>`coalesce(sum(${farmDays.coins}), 0)::int`,
      players: sql<number>`count(*)::int`,
      harvests: sql<number>`coalesce(sum(${farmDays.harvests}), 0)::int`,
      waterings: sql<number>`coalesce(sum(${farmDays.waterings}), 0)::int`,
      friendWaterings: sql<number>`coalesce(sum(${farmDays.friendWaterings}), 0)::int`,
      streak3: sql<number>`(count(*) filter (where ${farmDays.streak} >= 3))::int`,
      streak7: sql<number>`(count(*) filter (where ${farmDays.streak} >= 7))::int`,
      longestStreak: sql<number>`coalesce(max(${farmDays.streak}), 0)::int`,
    })
    .from(farmDays)
    .where(inRange)
    .groupBy(farmDays.jstDay);
  const [distinct] = await db
    .select({
      members: sql<number>`count(distinct ${farmDays.memberId})::int`,
      streak3: sql<number>`(count(distinct ${farmDays.memberId}) filter (where ${farmDays.streak} >= 3))::int`,
      streak7: sql<number>`(count(distinct ${farmDays.memberId}) filter (where ${farmDays.streak} >= 7))::int`,
    })
    .from(farmDays)
    .where(inRange);
  const byDay = new Map(rows.map((r) => [String(r.day), r]));
  const days: FarmEconomyDay[] = [];
  for (let i = 0; i < count; i++) {
    const day = new Date(dayNumber(from) + i * DAY_MS).toISOString().slice(0, 10);
    const row = byDay.get(day);
    days.push({
      day,
      coins: Number(row?.coins ?? 0),
      players: Number(row?.players ?? 0),
      harvests: Number(row?.harvests ?? 0),
      waterings: Number(row?.waterings ?? 0),
      friendWaterings: Number(row?.friendWaterings ?? 0),
      streak3: Number(row?.streak3 ?? 0),
      streak7: Number(row?.streak7 ?? 0),
      longestStreak: Number(row?.longestStreak ?? 0),
    });
  }
  const sum = (pick: (d: FarmEconomyDay) => number) => days.reduce((total, d) => total + pick(d), 0);
  return {
    from,
    to,
    days,
    totals: {
      coins: sum((d) => d.coins),
      playerDays: sum((d) => d.players),
      members: Number(distinct?.members ?? 0),
      harvests: sum((d) => d.harvests),
      waterings: sum((d) => d.waterings),
      friendWaterings: sum((d) => d.friendWaterings),
      streak3: Number(distinct?.streak3 ?? 0),
      streak7: Number(distinct?.streak7 ?? 0),
      longestStreak: Math.max(0, ...days.map((d) => d.longestStreak)),
    },
  };
}
