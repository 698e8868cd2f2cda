// The shop's segment matcher against a real database (decision 034): rank as of the send time, genre
// buyers who drew before it, members inactive for N days before it, and 'all'. And the count an operator
// confirms before a broadcast (decision 052): for every segment, exactly the live members who had joined
// and whom the matcher answers yes for, judged member by member as the oracle.
import { randomUUID } from 'node:crypto';
import { afterEach, describe, it, expect } from 'vitest';
import { and, eq, isNull, like, lt } from 'drizzle-orm';
import { useTestDatabase } from '#tests/use-test-database';
import { createMember, createPublishedPack } from '#tests/fixtures';
import { draws, memberMonthlyRanks, rankMonths, sessions, users } from '#db/schema';
import { grantCoins } from '#modules/wallet';
import { composeMail, listMails, unreadMailCount, type MailSegment } from '#modules/mailbox';
import { paragraph } from '#modules/content';
import { jstMonths, monthKey } from '#modules/progression';
import { countMailRecipients, shopSegmentMatcher } from './mail-segments';

const handle = useTestDatabase('mail-segments');
const DAY = 86_400_000;
const lifetimes = { paid: 180, free: 90 };

async function memberSince(days: number) {
  const id = await createMember(handle.db);
  await handle.db
    .update(users)
    .set({ createdAt: new Date(Date.now() - days * DAY) })
    .where(eq(users.id, id));
  return id;
}

async function drewAt(memberId: string, gachaId: string, at: Date) {
  await handle.db.insert(draws).values({
    memberId,
    idemKey: `seg-${randomUUID()}`,
    requestHash: 'h',
    gachaId,
    count: 1,
    cost: 100,
    status: 'completed',
    createdAt: at,
  });
}

// Bare draw rows (no lots, no ledger) stand for activity here; gone before the shop's invariants are checked.
afterEach(async () => {
  await handle.db.delete(draws).where(like(draws.idemKey, 'seg-%'));
});

const match = (memberId: string, segment: MailSegment, sendAt = new Date()) =>
  shopSegmentMatcher(handle.db, memberId, [{ segment, sendAt }]).then((r) => r[0]);

