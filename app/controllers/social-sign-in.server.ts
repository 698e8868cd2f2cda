// Social sign-in on the shop's pages: which providers are on (the sign-in, sign-up and unlink pages
// show their buttons; the action that starts one is app/controllers/sign-in/social.server.ts).
// docs/decisions/015-social-sign-in.md.
import type { ShopServices } from '#server/context';
import { configuredSocialProviders } from '#modules/identity/server';
import type { SocialProviderId } from '#modules/identity';

/**
 * Whether LINE sign-in and linking are on: the channel's keys, or on a sandbox shop the local stand-in
 * of LINE Login that server/payments.ts (lineLinking) starts without them.
 */
export function lineOn(services: Pick<ShopServices, 'config'>): boolean {
  const { config } = services;
  return Boolean(config.LINE_CHANNEL_ID && config.LINE_CHANNEL_SECRET) || config.paymentSandbox;
}

/** The sign-in providers the shop offers: keys set, or the local stand-ins on a sandbox shop. */
export function socialProvidersOn(services: Pick<ShopServices, 'config'>): SocialProviderId[] {
  return configuredSocialProviders(services.config, { line: lineOn(services) });
}

/**
 * The provider's page for the browser: on a sandbox shop, a stand-in's address in place of the real
 * host (server/social-standins.ts); the URL unchanged otherwise.
 * @example providerPageForBrowser(services, 'https://github.com/login/oauth/authorize?…')
 */
export function providerPageForBrowser(services: Pick<ShopServices, 'config'>, url: string): string {
  const local = services.config.socialStandinHosts;
  if (!local || !URL.canParse(url)) return url;
  const parsed = new URL(url);
  const target = local[parsed.host];
  if (!target) return url;
  const origin = new URL(target);
  parsed.protocol = origin.protocol;
  parsed.host = origin.host;
  return parsed.href;
}
