// Operators' mails against a real database (decision 034): a broadcast is one row, a scheduled one waits
// for its time, a withdrawn one disappears (claims made stand), counts come from the lazy state rows; the
// claimed-attachment log, the broadcast window and the email opt-in.
import { describe, it, expect } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { useTestDatabase } from '#tests/use-test-database';
import { createMember } from '#tests/fixtures';
import { mails, users } from '#db/schema';
import { recentMessages } from '#modules/messaging';
import { paragraph } from '#modules/content';
import {
  BROADCAST_WINDOW_DAYS,
  cancelMail,
  claimMailAttachment,
  claimedAttachments,
  composeMail,
  listMails,
  listSentMails,
  notifyMember,
  openMail,
  sendPendingMailEmails,
  setMailEmailOptIn,
  unreadMailCount,
  type MailSegment,
} from './index';

const handle = useTestDatabase('mailbox-operators');
const RULES = { freeCoinDays: 90 };
const DAY = 86_400_000;

async function oldMember(daysAgo = 1) {
  const id = await createMember(handle.db);
  await handle.db
    .update(users)
    .set({ createdAt: new Date(Date.now() - daysAgo * DAY) })
    .where(eq(users.id, id));
  return id;
}

const broadcast = (sendAt: Date, extra: { coins?: number; segment?: MailSegment } = {}) =>
  composeMail(handle.db, {
    to: { audience: 'broadcast', segment: extra.segment ?? { kind: 'all' } },
    subject: '全員へのお知らせ',
    body: [paragraph('本文')],
    attachment: extra.coins ? { coins: extra.coins, claimUntil: new Date(sendAt.getTime() + 7 * DAY) } : null,
    sendAt,
    createdBy: 'ops@example.test',
  });

describe('composeMail', () => {
  it('writes one row for a broadcast, whatever the audience, and nothing per member', async () => {
    const before = await handle.db.select({ n: sql<number>`count(*)::int` }).from(mails);
    const { mailId } = await broadcast(new Date(Date.now() - 1000), { coins: 50 });
    const after = await handle.db.select({ n: sql<number>`count(*)::int` }).from(mails);
    expect(after[0]!.n - before[0]!.n).toBe(1);
    const a = await oldMember();
    // `a` joined a day ago, the mail was sent a second ago.
    expect((await listMails(handle.db, a, 'broadcast', { limit: 50 })).items.map((m) => m.id)).toContain(mailId);
  });

  it('keeps a scheduled broadcast hidden until its time, then shows and counts it', async () => {
    const member = await oldMember();
    const later = new Date(Date.now() + 60 * 60 * 1000);
    const { mailId } = await broadcast(later);
    expect((await listMails(handle.db, member, 'broadcast', { limit: 50 })).items.map((m) => m.id)).not.toContain(
      mailId,
    );
    expect(await openMail(handle.db, member, mailId)).toBeNull();
    const afterwards = { now: new Date(later.getTime() + 1000) };
    const unreadBefore = await unreadMailCount(handle.db, member);
    expect(await unreadMailCount(handle.db, member, afterwards)).toBe(unreadBefore + 1);
    expect(await openMail(handle.db, member, mailId, afterwards)).toMatchObject({ id: mailId, read: true });
  });

  it('sends a personal mail to one member only', async () => {
    const [a, b] = [await createMember(handle.db), await createMember(handle.db)];
    const { mailId } = await composeMail(handle.db, {
      to: { audience: 'personal', memberId: a },
      subject: '個別のご連絡',
      body: [paragraph('あなたへ')],
      attachment: null,
      sendAt: new Date(Date.now() - 1000),
      createdBy: 'ops',
    });
    expect((await listMails(handle.db, a, 'personal', { limit: 5 })).items[0]).toMatchObject({ id: mailId });
    expect(await openMail(handle.db, b, mailId)).toBeNull();
  });
});

describe('cancelMail', () => {
  it('withdraws a sent broadcast: members no longer see it, a claim made stands, a second cancel is refused', async () => {
    const [a, b] = [await oldMember(), await oldMember()];
    const { mailId } = await broadcast(new Date(Date.now() - 1000), { coins: 30 });
    expect(await claimMailAttachment(handle.db, a, mailId, RULES)).toMatchObject({ ok: true });
    expect(await cancelMail(handle.db, mailId)).toMatchObject({ ok: true });
    expect(await cancelMail(handle.db, mailId)).toMatchObject({ ok: false, code: 'MAIL_ALREADY_CANCELED' });
    expect(await claimMailAttachment(handle.db, b, mailId, RULES)).toMatchObject({ code: 'MAIL_NOT_FOUND' });
    expect((await listMails(handle.db, b, 'broadcast', { limit: 50 })).items.map((m) => m.id)).not.toContain(mailId);
    expect((await claimedAttachments(handle.db, a, { limit: 5 })).items[0]).toMatchObject({ mailId, coins: 30 });
  });

  it('refuses a system mail and an unknown id', async () => {
    const member = await createMember(handle.db);
    const { mailId } = await notifyMember(handle.db, {
      memberId: member,
      category: 'purchase_complete',
      dedupeKey: 'p1',
      subject: 's',
      body: 'b',
    });
    expect(await cancelMail(handle.db, mailId)).toMatchObject({ ok: false, code: 'MAIL_NOT_FOUND' });
    expect(await cancelMail(handle.db, 0)).toMatchObject({ ok: false, code: 'MAIL_NOT_FOUND' });
  });
});

