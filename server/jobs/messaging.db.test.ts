// The outbox's jobs as main wires them: registered with the shop's jobs, run through pg-boss, and
// nudged when a message is committed, so a mail goes out at once (a run triggered by runNow, not the
// minute's schedule) through a real SMTP server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { queryRows } from '#db/client';
import { outboundMessages } from '#db/schema';
import { useTestDatabase } from '#tests/use-test-database';
import { scaledTimeout } from '#tests/settings';
import { queueMail } from '#modules/messaging';
import { createSmtpMailer, type SmtpMailer } from '#modules/messaging/transports';
import { startSmtpCapture, type SmtpCapture } from '#modules/messaging/testing';
import type { ShopConfig } from '../config';
import { startOutboxNudge, type MessagingServices } from '../messaging';
import { createJobRunner, registerShopJobs, type JobRunner } from './index';
import { capturingLogger } from './test-support';

const handle = useTestDatabase('messaging_jobs', { poolSize: 4 });
const site = { name: 'オリパ ステラ', origin: 'https://oripa.example.jp' };
const { logger, lines } = capturingLogger();
let runner: JobRunner;
let smtp: SmtpCapture;
let mailer: SmtpMailer;
let stopNudge: () => Promise<void>;

beforeAll(async () => {
  smtp = await startSmtpCapture({ user: 'shop', pass: 'secret' });
  mailer = createSmtpMailer({ smtpUrl: smtp.url, from: 'オリパ ステラ <no-reply@example.jp>' });
  const messaging: MessagingServices = { site, transports: { mail: mailer }, close: async () => undefined };
  runner = createJobRunner({
    database: handle,
    logger,
    config: { DATABASE_URL: handle.databaseUrl },
    pollingIntervalSeconds: 0.5,
  });
  registerShopJobs(runner, {
    config: {
      dataDir: handle.dataDir,
      IMAGE_CACHE_MAX_MB: 16,
      FREE_COIN_EXPIRY_DAYS: 90,
      OUTBOX_RETENTION_DAYS: 7,
    } as ShopConfig,
    messaging,
  });
  await runner.start();
  stopNudge = await startOutboxNudge(handle, () => runner.runNow('messaging.deliver'), logger);
});
afterAll(async () => {
  await stopNudge?.();
  await runner?.stop();
  mailer?.close();
  await smtp?.close();
});

describe('the outbox jobs', () => {
  it('are scheduled in pg-boss: deliver every minute, the clean-up hourly', async () => {
    const rows = await queryRows<{ name: string; cron: string }>(
      handle.db,
      sql`select name, cron from pgboss.schedule where name like 'messaging.%' order by name`,
    );
    expect(rows).toEqual([
      { name: 'messaging.clear-old-bodies', cron: '40 * * * *' },
      { name: 'messaging.deliver', cron: '* * * * *' },
    ]);
  });

  it('a committed mail is sent at once by a nudged run, not left for the schedule', async () => {
    const { id } = await handle.db.transaction((tx) =>
      queueMail(tx, site, {
        to: 'now@example.jp',
        template: 'magic-link',
        vars: { url: 'https://oripa.example.jp/auth/magic?token=NOW' },
      }),
    );
    const [mail] = await smtp.waitFor(1, scaledTimeout(20_000));
    expect(mail!.to).toEqual(['now@example.jp']);
    expect(mail!.text).toContain('token=NOW');
    const deadline = Date.now() + scaledTimeout(10_000);
    const status = async () =>
      (await handle.db.select().from(outboundMessages).where(eq(outboundMessages.id, id)))[0]!.status;
    while ((await status()) !== 'sent' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(await status()).toBe('sent');
    const runs = lines.filter(
      (line) => line.job === 'messaging.deliver' && line.msg === 'job messaging.deliver finished',
    );
    expect(runs.some((line) => line.trigger === 'manual' && Number(line.processed) >= 1)).toBe(true);
  });
});
