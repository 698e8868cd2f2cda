// What every OAuth stand-in (Google, GitHub, Facebook, X) offers its tests and the local demo.

/** The person who "signs in" on a stand-in's authorization page. */
export interface OAuthStandinUser {
  /** The provider's user id (Google `sub`, GitHub numeric id as text, Facebook app-scoped id, X id). */
  id: string;
  /** Display name; X and GitHub also have a handle (`login`). */
  name: string;
  login?: string;
  /** Absent: the provider gives no email (an X account without one, a Facebook account made by phone). */
  email?: string;
  /** What the provider says about the email (Google `email_verified`, GitHub `verified`, X `confirmed_email`). */
  emailVerified: boolean;
  picture?: string;
}

export type OAuthStandinProvider = 'google' | 'github' | 'facebook' | 'twitter';

export interface OAuthStandin {
  provider: OAuthStandinProvider;
  /** Where the stand-in listens (http://127.0.0.1:port). */
  url: string;
  /** The provider's real host names this stand-in answers for (route them here: tests/support/oauth-network.ts). */
  hosts: readonly string[];
  clientId: string;
  clientSecret: string;
  users: {
    /** Sets the user of the next authorization requests (a fresh one from the given fields) and answers it. */
    preset(user?: Partial<OAuthStandinUser>): OAuthStandinUser;
    readonly current: OAuthStandinUser;
  };
  /**
   * Plays the member on the provider's page over HTTP: opens the authorization URL (the real https
   * one better-auth made, or a local one), presses 許可する ('approve') or キャンセル ('cancel'), and
   * answers where the provider sends the browser back (the shop's callback, with code or error).
   */
  decide(authorizationUrl: string, decision: 'approve' | 'cancel'): Promise<URL>;
  close(): Promise<void>;
}

/** The real hosts of each provider that better-auth 1.7.25 calls (@better-auth/core/dist/social-providers/*). */
export const OAUTH_PROVIDER_HOSTS: Record<OAuthStandinProvider, readonly string[]> = {
  google: ['accounts.google.com', 'oauth2.googleapis.com', 'www.googleapis.com', 'openidconnect.googleapis.com'],
  github: ['github.com', 'api.github.com'],
  facebook: ['www.facebook.com', 'graph.facebook.com', 'limited.facebook.com'],
  twitter: ['x.com', 'api.x.com'],
};

/** Rewrites a URL on one of `hosts` to the stand-in at `local` (same path and query). */
export function toLocal(url: string | URL, hosts: readonly string[], local: string): URL {
  const parsed = new URL(url);
  if (!hosts.includes(parsed.host)) return parsed;
  const target = new URL(local);
  parsed.protocol = target.protocol;
  parsed.host = target.host;
  return parsed;
}
