// `npm run db:roles`: creates or updates the owner and shop roles of a PostgreSQL deployment and
// their rights (db/roles.ts, docs/decisions/010). Everything comes from the environment, nothing
// from the repository: DATABASE_ADMIN_URL (a superuser, connected to the shop's database),
// DATABASE_OWNER_ROLE, DATABASE_OWNER_PASSWORD, DATABASE_SHOP_ROLE, DATABASE_SHOP_PASSWORD.
import pg from 'pg';
import { setUpDatabaseRoles } from '#db/roles';

const names = [
  'DATABASE_ADMIN_URL',
  'DATABASE_OWNER_ROLE',
  'DATABASE_OWNER_PASSWORD',
  'DATABASE_SHOP_ROLE',
  'DATABASE_SHOP_PASSWORD',
] as const;
const missing = names.filter((name) => !process.env[name]);
if (missing.length > 0) {
  console.error(
    `npm run db:roles needs ${missing.join(', ')} in the environment (see docs/operators.md, Database roles).`,
  );
  process.exit(2);
}
const adminUrl = process.env.DATABASE_ADMIN_URL!;
const client = new pg.Client({ connectionString: adminUrl });
try {
  await client.connect();
  const { appendOnlyTables } = await setUpDatabaseRoles(client, {
    owner: process.env.DATABASE_OWNER_ROLE!,
    ownerPassword: process.env.DATABASE_OWNER_PASSWORD!,
    shop: process.env.DATABASE_SHOP_ROLE!,
    shopPassword: process.env.DATABASE_SHOP_PASSWORD!,
  });
  // The two settings the shop needs, without the passwords.
  const as = (role: string) => {
    const url = new URL(adminUrl);
    return `${url.protocol}//${encodeURIComponent(role)}:<password>@${url.host}${url.pathname}${url.search}`;
  };
  console.log(
    JSON.stringify(
      {
        roles: 'ready',
        appendOnlyTables,
        settings: {
          DATABASE_URL: as(process.env.DATABASE_SHOP_ROLE!),
          DATABASE_MIGRATION_URL: as(process.env.DATABASE_OWNER_ROLE!),
        },
      },
      null,
      2,
    ),
  );
} catch (error) {
  console.error(`npm run db:roles failed: ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  await client.end().catch(() => undefined);
}
