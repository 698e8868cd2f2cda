// Levels (docs/decisions/037): level n is reached at a cumulative exp from the settings' threshold table.
// The table is written to progression_levels at start, so the draw's SQL (which sends the level-up
// mail in the draw's transaction) and the pages read the same thresholds and rewards.
import { asc, eq, sql } from 'drizzle-orm';
import type { Database } from '#db/client';
import { memberProgress, progressionLevels } from './schema';

/** The settings' level rules: exp for level 2, 3, … (strictly rising) and the coins each level-up attaches. */
export interface LevelRules {
  /** Cumulative exp at which level 2, 3, … is reached; empty: levels off. */
  thresholds: number[];
  /** Coins attached to the mail of level 2, 3, …; shorter than the thresholds: the last amount repeats; empty: none. */
  rewards: number[];
  /** Days a level-up attachment may be claimed. */
  claimDays: number;
}

/** One level of the table: reached at `expRequired` cumulative exp. */
export interface LevelStep {
  level: number;
  expRequired: number;
  rewardCoins: number;
  claimDays: number;
}

/**
 * The default curve: level n at 1,000 × (n − 1)² exp (level 2 at 1,000, level 10 at 81,000, level 100 at
 * 9,801,000), up to level 100.
 * @example defaultLevelThresholds()[0] === 1_000
 */
export const defaultLevelThresholds = (maxLevel = 100) =>
  Array.from({ length: maxLevel - 1 }, (_, i) => 1_000 * (i + 1) ** 2);

/** The default rewards: 10 coins × the level reached, 10 × that at every tenth level. @example defaultLevelRewards()[8] === 1_000 */
export const defaultLevelRewards = (maxLevel = 100) =>
  Array.from({ length: maxLevel - 1 }, (_, i) => ((i + 2) % 10 === 0 ? 100 : 10) * (i + 2));

/** The rules as the table's rows (levels 2…). @example levelStepsOf({ thresholds: [100, 300], rewards: [5], claimDays: 30 })[1].rewardCoins === 5 */
export function levelStepsOf(rules: LevelRules): LevelStep[] {
  return rules.thresholds.map((expRequired, i) => ({
    level: i + 2,
    expRequired,
    rewardCoins: rules.rewards.length === 0 ? 0 : (rules.rewards[i] ?? rules.rewards[rules.rewards.length - 1]!),
    claimDays: rules.claimDays,
  }));
}

/**
 * Writes the settings' level table where the draw reads it; nothing when it is already the same (every
 * instance calls this at start). Levels a member has passed keep their mails (keyed level-up:<n>).
 * @example await syncLevelTable(db, levelRulesOf(config))
 */
export async function syncLevelTable(db: Database, rules: LevelRules): Promise<{ changed: boolean }> {
  const wanted = levelStepsOf(rules);
  return db.transaction(async (tx) => {
    // Instances starting together take turns: with an empty table, FOR UPDATE locks no row, and two
    // would both insert the table (one failing on the primary key and stopping its instance).
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('progression_levels'))`);
    const stored = await tx.select().from(progressionLevels).orderBy(asc(progressionLevels.level)).for('update');
    if (JSON.stringify(stored) === JSON.stringify(wanted)) return { changed: false };
    await tx.delete(progressionLevels);
    if (wanted.length > 0) await tx.insert(progressionLevels).values(wanted);
    return { changed: true };
  });
}

/** The level table in force (levels 2…, rising), as the draw reads it. @example (await levelTable(db))[0].level === 2 */
export async function levelTable(db: Database): Promise<LevelStep[]> {
  return db.select().from(progressionLevels).orderBy(asc(progressionLevels.level));
}

/** Where an exp total stands in the table. */
export interface LevelStanding {
  level: number;
  /** Exp at which the current level was reached (0 at level 1). */
  levelExp: number;
  /** The next level and the exp it needs; null at the top of the table. */
  next: { level: number; expRequired: number } | null;
}

/** @example levelOf(table, 81_000).level === 10 with the default curve */
export function levelOf(table: LevelStep[], exp: number): LevelStanding {
  let level = 1;
  let levelExp = 0;
  for (const step of table) {
    if (exp < step.expRequired) return { level, levelExp, next: { level: step.level, expRequired: step.expRequired } };
    level = step.level;
    levelExp = step.expRequired;
  }
  return { level, levelExp, next: null };
}

/** What /mylevel and GET /api/v1/me/level show. */
export interface MemberLevel extends LevelStanding {
  exp: number;
  /** Every level-up reward, and whether the member has reached it (its mail was sent then). */
  rewards: { level: number; expRequired: number; coins: number; reached: boolean }[];
}

/**
 * The member's level, the way to the next one, and the rewards table, in two reads.
 * @example const { level, next } = await getMemberLevel(db, member.id)
 */
export async function getMemberLevel(db: Database, memberId: string): Promise<MemberLevel> {
  const [table, [row]] = await Promise.all([
    levelTable(db),
    db.select({ exp: memberProgress.exp }).from(memberProgress).where(eq(memberProgress.memberId, memberId)),
  ]);
  const exp = Number(row?.exp ?? 0);
  return {
    exp,
    ...levelOf(table, exp),
    rewards: table.map((step) => ({
      level: step.level,
      expRequired: step.expRequired,
      coins: step.rewardCoins,
      reached: exp >= step.expRequired,
    })),
  };
}
