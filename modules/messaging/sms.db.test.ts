// SMS, real parts: the Twilio adapter (the official SDK, its requests sent to the local stand-in)
// sends a queued code; the stand-in checks the SDK's Basic auth and refuses wrong credentials; its
// status callbacks, signed the way Twilio signs them, reach the shop's route and are recorded on
// the message; a forged callback is answered 403 and changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { Hono } from 'hono';
import twilio from 'twilio';
import { useTestDatabase } from '#tests/use-test-database';
import { scaledTimeout } from '#tests/settings';
import { outboundMessages } from '#db/schema';
import { createLogger } from '#server/logger';
import { createTwilioStatusRoutes, TWILIO_STATUS_PATH, type MessagingServices } from '#server/messaging';
import { deliverDueMessages, queueSms, type SiteIdentity } from '#modules/messaging';
import { createTwilioSms } from '#modules/messaging/transports';
import { startTwilioStandin, type TwilioStandin } from '#devtools/standins/twilio';
import { listenStandin } from '#devtools/standins/shared';

const handle = useTestDatabase('messaging-sms');
const site: SiteIdentity = { name: 'オリパ ステラ', origin: 'https://oripa.example.jp' };
const ACCOUNT_SID = `AC${'1a'.repeat(16)}`;
const AUTH_TOKEN = 'f'.repeat(32);
const FROM = '+815012345678';

let standin: TwilioStandin;
let shopUrl: string;
let statusCallbackUrl: string;
let closeShop: () => Promise<void>;

beforeAll(async () => {
  standin = await startTwilioStandin({ accountSid: ACCOUNT_SID, authToken: AUTH_TOKEN });
  // The shop's status route alone, on a port of its own; PUBLIC_ORIGIN is where it listens.
  const app = new Hono();
  const listening = await listenStandin(app.fetch);
  shopUrl = listening.url;
  statusCallbackUrl = `${shopUrl}${TWILIO_STATUS_PATH}`;
  const messaging: MessagingServices = {
    site,
    transports: {},
    twilio: { authToken: AUTH_TOKEN, statusCallbackUrl },
    close: async () => undefined,
  };
  app.route(
    '/api/webhooks/twilio',
    createTwilioStatusRoutes({ db: handle.db, messaging, logger: createLogger('silent') }),
  );
  closeShop = () => new Promise<void>((resolve) => listening.server.close(() => resolve()));
});
afterAll(async () => {
  await standin?.close();
  await closeShop?.();
});

const row = async (id: string) =>
  (await handle.db.select().from(outboundMessages).where(eq(outboundMessages.id, id)))[0]!;

