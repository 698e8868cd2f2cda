// The operators' farm actions on a real database (decision 044): each change commits with its audit
// entry and bad input writes neither; a seed a member planted cannot be deleted (a never-planted one
// can); the economy view sums farm_days per Japan-time day, with zeros for days nobody played.
import { describe, expect, it } from 'vitest';
import { asc, eq, inArray } from 'drizzle-orm';
import { useTestDatabase } from '#tests/use-test-database';
import { adminAuditLog, farmActions, farmDays, farmPlots, farmRules, farmSeeds } from '#db/schema';
import { commandLineOperator, type Operator } from '#modules/admin';
import {
  defaultFarmEconomyRange,
  deleteFarmSeedAsOperator,
  farmEconomy,
  listFarmSeeds,
  pauseFarmAsOperator,
  readFarmRules,
  saveFarmSeedAsOperator,
  updateFarmRulesAsOperator,
} from '#modules/farm';

const handle = useTestDatabase('farm-operators');

const operator = (): Operator => ({ ...commandLineOperator(), label: 'farm-test', requestId: 'req-farm' });

const auditOf = async (targetType: string, targetId: string) =>
  handle.db
    .select()
    .from(adminAuditLog)
    .where(eq(adminAuditLog.targetId, targetId))
    .orderBy(asc(adminAuditLog.id))
    .then((rows) => rows.filter((r) => r.targetType === targetType));

const rulesForm = {
  plotUnlockLevels: '1, 1, 1, 1, 3, 6',
  waterCooldownMinutes: '240',
  waterSpeedupPercent: '30',
  witherAfterMinutes: '2880',
  dailyCoinCap: '50',
  friendWaterCoins: '2',
};

const seedForm = (id: string) => ({
  id,
  name: 'メロン',
  art: 'pumpkin',
  growMinutes: '600',
  rewardCoins: '8',
  unlockLevel: '4',
  active: 'on',
  sort: '70',
});

describe('the farm rules and the pause switch', () => {
  it('saves the rules with their audit entry, and bad input changes nothing and writes no entry', async () => {
    const before = await readFarmRules(handle.db);
    const done = await updateFarmRulesAsOperator(handle.db, operator(), rulesForm);
    expect(done).toMatchObject({ ok: true, value: { dailyCoinCap: 50, plotUnlockLevels: [1, 1, 1, 1, 3, 6] } });
    const after = await readFarmRules(handle.db);
    expect(after).toMatchObject({
      waterCooldownMinutes: 240,
      waterSpeedupPercent: 30,
      witherAfterMinutes: 2880,
      friendWaterCoins: 2,
      updatedBy: 'farm-test',
    });
    const [entry, ...more] = await auditOf('farm', 'rules');
    expect(more).toEqual([]);
    expect(entry).toMatchObject({ action: 'farm.rules', permission: 'farm:write', actorLabel: 'farm-test' });
    expect(entry!.before).toMatchObject({ dailyCoinCap: before.dailyCoinCap });
    expect(entry!.after).toMatchObject({ dailyCoinCap: 50 });

    // Out of bounds and out of order: refused field by field in Japanese; nothing written.
    const bad = await updateFarmRulesAsOperator(handle.db, operator(), {
      ...rulesForm,
      plotUnlockLevels: '1, 5, 3',
      waterCooldownMinutes: '59',
      waterSpeedupPercent: '91',
      dailyCoinCap: '10001',
    });
    expect(bad).toMatchObject({ ok: false, code: 'FARM_INPUT_INVALID' });
    if (bad.ok) throw new Error('bad rules were accepted');
    const fields = bad.details.fields as Record<string, string>;
    expect(fields.plotUnlockLevels).toContain('小さい順');
    expect(fields.waterCooldownMinutes).toBe('水やりの間隔は60〜1,440分です。');
    expect(fields.waterSpeedupPercent).toBe('水やりの短縮率は0〜90%です。');
    expect(fields.dailyCoinCap).toBe('1日の上限は0〜10,000コインです。');
    expect(
      await updateFarmRulesAsOperator(handle.db, operator(), {
        ...rulesForm,
        plotUnlockLevels: '1,1,1,1,1',
      }),
    ).toMatchObject({
      code: 'FARM_INPUT_INVALID',
      details: { fields: { plotUnlockLevels: expect.stringContaining('4面まで') } },
    });
    expect(await readFarmRules(handle.db)).toMatchObject({ dailyCoinCap: 50, waterCooldownMinutes: 240 });
    expect(await auditOf('farm', 'rules')).toHaveLength(1);
  });

  it('pauses and resumes, each switch audited once; pausing a paused farm records nothing', async () => {
    const start = (await auditOf('farm', 'rules')).length;
    expect(await pauseFarmAsOperator(handle.db, operator(), true)).toMatchObject({ ok: true, value: { paused: true } });
    expect((await readFarmRules(handle.db)).paused).toBe(true);
    expect(await pauseFarmAsOperator(handle.db, operator(), true)).toMatchObject({ ok: true });
    expect(await pauseFarmAsOperator(handle.db, operator(), false)).toMatchObject({
      ok: true,
      value: { paused: false },
    });
    const entries = (await auditOf('farm', 'rules')).slice(start);
    expect(entries.map((e) => [e.action, e.before, e.after])).toEqual([
      ['farm.pause', { paused: false }, { paused: true }],
      ['farm.resume', { paused: true }, { paused: false }],
    ]);
  });

  it('refuses without farm:write, before anything is read or written', async () => {
    const staff: Operator = { ...operator(), role: 'staff', permissions: new Set(['reports:read']) };
    expect(await pauseFarmAsOperator(handle.db, staff, true)).toMatchObject({
      code: 'PERMISSION_DENIED',
      details: { permission: 'farm:write' },
    });
    const [row] = await handle.db.select({ paused: farmRules.paused }).from(farmRules);
    expect(row!.paused).toBe(false);
  });
});

