// Identity's messenger on the messaging module's outbox: every mail and code is a row written before
// the answer goes out, and the messaging jobs send it (SMTP, Twilio) or hold it for /dev/outbox.
import type { Database } from '#db/client';
import type { IdentityMessenger } from '#modules/identity/server';
import { queueMail, queueSms, type SiteIdentity } from '#modules/messaging';
import type { ShopConfig } from './config';

/** @example createShopAuth({ …, messenger: outboxMessenger(db, config) }) */
export function outboxMessenger(
  db: Database,
  config: Pick<ShopConfig, 'SITE_NAME' | 'PUBLIC_ORIGIN'>,
): IdentityMessenger {
  const site: SiteIdentity = { name: config.SITE_NAME, origin: config.PUBLIC_ORIGIN };
  return {
    async mail(message) {
      // A reserved .invalid address (a deleted member's, a social sign-in without an email) reaches nobody.
      if (message.to.toLowerCase().endsWith('.invalid')) return;
      await queueMail(db, site, message);
    },
    async sms(message) {
      await queueSms(db, site, message);
    },
  };
}
