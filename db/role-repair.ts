// The shop's database roles made or repaired at start (docs/decisions/073): a restore into a fresh
// PostgreSQL cluster brings the tables back but not the roles, which are the cluster's, not the
// database's (pg_dump has none of them). Given a superuser's URL, the start runs what `npm run db:roles`
// runs, with the role names and passwords of the shop's own two URLs, under the migration's advisory
// lock, and answers what it changed so the start can log and audit it.
import pg from 'pg';
import { listRolePrivileges, setUpDatabaseRoles, OWNER_SCHEMAS, type DatabaseRoles } from './roles';
import { MIGRATION_LOCK } from './module-sql';

/** What the repair found and did; `changes` is empty when everything was already in place. */
export interface RoleRepairReport {
  database: string;
  roles: { owner: string; shop: string };
  /** One line per change, without any secret: `created role …`, `… objects handed to …`, `+ table …`. */
  changes: string[];
}

/** The role and password of a PostgreSQL URL (percent-decoded), as the shop connects with it. */
function credentialsOf(url: string): { role: string; password: string } {
  const parsed = new URL(url);
  return { role: decodeURIComponent(parsed.username), password: decodeURIComponent(parsed.password) };
}

/**
 * The two roles the shop connects as: the owner of DATABASE_MIGRATION_URL, the shop role of DATABASE_URL.
 * @example const roles = rolesOfUrls(config.DATABASE_MIGRATION_URL, config.DATABASE_URL)
 */
export function rolesOfUrls(ownerUrl: string, shopUrl: string): DatabaseRoles {
  const owner = credentialsOf(ownerUrl);
  const shop = credentialsOf(shopUrl);
  return { owner: owner.role, ownerPassword: owner.password, shop: shop.role, shopPassword: shop.password };
}

/** The state the repair compares before and after: nothing in it is secret. */
interface RoleState {
  missing: string[];
  /** Roles whose URL the server refused (no such role, a wrong password, no LOGIN). */
  refused: string[];
  /** Objects of the owner's schemas (and those schemas) that another role owns. */
  foreign: number;
  /** The shop role's rights as db/roles-allow-list.txt words them; empty while the role is missing. */
  shopRights: string[];
}

/** Whether the server lets `url`'s role in: invalid_authorization_specification (28000) or a wrong password (28P01) mean no. */
async function logsIn(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  try {
    await client.connect();
    return true;
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === '28000' || code === '28P01') return false;
    throw error;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function readState(
  client: pg.Client,
  roles: DatabaseRoles,
  urls: { owner: string; shop: string },
): Promise<RoleState> {
  const existing = new Set(
    (
      await client.query<{ rolname: string }>('select rolname from pg_roles where rolname = any($1)', [
        [roles.owner, roles.shop],
      ])
    ).rows.map((row) => row.rolname),
  );
  const missing = [roles.owner, roles.shop].filter((name) => !existing.has(name));
  const refused: string[] = [];
  for (const [name, url] of [
    [roles.owner, urls.owner],
    [roles.shop, urls.shop],
  ] as const) {
    if (existing.has(name) && !(await logsIn(url))) refused.push(name);
  }
  const { rows } = await client.query<{ foreign: string }>(
    `select (select count(*) from pg_namespace n where nspname = any($1) and pg_get_userbyid(nspowner) <> $2)
            + (select count(*) from pg_class c join pg_namespace n on n.oid = c.relnamespace
                where n.nspname = any($1) and pg_get_userbyid(c.relowner) <> $2)
            + (select count(*) from pg_proc p join pg_namespace n on n.oid = p.pronamespace
                where n.nspname = any($1) and pg_get_userbyid(p.proowner) <> $2) as foreign`,
    [OWNER_SCHEMAS, roles.owner],
  );
  const shopRights = existing.has(roles.shop) ? await listRolePrivileges(client, roles.shop, roles.owner) : [];
  return { missing, refused, foreign: Number(rows[0]!.foreign), shopRights } satisfies RoleState;
}

/**
 * Creates or repairs the owner and the shop role and their rights, as `npm run db:roles` does, on the
 * database `adminUrl` names (its role must be a superuser). Idempotent, and safe when several instances
 * start together: the migration's advisory lock makes them take turns, and each one after the first
 * finds nothing to change.
 * @example const report = await repairDatabaseRoles({ adminUrl, ownerUrl: config.DATABASE_MIGRATION_URL, shopUrl: config.DATABASE_URL })
 */
export async function repairDatabaseRoles(urls: {
  adminUrl: string;
  ownerUrl: string;
  shopUrl: string;
}): Promise<RoleRepairReport> {
  const roles = rolesOfUrls(urls.ownerUrl, urls.shopUrl);
  const client = new pg.Client({ connectionString: urls.adminUrl });
  await client.connect();
  try {
    const [who] = (
      await client.query<{ name: string; superuser: boolean; database: string }>(
        'select current_user as name, rolsuper as superuser, current_database() as database from pg_roles where rolname = current_user',
      )
    ).rows;
    if (!who?.superuser)
      throw new Error(
        `DATABASE_ADMIN_URL connects as ${who?.name ?? '?'}, which is not a superuser: the shop makes its roles with it (docs/decisions/073)`,
      );
    // The migration's lock: instances starting together take turns, and no peer migrates meanwhile.
    await client.query('select pg_advisory_lock($1, $2)', [...MIGRATION_LOCK]);
    const logins = { owner: urls.ownerUrl, shop: urls.shopUrl };
    const before = await readState(client, roles, logins);
    await setUpDatabaseRoles(client, roles);
    const after = await readState(client, roles, logins);
    const changes = [
      ...before.missing.map((name) => `created role ${name}`),
      ...before.refused.filter((name) => !after.refused.includes(name)).map((name) => `let ${name} log in again`),
      ...(before.foreign > after.foreign ? [`${before.foreign - after.foreign} objects handed to ${roles.owner}`] : []),
      // A new shop role's rights are the allow-list's; a repaired one's are named one by one.
      ...(before.missing.includes(roles.shop)
        ? [`granted ${roles.shop} ${after.shopRights.length} rights`]
        : [
            ...after.shopRights.filter((line) => !before.shopRights.includes(line)).map((line) => `+ ${line}`),
            ...before.shopRights.filter((line) => !after.shopRights.includes(line)).map((line) => `- ${line}`),
          ]),
    ];
    // What still refuses after the repair (pg_hba.conf, a connection limit) is not the roles' to fix.
    if (after.refused.length > 0)
      throw new Error(
        `the database still refuses ${after.refused.join(' and ')} after the roles were set up: check pg_hba.conf`,
      );
    return { database: who.database, roles: { owner: roles.owner, shop: roles.shop }, changes };
  } finally {
    // Ending the session releases the advisory lock.
    await client.end().catch(() => undefined);
  }
}
