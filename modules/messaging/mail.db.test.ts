// Mail, real parts: messages queued in a transaction and sent by the deliver job's function through
// nodemailer to a local SMTP server that requires a login; what the server received is read back
// (envelope, headers with the Japanese subject decoded, text and HTML parts, the link). Then the
// failures: the server down (queued with attempts and the error, sent once it is back), a wrong
// password, a refused address, the last attempt, and two deliver runs at once (never twice).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { useTestDatabase } from '#tests/use-test-database';
import { freePort } from '#tests/ports';
import { scaledTimeout } from '#tests/settings';
import { outboundMessages } from '#db/schema';
import { queueMail, deliverDueMessages, MESSAGE_MAX_ATTEMPTS, type SiteIdentity } from '#modules/messaging';
import { createSmtpMailer, type SmtpMailer } from '#modules/messaging/transports';
import { startSmtpCapture, type SmtpCapture } from '#modules/messaging/testing';

const handle = useTestDatabase('messaging-mail', { poolSize: 4 });
const site: SiteIdentity = { name: 'オリパ ステラ', origin: 'https://oripa.example.jp' };
const FROM = 'オリパ ステラ <no-reply@example.jp>';
const resetUrl = (code: string) => `https://oripa.example.jp/auth/action?mode=resetPassword&oobCode=${code}`;
const HOUR = 3_600_000;

let smtp: SmtpCapture;
let mailer: SmtpMailer;
const closers: (() => unknown)[] = [];

beforeAll(async () => {
  smtp = await startSmtpCapture({ user: 'shop', pass: 'pa:ss word', refuseRecipients: ['gone@example.jp'] });
  mailer = createSmtpMailer({ smtpUrl: smtp.url, from: FROM });
  closers.push(
    () => mailer.close(),
    () => smtp.close(),
  );
});
afterAll(async () => {
  for (const close of closers.reverse()) await close();
});

async function row(id: string) {
  const [found] = await handle.db.select().from(outboundMessages).where(eq(outboundMessages.id, id));
  return found!;
}

/** Makes every message due now and clears the outbox of earlier tests' messages. */
/** A second from now: later than any due time the database has just written, whatever the two clocks say. */
const soon = () => new Date(Date.now() + 1000);

async function clearOutbox() {
  await handle.db.delete(outboundMessages);
}

