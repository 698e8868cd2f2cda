// The support rules from the settings, built once per settings object: the contact page, the desk and
// the attachments route pass the same SupportRules to the support module's functions.
import path from 'node:path';
import type { SupportRules } from '#modules/support';
import type { ShopConfig } from './config';

export type SupportConfig = Pick<ShopConfig, 'SITE_NAME' | 'PUBLIC_ORIGIN' | 'dataDir' | 'CONTACT_IMAGE_MAX_BYTES'>;

const built = new WeakMap<SupportConfig, SupportRules>();

/** @example const rules = supportRulesOf(services.config); await createInquiry(services.db, rules, request) */
export function supportRulesOf(config: SupportConfig): SupportRules {
  let rules = built.get(config);
  if (!rules) {
    rules = {
      site: { name: config.SITE_NAME, origin: config.PUBLIC_ORIGIN },
      attachmentsDir: path.join(config.dataDir, 'inquiries'),
      imageMaxBytes: config.CONTACT_IMAGE_MAX_BYTES,
    };
    built.set(config, rules);
  }
  return rules;
}
