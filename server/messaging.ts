// Outbound messages' wiring: the transports from the settings (SMTP, Twilio; none configured: the
// messages are held for /dev/outbox), the nudge that runs the deliver job as soon as a message is
// committed, Twilio's status callback, and the developer outbox's JSON form.
import { Hono } from 'hono';
import type { DatabaseHandle, Database } from '#db/client';
import type { ShopConfig } from '#server/config';
import type { Logger } from '#server/logger';
import { apiError } from '#server/api-error';
import { devToolsAllowed } from './dev-tools';
import {
  OUTBOX_CHANNEL,
  recentMessages,
  recordDeliveryStatus,
  type MessageTransports,
  type OutboxEntry,
  type SiteIdentity,
} from '#modules/messaging';

/** Where Twilio posts an SMS's status changes. */
export const TWILIO_STATUS_PATH = '/api/webhooks/twilio/status';

export interface MessagingServices {
  site: SiteIdentity;
  /** The configured transports; a channel without one keeps its messages held. */
  transports: MessageTransports;
  /** Set when Twilio is configured: the token that signs its callbacks and the URL it calls. */
  twilio?: { authToken: string; statusCallbackUrl: string };
  close(): Promise<void>;
}

/** SITE_NAME and PUBLIC_ORIGIN, as messages name the shop. */
export const siteIdentityOf = (config: Pick<ShopConfig, 'SITE_NAME' | 'PUBLIC_ORIGIN'>): SiteIdentity => ({
  name: config.SITE_NAME,
  origin: config.PUBLIC_ORIGIN,
});

/**
 * The transports from the settings (validated as complete sets by loadConfig). nodemailer and Twilio's
 * SDK are loaded only when their settings are given: a shop without them does not carry them
 * (docs/decisions/047).
 * @example const messaging = await createMessagingServices(config, logger)
 */
export async function createMessagingServices(config: ShopConfig, logger: Logger): Promise<MessagingServices> {
  const transports: MessageTransports = {};
  const closers: (() => void)[] = [];
  const configured = (config.SMTP_URL && config.MAIL_FROM) || (config.TWILIO_ACCOUNT_SID && config.TWILIO_AUTH_TOKEN);
  const { createSmtpMailer, createTwilioSms } = configured
    ? await import('#modules/messaging/transports')
    : { createSmtpMailer: undefined, createTwilioSms: undefined };
  if (config.SMTP_URL && config.MAIL_FROM && createSmtpMailer) {
    const mailer = createSmtpMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM });
    transports.mail = mailer;
    closers.push(() => mailer.close());
  }
  let twilio: MessagingServices['twilio'];
  if (config.TWILIO_ACCOUNT_SID && config.TWILIO_AUTH_TOKEN && createTwilioSms) {
    twilio = { authToken: config.TWILIO_AUTH_TOKEN, statusCallbackUrl: `${config.PUBLIC_ORIGIN}${TWILIO_STATUS_PATH}` };
    transports.sms = createTwilioSms({
      accountSid: config.TWILIO_ACCOUNT_SID,
      authToken: config.TWILIO_AUTH_TOKEN,
      from: config.TWILIO_FROM,
      messagingServiceSid: config.TWILIO_MESSAGING_SERVICE_SID,
      statusCallbackUrl: twilio.statusCallbackUrl,
    });
  }
  const held = (['mail', 'sms'] as const).filter((channel) => !transports[channel]);
  if (held.length > 0) {
    logger.info(
      { held },
      `no transport for ${held.join(' and ')}: such messages stay in the outbox as held${config.devToolsEnabled ? ' (see /dev/outbox)' : ''}`,
    );
  }
  return {
    site: siteIdentityOf(config),
    transports,
    twilio,
    close: async () => closers.forEach((close) => close()),
  };
}

/**
 * Runs `deliver` whenever a message is committed to the outbox (NOTIFY at commit), so a reset mail
 * does not wait for the next minute's run; runs asked for while one is running collapse into one.
 * Resolves to a function that stops listening.
 * @example const stop = await startOutboxNudge(database, () => jobs.runNow('messaging.deliver'), logger)
 */
