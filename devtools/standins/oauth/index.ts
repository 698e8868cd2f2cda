// Local stand-ins of the social sign-in providers better-auth talks to (development and tests only):
// Google as a real OpenID Connect provider (oidc-provider), GitHub, Facebook and X as small OAuth 2.0
// servers shaped like theirs. They listen on loopback ports; the provider's real host names are routed
// to them by tests/support/oauth-network.ts (an undici dispatcher), so better-auth's fixed https URLs
// stay as they are. LINE has its own stand-in (devtools/standins/line).
export { startGoogleStandin, GOOGLE_ISSUER, type GoogleStandinOptions } from './google';
export { startGitHubStandin } from './github';
export { startFacebookStandin } from './facebook';
export { startXStandin } from './x';
export type { OAuth2StandinOptions } from './oauth2';
export {
  OAUTH_PROVIDER_HOSTS,
  toLocal,
  type OAuthStandin,
  type OAuthStandinUser,
  type OAuthStandinProvider,
} from './types';
