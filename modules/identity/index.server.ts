// The identity module's server-only door: better-auth set up for the shop, sessions read from the
// database (for the draw's one-call path and the API), and linking a LINE account.
export { createShopAuth, CLIENT_IP_HEADER, AUTH_ENDPOINTS_ONLY_THROUGH_PAGES, type ShopAuth } from './auth.server';
export { toSessionMember, verifySignedToken, memberOfSessionToken, type SessionMember } from './session.server';
export {
  LINE_PROVIDER_ID,
  LINE_ENDPOINTS,
  LINE_ID_TOKEN_ISSUER,
  LINE_CALLBACK_PATH,
  LINE_ACCOUNT_OPTIONS,
  lineOAuthConfig,
  verifyLineIdToken,
  LineLinkError,
  LINE_LINK_REFUSAL_CODES,
  startLineLink,
  linkedLineAccount,
  lineLinkErrorMessage,
  type LineOAuthOptions,
  type LineLinkRefusalCode,
} from './line.server';
export { addSystemMember } from './members';
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
