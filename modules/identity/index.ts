// The identity module's door: session lifetimes, the sign-in and sign-up form rules, the Japanese
// error catalogue, members' public names, the operators' member functions and the shared rate limit.
// Nothing here loads better-auth, so pages and the command line can import it; the server-only parts
// (better-auth, sessions, LINE) are behind '#modules/identity/server'.
export {
  SESSION_MAX_AGE_SECONDS,
  SESSION_UPDATE_AGE_SECONDS,
  CLIENT_IP_HEADER,
  ACTION_MODES,
  type ActionMode,
  CAPTCHA_HEADER,
  CAPTCHA_FORM_FIELD,
} from './constants';
export {
  signInSchema,
  signUpSchema,
  emailSchema,
  emailOnlySchema,
  newPasswordSchema,
  resetPasswordSchema,
  changePasswordSchema,
  birthdaySchema,
  isStrictDate,
  nicknameSchema,
  nicknameSchemaOf,
  DEFAULT_NICKNAME_RULES,
  fieldErrorsOf,
  type NicknameRules,
  type FieldErrors,
} from './forms';
export {
  PASSWORD_POLICY_SCHEMA_VERSION,
  PASSWORD_LIBRARY_MIN_LENGTH,
  PASSWORD_HARD_MAX_LENGTH,
  UNSUPPORTED_POLICY_VERSION,
  passwordPolicyOf,
  passwordRules,
  checkPassword,
  maxLengthOf,
  readPasswordPolicy,
  PasswordPolicyError,
  type PasswordPolicy,
  type PasswordPolicyMode,
  type PasswordPolicySettings,
  type PasswordRequirement,
  type PasswordRule,
  type PasswordCheck,
} from './password-policy';
export {
  publicNameOf,
  publicNicknames,
  DELETED_MEMBER_PUBLIC_NAME,
  ANONYMOUS_WINNER_NAME,
  feedSafeName,
  winnersFeedNames,
  winnersFeedNamedOf,
  setWinnersFeedNamed,
} from './public-names';
export {
  PR_LABEL,
  PR_LABEL_MEANING,
  SPONSORSHIP_KIND_LABELS,
  currentSponsorship,
  endSponsorship,
  sponsoredAt,
  sponsoredDuring,
  sponsorshipSpans,
  startSponsorship,
  type SponsorshipSpan,
} from './sponsorships';
export { sponsorshipKinds, type SponsorshipKind } from './schema';
export {
  appealOutcomes,
  restrictionCategories,
  restrictionKinds,
  type AppealOutcome,
  type RestrictionCategory,
  type RestrictionKind,
} from './schema';
export {
  STANDING_PAGE_PATH,
  STATEMENT_LINK_DAYS,
  closeRestriction,
  lockRestriction,
  openRestriction,
  recordAppeal,
  recordAppealDecision,
  redactRestrictionStatementsOf,
  renewStatementLink,
  restrictionByLink,
  restrictionsOf,
  restrictionsShownTo,
  statementLinkPath,
  type Restriction,
} from './restrictions';
export {
  ACCOUNT_POLICY_PATH,
  APPEAL_DECISION_DAYS,
  APPEAL_OUTCOME_LABELS,
  APPEAL_STATEMENT_MAX,
  APPEAL_WINDOW_DAYS,
  RESTRICTION_CATEGORY_WORDS,
  RESTRICTION_KIND_LABELS,
} from './restriction-words';
export {
  AUTH_ERROR_MESSAGES,
  GENERIC_AUTH_ERROR,
  authErrorMessage,
  wrongPhoneCodeMessage,
  phoneCodeCooldownMessage,
} from './messages';
export {
  phoneNumberSchema,
  phoneCodeSchema,
  readPhoneNumber,
  isStoredPhoneNumber,
  formatPhoneNumber,
  maskPhoneNumber,
  PHONE_NUMBER_MESSAGES,
  type PhoneNumberPolicy,
} from './phone-numbers';
export {
  findMemberByIdOrEmail,
  createMemberWithSession,
  setMemberRole,
  STAFF_ROLES,
  isStaffRole,
  staffAccountOf,
  listStaffAccounts,
  staffAccessOf,
  memberStandingOf,
  countMembersJoinedBefore,
  countMembersAmong,
  type MemberStanding,
  type MemberRole,
  type StaffAccount,
  type StaffAccess,
} from './operator';
export { takeRateLimit, type RateLimitAnswer } from './rate-limit';
export { memberContactOf, type MemberContact } from './contact';
export {
  SOCIAL_PROVIDER_IDS,
  SOCIAL_PROVIDER_NAMES,
  isSocialProviderId,
  socialSignInLabel,
  nicknameFromProvider,
  isPlaceholderEmail,
  type SocialProviderId,
} from './social';
export {
  MEMBER_QUERY_MAX_LENGTH,
  memberQueryOf,
  searchMembers,
  memberListingsOf,
  memberProfileOf,
  listMemberSessions,
  revokeMemberSessions,
  banMember,
  unbanMember,
  type MemberQuery,
  type MemberListing,
  type MemberProfile,
  type MemberSession,
  type MemberBan,
} from './member-console';
export {
  MEMBER_CODE_ALPHABET,
  memberCode,
  readMemberCode,
  memberIdByCode,
  memberTagsOf,
  type MemberTag,
} from './member-code';
export { membersExportBatch } from './export';
export { sessionsStartedSince, lastSignInBefore, membersSignedInBetween, type SessionSighting } from './risk-feed';
export { referralProfilesOf, sessionDevicesOf, type ReferralProfile, type DeviceSighting } from './referral-feed';
export { foldMemberRollups, newMemberDailyFigures } from './rollups';
export {
  identitySettings,
  turnstileSettingsOf,
  TURNSTILE_SCRIPT_URL,
  TURNSTILE_SITEVERIFY_URL,
  type TurnstileSettings,
} from './settings';
export { LINE_LINK_REFUSAL_WORDS, STAFF_ACCESS_REFUSAL_WORDS, ACCOUNT_DELETION_REFUSAL_WORDS } from './refusal-words';