describe('the seed table', () => {
  it('adds, edits and deactivates a seed, each with its entry; a taken id and bad input write nothing', async () => {
    const made = await saveFarmSeedAsOperator(handle.db, operator(), seedForm('melon'), 'create');
    expect(made).toMatchObject({ ok: true, value: { id: 'melon', growMinutes: 600, rewardCoins: 8, active: true } });
    expect(await saveFarmSeedAsOperator(handle.db, operator(), seedForm('melon'), 'create')).toMatchObject({
      code: 'FARM_SEED_TAKEN',
    });
    expect(await saveFarmSeedAsOperator(handle.db, operator(), seedForm('nothing-here'), 'update')).toMatchObject({
      code: 'FARM_SEED_NOT_FOUND',
    });
    const bad = await saveFarmSeedAsOperator(
      handle.db,
      operator(),
      { ...seedForm('melon'), growMinutes: '29', rewardCoins: '1001', art: 'dragonfruit', name: '' },
      'update',
    );
    expect(bad).toMatchObject({
      code: 'FARM_INPUT_INVALID',
      details: {
        fields: {
          growMinutes: '育つ時間は30〜1,440分です。',
          rewardCoins: '収穫の報酬は0〜1,000コインです。',
          art: '絵柄を一覧から選んでください。',
          name: '名前を入力してください。',
        },
      },
    });
    expect(
      await saveFarmSeedAsOperator(handle.db, operator(), { ...seedForm('Melon!'), id: '9melon' }, 'create'),
    ).toMatchObject({ code: 'FARM_INPUT_INVALID', details: { fields: { id: expect.stringContaining('英小文字') } } });

    // The checkbox left off: deactivated (members no longer see it; the operators' list still does).
    const { active: _on, ...off } = seedForm('melon');
    expect(
      await saveFarmSeedAsOperator(handle.db, operator(), { ...off, name: 'アールスメロン' }, 'update'),
    ).toMatchObject({ ok: true, value: { active: false, name: 'アールスメロン' } });
    expect((await listFarmSeeds(handle.db)).some((s) => s.id === 'melon')).toBe(false);
    expect((await listFarmSeeds(handle.db, { includeInactive: true })).find((s) => s.id === 'melon')).toMatchObject({
      active: false,
    });
    const entries = await auditOf('farm_seed', 'melon');
    expect(entries.map((e) => e.action)).toEqual(['farm.seed.create', 'farm.seed.update']);
    expect(entries[0]).toMatchObject({ before: null, after: { name: 'メロン', active: true } });
    expect(entries[1]).toMatchObject({ before: { name: 'メロン' }, after: { name: 'アールスメロン', active: false } });
  });

  it('deletes a never-planted seed, and refuses a seed on a plot or in the log (it stays, with no entry)', async () => {
    for (const id of ['fig', 'kiwi', 'lemon'])
      expect(await saveFarmSeedAsOperator(handle.db, operator(), seedForm(id), 'create')).toMatchObject({ ok: true });
    // kiwi grows on a plot now; lemon was planted and harvested long ago (only the log names it).
    await handle.db.insert(farmPlots).values({
      memberId: 'member-kiwi',
      plotNo: 1,
      plantingId: 9001,
      seedId: 'kiwi',
      rewardCoins: 8,
      plantedAt: new Date(),
      readyAt: new Date(Date.now() + 600 * 60_000),
    });
    await handle.db.insert(farmActions).values({
      memberId: 'member-lemon',
      kind: 'plant',
      jstDay: '2026-10-01',
      plotNo: 2,
      plantingId: 9002,
      seedId: 'lemon',
    });
    expect(await deleteFarmSeedAsOperator(handle.db, operator(), 'fig')).toMatchObject({
      ok: true,
      value: { id: 'fig' },
    });
    for (const id of ['kiwi', 'lemon'])
      expect(await deleteFarmSeedAsOperator(handle.db, operator(), id)).toMatchObject({
        ok: false,
        code: 'FARM_SEED_PLANTED',
        details: { seedId: id, name: 'メロン' },
      });
    expect(await deleteFarmSeedAsOperator(handle.db, operator(), 'fig')).toMatchObject({ code: 'FARM_SEED_NOT_FOUND' });
    const left = await handle.db
      .select({ id: farmSeeds.id })
      .from(farmSeeds)
      .where(inArray(farmSeeds.id, ['fig', 'kiwi', 'lemon']));
    expect(left.map((s) => s.id).sort()).toEqual(['kiwi', 'lemon']);
    expect((await auditOf('farm_seed', 'fig')).map((e) => e.action)).toEqual(['farm.seed.create', 'farm.seed.delete']);
    expect((await auditOf('farm_seed', 'kiwi')).map((e) => e.action)).toEqual(['farm.seed.create']);
    expect((await auditOf('farm_seed', 'lemon')).map((e) => e.action)).toEqual(['farm.seed.create']);
  });
});