async function until(check: () => Promise<boolean> | boolean, what: string) {
  const deadline = Date.now() + scaledTimeout(10_000);
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('SMS through Twilio (the SDK against the local stand-in)', () => {
  it('sends a queued code; the signed status callbacks are recorded on the message', async () => {
    const sms = createTwilioSms({
      accountSid: ACCOUNT_SID,
      authToken: AUTH_TOKEN,
      from: FROM,
      statusCallbackUrl,
      apiBaseUrl: standin.url,
    });
    const { id } = await handle.db.transaction((tx) =>
      queueSms(tx, site, { to: '+819012345678', template: 'phone-code', vars: { code: '482913', minutes: '10' } }),
    );
    const report = await deliverDueMessages(handle.db, { sms }, { now: new Date(Date.now() + 1000), limit: 10 });
    expect(report).toEqual({ sent: 1, retried: 0, failed: 0, held: 0 });
    const [received] = standin.messages.slice(-1);
    expect(received).toMatchObject({
      to: '+819012345678',
      from: FROM,
      body: '【オリパ ステラ】認証コード: 482913（10分間有効）。このコードを他人に教えないでください。',
      statusCallback: statusCallbackUrl,
    });
    expect(received!.sid).toMatch(/^SM[0-9a-f]{32}$/);
    const sent = await row(id);
    expect(sent).toMatchObject({ status: 'sent', providerMessageId: received!.sid, attempts: 1 });

    await standin.settled();
    const mine = standin.callbacks.filter((callback) => callback.sid === received!.sid);
    expect(mine.map((callback) => [callback.status, callback.answer])).toEqual([
      ['sent', 204],
      ['delivered', 204],
    ]);
    await until(async () => (await row(id)).deliveryStatus === 'delivered', 'the delivered status');
    expect((await row(id)).deliveryUpdatedAt).toBeInstanceOf(Date);
  });

  it('a Messaging Service sends too (no From)', async () => {
    const sms = createTwilioSms({
      accountSid: ACCOUNT_SID,
      authToken: AUTH_TOKEN,
      messagingServiceSid: `MG${'2b'.repeat(16)}`,
      apiBaseUrl: standin.url,
    });
    expect(await sms.send('+819011112222', 'テスト')).toEqual({ providerId: expect.stringMatching(/^SM/) });
    expect(standin.messages.at(-1)).toMatchObject({ from: null, messagingServiceSid: `MG${'2b'.repeat(16)}` });
  });

  it('the stand-in refuses wrong credentials the way Twilio does; the message waits and is not lost', async () => {
    const refusedBefore = standin.refusedAuth;
    const wrong = createTwilioSms({
      accountSid: ACCOUNT_SID,
      authToken: '0'.repeat(32),
      from: FROM,
      apiBaseUrl: standin.url,
    });
    await expect(wrong.send('+819012345678', 'x')).rejects.toThrow(/Twilio: Authenticate \(Twilio 20003, HTTP 401\)/);
    expect(standin.refusedAuth).toBe(refusedBefore + 1);

    const { id } = await queueSms(handle.db, site, {
      to: '+819087654321',
      template: 'phone-code',
      vars: { code: '111222', minutes: '5' },
    });
    const count = standin.messages.length;
    expect(
      await deliverDueMessages(handle.db, { sms: wrong }, { now: new Date(Date.now() + 1000), limit: 10 }),
    ).toMatchObject({
      retried: 1,
    });
    expect(await row(id)).toMatchObject({ status: 'queued', attempts: 1 });
    expect((await row(id)).lastError).toMatch(/20003/);
    expect(standin.messages.length).toBe(count);
  });

  it('an invalid number (Twilio 21211) is a permanent failure: failed at once, kept', async () => {
    const sms = createTwilioSms({
      accountSid: ACCOUNT_SID,
      authToken: AUTH_TOKEN,
      from: FROM,
      apiBaseUrl: standin.url,
    });
    // The outbox refuses a number that is not E.164; Twilio's own check is reached with a bad one made by hand.
    const [inserted] = await handle.db
      .insert(outboundMessages)
      .values({ channel: 'sms', recipient: '+1', template: 'phone-code', textBody: 'x' })
      .returning({ id: outboundMessages.id });
    // A second ahead: the row's due time is the database's clock, the run's is this process's.
    const report = await deliverDueMessages(handle.db, { sms }, { now: new Date(Date.now() + 1000), limit: 10 });
    expect(report.failed).toBeGreaterThanOrEqual(1);
    expect(await row(inserted!.id)).toMatchObject({ status: 'failed', attempts: 1 });
    expect((await row(inserted!.id)).lastError).toMatch(/21211/);
  });

  it('a forged status callback is refused with 403 and changes nothing; a good one from the SDK’s signer passes', async () => {
    const { id } = await queueSms(handle.db, site, {
      to: '+819055556666',
      template: 'phone-code',
      vars: { code: '909090', minutes: '10' },
    });
    const sms = createTwilioSms({
      accountSid: ACCOUNT_SID,
      authToken: AUTH_TOKEN,
      from: FROM,
      statusCallbackUrl,
      apiBaseUrl: standin.url,
    });
    await deliverDueMessages(handle.db, { sms }, { now: new Date(Date.now() + 1000), limit: 10 });
    await standin.settled();
    const { providerMessageId } = await row(id);
    expect((await row(id)).deliveryStatus).toBe('delivered');

    const params = { MessageSid: providerMessageId!, MessageStatus: 'failed', AccountSid: ACCOUNT_SID };
    const post = (signature: string | null, body = params) =>
      fetch(statusCallbackUrl, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/x-www-form-urlencoded',
          ...(signature === null ? {} : { 'X-Twilio-Signature': signature }),
        },
        body: new URLSearchParams(body).toString(),
      });
    const forgedWithOtherToken = twilio.getExpectedTwilioSignature('e'.repeat(32), statusCallbackUrl, params);
    expect((await post(forgedWithOtherToken)).status).toBe(403);
    expect((await post(null)).status).toBe(403);
    // A signature for other parameters does not cover these.
    const otherParams = { ...params, MessageStatus: 'delivered' };
    const signedOther = twilio.getExpectedTwilioSignature(AUTH_TOKEN, statusCallbackUrl, otherParams);
    expect((await post(signedOther)).status).toBe(403);
    // Signed for another URL (another host): refused too.
    const otherUrl = twilio.getExpectedTwilioSignature(
      AUTH_TOKEN,
      'https://evil.example/api/webhooks/twilio/status',
      params,
    );
    expect((await post(otherUrl)).status).toBe(403);
    expect((await row(id)).deliveryStatus).toBe('delivered');

    // Genuine, but older than what was recorded: accepted, and the later status stays.
    const queuedParams = { ...params, MessageStatus: 'queued' };
    const genuineOld = twilio.getExpectedTwilioSignature(AUTH_TOKEN, statusCallbackUrl, queuedParams);
    expect((await post(genuineOld, queuedParams)).status).toBe(204);
    expect((await row(id)).deliveryStatus).toBe('delivered');
    // Genuine and final: undelivered is recorded with its error code.
    const undelivered = { ...params, MessageStatus: 'undelivered', ErrorCode: '30003' };
    const genuine = twilio.getExpectedTwilioSignature(AUTH_TOKEN, statusCallbackUrl, undelivered);
    expect((await post(genuine, undelivered)).status).toBe(204);
    expect(await row(id)).toMatchObject({ deliveryStatus: 'undelivered', lastError: 'SMS provider error 30003' });
  });
});
