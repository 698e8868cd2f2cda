// The mailbox's refusal words: status and Japanese message of each code (gathered by modules/refusals).
import { COMMON_REFUSAL_WORDS, jstText, type RefusalWords } from '#modules/kernel';
import type { MailRefusalCode } from './notify';

// The mailbox (decision 034): another member's mail is "not found", never "forbidden".
export const MAIL_REFUSAL_WORDS: RefusalWords<MailRefusalCode> = {
  UNAUTHENTICATED: COMMON_REFUSAL_WORDS.UNAUTHENTICATED,
  MAIL_NOT_FOUND: { status: 404, message: 'メールが見つかりません。' },
  MAIL_NO_ATTACHMENT: { status: 422, message: 'このメールには受け取れるプレゼントがありません。' },
  MAIL_ALREADY_CLAIMED: { status: 409, message: 'このプレゼントは受け取り済みです。' },
  MAIL_CLAIM_EXPIRED: {
    status: 410,
    message: (d) =>
      `受け取り期限${typeof d.claimUntil === 'string' ? `（${jstText(d.claimUntil)}）` : ''}を過ぎたため、受け取れません。`,
  },
  MAIL_CLAIM_NOT_AVAILABLE: {
    status: 403,
    message: 'このアカウントではプレゼントを受け取れません。お問い合わせください。',
  },
  MAIL_ALREADY_CANCELED: { status: 409, message: 'このメールは取り消し済みです。' },
};