describe('the economy view', () => {
  it('sums farm_days per Japan-time day, zeros for a day nobody played, streaks and totals', async () => {
    const row = (memberId: string, jstDay: string, v: Partial<typeof farmDays.$inferInsert>) => ({
      memberId,
      jstDay,
      coins: 0,
      harvests: 0,
      waterings: 0,
      friendWaterings: 0,
      streak: 1,
      ...v,
    });
    await handle.db.insert(farmDays).values([
      // Outside the range on both sides: not counted.
      row('a', '2026-11-09', { coins: 999, harvests: 99 }),
      row('a', '2026-11-10', { coins: 10, harvests: 3, waterings: 4, streak: 6 }),
      row('b', '2026-11-10', { coins: 5, harvests: 1, friendWaterings: 2, streak: 2 }),
      row('c', '2026-11-10', { coins: 30, harvests: 6, waterings: 7, friendWaterings: 1, streak: 3 }),
      // 2026-11-11: nobody played.
      row('a', '2026-11-12', { coins: 4, harvests: 2, waterings: 1, streak: 1 }),
      row('c', '2026-11-12', { coins: 0, waterings: 2, streak: 9 }),
      row('c', '2026-11-13', { coins: 77 }),
    ]);
    const economy = await farmEconomy(handle.db, { from: '2026-11-10', to: '2026-11-12' });
    expect(economy.days).toEqual([
      {
        day: '2026-11-10',
        coins: 45,
        players: 3,
        harvests: 10,
        waterings: 11,
        friendWaterings: 3,
        streak3: 2,
        streak7: 0,
        longestStreak: 6,
      },
      {
        day: '2026-11-11',
        coins: 0,
        players: 0,
        harvests: 0,
        waterings: 0,
        friendWaterings: 0,
        streak3: 0,
        streak7: 0,
        longestStreak: 0,
      },
      {
        day: '2026-11-12',
        coins: 4,
        players: 2,
        harvests: 2,
        waterings: 3,
        friendWaterings: 0,
        streak3: 1,
        streak7: 1,
        longestStreak: 9,
      },
    ]);
    expect(economy.totals).toEqual({
      coins: 49,
      playerDays: 5,
      members: 3,
      harvests: 12,
      waterings: 14,
      friendWaterings: 3,
      // Different members: a (streak 6) and c (3, then 9) reached 3; only c reached 7.
      streak3: 2,
      streak7: 1,
      longestStreak: 9,
    });
    // One day; a reversed, unreal or too long range is refused.
    expect((await farmEconomy(handle.db, { from: '2026-11-13', to: '2026-11-13' })).totals.coins).toBe(77);
    for (const range of [
      { from: '2026-11-12', to: '2026-11-10' },
      { from: '2026-02-30', to: '2026-03-01' },
      { from: '2026-01-01', to: '2026-04-03' },
    ])
      await expect(farmEconomy(handle.db, range)).rejects.toMatchObject({ code: 'FARM_ECONOMY_RANGE' });
    // The default range is the last 14 Japan-time days: at 00:30 in Japan the new day is already in it.
    expect(defaultFarmEconomyRange(new Date('2026-11-24T15:30:00Z'))).toEqual({ from: '2026-11-12', to: '2026-11-25' });
    expect(defaultFarmEconomyRange(new Date('2026-11-24T14:59:59Z'))).toEqual({ from: '2026-11-11', to: '2026-11-24' });
    // 92 days is the longest range, every day present.
    expect((await farmEconomy(handle.db, { from: '2026-09-01', to: '2026-12-01' })).days).toHaveLength(92);
  });
});
