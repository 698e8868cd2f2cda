// Session lifetimes, shared by better-auth's setup and the fast session readers, and the header
// that carries the client address to better-auth's rate limits.

export const SESSION_MAX_AGE_SECONDS = 60 * 60 * 24 * 30;
/** A session is extended (to SESSION_MAX_AGE_SECONDS) once it is older than this. */
export const SESSION_UPDATE_AGE_SECONDS = 60 * 60 * 24;

/** The header the server sets from the socket (or the trusted proxy); clients cannot forge it. */
export const CLIENT_IP_HEADER = 'x-shop-client-ip';

/** The modes of /auth/action, where identity's mail links land (Firebase's names where the specification's flows have them). */
export const ACTION_MODES = [
  'verifyEmail',
  'verifyAndChangeEmail',
  'approveEmailChange',
  'recoverEmail',
  'resetPassword',
  'signIn',
  'customToken',
] as const;
export type ActionMode = (typeof ACTION_MODES)[number];

/** The header that carries a captcha (Turnstile) token to better-auth (the name its captcha plugin reads). */
export const CAPTCHA_HEADER = 'x-captcha-response';
/** The hidden form field the captcha widget fills (app/components/Captcha.tsx); actions forward it as CAPTCHA_HEADER. */
export const CAPTCHA_FORM_FIELD = 'captchaToken';