describe('listSentMails', () => {
  it('counts a broadcast’s reads and claims from its lazy state rows', async () => {
    const [a, b, c] = [await oldMember(), await oldMember(), await oldMember()];
    const { mailId } = await broadcast(new Date(Date.now() - 1000), { coins: 10 });
    await openMail(handle.db, a, mailId);
    await openMail(handle.db, b, mailId);
    await claimMailAttachment(handle.db, c, mailId, RULES);
    const sent = (await listSentMails(handle.db, { limit: 100 })).items.find((m) => m.id === mailId);
    expect(sent).toMatchObject({ audience: 'broadcast', reads: 3, claims: 1, createdBy: 'ops@example.test' });
  });
});

describe('the broadcast window', () => {
  it('leaves out broadcasts older than the window', async () => {
    const member = await oldMember(BROADCAST_WINDOW_DAYS + 30);
    const { mailId: old } = await broadcast(new Date(Date.now() - (BROADCAST_WINDOW_DAYS + 1) * DAY));
    const { mailId: recent } = await broadcast(new Date(Date.now() - DAY));
    const ids = (await listMails(handle.db, member, 'broadcast', { limit: 100 })).items.map((m) => m.id);
    expect(ids).toContain(recent);
    expect(ids).not.toContain(old);
    expect(await openMail(handle.db, member, old)).toBeNull();
  });
});

describe('email for members who opted in', () => {
  const site = { name: 'テスト', origin: 'https://shop.example.test' };
  const notice = (member: string, key: string, extra: { email?: boolean; sendAt?: Date } = {}) =>
    notifyMember(handle.db, {
      memberId: member,
      category: 'prize_deadline',
      dedupeKey: key,
      subject: '期限',
      body: 'b',
      ...extra,
    });
  const pendingOf = async (mailId: number) =>
    (await handle.db.select({ p: mails.emailPending }).from(mails).where(eq(mails.id, mailId)))[0]!.p;

  it('queues the generic notice by the job, once, only for a member who opted in', async () => {
    const member = await createMember(handle.db);
    const to = `${member}@example.test`;
    const before = await notice(member, 'k1');
    await sendPendingMailEmails(handle.db, site, { limit: 1000 });
    expect(await recentMessages(handle.db, { to, limit: 5 })).toHaveLength(0);
    expect(await pendingOf(before.mailId)).toBe(false); // decided: not opted in then, never mailed later
    await setMailEmailOptIn(handle.db, member, true);
    const { mailId } = await notice(member, 'k2');
    await notice(member, 'k2'); // a repeat writes nothing, mails nothing
    // Two runs at once (two instances) decide each mail once.
    await Promise.all([
      sendPendingMailEmails(handle.db, site, { limit: 1000 }),
      sendPendingMailEmails(handle.db, site, { limit: 1000 }),
    ]);
    await sendPendingMailEmails(handle.db, site, { limit: 1000 });
    const sent = await recentMessages(handle.db, { to, limit: 5 });
    expect(sent).toHaveLength(1);
    expect(sent[0]!.text).toContain(`https://shop.example.test/myinbox/mail/${mailId}`);
  });

  it('mails nothing when the sender mails by itself, and waits for a scheduled mail', async () => {
    const member = await createMember(handle.db);
    const to = `${member}@example.test`;
    await setMailEmailOptIn(handle.db, member, true);
    await notice(member, 'self', { email: false });
    const later = new Date(Date.now() + 60 * 60 * 1000);
    const scheduled = await notice(member, 'later', { sendAt: later });
    await sendPendingMailEmails(handle.db, site, { limit: 1000 });
    expect(await recentMessages(handle.db, { to, limit: 5 })).toHaveLength(0);
    expect(await pendingOf(scheduled.mailId)).toBe(true);
    await sendPendingMailEmails(handle.db, site, { limit: 1000, now: new Date(later.getTime() + 1000) });
    expect(await recentMessages(handle.db, { to, limit: 5 })).toHaveLength(1);
  });
});
