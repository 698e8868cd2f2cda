// Messaging's settings (decisions 013 and 065): the mail server, Twilio for SMS, and how long the outbox
// keeps what it sent. Without a transport, messages are held (readable at /dev/outbox in the sandbox).
import { z } from 'zod';
import { declareSettings } from '#modules/kernel';

const twilioSid = (prefix: string, what: string) =>
  z
    .string()
    .regex(new RegExp(`^${prefix}[0-9a-f]{32}$`), `must be ${what} (${prefix} and 32 hex digits)`)
    .optional();

export const messagingSettings = declareSettings({
  title: 'Mail and SMS',
  shape: {
    /** Outbound mail over SMTP (modules/messaging): smtp://user:pass@host:587 (STARTTLS) or smtps://…:465. Unset: mail is held. */
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\/[^\s/]+(:\d{1,5})?\/?(\?\S*)?$/, 'must be smtp://user:pass@host:port or smtps://…')
      .refine((v) => URL.canParse(v) && new URL(v).hostname !== '', 'must name a host')
      .optional(),
    /** The sender of every mail, e.g. `オリパ ステラ <no-reply@example.jp>`; needed with SMTP_URL. */
    MAIL_FROM: z
      .string()
      .max(200)
      .regex(
        /^(?:[^<>\r\n@]*<[^\s<>@]+@[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+)$/,
        'must be an address, e.g. no-reply@example.jp or オリパ ステラ <no-reply@example.jp>',
      )
      .optional(),
    /** SMS through Twilio: the account (AC…) and its auth token, and TWILIO_FROM or TWILIO_MESSAGING_SERVICE_SID. */
    TWILIO_ACCOUNT_SID: twilioSid('AC', 'the Twilio Account SID'),
    TWILIO_AUTH_TOKEN: z
      .string()
      .regex(/^[0-9a-f]{32}$/, 'must be the 32-character Twilio auth token')
      .optional(),
    /** The sending number in E.164 form, e.g. +815012345678. */
    TWILIO_FROM: z
      .string()
      .regex(/^\+[1-9]\d{7,14}$/, 'must be a phone number in E.164 form, e.g. +815012345678')
      .optional(),
    TWILIO_MESSAGING_SERVICE_SID: twilioSid('MG', 'a Twilio Messaging Service SID'),
    /** Days the outbox keeps the bodies of sent, held and failed messages (their links carry one-time codes). */
    OUTBOX_RETENTION_DAYS: z.coerce.number().int().min(1).max(365).default(7),
  },
  docs: {
    SMTP_URL: {
      default: '(unset: mail is held)',
      meaning:
        'outbound mail server, `smtp://user:pass@host:587` (STARTTLS when offered) or `smtps://user:pass@host:465`; ' +
        'needs `MAIL_FROM`. Unset: mails stay in the outbox as held, readable at `/dev/outbox` with the sandbox on ' +
        '(docs/decisions/013)',
    },
    MAIL_FROM: { meaning: 'sender of every mail, e.g. `オリパ ステラ <no-reply@example.jp>`; needs `SMTP_URL`' },
    TWILIO_ACCOUNT_SID: {
      default: '(unset: SMS is held)',
      meaning:
        'SMS through Twilio: the account (`AC…`), with `TWILIO_AUTH_TOKEN` and one of `TWILIO_FROM` or ' +
        '`TWILIO_MESSAGING_SERVICE_SID`. A partial set stops the start',
    },
    TWILIO_AUTH_TOKEN: {
      meaning: "the Twilio account's auth token (also verifies the status callbacks at `/api/webhooks/twilio/status`)",
    },
    TWILIO_FROM: {
      meaning: 'the sending number in E.164 (`+815012345678`), or `TWILIO_MESSAGING_SERVICE_SID`, not both',
    },
    TWILIO_MESSAGING_SERVICE_SID: { meaning: 'a Messaging Service (`MG…`) instead of `TWILIO_FROM`, not both' },
    OUTBOX_RETENTION_DAYS: {
      meaning:
        'days the outbox keeps the bodies of sent, held and failed messages (their links and codes are one-time ' +
        'secrets); then `messaging.clear-old-bodies` blanks them, keeping the row',
    },
  },
  problems: (values) => messagingSettingsProblems(values),
});

/** SMTP and Twilio come as sets: a set given in part names what is missing (or given twice). */
function messagingSettingsProblems(values: {
  SMTP_URL?: string | undefined;
  MAIL_FROM?: string | undefined;
  TWILIO_ACCOUNT_SID?: string | undefined;
  TWILIO_AUTH_TOKEN?: string | undefined;
  TWILIO_FROM?: string | undefined;
  TWILIO_MESSAGING_SERVICE_SID?: string | undefined;
}): string[] {
  const problems: string[] = [];
  if (values.SMTP_URL && !values.MAIL_FROM) problems.push('MAIL_FROM: needed with SMTP_URL (the sender of every mail)');
  if (values.MAIL_FROM && !values.SMTP_URL) problems.push('SMTP_URL: needed with MAIL_FROM (the mail server)');
  const twilio = {
    TWILIO_ACCOUNT_SID: values.TWILIO_ACCOUNT_SID,
    TWILIO_AUTH_TOKEN: values.TWILIO_AUTH_TOKEN,
    TWILIO_FROM: values.TWILIO_FROM,
    TWILIO_MESSAGING_SERVICE_SID: values.TWILIO_MESSAGING_SERVICE_SID,
  };
  if (Object.values(twilio).some(Boolean)) {
    for (const name of ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN'] as const)
      if (!twilio[name]) problems.push(`${name}: needed for SMS through Twilio (another TWILIO_ setting is set)`);
    if (!twilio.TWILIO_FROM && !twilio.TWILIO_MESSAGING_SERVICE_SID)
      problems.push('TWILIO_FROM: set the sending number, or TWILIO_MESSAGING_SERVICE_SID, for SMS through Twilio');
    if (twilio.TWILIO_FROM && twilio.TWILIO_MESSAGING_SERVICE_SID)
      problems.push('TWILIO_MESSAGING_SERVICE_SID: set either it or TWILIO_FROM, not both');
  }
  return problems;
}
