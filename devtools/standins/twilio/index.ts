// Local stand-in for Twilio's Programmable Messaging API (the part the shop uses): create a message
// (POST /2010-04-01/Accounts/{AccountSid}/Messages.json, form-encoded, HTTP Basic with the Account SID
// and auth token, answered 201 with the message resource, status `queued`), then the status
// callbacks Twilio makes to the message's StatusCallback URL (`sent`, then `delivered`), signed as
// Twilio signs them (X-Twilio-Signature: HMAC-SHA1 of the URL and the sorted parameters, keyed with
// the auth token; computed with the SDK's own getExpectedTwilioSignature). Errors use Twilio's shape
// `{ code, message, more_info, status }`. What it leaves out: media, scheduling, pricing, segments
// beyond a simple count, and the real network's delays and failures (see `outage`).
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { Hono, type Context } from 'hono';
import twilio from 'twilio';
import { listenStandin } from '#devtools/standins/shared';

export interface TwilioStandinOptions {
  port?: number;
  host?: string;
  /** The account this stand-in plays: the shop's TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN. */
  accountSid: string;
  authToken: string;
  /** Statuses reported to the StatusCallback, in order (default sent, delivered). */
  callbackStatuses?: string[];
  /** Pause before each callback (default 20 ms), so the shop has recorded the message's SID. */
  callbackDelayMs?: number;
}

/** A message as the stand-in received it. */
export interface TwilioStandinMessage {
  sid: string;
  to: string;
  from: string | null;
  messagingServiceSid: string | null;
  body: string;
  statusCallback: string | null;
}

/** One status callback the stand-in made, and what the shop answered. */
export interface TwilioStandinCallback {
  sid: string;
  status: string;
  url: string;
  answer: number;
}

export interface TwilioStandin {
  /** Base URL to send the SDK's requests to (createTwilioSms({ apiBaseUrl })). */
  url: string;
  /** Messages accepted, oldest first. */
  readonly messages: TwilioStandinMessage[];
  /** Status callbacks made, oldest first. */
  readonly callbacks: TwilioStandinCallback[];
  /** Requests refused for their credentials. */
  readonly refusedAuth: number;
  /** While true, every create answers 503 (Twilio's "Service Unavailable"). */
  outage: boolean;
  /** Resolves when every callback due so far has been made. */
  settled(): Promise<void>;
  close(): Promise<void>;
}

const API_VERSION = '2010-04-01';

function twilioError(c: Context, status: number, code: number, message: string) {
  return c.json({ code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status }, status as 400);
}

