// The shop's two database roles (npm run db:roles; docs/decisions/010, 051) on a test database: unique
// names per caller (roles are cluster-wide, shared by every test database and every checkout on the
// machine), the URLs to migrate as the owner and to serve as the shop role, and a drop afterwards.
import crypto from 'node:crypto';
import pg from 'pg';
import { setUpDatabaseRoles, type DatabaseRoles } from '#db/roles';
import { DEFAULT_ADMIN_URL } from './database';

export interface TestDatabaseRoles {
  roles: DatabaseRoles;
  /** The database's URL as the owner, who migrates (DATABASE_MIGRATION_URL). */
  ownerUrl: string;
  /** The database's URL as the shop role, which serves (DATABASE_URL). */
  shopUrl: string;
  /** Drops both roles; call it after the database is dropped. */
  drop(): Promise<void>;
}

async function asSuperuser<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * Creates an owner and a shop role with unique names on the (fresh, superuser-reachable) database, as
 * `npm run db:roles` does for a shop, and answers the URLs to use them.
 * @example const roles = await withShopRoles(database.databaseUrl!, 'storm'); startInstances({ databaseUrl: roles.shopUrl, migrationUrl: roles.ownerUrl, … })
 */
export async function withShopRoles(databaseUrl: string, label: string): Promise<TestDatabaseRoles> {
  const suffix = crypto.randomBytes(4).toString('hex');
  const roles: DatabaseRoles = {
    owner: `oripa_${label}_owner_${suffix}`,
    ownerPassword: crypto.randomBytes(18).toString('base64url'),
    shop: `oripa_${label}_shop_${suffix}`,
    shopPassword: crypto.randomBytes(18).toString('base64url'),
  };
  await asSuperuser(databaseUrl, (client) => setUpDatabaseRoles(client, roles));
  const urlAs = (role: string, password: string) => {
    const url = new URL(databaseUrl);
    url.username = role;
    url.password = password;
    return url.toString();
  };
  return {
    roles,
    ownerUrl: urlAs(roles.owner, roles.ownerPassword),
    shopUrl: urlAs(roles.shop, roles.shopPassword),
    drop: () =>
      asSuperuser(process.env.TEST_DATABASE_URL ?? DEFAULT_ADMIN_URL, async (client) => {
        for (const role of [roles.shop, roles.owner])
          await client.query(`drop role if exists ${client.escapeIdentifier(role)}`);
      }),
  };
}
