// Invitations (docs/decisions/038): each member's personal code, the invitation attached once to a new
// member at sign-up, and its settlement: when the invitee has verified a phone number AND made a first
// purchase, both members receive free coins as mailbox attachments, once, within the inviter's monthly
// cap (Japan-time month); self-invitations and shared phones or devices are refused. The door only
// re-exports (issue 30 item 1): refusals, rules and codes (codes.ts), attaching at sign-up (attach.ts),
// settling (settlement.ts), what members and staff read (overview.ts).
export type { InvitationOutcome, InvitationRefusal } from './schema';
export {
  INVITATION_REFUSAL_CODES,
  INVITATION_CODE_ALPHABET,
  INVITATION_CODE_LENGTH,
  TYPED_CODES_PER_HOUR,
  LATE_ENTRY_HOURS,
  INVITATION_COOKIE,
  INVITATION_COOKIE_SECONDS,
  INVITATION_EVENT_COOKIE,
  normaliseInvitationCode,
  invitationCodeOf,
  inviterOfCode,
  type InvitationRefusalCode,
  type InvitationRules,
} from './codes';
export { normaliseEmail, attachInvitation, type AttachInput } from './attach';
export { jstMonthOf, settleInvitation, settleDueInvitations, type SettleResult } from './settlement';
export {
  INVITEE_STATE_LABELS,
  invitationOverviewOf,
  publicInviterName,
  inviterSummaries,
  type InviteeState,
  type InviteeView,
  type InvitationOverview,
  type InviterSummary,
} from './overview';
export { invitationSettings } from './settings';
export { INVITATION_REFUSAL_WORDS } from './refusal-words';
