// Social sign-in on a sandbox shop (`npm start` on this machine): Google, Facebook, GitHub and X without
// their keys get the local stand-ins the tests use (devtools/standins/oauth), as LINE gets its own
// (server/payments.ts, lineLinking). better-auth's providers call fixed https hosts (accounts.google.com,
// api.github.com…) from this process: an undici dispatcher in front of Node's fetch sends those hosts,
// and only those, to the stand-ins; the browser is sent to the stand-in's own address
// (providerPageForBrowser). A provider with keys, and every shop with the sandbox off, is untouched.
import { randomBytes } from 'node:crypto';
import { Agent, getGlobalDispatcher, setGlobalDispatcher, type Dispatcher } from 'undici';
import type { ShopConfig } from '#server/config';
import type { Logger } from '#server/logger';

type Provider = 'google' | 'facebook' | 'github' | 'twitter';
type KeySetting =
  | 'GOOGLE_CLIENT_ID'
  | 'GOOGLE_CLIENT_SECRET'
  | 'FACEBOOK_CLIENT_ID'
  | 'FACEBOOK_CLIENT_SECRET'
  | 'GITHUB_CLIENT_ID'
  | 'GITHUB_CLIENT_SECRET'
  | 'TWITTER_CLIENT_ID'
  | 'TWITTER_CLIENT_SECRET';
const KEYS: Record<Provider, { id: KeySetting; secret: KeySetting }> = {
  google: { id: 'GOOGLE_CLIENT_ID', secret: 'GOOGLE_CLIENT_SECRET' },
  facebook: { id: 'FACEBOOK_CLIENT_ID', secret: 'FACEBOOK_CLIENT_SECRET' },
  github: { id: 'GITHUB_CLIENT_ID', secret: 'GITHUB_CLIENT_SECRET' },
  twitter: { id: 'TWITTER_CLIENT_ID', secret: 'TWITTER_CLIENT_SECRET' },
};

/** The settings with the stand-ins' keys filled in, where the stand-ins listen, and how to stop them. */
export interface SocialStandins {
  config: ShopConfig;
  /** A provider's real host → the stand-in's origin (http://127.0.0.1:port). */
  hosts: Record<string, string>;
  close(): Promise<void>;
}

/**
 * Starts the stand-ins of the providers without keys on a sandbox shop; nothing otherwise.
 * @example const social = await socialSignInStandins(config, logger); config = social.config
 */
export async function socialSignInStandins(config: ShopConfig, logger: Logger): Promise<SocialStandins> {
  const missing = (Object.keys(KEYS) as Provider[]).filter((p) => !config[KEYS[p].id] && !config[KEYS[p].secret]);
  if (!config.paymentSandbox || missing.length === 0) return { config, hosts: {}, close: async () => undefined };
  // A development tool: imported on this path only, never on a shop with the sandbox off.
  const oauth = await import('#devtools/standins/oauth');
  const start = {
    google: oauth.startGoogleStandin,
    facebook: oauth.startFacebookStandin,
    github: oauth.startGitHubStandin,
    twitter: oauth.startXStandin,
  };
  const filled: Partial<Record<KeySetting, string>> = {};
  const standins: Array<{ url: string; hosts: readonly string[]; close(): Promise<void> }> = [];
  try {
    for (const provider of missing) {
      const keys = {
        clientId: `sandbox-${provider}-${randomBytes(4).toString('hex')}`,
        clientSecret: randomBytes(16).toString('hex'),
      };
      const standin = await start[provider]({
        ...keys,
        host: '127.0.0.1',
        callbackUrls: [`${config.PUBLIC_ORIGIN}/api/auth/callback/${provider}`],
        browser: true,
      });
      standins.push(standin);
      filled[KEYS[provider].id] = keys.clientId;
      filled[KEYS[provider].secret] = keys.clientSecret;
      logger.info({ provider, url: standin.url }, `${provider} sign-in stand-in listening`);
    }
  } catch (error) {
    await Promise.allSettled(standins.map((s) => s.close()));
    throw error;
  }
  const hosts = Object.fromEntries(standins.flatMap((s) => s.hosts.map((host) => [host, s.url])));
  const previous = getGlobalDispatcher();
  const agent = new Agent().compose(
    (dispatch: Dispatcher['dispatch']): Dispatcher['dispatch'] =>
      (options, handler) => {
        const origin = options.origin ? new URL(String(options.origin)) : null;
        const target = origin ? hosts[origin.host] : undefined;
        return dispatch(target ? { ...options, origin: target } : options, handler);
      },
  );
  setGlobalDispatcher(agent);
  return {
    config: { ...config, ...filled, socialStandinHosts: hosts },
    hosts,
    async close() {
      setGlobalDispatcher(previous);
      await agent.close();
      await Promise.allSettled(standins.map((s) => s.close()));
    },
  };
}
