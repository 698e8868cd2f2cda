// The mailbox's core against a real database (decision 034): one system mail per (member, key), read
// state, attachments credited exactly once under concurrent claims, deadlines, another member's mail
// never readable or claimable, and broadcasts reaching only those who were members when they were sent.
import { describe, it, expect } from 'vitest';
import { eq } from 'drizzle-orm';
import { useTestDatabase } from '#tests/use-test-database';
import { createMember } from '#tests/fixtures';
import { mails, users } from '#db/schema';
import { getBalance, listLedgerEntries } from '#modules/wallet';
import { claimMailAttachment, listMails, notifyMember, openMail, presentsByKey, unreadMailCount } from './index';

const handle = useTestDatabase('mailbox', { poolSize: 10 });
const RULES = { freeCoinDays: 90 };

async function giftMail(memberId: string, coins: number, claimUntil: Date | null = null, key = 'gift') {
  return notifyMember(handle.db, {
    memberId,
    category: 'welcome',
    dedupeKey: key,
    subject: 'ようこそ',
    body: 'ご登録ありがとうございます。\nプレゼントをお受け取りください。',
    attachment: { coins, claimUntil },
  });
}

describe('notifyMember', () => {
  it('writes one mail per (member, key), even when sent concurrently', async () => {
    const member = await createMember(handle.db);
    const sent = await Promise.all(Array.from({ length: 8 }, () => giftMail(member, 100)));
    expect(sent.filter((s) => s.created)).toHaveLength(1);
    expect(new Set(sent.map((s) => s.mailId)).size).toBe(1);
    const page = await listMails(handle.db, member, 'personal', { limit: 20 });
    expect(page.items).toHaveLength(1);
    expect(page.items[0]).toMatchObject({
      subject: 'ようこそ',
      read: false,
      attachment: { coins: 100, claimed: false },
    });
  });

  it('refuses an attachment that is not a positive whole number of coins', async () => {
    const member = await createMember(handle.db);
    await expect(giftMail(member, 0)).rejects.toThrow(RangeError);
    await expect(giftMail(member, 1.5)).rejects.toThrow(RangeError);
  });
});

describe('reading', () => {
  it('marks a mail read once, counts unread, and hides another member’s mail', async () => {
    const [a, b] = [await createMember(handle.db), await createMember(handle.db)];
    const { mailId } = await giftMail(a, 50);
    await notifyMember(handle.db, {
      memberId: a,
      category: 'operator',
      dedupeKey: 'n2',
      subject: 'お知らせ',
      body: '本文',
    });
    expect(await unreadMailCount(handle.db, a)).toBe(2);
    expect(await openMail(handle.db, b, mailId)).toBeNull();
    const opened = await openMail(handle.db, a, mailId);
    expect(opened).toMatchObject({ id: mailId, read: true });
    expect(opened!.body[0]).toMatchObject({ type: 'paragraph', text: 'ご登録ありがとうございます。' });
    expect(await unreadMailCount(handle.db, a)).toBe(1);
    expect(await unreadMailCount(handle.db, b)).toBe(0);
  });

  it('shows and credits a mail from the very instant it is sent', async () => {
    const member = await createMember(handle.db);
    const at = new Date();
    const { mailId } = await notifyMember(handle.db, {
      memberId: member,
      category: 'operator',
      dedupeKey: 'same-instant',
      subject: '同時',
      body: 'b',
      attachment: { coins: 5, claimUntil: null },
      sendAt: at,
    });
    expect((await listMails(handle.db, member, 'personal', { limit: 5 }, { now: at })).items).toHaveLength(1);
    expect(await unreadMailCount(handle.db, member, { now: at })).toBe(1);
    expect(await claimMailAttachment(handle.db, member, mailId, RULES, { now: at })).toMatchObject({ ok: true });
  });

  it('does not show a scheduled mail before its time', async () => {
    const member = await createMember(handle.db);
    const later = new Date(Date.now() + 60 * 60 * 1000);
    const { mailId } = await notifyMember(handle.db, {
      memberId: member,
      category: 'operator',
      dedupeKey: 'later',
      subject: '予約',
      body: 'まだ',
      sendAt: later,
    });
    expect((await listMails(handle.db, member, 'personal', { limit: 20 })).items).toHaveLength(0);
    expect(await openMail(handle.db, member, mailId)).toBeNull();
    const afterwards = new Date(later.getTime() + 1000);
    expect((await listMails(handle.db, member, 'personal', { limit: 20 }, { now: afterwards })).items).toHaveLength(1);
  });
});