describe('mail through SMTP', () => {
  it('sends a queued mail once, as the server received it: envelope, login, headers, text and HTML parts', async () => {
    await clearOutbox();
    const before = smtp.received.length;
    const { id } = await handle.db.transaction((tx) =>
      queueMail(tx, site, {
        to: 'member@example.jp',
        template: 'password-reset',
        vars: { url: resetUrl('AbC123') },
        memberId: 'member-1',
      }),
    );
    expect(await row(id)).toMatchObject({ status: 'queued', attempts: 0, channel: 'mail', memberId: 'member-1' });

    const report = await deliverDueMessages(handle.db, { mail: mailer }, { now: soon(), limit: 10 });
    expect(report).toEqual({ sent: 1, retried: 0, failed: 0, held: 0 });
    const [mail] = (await smtp.waitFor(before + 1, scaledTimeout(10_000))).slice(before);
    expect(mail!.user).toBe('shop');
    expect(mail!.from).toBe('no-reply@example.jp');
    expect(mail!.to).toEqual(['member@example.jp']);
    const headers = mail!.message.headers;
    expect(headers.subject).toBe('【オリパ ステラ】パスワードの再設定');
    expect(headers.from).toBe('オリパ ステラ <no-reply@example.jp>');
    expect(headers.to).toBe('member@example.jp');
    expect(headers['message-id']).toBe(`<${id}@example.jp>`);
    expect(headers['content-type']).toMatch(/^multipart\/alternative/);
    expect(mail!.text).toContain(resetUrl('AbC123'));
    expect(mail!.text).toContain('お心当たりがない場合');
    expect(mail!.html).toContain(`href="${resetUrl('AbC123').replace('&', '&amp;')}"`);
    expect(mail!.html).toContain('background:#ef3a6e');
    // The raw message carries no unencoded Japanese in its headers (RFC 2047) and declares UTF-8.
    const rawHead = mail!.raw.slice(0, mail!.raw.search(/\r\n\r\n/));
    expect(rawHead).not.toMatch(/[^\x00-\x7f]/);
    expect(mail!.raw).toMatch(/charset=utf-8/i);

    expect(await row(id)).toMatchObject({ status: 'sent', attempts: 1, providerMessageId: `<${id}@example.jp>` });
    expect((await row(id)).sentAt).toBeInstanceOf(Date);
    // Nothing is sent again by a later run.
    expect(await deliverDueMessages(handle.db, { mail: mailer }, { now: soon(), limit: 10 })).toEqual({
      sent: 0,
      retried: 0,
      failed: 0,
      held: 0,
    });
    expect(smtp.received.length).toBe(before + 1);
  });

  it('a transaction that rolls back leaves no message', async () => {
    await clearOutbox();
    await expect(
      handle.db.transaction(async (tx) => {
        await queueMail(tx, site, { to: 'member@example.jp', template: 'magic-link', vars: { url: resetUrl('x') } });
        throw new Error('the caller failed after queueing');
      }),
    ).rejects.toThrow('the caller failed');
    expect(await handle.db.select().from(outboundMessages)).toEqual([]);
  });

  it('SMTP down: the message stays queued with its attempts and the error, and is sent once the server is back', async () => {
    await clearOutbox();
    const port = await freePort();
    const downMailer = createSmtpMailer({ smtpUrl: `smtp://shop:secret@127.0.0.1:${port}`, from: FROM });
    closers.push(() => downMailer.close());
    const { id } = await queueMail(handle.db, site, {
      to: 'later@example.jp',
      template: 'verify-email',
      vars: { url: 'https://oripa.example.jp/auth/action?mode=verifyEmail&oobCode=V1' },
    });
    const t0 = soon();
    expect(await deliverDueMessages(handle.db, { mail: downMailer }, { now: t0, limit: 10 })).toMatchObject({
      sent: 0,
      retried: 1,
    });
    const afterFirst = await row(id);
    expect(afterFirst).toMatchObject({ status: 'queued', attempts: 1 });
    expect(afterFirst.lastError).toMatch(/SMTP: .*(ECONNREFUSED|connect)/i);
    expect(afterFirst.nextAttemptAt.getTime()).toBeGreaterThan(t0.getTime());
    // Not due yet: a run right away leaves it alone.
    expect(await deliverDueMessages(handle.db, { mail: downMailer }, { now: t0, limit: 10 })).toMatchObject({
      retried: 0,
    });
    expect((await row(id)).attempts).toBe(1);

    const back = await startSmtpCapture({ user: 'shop', pass: 'secret', port });
    closers.push(() => back.close());
    const later = new Date(afterFirst.nextAttemptAt.getTime() + 1000);
    expect(await deliverDueMessages(handle.db, { mail: downMailer }, { now: later, limit: 10 })).toMatchObject({
      sent: 1,
    });
    const [mail] = await back.waitFor(1, scaledTimeout(10_000));
    expect(mail!.text).toContain('oobCode=V1');
    expect(await row(id)).toMatchObject({ status: 'sent', attempts: 2, lastError: null });
  });

  it('a wrong password is retried (the message waits), a refused address fails at once and is kept', async () => {
    await clearOutbox();
    const wrong = createSmtpMailer({ smtpUrl: `smtp://shop:wrong@127.0.0.1:${smtp.port}`, from: FROM });
    closers.push(() => wrong.close());
    const waiting = await queueMail(handle.db, site, {
      to: 'member@example.jp',
      template: 'account-deleted',
      vars: {},
    });
    // A second ahead: the row's due time is the database's clock, the run's is this process's.
    expect(await deliverDueMessages(handle.db, { mail: wrong }, { now: soon(), limit: 10 })).toMatchObject({
      retried: 1,
    });
    expect(await row(waiting.id)).toMatchObject({ status: 'queued', attempts: 1 });
    expect((await row(waiting.id)).lastError).toMatch(/535|Invalid username or password|auth/i);

    await clearOutbox();
    const refused = await queueMail(handle.db, site, {
      to: 'gone@example.jp',
      template: 'account-deleted',
      vars: {},
    });
    expect(await deliverDueMessages(handle.db, { mail: mailer }, { now: soon(), limit: 10 })).toMatchObject({
      failed: 1,
    });
    const failed = await row(refused.id);
    expect(failed).toMatchObject({ status: 'failed', attempts: 1 });
    expect(failed.lastError).toMatch(/550/);
    expect(failed.textBody).toContain('退会'); // kept, body and all
  });

  it(`gives up after ${MESSAGE_MAX_ATTEMPTS} attempts with backoff, and keeps the message as failed`, async () => {
    await clearOutbox();
    const port = await freePort();
    const nowhere = createSmtpMailer({ smtpUrl: `smtp://shop:secret@127.0.0.1:${port}`, from: FROM });
    closers.push(() => nowhere.close());
    const { id } = await queueMail(handle.db, site, { to: 'member@example.jp', template: 'account-deleted', vars: {} });
    let clock = soon().getTime();
    const waits: number[] = [];
    for (let attempt = 1; attempt <= MESSAGE_MAX_ATTEMPTS; attempt++) {
      await deliverDueMessages(handle.db, { mail: nowhere }, { now: new Date(clock), limit: 10 });
      const current = await row(id);
      expect(current.attempts).toBe(attempt);
      if (attempt < MESSAGE_MAX_ATTEMPTS) {
        expect(current.status).toBe('queued');
        waits.push(current.nextAttemptAt.getTime() - clock);
        clock = current.nextAttemptAt.getTime() + 1000;
      } else {
        expect(current.status).toBe('failed');
      }
    }
    // Each wait at least as long as the one before (exponential, capped).
    for (let i = 1; i < waits.length; i++) expect(waits[i]!).toBeGreaterThanOrEqual(waits[i - 1]!);
    expect(waits[0]!).toBeGreaterThanOrEqual(30_000);
    // A failed message is never claimed again.
    await deliverDueMessages(handle.db, { mail: nowhere }, { now: new Date(clock + 10 * HOUR), limit: 10 });
    expect(await row(id)).toMatchObject({ status: 'failed', attempts: MESSAGE_MAX_ATTEMPTS });
  });

  it(
    'two deliver runs at once (two connections, two transports) send every message exactly once',
    async () => {
      await clearOutbox();
      const before = smtp.received.length;
      const count = 24;
      const ids: string[] = [];
      await handle.db.transaction(async (tx) => {
        for (let i = 0; i < count; i++) {
          const { id } = await queueMail(tx, site, {
            to: `storm${i}@example.jp`,
            template: 'magic-link',
            vars: { url: resetUrl(`M${i}`) },
          });
          ids.push(id);
        }
      });
      const second = createSmtpMailer({ smtpUrl: smtp.url, from: FROM });
      closers.push(() => second.close());
      const now = soon();
      const [a, b] = await Promise.all([
        deliverDueMessages(handle.db, { mail: mailer }, { now, limit: count }),
        deliverDueMessages(handle.db, { mail: second }, { now, limit: count }),
      ]);
      expect(a.sent + b.sent).toBe(count);
      // On PostgreSQL both runs really worked side by side (each claimed some), on two connections.
      if (handle.engine === 'postgres') expect(Math.min(a.sent, b.sent)).toBeGreaterThan(0);
      const received = (await smtp.waitFor(before + count, scaledTimeout(20_000))).slice(before);
      expect(received).toHaveLength(count);
      const messageIds = received.map((mail) => mail.message.headers['message-id']);
      expect(new Set(messageIds).size).toBe(count);
      const rows = await handle.db.select().from(outboundMessages);
      expect(rows.every((message) => message.status === 'sent' && message.attempts === 1)).toBe(true);
      expect(new Set(received.map((mail) => mail.to[0])).size).toBe(count);
    },
    scaledTimeout(60_000),
  );
});
