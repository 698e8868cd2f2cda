// The identity module's server-only door: better-auth set up for the shop, sessions read from the
// database (for the draw's one-call path and the API), and linking a LINE account.
export { createShopAuth, CLIENT_IP_HEADER, AUTH_ENDPOINTS_ONLY_THROUGH_PAGES, type ShopAuth } from './auth.server';
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