export async function startOutboxNudge(
  database: Pick<DatabaseHandle, 'listen'>,
  deliver: () => Promise<unknown>,
  logger: Logger,
): Promise<() => Promise<void>> {
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  const nudge = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        // A failed run is logged by the runner; the message stays queued for the minute's run.
        await deliver().catch((error: unknown) => logger.warn({ err: error }, 'outbox nudge: the deliver run failed'));
      } while (again && !stopped);
    })().finally(() => {
      running = undefined;
    });
  };
  const unlisten = await database.listen(OUTBOX_CHANNEL, nudge);
  // Stopping does not wait for a run asked for: the job runner's own stop waits for running jobs.
  return async () => {
    stopped = true;
    await unlisten();
  };
}

/**
 * POST /api/webhooks/twilio/status: Twilio's status callback for an SMS the shop sent, verified by
 * X-Twilio-Signature (403 when it does not match), recorded on the outbox row.
 */
export function createTwilioStatusRoutes(options: { db: Database; messaging?: MessagingServices; logger: Logger }) {
  const { db, messaging, logger } = options;
  const app = new Hono();
  app.post('/status', async (c) => {
    const twilio = messaging?.twilio;
    if (!twilio) return apiError(c, 404, 'NOT_FOUND', 'APIが見つかりません。');
    const params = Object.fromEntries(new URLSearchParams(await c.req.text()));
    // The URL as Twilio called it: the public one the shop gave it, with the query it was sent to.
    const url = twilio.statusCallbackUrl + new URL(c.req.url).search;
    const signature = c.req.header('x-twilio-signature') ?? '';
    // Loaded already: createMessagingServices loaded it when Twilio was configured.
    const { twilioSignatureValid } = await import('#modules/messaging/transports');
    if (!twilioSignatureValid({ authToken: twilio.authToken, signature, url, params }))
      return apiError(c, 403, 'INVALID_SIGNATURE', '署名を確認できませんでした。');
    const sid = params.MessageSid ?? params.SmsSid ?? '';
    const status = params.MessageStatus ?? params.SmsStatus ?? '';
    if (!/^(SM|MM)[0-9a-f]{32}$/i.test(sid) || !/^[a-z_-]{1,32}$/i.test(status))
      return apiError(c, 400, 'INVALID_CALLBACK', '通知の内容を読み取れませんでした。');
    const recorded = await recordDeliveryStatus(db, {
      providerMessageId: sid,
      status,
      errorCode: params.ErrorCode ?? null,
      now: new Date(),
    });
    if (!recorded) logger.info({ sid, status }, 'twilio status: no message with this id, or an older status');
    return c.body(null, 204);
  });
  return app;
}

/** The links of a message's text (the ones a test or a developer follows). */
export function linksOf(text: string | null): string[] {
  return text ? [...text.matchAll(/https?:\/\/[^\s<>"）」]+/g)].map((match) => match[0]) : [];
}

/** An outbox entry as JSON, with its links and (SMS) its code picked out. */
export function outboxJson(entry: OutboxEntry) {
  return {
    ...entry,
    createdAt: entry.createdAt.toISOString(),
    sentAt: entry.sentAt?.toISOString() ?? null,
    links: linksOf(entry.text),
    code: entry.channel === 'sms' ? (/コード: ?(\d{4,10})/.exec(entry.text ?? '')?.[1] ?? null) : null,
  };
}

/**
 * GET /dev/outbox.json?to=<address>&limit=<n>: the newest messages (for one recipient), newest
 * first, for tests and the browser journeys; 404 unless the developer tools are on and the request
 * comes from this machine (server/dev-tools.ts).
 */
export function createOutboxJsonRoute(options: { db: Database; config: Pick<ShopConfig, 'devToolsEnabled'> }) {
  const app = new Hono();
  app.get('/', async (c) => {
    if (!devToolsAllowed(options.config, c.req.raw.headers))
      return apiError(c, 404, 'NOT_FOUND', 'ページが見つかりません。');
    const to = c.req.query('to');
    const limitText = c.req.query('limit') ?? '20';
    if (!/^\d{1,3}$/.test(limitText) || Number(limitText) < 1 || Number(limitText) > 100)
      return apiError(c, 400, 'INVALID_LIMIT', 'limit は1から100の整数で指定してください。');
    if (to !== undefined && (to === '' || to.length > 254))
      return apiError(c, 400, 'INVALID_RECIPIENT', '宛先を正しく指定してください。');
    const messages = await recentMessages(options.db, { to, limit: Number(limitText) });
    return c.json({ messages: messages.map(outboxJson) }, 200, { 'Cache-Control': 'no-store' });
  });
  return app;
}
