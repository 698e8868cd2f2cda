// The kept prizes' storage as the member hears of it: the reminders before its end and the mail after
// the deadline job converted a kept prize (the draw module keeps the rules; this module tells).
import type { Database } from '#db/client';
import { remindKeptPrizes, type AutoConversion } from '#modules/draw';
import type { SiteIdentity } from '#modules/messaging';
import { notifyMember } from './notices';

/**
 * The reminders' run (job `prizes.storage-reminders`): each member whose kept prizes reach 7 days or
 * 1 day before the end of storage gets one mail per reminder, once.
 * @example await sendKeptPrizeReminders(db, { site, storageDays: config.KEPT_PRIZE_STORAGE_DAYS })
 */
export async function sendKeptPrizeReminders(
  db: Database,
  rules: { site: SiteIdentity; storageDays: number },
  now = new Date(),
): Promise<number> {
  return remindKeptPrizes(db, { storageDays: rules.storageDays, now }, async (tx, reminder) => {
    const soonest = reminder.prizes.reduce(
      (a, p) => (p.keepUntil < a ? p.keepUntil : a),
      reminder.prizes[0]!.keepUntil,
    );
    await notifyMember(tx, rules.site, reminder.memberId, {
      kind: 'storage-reminder',
      items: reminder.prizes.length,
      keepUntil: soonest,
      daysBefore: reminder.daysBefore,
    });
  });
}

/**
 * The deadline job's hook: tells a member whose kept prizes were converted at the end of their
 * storage (undecided prizes converted at their deadline are not this module's to announce).
 * @example await autoConvertDuePrizes(db, freeCoinDays, now, 200, storageConversionNotifier(site))
 */
export function storageConversionNotifier(site: SiteIdentity) {
  return async (tx: Database, conversion: AutoConversion): Promise<void> => {
    const kept = conversion.converted.filter((c) => c.wasKept);
    if (kept.length === 0) return;
    await notifyMember(tx, site, conversion.memberId, {
      kind: 'storage-converted',
      items: kept.length,
      coins: kept.reduce((sum, c) => sum + c.coins, 0),
    });
  };
}
