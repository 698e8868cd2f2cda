// Social sign-in with better-auth's built-in providers (Google, Facebook, GitHub, X), from the
// settings, and the account-linking rules for them and for LINE (line.server.ts, genericOAuth).
// The OAuth itself is better-auth's (@better-auth/core/dist/social-providers/*); this file only says
// which providers are on, how a provider's name becomes a nickname, and who may link what.
// docs/decisions/015-social-sign-in.md.
import { eq } from 'drizzle-orm';
import type { Database } from '#db/client';
import type { IdentityConfig } from './settings';
import { verifications } from './schema';
import { nicknameFromProvider, PLACEHOLDER_EMAIL_SUFFIX, type SocialProviderId } from './social';
import { LINE_PROVIDER_ID } from './line.server';

type SettingsOfProviders = Pick<
  IdentityConfig,
  | 'GOOGLE_CLIENT_ID'
  | 'GOOGLE_CLIENT_SECRET'
  | 'FACEBOOK_CLIENT_ID'
  | 'FACEBOOK_CLIENT_SECRET'
  | 'GITHUB_CLIENT_ID'
  | 'GITHUB_CLIENT_SECRET'
  | 'TWITTER_CLIENT_ID'
  | 'TWITTER_CLIENT_SECRET'
>;

/** `<id>@<provider>.placeholder.invalid`: never deliverable, never another member's (social.ts). */
function placeholderEmail(provider: string, id: unknown): string {
  return `${String(id)
    .toLowerCase()
    .replace(/[^a-z0-9._-]/g, '')}@${provider}${PLACEHOLDER_EMAIL_SUFFIX}`;
}

/** The nickname rules hold for a member a provider creates: the provider's name, cleaned (social.ts). */
const nickname = (name: unknown) => ({ name: nicknameFromProvider(name) });

/**
 * better-auth's `socialProviders` option: each provider whose two keys are set, nothing else.
 * Callback URLs are better-auth's: `${PUBLIC_ORIGIN}/api/auth/callback/<id>`.
 * @example betterAuth({ socialProviders: socialProvidersOf(config) })
 */
export function socialProvidersOf(config: SettingsOfProviders) {
  return {
    ...(config.GOOGLE_CLIENT_ID && config.GOOGLE_CLIENT_SECRET
      ? {
          google: {
            clientId: config.GOOGLE_CLIENT_ID,
            clientSecret: config.GOOGLE_CLIENT_SECRET,
            // Always let the member pick the Google account (a shared family tablet).
            prompt: 'select_account' as const,
            mapProfileToUser: (profile: { name?: unknown }) => nickname(profile.name),
          },
        }
      : {}),
    ...(config.FACEBOOK_CLIENT_ID && config.FACEBOOK_CLIENT_SECRET
      ? {
          facebook: {
            clientId: config.FACEBOOK_CLIENT_ID,
            clientSecret: config.FACEBOOK_CLIENT_SECRET,
            // A Facebook account made with a phone number has no email: a stand-in address keyed by its id.
            mapProfileToUser: (profile: { id?: unknown; name?: unknown; email?: unknown }) => ({
              ...nickname(profile.name),
              ...(profile.email ? {} : { email: placeholderEmail('facebook', profile.id) }),
            }),
          },
        }
      : {}),
    ...(config.GITHUB_CLIENT_ID && config.GITHUB_CLIENT_SECRET
      ? {
          github: {
            clientId: config.GITHUB_CLIENT_ID,
            clientSecret: config.GITHUB_CLIENT_SECRET,
            mapProfileToUser: (profile: { id?: unknown; name?: unknown; login?: unknown; email?: unknown }) => ({
              ...nickname(typeof profile.name === 'string' && profile.name.trim() ? profile.name : profile.login),
              ...(profile.email ? {} : { email: placeholderEmail('github', profile.id) }),
            }),
          },
        }
      : {}),
    ...(config.TWITTER_CLIENT_ID && config.TWITTER_CLIENT_SECRET
      ? {
          twitter: {
            clientId: config.TWITTER_CLIENT_ID,
            clientSecret: config.TWITTER_CLIENT_SECRET,
            mapProfileToUser: (profile: { data?: { name?: unknown } }) => nickname(profile.data?.name),
          },
        }
      : {}),
  };
}

/**
 * The sign-in providers that are on: the built-in ones with keys, and LINE when its channel is set.
 * @example configuredSocialProviders(config, { line: true }) // ['google', 'line']
 */
export function configuredSocialProviders(config: SettingsOfProviders, options: { line: boolean }): SocialProviderId[] {
  const builtIn = Object.keys(socialProvidersOf(config)) as SocialProviderId[];
  const on = new Set<SocialProviderId>([...builtIn, ...(options.line ? (['line'] as const) : [])]);
  return (['google', 'line', 'twitter', 'facebook', 'github'] as const).filter((id) => on.has(id));
}

/**
 * Providers whose email counts at sign-in whatever they say about it: LINE only, because the shop
 * gives a LINE member a stand-in address made of the LINE user ID (line.server.ts), which only that
 * same LINE user can ever match. Every other provider links to an existing member at sign-in only
 * when it says the email is verified (better-auth's rule for untrusted providers; Google always
 * says, GitHub for a verified address, X for a confirmed one, Facebook never).
 */
export const LINK_BY_EMAIL_ALWAYS = [LINE_PROVIDER_ID];

/**
 * better-auth's `account` options for the shop.
 * - Implicit linking (sign-in with a provider whose email matches a member): only when the provider
 *   vouches for the email and the member's own email is verified (`requireLocalEmailVerified`, on by
 *   default). Anything else ends as `account_not_linked` (the specification's
 *   account-exists-with-different-credential): the member signs in the usual way and links.
 * - Explicit linking (a signed-in member presses 連携する): every configured provider, any email —
 *   the member proves both sides. better-auth has one trusted list for both cases, so the list is
 *   widened only for the callback of a flow that better-auth itself started as a link (its stored
 *   state carries `link`).
 * - Tokens are stored encrypted; the last account cannot be unlinked (better-auth's default).
 * @example betterAuth({ account: accountOptionsOf({ db, providers: ['google', 'line'] }) })
 */
export function accountOptionsOf(options: { db: Database; providers: readonly string[] }) {
  const { db, providers } = options;
  return {
    accountLinking: {
      enabled: true,
      allowDifferentEmails: true,
      trustedProviders: async (request?: Request) =>
        (await isLinkCallback(db, request))
          ? [...new Set([...providers, ...LINK_BY_EMAIL_ALWAYS])]
          : LINK_BY_EMAIL_ALWAYS,
    },
    encryptOAuthTokens: true,
  };
}

/** True for `/api/auth/callback/<id>?state=…` whose stored state is a link started by a signed-in member. */
async function isLinkCallback(db: Database, request: Request | undefined): Promise<boolean> {
  if (!request) return false;
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return false;
  }
  if (!/^\/api\/auth\/callback\/[^/]+$/.test(url.pathname)) return false;
  const state = url.searchParams.get('state');
  if (!state || state.length > 200) return false;
  // better-auth keeps database-backed OAuth state under `auth-state:<state>` (@better-auth/core/utils/state).
  const [row] = await db
    .select({ value: verifications.value })
    .from(verifications)
    .where(eq(verifications.identifier, `auth-state:${state}`))
    .limit(1);
  if (!row) return false;
  try {
    const stored = JSON.parse(row.value) as { link?: { userId?: unknown } };
    return typeof stored.link?.userId === 'string' && stored.link.userId !== '';
  } catch {
    return false;
  }
}
