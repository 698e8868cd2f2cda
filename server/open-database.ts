// The shop's database at start: the roles made or repaired, the migrations, the settings' level table, the
// default content and (if asked) the demo data, its beacon pack included (decision 081).
import { openDatabase, type DatabaseObserver } from '#db/client';
import { syncLevelTable } from '#modules/progression';
import { loadDemoBeaconPackOnce, loadDemoDataOnce } from '../db/demo/seed';
import type { ShopConfig } from './config';
import type { Logger } from './logger';
import type { OpenedServices } from './closers';
import type { BeaconService } from './beacon';
import { addDefaultContent } from './content';
import { levelRulesOf } from './progression';
import { auditRoleRepair, repairRolesAtStart } from './database-roles';

/** The database, migrated, with the settings' level table, the default content and (if asked) the demo data. */
export async function openShopDatabase(
  config: ShopConfig,
  logger: Logger,
  opened: OpenedServices,
  observer: DatabaseObserver,
  beacon: BeaconService,
) {
  // A superuser's URL makes or repairs the roles first: a restore into a fresh cluster has none (decision 073).
  const roleRepair = await repairRolesAtStart(config, logger);
  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    migrationUrl: config.DATABASE_MIGRATION_URL,
    sessionUrl: config.DATABASE_SESSION_URL,
    dataDir: config.dataDir,
    observer,
  });
  opened.add('database', () => database.close());
  await database.migrate();
  await auditRoleRepair(database.db, roleRepair);
  // The level table the draw's SQL reads (decision 037): the settings' one, written once per change.
  await syncLevelTable(database.db, levelRulesOf(config));
  // The legal and trust pages every shop must show, written once when missing (decision 039).
  await addDefaultContent(database.db, config);
  if (config.DEMO_DATA) {
    await loadDemoDataOnce(database.db, logger, {
      coinLifetimes: { paid: config.PAID_COIN_EXPIRY_DAYS, free: config.FREE_COIN_EXPIRY_DAYS },
      prizeDecisionDays: config.PRIZE_DECISION_DAYS,
    });
    await loadDemoBeaconPackOnce(database.db, logger, beacon.publishTerms);
  }
  return database;
}
