// The support rules from the settings, built once per settings object: the contact page, the desk and
// the attachments route pass the same SupportRules to the support module's functions.
import type { MediaStore } from '#modules/kernel';
import type { SupportRules } from '#modules/support';
import type { ShopConfig } from './config';
import { mediaStoreOf } from './media';

export type SupportConfig = Pick<ShopConfig, 'SITE_NAME' | 'PUBLIC_ORIGIN' | 'dataDir' | 'CONTACT_IMAGE_MAX_BYTES'>;

const built = new WeakMap<SupportConfig, SupportRules>();

/**
 * The rules from the shop's services: its settings and its media store (where the images go).
 * @example const rules = supportRulesOf(shop.services); await createInquiry(services.db, rules, request)
 */
export function supportRulesOf(services: { config: SupportConfig; media?: MediaStore }): SupportRules {
  const { config } = services;
  let rules = built.get(config);
  if (!rules) {
    rules = {
      site: { name: config.SITE_NAME, origin: config.PUBLIC_ORIGIN },
      attachments: mediaStoreOf(services),
      imageMaxBytes: config.CONTACT_IMAGE_MAX_BYTES,
    };
    built.set(config, rules);
  }
  return rules;
}
