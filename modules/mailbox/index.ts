// The mailbox (docs/decisions/034): personal mails and broadcasts, read state, and free-coin attachments
// claimed exactly once. Every module that tells a member something goes through `notifyMember`, the one
// notification interface: a personal mail keyed by (member, dedupe key), so a retried job or a second
// instance never sends it twice. The door only re-exports (issue 30 item 1): sending and its emails
// (notify.ts), which mails a member sees (visibility.ts), the inbox (inbox.ts), presents (presents.ts),
// staff's mails (operators.ts).
export type { MailSegment } from './schema';
export {
  MAIL_REFUSAL_CODES,
  MAIL_CATEGORIES,
  MAIL_ATTACHMENT_REASON,
  plainText,
  mailPagePath,
  notifyMember,
  sendPendingMailEmails,
  type MailRefusalCode,
  type MailCategory,
  type MailAttachment,
  type MemberNotice,
} from './notify';
export {
  BROADCAST_WINDOW_DAYS,
  allMembersMatcher,
  type SegmentMatcher,
  type MailSummary,
  type MailDetail,
  type MailboxOptions,
} from './visibility';
export { listMails, openMail, unreadMailCount } from './inbox';
export {
  claimMailAttachment,
  claimablePresents,
  claimAllPresents,
  presentsByKey,
  presentsByNumber,
  type MailClaim,
  type MailClaimRules,
  type ClaimablePresents,
  type PresentState,
} from './presents';
export {
  composeMail,
  cancelMail,
  listSentMails,
  MAIL_SEGMENT_KINDS,
  isScheduled,
  type MailDraft,
  type SentMail,
} from './operators';
export { claimedAttachments, type ClaimedAttachment } from './claims';
export { mailEmailOptIn, setMailEmailOptIn } from './preferences';
export { erasePersonalMailsOf } from './erasure';
export { mailboxSettings } from './settings';
export { MAIL_REFUSAL_WORDS } from './refusal-words';