describe('shopSegmentMatcher', () => {
  it('rank: last Japan-time month’s paid purchases as of the send time', async () => {
    const member = await memberSince(90);
    const sendAt = new Date();
    // 35,000 paid coins bought 40 days before: in the month before the send time's month at the latest…
    await grantCoins(handle.db, {
      memberId: member,
      kind: 'paid',
      amount: 35_000,
      reason: 'purchase',
      counterAccount: 'purchase',
      idempotencyKey: `seg:${member}`,
      now: new Date(sendAt.getTime() - 40 * DAY),
      lifetimeDays: lifetimes,
    });
    // …so judge at a send time one month after that purchase's month: Silver (rank 2) needs 30,000.
    const purchase = new Date(sendAt.getTime() - 40 * DAY);
    const jst = new Date(purchase.getTime() + 9 * 3_600_000);
    const nextMonthJst = Date.UTC(jst.getUTCFullYear(), jst.getUTCMonth() + 1, 10) - 9 * 3_600_000;
    const judged = new Date(nextMonthJst);
    expect(await match(member, { kind: 'rank', minRank: 2 }, judged)).toBe(true);
    expect(await match(member, { kind: 'rank', minRank: 3 }, judged)).toBe(false);
    // Two months later the purchase no longer counts.
    expect(await match(member, { kind: 'rank', minRank: 1 }, new Date(nextMonthJst + 40 * DAY))).toBe(false);
  });

  it('genre buyers: drew from a pack of the genre before the send time', async () => {
    const pack = await createPublishedPack(handle.db, { lots: 5, price: 100, genreId: 'seg-genre' });
    const [buyer, later, never] = [await memberSince(30), await memberSince(30), await memberSince(30)];
    const sendAt = new Date(Date.now() - DAY);
    await drewAt(buyer, pack, new Date(sendAt.getTime() - DAY));
    await drewAt(later, pack, new Date(sendAt.getTime() + 1000));
    const segment: MailSegment = { kind: 'genre_buyers', genreId: 'seg-genre' };
    expect(await match(buyer, segment, sendAt)).toBe(true);
    expect(await match(later, segment, sendAt)).toBe(false);
    expect(await match(never, segment, sendAt)).toBe(false);
    expect(await match(buyer, { kind: 'genre_buyers', genreId: 'other-genre' }, sendAt)).toBe(false);
  });

  it('inactive for N days: no sign-in and no draw in the N days before the send time', async () => {
    const pack = await createPublishedPack(handle.db, { lots: 5, price: 100, genreId: 'seg-genre' });
    const [idle, signedIn, drew] = [await memberSince(100), await memberSince(100), await memberSince(100)];
    const sendAt = new Date();
    await handle.db.insert(sessions).values({
      id: randomUUID(),
      token: randomUUID(),
      userId: signedIn,
      expiresAt: new Date(Date.now() + DAY),
      createdAt: new Date(sendAt.getTime() - 5 * DAY),
      updatedAt: new Date(sendAt.getTime() - 5 * DAY),
    });
    await drewAt(drew, pack, new Date(sendAt.getTime() - 3 * DAY));
    await drewAt(idle, pack, new Date(sendAt.getTime() - 60 * DAY));
    const segment: MailSegment = { kind: 'inactive', days: 30 };
    expect(await match(idle, segment, sendAt)).toBe(true);
    expect(await match(signedIn, segment, sendAt)).toBe(false);
    expect(await match(drew, segment, sendAt)).toBe(false);
    expect(await match(signedIn, { kind: 'inactive', days: 3 }, sendAt)).toBe(true);
  });

  it('is what the lists and the count use: a segment’s broadcast reaches only its members', async () => {
    const pack = await createPublishedPack(handle.db, { lots: 5, price: 100, genreId: 'seg-genre-2' });
    const [buyer, other] = [await memberSince(10), await memberSince(10)];
    await drewAt(buyer, pack, new Date(Date.now() - 2 * DAY));
    const { mailId } = await composeMail(handle.db, {
      to: { audience: 'broadcast', segment: { kind: 'genre_buyers', genreId: 'seg-genre-2' } },
      subject: 'ジャンルの新作',
      body: [paragraph('新作です')],
      attachment: null,
      sendAt: new Date(Date.now() - 1000),
      createdBy: 'ops',
    });
    const options = { matcher: shopSegmentMatcher };
    const ids = async (m: string) =>
      (await listMails(handle.db, m, 'broadcast', { limit: 50 }, options)).items.map((i) => i.id);
    expect(await ids(buyer)).toContain(mailId);
    expect(await ids(other)).not.toContain(mailId);
    expect(await unreadMailCount(handle.db, buyer, options)).toBe(
      (await unreadMailCount(handle.db, other, options)) + 1,
    );
  });
});

