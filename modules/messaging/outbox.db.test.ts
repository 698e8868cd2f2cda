// The outbox without a network: what is queued (rendered, in the caller's transaction), held when a
// channel has no transport, read back newest first, and blanked by the retention clean-up (never
// while still queued).
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { useTestDatabase } from '#tests/use-test-database';
import { outboundMessages } from '#db/schema';
import {
  clearOldMessageBodies,
  deliverDueMessages,
  queueMail,
  queueSms,
  recentMessages,
  type SiteIdentity,
} from '#modules/messaging';

const handle = useTestDatabase('messaging-outbox');
const site: SiteIdentity = { name: 'オリパ ステラ', origin: 'https://oripa.example.jp' };
const DAY = 86_400_000;

const row = async (id: string) =>
  (await handle.db.select().from(outboundMessages).where(eq(outboundMessages.id, id)))[0]!;

describe('the outbox', () => {
  it('stores the rendered message, exactly what will be sent', async () => {
    const { id } = await queueMail(handle.db, site, {
      to: 'old@example.jp',
      template: 'email-change-notice',
      vars: { newEmail: 'new@example.jp', url: 'https://oripa.example.jp/auth/action?mode=recoverEmail&oobCode=abc' },
      memberId: 'm-1',
    });
    expect(await row(id)).toMatchObject({
      channel: 'mail',
      recipient: 'old@example.jp',
      template: 'email-change-notice',
      subject: '【オリパ ステラ】メールアドレスを変更しました',
      status: 'queued',
      attempts: 0,
      memberId: 'm-1',
    });
    expect((await row(id)).textBody).toContain('new@example.jp');
    expect((await row(id)).htmlBody).toContain('new@example.jp');
  });

  it('refuses an address that is not one mail address or an E.164 number, and a bad template variable', async () => {
    for (const to of ['', 'a@b.jp, c@d.jp', 'x@example.jp\r\nBcc: y@example.jp', 'no-at-sign', '<a@b.jp>'])
      await expect(queueMail(handle.db, site, { to, template: 'account-deleted', vars: {} })).rejects.toThrow(
        RangeError,
      );
    for (const to of ['09012345678', '+0901234', '+81 90 1234 5678', ''])
      await expect(
        queueSms(handle.db, site, { to, template: 'phone-code', vars: { code: '123456', minutes: '10' } }),
      ).rejects.toThrow(RangeError);
    await expect(
      queueMail(handle.db, site, { to: 'a@example.jp', template: 'magic-link', vars: { url: 'javascript:x' } }),
    ).rejects.toThrow(RangeError);
  });

  it('holds what no transport can send, keeps it readable, and never sends it later', async () => {
    await handle.db.delete(outboundMessages);
    const mail = await queueMail(handle.db, site, {
      to: 'member@example.jp',
      template: 'verify-email',
      vars: { url: 'https://oripa.example.jp/auth/action?mode=verifyEmail&oobCode=H1' },
    });
    const sms = await queueSms(handle.db, site, {
      to: '+819012345678',
      template: 'phone-code',
      vars: { code: '123456', minutes: '10' },
    });
    const sent: string[] = [];
    // Only SMS has a transport: the mail is held, the SMS is sent.
    const report = await deliverDueMessages(
      handle.db,
      { sms: { send: async (to) => (sent.push(to), { providerId: 'SMtest' }) } },
      { now: new Date(Date.now() + 1000), limit: 10 },
    );
    expect(report).toEqual({ sent: 1, retried: 0, failed: 0, held: 1 });
    expect(sent).toEqual(['+819012345678']);
    expect(await row(mail.id)).toMatchObject({ status: 'held', attempts: 0 });
    expect(await row(sms.id)).toMatchObject({ status: 'sent', providerMessageId: 'SMtest' });
    // A held message is not picked up by a run that now has a mail transport.
    const mailed: string[] = [];
    await deliverDueMessages(
      handle.db,
      { mail: { send: async (m) => (mailed.push(m.to), { providerId: 'x' }) } },
      { now: new Date(Date.now() + 1000), limit: 10 },
    );
    expect(mailed).toEqual([]);

    const [newest] = await recentMessages(handle.db, { to: 'member@example.jp', limit: 5 });
    expect(newest).toMatchObject({ id: mail.id, status: 'held', subject: '【オリパ ステラ】メールアドレスの確認' });
    expect(newest!.text).toContain('oobCode=H1');
    expect((await recentMessages(handle.db, { limit: 10 })).map((m) => m.id)).toEqual([sms.id, mail.id]);
    expect(await recentMessages(handle.db, { to: 'nobody@example.jp', limit: 10 })).toEqual([]);
  });

  it('the retention clean-up blanks old bodies of sent, held and failed messages, never queued ones', async () => {
    await handle.db.delete(outboundMessages);
    const now = new Date();
    const old = new Date(now.getTime() - 8 * DAY);
    const make = async (status: 'queued' | 'sent' | 'held' | 'failed' | 'sending', createdAt: Date) => {
      const { id } = await queueMail(handle.db, site, {
        to: `${status}@example.jp`,
        template: 'magic-link',
        vars: { url: `https://oripa.example.jp/auth/magic?token=${status}` },
      });
      await handle.db.update(outboundMessages).set({ status, createdAt }).where(eq(outboundMessages.id, id));
      return id;
    };
    const oldSent = await make('sent', old);
    const oldHeld = await make('held', old);
    const oldFailed = await make('failed', old);
    const oldQueued = await make('queued', old);
    const oldSending = await make('sending', old);
    const freshSent = await make('sent', now);

    expect(await clearOldMessageBodies(handle.db, { retentionDays: 7, now })).toBe(3);
    for (const id of [oldSent, oldHeld, oldFailed]) {
      const cleared = await row(id);
      expect(cleared).toMatchObject({ textBody: null, htmlBody: null });
      expect(cleared.bodiesClearedAt).toBeInstanceOf(Date);
      expect(cleared.subject).toContain('ログイン用リンク'); // the row stays, without the link
    }
    for (const id of [oldQueued, oldSending, freshSent]) expect((await row(id)).textBody).toContain('token=');
    // Idempotent: nothing left to clear.
    expect(await clearOldMessageBodies(handle.db, { retentionDays: 7, now })).toBe(0);
    // The outbox shows a cleared message without a body.
    const shown = await recentMessages(handle.db, { to: 'sent@example.jp', limit: 5 });
    expect(shown.map((message) => [message.id, message.text === null])).toEqual([
      [freshSent, false],
      [oldSent, true],
    ]);
    await expect(clearOldMessageBodies(handle.db, { retentionDays: 0, now })).rejects.toThrow(RangeError);
  });

  it('a message claimed by a run that died is taken again once its lease has run out', async () => {
    await handle.db.delete(outboundMessages);
    const { id } = await queueSms(handle.db, site, {
      to: '+819012345678',
      template: 'phone-code',
      vars: { code: '654321', minutes: '10' },
    });
    const now = new Date();
    // A run that claimed it and vanished: sending, its lease ending in a minute.
    await handle.db
      .update(outboundMessages)
      .set({ status: 'sending', attempts: 1, nextAttemptAt: new Date(now.getTime() + 60_000) })
      .where(eq(outboundMessages.id, id));
    const sent: string[] = [];
    const sms = { send: async (to: string) => (sent.push(to), { providerId: 'SM2' }) };
    expect((await deliverDueMessages(handle.db, { sms }, { now, limit: 10 })).sent).toBe(0);
    expect(
      (await deliverDueMessages(handle.db, { sms }, { now: new Date(now.getTime() + 61_000), limit: 10 })).sent,
    ).toBe(1);
    expect(await row(id)).toMatchObject({ status: 'sent', attempts: 2 });
  });
});
