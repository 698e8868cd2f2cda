// The identity module's server-only door: better-auth set up for the shop, sessions read from the
// database (for the draw's one-call path and the API), and linking a LINE account.
export {
  createShopAuth,
  CLIENT_IP_HEADER,
  AUTH_ENDPOINTS_ONLY_THROUGH_PAGES,
  AUTH_ADMIN_ENDPOINTS,
  type ShopAuth,
  type MemberCreated,
} from './auth.server';
export { toSessionMember, verifySignedToken, memberOfSessionToken, type SessionMember } from './session.server';
export {
  LINE_PROVIDER_ID,
  LINE_ENDPOINTS,
  LINE_ID_TOKEN_ISSUER,
  LINE_CALLBACK_PATH,
  lineOAuthConfig,
  verifyLineIdToken,
  LineLinkError,
  LINE_LINK_REFUSAL_CODES,
  startLineLink,
  linkedLineAccount,
  lineStandInEmail,
  lineLinkErrorMessage,
  type LineOAuthOptions,
  type LineLinkRefusalCode,
} from './line.server';
export { addSystemMember } from './members';
export {
  capturingMessenger,
  type IdentityMessenger,
  type IdentityMailTemplate,
  type IdentitySmsTemplate,
  type CapturedMessage,
} from './messenger';
export {
  actionUrl,
  verificationClaimsOf,
  resetCodeIsValid,
  peekRecoverEmail,
  recoverEmail,
  EMAIL_VERIFICATION_SECONDS,
  RESET_PASSWORD_SECONDS,
  MAGIC_LINK_SECONDS,
  RECOVER_EMAIL_SECONDS,
  type RecoverEmailOutcome,
} from './mail-links.server';
export {
  twoFactorPlugin,
  TWO_FACTOR_TABLES,
  TOTP_DIGITS,
  BACKUP_CODE_COUNT,
  TRUST_DEVICE_DAYS,
  SECOND_STEP_MINUTES,
  normaliseOtp,
  normaliseBackupCode,
  isTotpCode,
  secondFactorOf,
  hasPassword,
  pendingTotpUri,
  remainingBackupCodes,
  manualEntryKey,
  STAFF_ACCESS_REFUSAL_CODES,
  staffAccessOfMember,
  type SecondFactorState,
  type StaffAccessRefusalCode,
} from './two-factor.server';
export {
  deleteOwnAccount,
  isDeletedMember,
  recentlyDeletedMembers,
  spellingsOf,
  type ErasedMember,
  tombstoneEmailOf,
  DELETED_MEMBER_NAME,
  DELETION_CONFIRMATION_PHRASE,
  ACCOUNT_DELETION_REFUSAL_CODES,
  type AccountDeletionRefusalCode,
  type DeleteOwnAccountInput,
  type DeleteOwnAccountOutcome,
} from './account-deletion.server';
export {
  phoneNumberPlugin,
  phoneNumberPolicy,
  memberPhoneNumber,
  hasSignInBesidesPhone,
  PHONE_CODE,
  PHONE_CODE_COOLDOWN,
  type PhoneNumberSetup,
} from './phone.server';
export {
  abuseGuard,
  captchaRequired,
  accountKey,
  addressKey,
  normaliseAccount,
  ABUSE_ERROR_CODES,
  GUARDED_AUTH_PATHS,
  TURNSTILE_TIMEOUT_MS,
  type AbuseGuardOptions,
  type AbuseConfig,
} from './abuse.server';
export {
  createRateLimiter,
  RATE_LIMIT_KEY_PREFIX,
  REDIS_COMMAND_TIMEOUT_MS,
  type RateLimiter,
  type RateLimiterOptions,
  type RateLimitDecision,
} from './rate-limiter.server';
export { verifyTurnstile, TURNSTILE_TOKEN_MAX_LENGTH, type TurnstileVerification } from './turnstile.server';
export { CAPTCHA_HEADER, CAPTCHA_FORM_FIELD } from './constants';
export { socialProvidersOf, configuredSocialProviders, accountOptionsOf, LINK_BY_EMAIL_ALWAYS } from './social.server';
export {
  listSignInMethods,
  startSocialSignIn,
  startSocialLink,
  unlinkSignInMethod,
  sessionIsRecent,
  type SignInMethod,
  type MemberSignInMethods,
  type SignInMethodError,
} from './sign-in-methods.server';
export { accountSummaryOf, type AccountSummary } from './account-summary.server';
