// 「すべて受け取る」 against a real database (issue 29 item 9): every claimable present of the member, each
// credited exactly once under a double tap and concurrent taps, never another member's, nothing expired.
import { describe, it, expect } from 'vitest';
import { eq } from 'drizzle-orm';
import { useTestDatabase } from '#tests/use-test-database';
import { createMember } from '#tests/fixtures';
import { mails, users } from '#db/schema';
import { getBalance } from '#modules/wallet';
import { claimAllPresents, claimMailAttachment, claimablePresents, listMails, notifyMember } from './index';

const handle = useTestDatabase('mailbox-claim-all', { poolSize: 10, invariants: 'afterEach' });
const RULES = { freeCoinDays: 90 };

const gift = (memberId: string, key: string, coins: number | null, claimUntil: Date | null = null) =>
  notifyMember(handle.db, {
    memberId,
    category: 'operator',
    dedupeKey: key,
    subject: `プレゼント ${key}`,
    body: '本文',
    attachment: coins === null ? null : { coins, claimUntil },
  });

describe('claimAllPresents', () => {
  it('claims every waiting present once (personal and broadcast), skipping claimed, expired and bare mails', async () => {
    const [a, b] = [await createMember(handle.db), await createMember(handle.db)];
    await handle.db
      .update(users)
      .set({ createdAt: new Date(Date.now() - 3_600_000) })
      .where(eq(users.id, a));
    await gift(a, 'one', 100);
    await gift(a, 'two', 250, new Date(Date.now() + 86_400_000));
    const claimedBefore = await gift(a, 'three', 40);
    await gift(a, 'expired', 999, new Date(Date.now() - 1000));
    await gift(a, 'bare', null);
    await gift(b, 'other', 500);
    await handle.db.insert(mails).values({
      audience: 'broadcast',
      segment: { kind: 'all' },
      category: 'operator',
      subject: '全員へ',
      body: [{ type: 'paragraph', text: 'プレゼント', spans: [] }],
      attachmentCoins: 30,
      attachmentReason: 'mail_attachment',
      sendAt: new Date(Date.now() - 1000),
    });
    expect((await claimMailAttachment(handle.db, a, claimedBefore.mailId, RULES)).ok).toBe(true);

    expect(await claimablePresents(handle.db, a)).toMatchObject({ coins: 380 });
    expect((await claimablePresents(handle.db, a)).mailIds).toHaveLength(3);

    const first = await claimAllPresents(handle.db, a, RULES);
    expect(first).toEqual({ ok: true, claimed: 3, coins: 380 });
    expect((await getBalance(handle.db, a)).free).toBe(420);
    // Another member's present is untouched.
    expect((await getBalance(handle.db, b)).free).toBe(0);
    expect(await claimablePresents(handle.db, b)).toEqual({ mailIds: [expect.any(Number)], coins: 500 });
    // A second tap finds nothing.
    expect(await claimAllPresents(handle.db, a, RULES)).toEqual({ ok: true, claimed: 0, coins: 0 });
    expect((await getBalance(handle.db, a)).free).toBe(420);
    const personal = await listMails(handle.db, a, 'personal', { limit: 20 });
    const byKey = new Map(personal.items.map((m) => [m.subject, m.attachment]));
    expect(byKey.get('プレゼント one')).toMatchObject({ claimed: true });
    expect(byKey.get('プレゼント expired')).toMatchObject({ claimed: false, expired: true });
  });

  it('credits each present once when the button is tapped several times at once', async () => {
    const member = await createMember(handle.db);
    for (let i = 0; i < 5; i += 1) await gift(member, `g${i}`, 10 * (i + 1));
    const answers = await Promise.all(Array.from({ length: 6 }, () => claimAllPresents(handle.db, member, RULES)));
    const total = answers.reduce((sum, a) => sum + (a.ok ? a.coins : 0), 0);
    const claimed = answers.reduce((sum, a) => sum + (a.ok ? a.claimed : 0), 0);
    expect(answers.every((a) => a.ok)).toBe(true);
    expect(claimed).toBe(5);
    expect(total).toBe(150);
    expect((await getBalance(handle.db, member)).free).toBe(150);
  });

  it('refuses a banned member and credits nothing', async () => {
    const member = await createMember(handle.db);
    await gift(member, 'x', 70);
    await handle.db.update(users).set({ banned: true }).where(eq(users.id, member));
    expect(await claimAllPresents(handle.db, member, RULES)).toMatchObject({
      ok: false,
      code: 'MAIL_CLAIM_NOT_AVAILABLE',
    });
    expect((await getBalance(handle.db, member)).free).toBe(0);
  });
});
