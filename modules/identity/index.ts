// The identity module's door: session lifetimes, the sign-in and sign-up form rules, the Japanese
// error catalogue, members' public names, the operators' member functions and the shared rate limit.
// Nothing here loads better-auth, so pages and the command line can import it; the server-only parts
// (better-auth, sessions, LINE) are behind '#modules/identity/server'.
export { SESSION_MAX_AGE_SECONDS, SESSION_UPDATE_AGE_SECONDS, CLIENT_IP_HEADER } from './constants';
export {
  signInSchema,
  signUpSchema,
  nicknameSchema,
  fieldErrorsOf,
  type PasswordPolicy,
  type FieldErrors,
} from './forms';
export { AUTH_ERROR_MESSAGES, GENERIC_AUTH_ERROR, authErrorMessage } from './messages';
export { publicNameOf, publicNicknames } from './public-names';
export { findMemberByIdOrEmail, createMemberWithSession, setMemberRole, type MemberRole } from './operator';
export { takeRateLimit, type RateLimitAnswer } from './rate-limit';
export {
  SOCIAL_PROVIDER_IDS,
  SOCIAL_PROVIDER_NAMES,
  isSocialProviderId,
  socialSignInLabel,
  nicknameFromProvider,
  isPlaceholderEmail,
  type SocialProviderId,
} from './social';
