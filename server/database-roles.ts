// The start's side of decision 073: with DATABASE_ADMIN_URL, the shop makes or repairs its PostgreSQL
// roles before migrating (db/role-repair.ts), logs what it changed, and once the database is migrated
// records the same in the audit log, so a restore's repair is seen in /admin/audit as well as in the logs.
import { repairDatabaseRoles, type RoleRepairReport } from '#db/role-repair';
import type { Database } from '#db/client';
import { commandLineOperator, recordAudit } from '#modules/admin';
import type { ShopConfig } from './config';
import type { Logger } from './logger';

/**
 * Runs the repair when the settings give a superuser's URL; answers its report, or null without one.
 * @example const repair = await repairRolesAtStart(config, logger)
 */
export async function repairRolesAtStart(
  config: Pick<ShopConfig, 'DATABASE_ADMIN_URL' | 'DATABASE_MIGRATION_URL' | 'DATABASE_URL'>,
  logger: Logger,
): Promise<RoleRepairReport | null> {
  if (!config.DATABASE_ADMIN_URL || !config.DATABASE_MIGRATION_URL || !config.DATABASE_URL) return null;
  const report = await repairDatabaseRoles({
    adminUrl: config.DATABASE_ADMIN_URL,
    ownerUrl: config.DATABASE_MIGRATION_URL,
    shopUrl: config.DATABASE_URL,
  });
  if (report.changes.length > 0)
    // A warning: on a running deployment nothing should have drifted; after a restore this is expected.
    logger.warn(
      { database: report.database, roles: report.roles, changes: report.changes },
      'database roles repaired at start (decision 073)',
    );
  else logger.info({ database: report.database, roles: report.roles }, 'database roles in place');
  return report;
}

/**
 * The repair's audit entry (`database.roles.repair`), written once the tables exist; nothing when it changed nothing.
 * @example await auditRoleRepair(database.db, repair)
 */
export async function auditRoleRepair(db: Database, report: RoleRepairReport | null): Promise<void> {
  if (!report || report.changes.length === 0) return;
  const operator = { ...commandLineOperator(), label: `start:${startedBy()}` };
  await recordAudit(db, operator, 'shop:write', {
    action: 'database.roles.repair',
    target: { type: 'database', id: report.database },
    after: { roles: report.roles, changes: report.changes },
  });
}

/** `<user>@<host>` of the process that starts the shop, as the command line names its operator. */
function startedBy(): string {
  const label = commandLineOperator().label;
  return label.slice(label.indexOf(':') + 1);
}