function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** @example const standin = await startTwilioStandin({ accountSid: 'AC…', authToken: '…' }) */
export async function startTwilioStandin(options: TwilioStandinOptions): Promise<TwilioStandin> {
  const messages: TwilioStandinMessage[] = [];
  const callbacks: TwilioStandinCallback[] = [];
  const pending = new Set<Promise<void>>();
  const statuses = options.callbackStatuses ?? ['sent', 'delivered'];
  const delay = options.callbackDelayMs ?? 20;
  let refusedAuth = 0;
  const state = { outage: false };

  const sendCallbacks = async (message: TwilioStandinMessage) => {
    if (!message.statusCallback) return;
    for (const status of statuses) {
      await new Promise((resolve) => setTimeout(resolve, delay));
      const params: Record<string, string> = {
        AccountSid: options.accountSid,
        ApiVersion: API_VERSION,
        From: message.from ?? '',
        MessageSid: message.sid,
        MessageStatus: status,
        SmsSid: message.sid,
        SmsStatus: status,
        To: message.to,
        ...(message.messagingServiceSid ? { MessagingServiceSid: message.messagingServiceSid } : {}),
      };
      const signature = twilio.getExpectedTwilioSignature(options.authToken, message.statusCallback, params);
      let answer = 0;
      try {
        const response = await fetch(message.statusCallback, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/x-www-form-urlencoded',
            'X-Twilio-Signature': signature,
            'User-Agent': 'TwilioProxy/1.1',
          },
          body: new URLSearchParams(params).toString(),
        });
        answer = response.status;
        await response.arrayBuffer();
      } catch {
        answer = 0; // unreachable: Twilio would log it in the console's debugger
      }
      callbacks.push({ sid: message.sid, status, url: message.statusCallback, answer });
    }
  };

  const app = new Hono();
  app.post(`/${API_VERSION}/Accounts/:accountSid/Messages.json`, async (c) => {
    const authorization = c.req.header('authorization') ?? '';
    const [scheme, encoded] = authorization.split(' ');
    const [user, ...rest] = Buffer.from(encoded ?? '', 'base64')
      .toString('utf8')
      .split(':');
    const password = rest.join(':');
    if (
      scheme !== 'Basic' ||
      !sameSecret(user ?? '', options.accountSid) ||
      !sameSecret(password, options.authToken) ||
      c.req.param('accountSid') !== options.accountSid
    ) {
      refusedAuth++;
      return twilioError(c, 401, 20003, 'Authenticate');
    }
    if (state.outage) return twilioError(c, 503, 20500, 'Service Unavailable');
    const form = new URLSearchParams(await c.req.text());
    const to = form.get('To') ?? '';
    const from = form.get('From');
    const messagingServiceSid = form.get('MessagingServiceSid');
    const body = form.get('Body') ?? '';
    const statusCallback = form.get('StatusCallback');
    if (!to) return twilioError(c, 400, 21604, "A 'To' phone number is required.");
    if (!/^\+[1-9]\d{7,14}$/.test(to))
      return twilioError(c, 400, 21211, `The 'To' number ${to} is not a valid phone number.`);
    if (!from && !messagingServiceSid)
      return twilioError(c, 400, 21603, "A 'From' or 'MessagingServiceSid' parameter is required to send a message.");
    if (!body) return twilioError(c, 400, 21602, 'Message body is required.');
    if (body.length > 1600)
      return twilioError(c, 400, 21617, 'The concatenated message body exceeds the 1600 character limit.');
    const sid = `SM${randomBytes(16).toString('hex')}`;
    const message: TwilioStandinMessage = { sid, to, from, messagingServiceSid, body, statusCallback };
    messages.push(message);
    const run = sendCallbacks(message).finally(() => pending.delete(run));
    pending.add(run);
    const now = new Date().toUTCString().replace('GMT', '+0000');
    // UCS-2 (any non-GSM character) fits 70 characters a segment, 67 when split.
    const segments = /^[\x20-\x7e\n\r]*$/.test(body)
      ? Math.ceil(body.length / (body.length > 160 ? 153 : 160))
      : Math.ceil(body.length / (body.length > 70 ? 67 : 70));
    return c.json(
      {
        account_sid: options.accountSid,
        api_version: API_VERSION,
        body,
        date_created: now,
        date_sent: null,
        date_updated: now,
        direction: 'outbound-api',
        error_code: null,
        error_message: null,
        from,
        messaging_service_sid: messagingServiceSid,
        num_media: '0',
        num_segments: String(segments),
        price: null,
        price_unit: 'USD',
        sid,
        status: messagingServiceSid && !from ? 'accepted' : 'queued',
        subresource_uris: { media: `/${API_VERSION}/Accounts/${options.accountSid}/Messages/${sid}/Media.json` },
        to,
        uri: `/${API_VERSION}/Accounts/${options.accountSid}/Messages/${sid}.json`,
      },
      201,
    );
  });
  app.all('*', (c) => twilioError(c, 404, 20404, 'The requested resource was not found'));

  const listening = await listenStandin(app.fetch, { host: options.host, port: options.port });
  return {
    url: listening.url,
    messages,
    callbacks,
    get refusedAuth() {
      return refusedAuth;
    },
    get outage() {
      return state.outage;
    },
    set outage(value: boolean) {
      state.outage = value;
    },
    async settled() {
      while (pending.size > 0) await Promise.all([...pending]);
    },
    async close() {
      await Promise.allSettled([...pending]);
      await new Promise<void>((resolve) => listening.server.close(() => resolve()));
    },
  };
}
