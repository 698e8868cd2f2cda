// What identity sends to members, and through what: the server gives createShopAuth a messenger
// built on the messaging module's outbox (queued in the database, sent by a job), so identity never
// holds a mail or SMS transport and a test can read exactly what would have gone out.

/** The mails identity sends; their words live in the messaging module's templates. */
export type IdentityMailTemplate =
  | 'verify-email' // { url }: confirm the address after sign-up
  | 'password-reset' // { url }: /auth/action?mode=resetPassword&oobCode=…
  | 'magic-link' // { url }: /auth/action?mode=signIn&oobCode=…
  | 'email-change-confirm' // { url, newEmail }: to the old address: approve the change (step 1)
  | 'email-change-verify' // { url, newEmail }: to the new address (step 2)
  | 'email-change-notice' // { newEmail, url }: to the old address once changed (url: undo the change)
  | 'account-exists' // { signInUrl, resetUrl }: a sign-up with an address that has an account
  | 'account-deleted'; // {}: 退会 done

/** The text messages identity sends. */
export type IdentitySmsTemplate = 'phone-code'; // { code, minutes }

export interface IdentityMessenger {
  /** Queues a mail (never sends inline); resolves once it is safely in the outbox. */
  mail(message: {
    to: string;
    template: IdentityMailTemplate;
    vars: Record<string, string>;
    memberId?: string | null;
  }): Promise<void>;
  /** Queues a text message to an E.164 number (+819012345678). */
  sms(message: {
    to: string;
    template: IdentitySmsTemplate;
    vars: Record<string, string>;
    memberId?: string | null;
  }): Promise<void>;
}

/** A message as a capturing messenger kept it. */
export type CapturedMessage =
  | ({ channel: 'mail' } & Parameters<IdentityMessenger['mail']>[0])
  | ({ channel: 'sms' } & Parameters<IdentityMessenger['sms']>[0]);

/**
 * A messenger that keeps what it was given, for tests that drive better-auth directly.
 * @example const messenger = capturingMessenger(); createShopAuth({ …, messenger }); messenger.sent.at(-1)
 */
export function capturingMessenger(): IdentityMessenger & { sent: CapturedMessage[] } {
  const sent: CapturedMessage[] = [];
  return {
    sent,
    async mail(message) {
      sent.push({ channel: 'mail', ...message });
    },
    async sms(message) {
      sent.push({ channel: 'sms', ...message });
    },
  };
}
