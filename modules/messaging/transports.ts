// The real transports (second door `#modules/messaging/transports`, server only): SMTP through
// nodemailer and SMS through Twilio's SDK, and the check of Twilio's status-callback signature.
// Kept out of the module's main door so that code queueing a message does not load either SDK.
import nodemailer from 'nodemailer';
import twilio from 'twilio';
import type RequestClient from 'twilio/lib/base/RequestClient';
import { DeliveryError, type Mailer, type SmsProvider } from './outbox';

/** Seconds an SMTP connection, greeting or silent socket, or a Twilio request, may take. */
export const TRANSPORT_TIMEOUT_SECONDS = 30;

export interface SmtpMailer extends Mailer {
  close(): void;
}

/**
 * Mail over SMTP: `smtpUrl` as SMTP_URL (smtp://user:pass@host:587, STARTTLS when offered;
 * smtps:// for TLS from the start), `from` as MAIL_FROM. The Message-ID carries the outbox id, so a
 * rare second send of one message (a lease that ran out) is recognisably the same mail.
 * @example const mailer = createSmtpMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM })
 */
export function createSmtpMailer(options: { smtpUrl: string; from: string }): SmtpMailer {
  const timeout = TRANSPORT_TIMEOUT_SECONDS * 1000;
  // The URL's own settings win; the timeouts apply where it sets none.
  const transport = nodemailer.createTransport(
    { url: options.smtpUrl, connectionTimeout: timeout, greetingTimeout: timeout, socketTimeout: timeout * 2 },
    { from: options.from },
  );
  const domain = /@([^\s<>@]+?)>?\s*$/.exec(options.from)?.[1] ?? 'localhost';
  return {
    async send(mail) {
      try {
        const info = await transport.sendMail({
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          messageId: `<${mail.id}@${domain}>`,
          textEncoding: 'base64',
        });
        return { providerId: String(info.messageId ?? `<${mail.id}@${domain}>`) };
      } catch (error) {
        const smtp = error as { code?: string; responseCode?: number; message?: string };
        // The server refused the recipient or the message itself (5xx): sending again will not help.
        const permanent =
          (smtp.code === 'EENVELOPE' || smtp.code === 'EMESSAGE') &&
          typeof smtp.responseCode === 'number' &&
          smtp.responseCode >= 500;
        throw new DeliveryError(`SMTP: ${smtp.message ?? String(error)}`, { permanent, cause: error });
      }
    },
    close: () => transport.close(),
  };
}

export interface TwilioSmsOptions {
  accountSid: string;
  authToken: string;
  /** One of the two: a sending number (E.164) or a Messaging Service. */
  from?: string;
  messagingServiceSid?: string;
  /** Where Twilio posts status changes (PUBLIC_ORIGIN + /api/webhooks/twilio/status); none: no callback. */
  statusCallbackUrl?: string;
  /**
   * Tests and the local stand-in only: send the SDK's requests to this origin instead of
   * https://api.twilio.com (the path, auth and body are the SDK's own).
   */
  apiBaseUrl?: string;
}

/** Twilio's error codes for a number that cannot receive (invalid, unreachable, opted out, blocked). */
const PERMANENT_TWILIO_CODES = new Set([21211, 21214, 21408, 21610, 21612, 21614, 21635]);

/**
 * SMS through Twilio's Messages API with the official SDK.
 * @example const sms = createTwilioSms({ accountSid, authToken, from: '+815012345678', statusCallbackUrl })
 */
export function createTwilioSms(options: TwilioSmsOptions): SmsProvider {
  if (!options.from === !options.messagingServiceSid)
    throw new RangeError('createTwilioSms: give exactly one of from and messagingServiceSid');
  const httpClient = options.apiBaseUrl ? redirectingClient(options.apiBaseUrl) : undefined;
  const client = twilio(options.accountSid, options.authToken, {
    timeout: TRANSPORT_TIMEOUT_SECONDS * 1000,
    ...(httpClient ? { httpClient } : {}),
  });
  return {
    async send(to, body) {
      try {
        const message = await client.messages.create({
          to,
          body,
          ...(options.messagingServiceSid
            ? { messagingServiceSid: options.messagingServiceSid }
            : { from: options.from! }),
          ...(options.statusCallbackUrl ? { statusCallback: options.statusCallbackUrl } : {}),
        });
        return { providerId: message.sid };
      } catch (error) {
        const rest = error as { status?: number; code?: number; message?: string };
        const permanent = typeof rest.code === 'number' && PERMANENT_TWILIO_CODES.has(rest.code);
        const detail = rest.code ? ` (Twilio ${rest.code}, HTTP ${rest.status ?? '?'})` : '';
        throw new DeliveryError(`Twilio: ${rest.message ?? String(error)}${detail}`, { permanent, cause: error });
      }
    },
  };
}

/** The SDK's own request client, with every request's origin replaced by `baseUrl`'s. */
function redirectingClient(baseUrl: string): InstanceType<typeof twilio.RequestClient> {
  const base = new URL(baseUrl);
  class RedirectingRequestClient extends twilio.RequestClient {
    override request<TData>(opts: RequestClient.RequestOptions<TData>) {
      const target = new URL(opts.uri);
      target.protocol = base.protocol;
      target.host = base.host;
      return super.request<TData>({ ...opts, uri: target.href });
    }
  }
  return new RedirectingRequestClient();
}

/**
 * Checks X-Twilio-Signature: the HMAC-SHA1 of `url` (as Twilio called it) and the sorted form
 * parameters, keyed with the auth token (the SDK's validateRequest).
 * @example twilioSignatureValid({ authToken, signature: header, url: `${origin}/api/webhooks/twilio/status`, params })
 */
export function twilioSignatureValid(check: {
  authToken: string;
  signature: string;
  url: string;
  params: Record<string, string>;
}): boolean {
  if (!check.signature) return false;
  return twilio.validateRequest(check.authToken, check.signature, check.url, check.params);
}
