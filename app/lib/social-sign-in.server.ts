// Social sign-in on the shop's pages: which providers are on (the sign-in, sign-up and unlink pages
// show their buttons; the action that starts one is app/lib/sign-in/social.server.ts).
// docs/decisions/015-social-sign-in.md.
import type { ShopServices } from '#server/services';
import { configuredSocialProviders } from '#modules/identity/server';
import type { SocialProviderId } from '#modules/identity';

/** The sign-in providers the shop offers: keys set, or LINE's local stand-in in sandbox mode (server/payments.ts). */
export function socialProvidersOn(services: Pick<ShopServices, 'config'>): SocialProviderId[] {
  const { config } = services;
  const line = Boolean(config.LINE_CHANNEL_ID && config.LINE_CHANNEL_SECRET) || config.paymentSandbox;
  return configuredSocialProviders(config, { line });
}
