// The home page's ripe-crop nudge (issue 29 item 10): ripe crops counted, growing and withered ones not,
// nothing while the farm is paused, and never another member's plots.
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { useTestDatabase } from '#tests/use-test-database';
import { createMember } from '#tests/fixtures';
import { farmRules } from './schema';
import { plantSeed, ripeCropCount, FARM_RULES_ID } from './index';

const handle = useTestDatabase('farm-nudge', { poolSize: 2 });
const lifetimeDays = { paid: 180, free: 90 };
const MIN = 60_000;

describe('ripeCropCount', () => {
  it('counts the member’s ripe crops only, and none while the farm is paused', async () => {
    const [member, other] = [await createMember(handle.db), await createMember(handle.db)];
    const t0 = new Date('2026-11-24T03:00:00Z');
    const [rules] = await handle.db.select().from(farmRules).where(eq(farmRules.id, FARM_RULES_ID));
    expect((await plantSeed(handle.db, member, { plotNo: 1, seedId: 'radish' }, { now: t0, lifetimeDays })).ok).toBe(
      true,
    );
    expect((await plantSeed(handle.db, other, { plotNo: 1, seedId: 'radish' }, { now: t0, lifetimeDays })).ok).toBe(
      true,
    );
    expect(await ripeCropCount(handle.db, member, new Date(t0.getTime() + 10 * MIN))).toBe(0); // growing
    const ripeAt = new Date(t0.getTime() + 31 * MIN);
    expect(await ripeCropCount(handle.db, member, ripeAt)).toBe(1);
    const withered = new Date(t0.getTime() + (31 + rules!.witherAfterMinutes) * MIN);
    expect(await ripeCropCount(handle.db, member, withered)).toBe(0);
    await handle.db.update(farmRules).set({ paused: true }).where(eq(farmRules.id, FARM_RULES_ID));
    try {
      expect(await ripeCropCount(handle.db, member, ripeAt)).toBe(0);
    } finally {
      await handle.db.update(farmRules).set({ paused: false }).where(eq(farmRules.id, FARM_RULES_ID));
    }
  });
});