describe('claiming an attachment', () => {
  it('credits exactly once under concurrent claims, with one ledger entry', async () => {
    const member = await createMember(handle.db);
    const { mailId } = await giftMail(member, 300);
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, () => claimMailAttachment(handle.db, member, mailId, RULES)),
    );
    expect(outcomes.filter((o) => o.ok)).toHaveLength(1);
    expect(outcomes.filter((o) => !o.ok).map((o) => !o.ok && o.code)).toEqual(Array(9).fill('MAIL_ALREADY_CLAIMED'));
    expect((await getBalance(handle.db, member)).free).toBe(300);
    const ledger = await listLedgerEntries(handle.db, member, { limit: 10 });
    expect(ledger.items.filter((e) => e.reason === 'mail_attachment')).toHaveLength(1);
    const [summary] = (await listMails(handle.db, member, 'personal', { limit: 5 })).items;
    expect(summary!.attachment).toMatchObject({ claimed: true });
    expect(summary!.read).toBe(true);
  });

  it('refuses after the deadline, without a mail, and for another member', async () => {
    const [a, b] = [await createMember(handle.db), await createMember(handle.db)];
    const deadline = new Date(Date.now() + 60_000);
    const { mailId } = await giftMail(a, 100, deadline);
    const late = await claimMailAttachment(handle.db, a, mailId, RULES, { now: new Date(deadline.getTime() + 1) });
    expect(late).toMatchObject({ ok: false, code: 'MAIL_CLAIM_EXPIRED' });
    expect(await claimMailAttachment(handle.db, b, mailId, RULES)).toMatchObject({ ok: false, code: 'MAIL_NOT_FOUND' });
    const plain = await notifyMember(handle.db, {
      memberId: a,
      category: 'operator',
      dedupeKey: 'plain',
      subject: 's',
      body: 'b',
    });
    expect(await claimMailAttachment(handle.db, a, plain.mailId, RULES)).toMatchObject({
      ok: false,
      code: 'MAIL_NO_ATTACHMENT',
    });
    expect(await claimMailAttachment(handle.db, a, -1, RULES)).toMatchObject({ ok: false, code: 'MAIL_NOT_FOUND' });
    expect((await getBalance(handle.db, a)).free).toBe(0);
    expect((await getBalance(handle.db, b)).free).toBe(0);
    // On time, it is credited.
    expect(await claimMailAttachment(handle.db, a, mailId, RULES)).toMatchObject({ ok: true, coins: 100 });
  });

  it('refuses a banned member', async () => {
    const member = await createMember(handle.db);
    const { mailId } = await giftMail(member, 100);
    await handle.db.update(users).set({ banned: true }).where(eq(users.id, member));
    expect(await claimMailAttachment(handle.db, member, mailId, RULES)).toMatchObject({
      ok: false,
      code: 'MAIL_CLAIM_NOT_AVAILABLE',
    });
  });
});

describe('broadcasts', () => {
  it('are one row, seen by members who had joined when sent, each with their own read and claim', async () => {
    const [a, b] = [await createMember(handle.db), await createMember(handle.db)];
    const anHourAgo = new Date(Date.now() - 60 * 60 * 1000);
    for (const member of [a, b])
      await handle.db.update(users).set({ createdAt: anHourAgo }).where(eq(users.id, member));
    const [mail] = await handle.db
      .insert(mails)
      .values({
        audience: 'broadcast',
        segment: { kind: 'all' },
        category: 'operator',
        subject: '全員へ',
        body: [{ type: 'paragraph', text: 'プレゼント', spans: [] }],
        attachmentCoins: 20,
        attachmentReason: 'mail_attachment',
        sendAt: new Date(Date.now() - 1000),
      })
      .returning({ id: mails.id });
    const latecomer = await createMember(handle.db);
    const id = mail!.id;
    expect((await listMails(handle.db, a, 'broadcast', { limit: 20 })).items.map((m) => m.id)).toContain(id);
    expect((await listMails(handle.db, latecomer, 'broadcast', { limit: 20 })).items.map((m) => m.id)).not.toContain(
      id,
    );
    expect(await claimMailAttachment(handle.db, latecomer, id, RULES)).toMatchObject({ code: 'MAIL_NOT_FOUND' });
    // The header's badge counts it for those who had joined, whether the session says when (joinedAt) or not.
    expect(await unreadMailCount(handle.db, a)).toBe(1);
    expect(await unreadMailCount(handle.db, a, { joinedAt: anHourAgo })).toBe(1);
    expect(await unreadMailCount(handle.db, latecomer)).toBe(0);
    expect(await unreadMailCount(handle.db, latecomer, { joinedAt: new Date() })).toBe(0);
    expect(await openMail(handle.db, b, id)).toMatchObject({ id, read: true });
    expect(await unreadMailCount(handle.db, b, { joinedAt: anHourAgo })).toBe(0);
    const [ca, cb] = await Promise.all([
      claimMailAttachment(handle.db, a, id, RULES),
      claimMailAttachment(handle.db, b, id, RULES),
    ]);
    expect([ca.ok, cb.ok]).toEqual([true, true]);
    expect(await claimMailAttachment(handle.db, a, id, RULES)).toMatchObject({ code: 'MAIL_ALREADY_CLAIMED' });
    expect((await getBalance(handle.db, a)).free).toBe(20);
    expect((await getBalance(handle.db, b)).free).toBe(20);
  });
});

describe('presentsByKey', () => {
  it('answers each keyed present: waiting, claimed or expired; another member’s keys are absent', async () => {
    const [a, b] = [await createMember(handle.db), await createMember(handle.db)];
    const soon = new Date(Date.now() + 60_000);
    const waiting = await giftMail(a, 10, null, 'level-up:2');
    const claimed = await giftMail(a, 20, null, 'level-up:3');
    const expiring = await giftMail(a, 30, soon, 'level-up:4');
    await notifyMember(handle.db, {
      memberId: a,
      category: 'level_up',
      dedupeKey: 'level-up:5',
      subject: 's',
      body: 'b',
    });
    await giftMail(b, 10, null, 'level-up:6');
    expect(await claimMailAttachment(handle.db, a, claimed.mailId, RULES)).toMatchObject({ ok: true });
    const keys = ['level-up:2', 'level-up:3', 'level-up:4', 'level-up:5', 'level-up:6'];
    const presents = await presentsByKey(handle.db, a, keys, new Date(soon.getTime() + 1));
    expect(Object.fromEntries(presents)).toEqual({
      'level-up:2': { mailId: waiting.mailId, state: 'waiting' },
      'level-up:3': { mailId: claimed.mailId, state: 'claimed' },
      'level-up:4': { mailId: expiring.mailId, state: 'expired' },
    });
  });
});
