// The identity module's door for code that may reach the browser too: session lifetimes, the
// sign-in and sign-up form rules, the Japanese error catalogue and members' public names.
// Server-only parts (better-auth, sessions, LINE) are behind '#modules/identity/server'.
export { SESSION_MAX_AGE_SECONDS, SESSION_UPDATE_AGE_SECONDS } from './constants';
export { signInSchema, signUpSchema, nicknameSchema, fieldErrorsOf, type PasswordPolicy, type FieldErrors } from './forms';
export { AUTH_ERROR_MESSAGES, GENERIC_AUTH_ERROR, authErrorMessage } from './messages';
export { publicNameOf, publicNicknames } from './public-names';
