// The mailbox as the shop composes it (decision 034): the options every reader passes (the full segment
// matcher), the claim's rules from the settings, and the welcome mail every new member gets.
import type { Database } from '#db/client';
import { notifyMember, type MailboxOptions, type MailClaimRules } from '#modules/mailbox';
import type { ShopConfig } from './config';
import { shopSegmentMatcher } from './mail-segments';

/** What every page, API operation and the header's count pass to the mailbox's reads. */
export const shopMailboxOptions = (): MailboxOptions => ({ matcher: shopSegmentMatcher });

/** @example await claimMailAttachment(db, memberId, mailId, mailClaimRules(config), shopMailboxOptions()) */
export const mailClaimRules = (config: Pick<ShopConfig, 'FREE_COIN_EXPIRY_DAYS'>): MailClaimRules => ({
  freeCoinDays: config.FREE_COIN_EXPIRY_DAYS,
});

export const WELCOME_DEDUPE_KEY = 'welcome';

/**
 * The welcome mail, once per member whatever the sign-up path (identity's user-creation hook calls it),
 * with the sign-up gift as an attachment when SIGNUP_GIFT_COINS is above 0.
 * @example await sendWelcomeMail(db, config, user.id)
 */
export async function sendWelcomeMail(
  db: Database,
  config: Pick<ShopConfig, 'SITE_NAME' | 'SIGNUP_GIFT_COINS' | 'SIGNUP_GIFT_CLAIM_DAYS'>,
  memberId: string,
  now = new Date(),
) {
  const gift = config.SIGNUP_GIFT_COINS;
  const claimUntil = new Date(now.getTime() + config.SIGNUP_GIFT_CLAIM_DAYS * 86_400_000);
  return notifyMember(db, {
    memberId,
    category: 'welcome',
    dedupeKey: WELCOME_DEDUPE_KEY,
    subject: `${config.SITE_NAME}へようこそ`,
    body: [
      `${config.SITE_NAME}にご登録いただき、ありがとうございます。`,
      gift > 0
        ? `ご登録のお礼に、${gift.toLocaleString('ja-JP')}コイン（無償コイン）をお贈りします。${config.SIGNUP_GIFT_CLAIM_DAYS}日以内に、このメールの「受け取る」ボタンから受け取ってください。`
        : '',
      'オリパを引くと、当たったカードは獲得商品に届きます。発送するか、コインに交換するかを選べます。',
      'お知らせやプレゼントは、このメールボックスに届きます。',
    ].join('\n'),
    attachment: gift > 0 ? { coins: gift, claimUntil, reason: 'signup_gift' } : null,
    sendAt: now,
  });
}
