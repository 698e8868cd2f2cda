// The login bonus against a real database (decision 033): once per Japan-time day under concurrent
// claims, the streak (continue, reset after a missed day), the day's edges with the server in UTC
// (23:59 vs 00:00 JST = 15:00 UTC, month end, year end), the amounts table, and who is refused.
import { describe, it, expect } from 'vitest';
import { eq } from 'drizzle-orm';
import { useTestDatabase } from '#tests/use-test-database';
import { createMember } from '#tests/fixtures';
import { users } from '#db/schema';
import { getBalance, listLedgerEntries } from '#modules/wallet';
import { setMaintenance } from '#modules/shop';
import {
  claimLoginBonus,
  coinsForStreakDay,
  jstDayOf,
  listLoginBonusClaims,
  loginBonusStateOf,
  nextJstDayStart,
  tableDayOf,
  type LoginBonusRules,
} from './index';

const handle = useTestDatabase('bonus', { poolSize: 10 });

const RULES: LoginBonusRules = { streakCoins: [10, 10, 20, 20, 30, 30, 100], afterTable: 'repeat', freeCoinDays: 90 };
/** An instant given as Japan time (the server runs in UTC: the offset is written out). */
const jst = (text: string) => new Date(`${text}+09:00`);

async function claimOk(member: string, now: Date, rules = RULES) {
  const outcome = await claimLoginBonus(handle.db, member, rules, now);
  if (!outcome.ok) throw new Error(`refused: ${outcome.code}`);
  return outcome;
}

describe('the Japan-time day', () => {
  it('turns at 15:00 UTC, and across month and year ends', () => {
    expect(process.env.TZ ?? 'UTC').not.toBe('Asia/Tokyo');
    expect(jstDayOf(new Date('2026-11-24T14:59:59.999Z'))).toBe('2026-11-24');
    expect(jstDayOf(new Date('2026-11-24T15:00:00Z'))).toBe('2026-11-25');
    expect(jstDayOf(jst('2026-11-30T23:59:59'))).toBe('2026-11-30');
    expect(jstDayOf(jst('2026-12-01T00:00:00'))).toBe('2026-12-01');
    expect(jstDayOf(new Date('2026-12-31T15:00:00Z'))).toBe('2027-01-01');
    expect(nextJstDayStart(new Date('2026-12-31T14:59:00Z'))).toEqual(new Date('2026-12-31T15:00:00Z'));
  });
});

describe('the amounts table', () => {
  it('gives day 1..7 of the table, then repeats it or holds its last amount', () => {
    const days = [1, 2, 3, 4, 5, 6, 7, 8, 9, 14, 15];
    expect(days.map((d) => coinsForStreakDay(RULES, d))).toEqual([10, 10, 20, 20, 30, 30, 100, 10, 10, 100, 10]);
    expect(days.map((d) => tableDayOf(RULES, d))).toEqual([1, 2, 3, 4, 5, 6, 7, 1, 2, 7, 1]);
    const hold = { ...RULES, afterTable: 'hold' as const };
    expect(days.map((d) => coinsForStreakDay(hold, d))).toEqual([10, 10, 20, 20, 30, 30, 100, 100, 100, 100, 100]);
    expect(days.map((d) => tableDayOf(hold, d))).toEqual([1, 2, 3, 4, 5, 6, 7, 7, 7, 7, 7]);
  });

  it('is off with an empty table ("0"): nothing is granted', async () => {
    const member = await createMember(handle.db);
    const off = { ...RULES, streakCoins: [] };
    expect(await claimLoginBonus(handle.db, member, off)).toMatchObject({ ok: false, code: 'LOGIN_BONUS_DISABLED' });
    expect((await loginBonusStateOf(handle.db, member, off)).enabled).toBe(false);
    expect((await getBalance(handle.db, member)).free).toBe(0);
  });
});

