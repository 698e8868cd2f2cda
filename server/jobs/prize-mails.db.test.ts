// The prize box's mailbox mails (decision 034): one deadline reminder per member, deadline day and kind
// (3 days, 1 day), however often the hourly job runs and however many cards share the day.
import { randomUUID } from 'node:crypto';
import { afterAll, describe, it, expect } from 'vitest';
import { inArray } from 'drizzle-orm';
import { useTestDatabase } from '#tests/use-test-database';
import { createMember } from '#tests/fixtures';
import { prizes } from '#db/schema';
import { listMails } from '#modules/mailbox';
import { prizeConversionMail, sendPrizeDeadlineMails } from './prize-mails';

const handle = useTestDatabase('prize-mails');
const HOUR = 3_600_000;
const made: string[] = [];

async function pendingPrizes(memberId: string, decideBy: Date, count: number) {
  const rows = Array.from({ length: count }, () => ({
    id: randomUUID(),
    memberId,
    drawId: randomUUID(),
    gachaId: 'no-such-pack',
    tierId: 'no-such-tier',
    conversionValue: 10,
    decideBy,
  }));
  await handle.db.insert(prizes).values(rows);
  made.push(...rows.map((r) => r.id));
}

// Bare prize rows (no lots behind them) are gone before the shop's invariants are checked.
afterAll(async () => {
  if (made.length) await handle.db.delete(prizes).where(inArray(prizes.id, made));
});

const subjects = async (memberId: string) =>
  (
    await listMails(handle.db, memberId, 'personal', { limit: 50 }, { now: new Date(Date.now() + 10 * 24 * HOUR) })
  ).items
    .filter((m) => m.category === 'prize_deadline')
    .map((m) => m.subject);

describe('sendPrizeDeadlineMails', () => {
  it('sends the 3-day and then the 1-day reminder once per deadline day, not once per card', async () => {
    const member = await createMember(handle.db);
    const start = new Date();
    // Ten cards due in 60 hours (one draw), two more due the same Japan-time day a few minutes later.
    const due = new Date(start.getTime() + 60 * HOUR);
    await pendingPrizes(member, due, 10);
    await pendingPrizes(member, new Date(due.getTime() + 5 * 60_000), 2);
    await sendPrizeDeadlineMails(handle.db, start);
    await sendPrizeDeadlineMails(handle.db, new Date(start.getTime() + HOUR)); // the next hourly run
    expect(await subjects(member)).toEqual(['獲得したカードの選択期限が近づいています']);
    // A day and a half later the deadline is within a day: the 1-day reminder, once.
    const later = new Date(start.getTime() + 40 * HOUR);
    await Promise.all([sendPrizeDeadlineMails(handle.db, later), sendPrizeDeadlineMails(handle.db, later)]);
    await sendPrizeDeadlineMails(handle.db, new Date(later.getTime() + HOUR));
    expect((await subjects(member)).sort()).toEqual(
      ['【明日まで】獲得したカードの選択期限です', '獲得したカードの選択期限が近づいています'].sort(),
    );
  });

  it('leaves out decided prizes and deadlines further than 3 days', async () => {
    const member = await createMember(handle.db);
    const now = new Date();
    await pendingPrizes(member, new Date(now.getTime() + 5 * 24 * HOUR), 3);
    await sendPrizeDeadlineMails(handle.db, now);
    expect(await subjects(member)).toEqual([]);
  });
});

describe('prizeConversionMail', () => {
  it('writes one notice per conversion, and nothing more when retried', async () => {
    const member = await createMember(handle.db);
    const notify = prizeConversionMail();
    const conversion = {
      memberId: member,
      converted: [{ prizeId: randomUUID(), coins: 50, wasKept: false }],
      total: 50,
    };
    await notify(handle.db, conversion);
    await notify(handle.db, conversion);
    const mails = (await listMails(handle.db, member, 'personal', { limit: 10 })).items;
    expect(mails.filter((m) => m.category === 'prize_auto_converted')).toHaveLength(1);
  });
});
