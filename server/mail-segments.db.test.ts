// The shop's segment matcher against a real database (decision 034): rank as of the send time, genre
// buyers who drew before it, members inactive for N days before it, and 'all'.
import { randomUUID } from 'node:crypto';
import { afterEach, describe, it, expect } from 'vitest';
import { eq, like } from 'drizzle-orm';
import { useTestDatabase } from '#tests/use-test-database';
import { createMember, createPublishedPack } from '#tests/fixtures';
import { draws, sessions, users } from '#db/schema';
import { grantCoins } from '#modules/wallet';
import { composeMail, listMails, unreadMailCount, type MailSegment } from '#modules/mailbox';
import { paragraph } from '#modules/content';
import { shopSegmentMatcher } from './mail-segments';

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