describe('claimLoginBonus', () => {
  it('credits exactly once under 10 concurrent claims, with one ledger entry', async () => {
    const member = await createMember(handle.db);
    const now = jst('2026-11-24T12:00:00');
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, () => claimLoginBonus(handle.db, member, RULES, now)),
    );
    expect(outcomes.filter((o) => o.ok)).toHaveLength(1);
    const refused = outcomes.filter((o) => !o.ok);
    expect(refused).toHaveLength(9);
    for (const o of refused)
      expect(o).toMatchObject({
        code: 'LOGIN_BONUS_ALREADY_CLAIMED',
        details: { day: '2026-11-24', nextClaimAt: '2026-11-24T15:00:00.000Z' },
      });
    expect((await getBalance(handle.db, member, now)).free).toBe(10);
    const ledger = await listLedgerEntries(handle.db, member, { limit: 10 });
    expect(ledger.items.map((e) => [e.reason, e.amount, e.kind])).toEqual([['login_bonus', 10, 'free']]);
    expect((await loginBonusStateOf(handle.db, member, RULES, now)).claimed).toBe(true);
  });

  it('continues the streak on consecutive days, through month and year ends, and resets after a missed day', async () => {
    const member = await createMember(handle.db);
    // Seven days in a row across the year end, each claimed at 00:00 or 23:59 Japan time.
    const days = [
      jst('2026-12-26T00:00:00'),
      jst('2026-12-27T23:59:59'),
      jst('2026-12-28T00:00:00'),
      jst('2026-12-29T23:59:00'),
      jst('2026-12-30T00:00:00'),
      jst('2026-12-31T23:59:59'),
      jst('2027-01-01T00:00:00'), // = 2026-12-31T15:00Z: a new day and a new year in Japan
      jst('2027-01-02T09:00:00'), // day 8: the table starts again
    ];
    const got = [];
    for (const now of days) got.push(await claimOk(member, now));
    expect(got.map((c) => [c.day, c.streakDay, c.coins])).toEqual([
      ['2026-12-26', 1, 10],
      ['2026-12-27', 2, 10],
      ['2026-12-28', 3, 20],
      ['2026-12-29', 4, 20],
      ['2026-12-30', 5, 30],
      ['2026-12-31', 6, 30],
      ['2027-01-01', 7, 100],
      ['2027-01-02', 8, 10],
    ]);
    // 2027-01-03 missed: 2027-01-04 starts again at day 1.
    expect(await loginBonusStateOf(handle.db, member, RULES, jst('2027-01-04T08:00:00'))).toMatchObject({
      claimed: false,
      streakDay: 1,
      coins: 10,
    });
    expect(await claimOk(member, jst('2027-01-04T08:00:00'))).toMatchObject({ streakDay: 1, coins: 10 });
    expect((await getBalance(handle.db, member, jst('2027-01-04T09:00:00'))).free).toBe(
      10 + 10 + 20 + 20 + 30 + 30 + 100 + 10 + 10,
    );
  });

  it('tells 23:59 from 00:00 Japan time (15:00 UTC) and crosses the month end', async () => {
    const member = await createMember(handle.db);
    expect(await claimOk(member, new Date('2026-11-30T14:59:59Z'))).toMatchObject({ day: '2026-11-30', streakDay: 1 });
    // One second later in UTC terms is 00:00:00 on 1 December in Japan: a new day, streak day 2.
    expect(await claimOk(member, new Date('2026-11-30T15:00:00Z'))).toMatchObject({ day: '2026-12-01', streakDay: 2 });
    // Later the same Japan day (still 1 December UTC too): refused, the next claim opens at 15:00 UTC.
    expect(await claimLoginBonus(handle.db, member, RULES, new Date('2026-12-01T14:59:59Z'))).toMatchObject({
      ok: false,
      code: 'LOGIN_BONUS_ALREADY_CLAIMED',
      details: { day: '2026-12-01', nextClaimAt: '2026-12-01T15:00:00.000Z' },
    });
  });

  it('holds at the last amount when the rules say so', async () => {
    const member = await createMember(handle.db);
    const hold: LoginBonusRules = { ...RULES, streakCoins: [5, 50], afterTable: 'hold' };
    const claims = [];
    for (const day of ['2026-10-30', '2026-10-31', '2026-11-01'])
      claims.push(await claimOk(member, jst(`${day}T12:00:00`), hold));
    expect(claims.map((c) => c.coins)).toEqual([5, 50, 50]);
  });

  it('refuses staff, banned and deleted members, granting nothing', async () => {
    const staff = await createMember(handle.db, { role: 'admin' });
    expect(await claimLoginBonus(handle.db, staff, RULES)).toMatchObject({ ok: false, code: 'LOGIN_BONUS_STAFF' });
    const banned = await createMember(handle.db);
    await handle.db.update(users).set({ banned: true }).where(eq(users.id, banned));
    expect(await claimLoginBonus(handle.db, banned, RULES)).toMatchObject({
      ok: false,
      code: 'LOGIN_BONUS_NOT_AVAILABLE',
    });
    const banEnded = await createMember(handle.db);
    await handle.db
      .update(users)
      .set({ banned: true, banExpires: new Date('2026-01-01T00:00:00Z') })
      .where(eq(users.id, banEnded));
    expect(await claimLoginBonus(handle.db, banEnded, RULES)).toMatchObject({ ok: true });
    const deleted = await createMember(handle.db);
    await handle.db.update(users).set({ deletedAt: new Date() }).where(eq(users.id, deleted));
    expect(await claimLoginBonus(handle.db, deleted, RULES)).toMatchObject({
      ok: false,
      code: 'LOGIN_BONUS_NOT_AVAILABLE',
    });
    expect(await claimLoginBonus(handle.db, 'm_nobody', RULES)).toMatchObject({ ok: false, code: 'UNAUTHENTICATED' });
    for (const member of [staff, banned, deleted]) expect((await getBalance(handle.db, member)).free).toBe(0);
  });
});

describe('maintenance mode', () => {
  it('does not stop the claim (decision 033: neither a purchase nor a draw)', async () => {
    const member = await createMember(handle.db);
    await handle.db.transaction((tx) => setMaintenance(tx, { on: true, message: null, endsAt: null }, 'test'));
    try {
      expect(await claimLoginBonus(handle.db, member, RULES)).toMatchObject({ ok: true, coins: 10 });
    } finally {
      await handle.db.transaction((tx) => setMaintenance(tx, { on: false, message: null, endsAt: null }, 'test'));
    }
  });
});

describe('listLoginBonusClaims', () => {
  it('pages the member’s own claims, newest day first', async () => {
    const member = await createMember(handle.db);
    const other = await createMember(handle.db);
    for (let d = 1; d <= 5; d++) await claimOk(member, jst(`2026-09-0${d}T10:00:00`));
    await claimOk(other, jst('2026-09-03T10:00:00'));
    const first = await listLoginBonusClaims(handle.db, member, { limit: 3 });
    expect(first.items.map((i) => [i.day, i.streakDay, i.coins])).toEqual([
      ['2026-09-05', 5, 30],
      ['2026-09-04', 4, 20],
      ['2026-09-03', 3, 20],
    ]);
    expect(first.nextBefore).toBe('2026-09-03');
    const second = await listLoginBonusClaims(handle.db, member, { limit: 3, before: first.nextBefore! });
    expect(second.items.map((i) => i.day)).toEqual(['2026-09-02', '2026-09-01']);
    expect(second.nextBefore).toBeNull();
  });
});