describe('countMailRecipients', () => {
  /** The oracle: every member who had joined before `at` and not left, judged one by one by the matcher. */
  async function countedOneByOne(segment: MailSegment, at: Date) {
    const live = await handle.db
      .select({ id: users.id })
      .from(users)
      .where(and(lt(users.createdAt, at), isNull(users.deletedAt)));
    let n = 0;
    for (const { id } of live) if (await match(id, segment, at)) n++;
    return n;
  }

  async function bought(memberId: string, amount: number, at: Date) {
    await grantCoins(handle.db, {
      memberId,
      kind: 'paid',
      amount,
      reason: 'purchase',
      counterAccount: 'purchase',
      idempotencyKey: `seg-count:${memberId}:${at.toISOString()}`,
      now: at,
      lifetimeDays: lifetimes,
    });
  }

  async function signedInAt(memberId: string, at: Date) {
    await handle.db.insert(sessions).values({
      id: randomUUID(),
      token: randomUUID(),
      userId: memberId,
      expiresAt: new Date(at.getTime() + DAY),
      createdAt: at,
      updatedAt: at,
    });
  }

  const segments: MailSegment[] = [
    { kind: 'all' },
    ...[0, 1, 2, 3, 4, 5, 6].map((minRank) => ({ kind: 'rank' as const, minRank })),
    { kind: 'genre_buyers', genreId: 'seg-count-genre' },
    { kind: 'genre_buyers', genreId: 'seg-count-none' },
    ...[3, 30, 90].map((days) => ({ kind: 'inactive' as const, days })),
  ];

  it('counts every segment exactly as the matcher judges each member, leaving out the deleted and the later', async () => {
    const at = new Date(Date.now() - 3_600_000);
    const { lastMonth, thisMonth } = jstMonths(at);
    const inLastMonth = new Date(lastMonth.getTime() + DAY);
    const pack = await createPublishedPack(handle.db, { lots: 5, price: 100, genreId: 'seg-count-genre' });
    const other = await createPublishedPack(handle.db, { lots: 5, price: 100, genreId: 'seg-count-other' });

    const silver = await memberSince(120);
    await bought(silver, 35_000, inLastMonth);
    const goldButLeft = await memberSince(120);
    await bought(goldButLeft, 120_000, inLastMonth);
    await drewAt(goldButLeft, pack, new Date(at.getTime() - 2 * DAY));
    await handle.db
      .update(users)
      .set({ deletedAt: new Date(at.getTime() - DAY) })
      .where(eq(users.id, goldButLeft));
    const bronzeBuyer = await memberSince(120);
    await bought(bronzeBuyer, 12_000, inLastMonth);
    await drewAt(bronzeBuyer, pack, new Date(at.getTime() - 2 * DAY));
    // Bought this month: decides next month's rank, not this one's.
    const boughtThisMonth = await memberSince(120);
    await bought(boughtThisMonth, 500_000, new Date(Math.max(thisMonth.getTime(), at.getTime() - 2 * 3_600_000)));
    const idleBuyer = await memberSince(120);
    await drewAt(idleBuyer, pack, new Date(at.getTime() - 60 * DAY));
    const otherGenre = await memberSince(120);
    await drewAt(otherGenre, other, new Date(at.getTime() - DAY));
    const drewAfter = await memberSince(120);
    await drewAt(drewAfter, pack, new Date(at.getTime() + 60_000));
    const recentSignIn = await memberSince(120);
    await signedInAt(recentSignIn, new Date(at.getTime() - 5 * DAY));
    const oldSignIn = await memberSince(120);
    await signedInAt(oldSignIn, new Date(at.getTime() - 45 * DAY));
    const joinedLater = await memberSince(0);
    await drewAt(joinedLater, pack, new Date(at.getTime() + 1_000));

    const counts: Record<string, number> = {};
    for (const segment of segments) {
      const counted = await countMailRecipients(handle.db, { audience: 'broadcast', segment }, at);
      expect(counted, JSON.stringify(segment)).toBe(await countedOneByOne(segment, at));
      counts[JSON.stringify(segment)] = counted;
    }
    // The population above makes each rule matter (not only agree on zero).
    expect(counts['{"kind":"rank","minRank":2}']).toBeGreaterThanOrEqual(1);
    expect(counts['{"kind":"rank","minRank":1}']).toBe(counts['{"kind":"rank","minRank":2}']! + 1);
    expect(counts['{"kind":"genre_buyers","genreId":"seg-count-genre"}']).toBe(2);
    expect(counts['{"kind":"genre_buyers","genreId":"seg-count-none"}']).toBe(0);
    expect(counts['{"kind":"inactive","days":30}']).toBeLessThan(counts['{"kind":"all"}']!);
    expect(counts['{"kind":"rank","minRank":0}']).toBe(counts['{"kind":"all"}']);
    expect(await countMailRecipients(handle.db, { audience: 'personal', memberId: silver }, at)).toBe(1);
  });

  it('reads the month’s recorded ranks once the monthly job has finished the month', async () => {
    const at = new Date();
    const month = monthKey(at);
    const [recorded, unrecordedBuyer] = [await memberSince(60), await memberSince(60)];
    // The recorded rank wins over purchases: the job's record is the month's rank (as currentRank reads it).
    await bought(unrecordedBuyer, 400_000, new Date(jstMonths(at).lastMonth.getTime() + DAY));
    await handle.db.insert(rankMonths).values({ month, doneAt: at }).onConflictDoNothing();
    await handle.db.insert(memberMonthlyRanks).values({ memberId: recorded, month, rank: 4, paidCoins: 300_000 });
    try {
      for (const minRank of [1, 3, 4, 5]) {
        const segment: MailSegment = { kind: 'rank', minRank };
        const counted = await countMailRecipients(handle.db, { audience: 'broadcast', segment }, at);
        expect(counted, `rank ≥ ${minRank}`).toBe(await countedOneByOne(segment, at));
      }
      expect(await match(recorded, { kind: 'rank', minRank: 4 }, at)).toBe(true);
      expect(await match(unrecordedBuyer, { kind: 'rank', minRank: 1 }, at)).toBe(false);
    } finally {
      await handle.db.delete(memberMonthlyRanks).where(eq(memberMonthlyRanks.month, month));
      await handle.db.delete(rankMonths).where(eq(rankMonths.month, month));
    }
  });
});
