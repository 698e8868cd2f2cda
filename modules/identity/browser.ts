// The identity module's browser door (not named *.client.ts: React Router empties those on the server): only what client components need and nothing that reaches a
// table (the main door re-exports database functions, which would carry the schema into the
// browser's scripts; tests/http/client-bundle.test.ts fails if it does).
export {
  PASSWORD_POLICY_SCHEMA_VERSION,
  passwordRules,
  checkPassword,
  maxLengthOf,
  readPasswordPolicy,
  PasswordPolicyError,
  type PasswordPolicy,
  type PasswordRule,
} from './password-policy';
export {
  SOCIAL_PROVIDER_NAMES,
  socialSignInLabel,
  isPlaceholderEmail,
  isSocialProviderId,
  type SocialProviderId,
} from './social';
export { authErrorMessage } from './messages';
export type { ActionMode } from './constants';
export { PR_LABEL, PR_LABEL_MEANING, SPONSORSHIP_KIND_LABELS } from './sponsorship-words';
export {
  ACCOUNT_POLICY_PATH,
  APPEAL_DECISION_DAYS,
  APPEAL_OUTCOME_LABELS,
  APPEAL_STATEMENT_MAX,
  APPEAL_WINDOW_DAYS,
  RESTRICTION_CATEGORY_WORDS,
  RESTRICTION_KIND_LABELS,
  restrictionCategories,
  type AppealOutcome,
  type RestrictionCategory,
  type RestrictionKind,
} from './restriction-words';
