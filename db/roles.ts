// Separate database roles on PostgreSQL (docs/decisions/010): an owner that migrates and owns every
// table and function, and the shop's role that serves with ordinary rights, only INSERT and SELECT on
// append-only tables, and no way to truncate, disable triggers or alter tables. Used by `npm run db:roles`.
import type pg from 'pg';

export interface DatabaseRoles {
  owner: string;
  ownerPassword: string;
  shop: string;
  shopPassword: string;
}

const ROLE_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** Schemas whose objects the owner owns (the shop's tables; drizzle's record of migrations). */
const OWNER_SCHEMAS = ['public', 'drizzle'];
/** pg-boss creates and migrates its own schema when the shop starts, so the shop's role owns it. */
const SHOP_SCHEMAS = ['pgboss'];

/**
 * Creates or updates both roles and their rights on the database the client is connected to (as a
 * superuser). Idempotent: run it before the first start and again whenever in doubt. Answers the
 * append-only tables found (a BEFORE TRUNCATE trigger calling a `*_append_only` function).
 * @example await setUpDatabaseRoles(adminClient, { owner: 'oripa_owner', ownerPassword, shop: 'oripa_shop', shopPassword })
 */
export async function setUpDatabaseRoles(
  client: pg.Client,
  roles: DatabaseRoles,
): Promise<{ appendOnlyTables: string[] }> {
  for (const name of [roles.owner, roles.shop]) {
    if (!ROLE_NAME.test(name))
      throw new Error(`role name ${JSON.stringify(name)}: lower-case letters, digits and _ only`);
  }
  if (roles.owner === roles.shop) throw new Error('the owner role and the shop role must differ');
  for (const password of [roles.ownerPassword, roles.shopPassword]) {
    if (password.length < 16) throw new Error('role passwords must have at least 16 characters');
  }
  const owner = client.escapeIdentifier(roles.owner);
  const shop = client.escapeIdentifier(roles.shop);
  const run = (text: string) => client.query(text);
  const rows = async <T>(text: string, params: unknown[] = []) => (await client.query(text, params)).rows as T[];

  await run('begin');
  try {
    for (const [name, password] of [
      [roles.owner, roles.ownerPassword],
      [roles.shop, roles.shopPassword],
    ] as const) {
      const [exists] = await rows('select 1 from pg_roles where rolname = $1', [name]);
      const verb = exists ? 'alter' : 'create';
      await run(
        `${verb} role ${client.escapeIdentifier(name)} login nosuperuser nocreatedb nocreaterole nobypassrls password ${client.escapeLiteral(password)}`,
      );
    }
    // The shop's role must not reach the owner's rights through membership.
    const [member] = await rows(
      'select 1 from pg_auth_members m join pg_roles r on r.oid = m.roleid join pg_roles u on u.oid = m.member where r.rolname = $1 and u.rolname = $2',
      [roles.owner, roles.shop],
    );
    if (member) await run(`revoke ${owner} from ${shop}`);

    const database = client.escapeIdentifier((await rows<{ db: string }>('select current_database() as db'))[0]!.db);
    // CREATE on the database: the owner creates drizzle's schema, the shop pg-boss's.
    await run(`grant connect, create, temporary on database ${database} to ${owner}, ${shop}`);
    // CREATE on public for the shop too: publishing a pack creates its lot-position sequence.
    await run(`grant usage, create on schema public to ${owner}, ${shop}`);

    // What an earlier start created as another role passes to its rightful owner.
    await transferOwnership(client, OWNER_SCHEMAS, roles.owner, [roles.owner, roles.shop]);
    await transferOwnership(client, SHOP_SCHEMAS, roles.shop, [roles.shop]);

    // Ordinary rights on what exists and on what the owner's migrations create later.
    await run(`grant select, insert, update, delete on all tables in schema public to ${shop}`);
    await run(`revoke truncate, references, trigger on all tables in schema public from ${shop}`);
    await run(`grant usage, select, update on all sequences in schema public to ${shop}`);
    await run(`grant execute on all functions in schema public to ${shop}`);
    await run(
      `alter default privileges for role ${owner} in schema public grant select, insert, update, delete on tables to ${shop}`,
    );
    await run(
      `alter default privileges for role ${owner} in schema public grant usage, select, update on sequences to ${shop}`,
    );
    await run(`alter default privileges for role ${owner} in schema public grant execute on functions to ${shop}`);

    // Append-only tables: INSERT and SELECT only (the module SQL that guards a table revokes the
    // same when its table is created after this script ran: modules/wallet/sql/append_only.sql).
    const appendOnly = await rows<{ name: string }>(
      `select distinct c.relname as name from pg_trigger t
         join pg_class c on c.oid = t.tgrelid join pg_proc p on p.oid = t.tgfoid
        where c.relnamespace = 'public'::regnamespace and p.proname like '%\\_append\\_only' and (t.tgtype & 32) <> 0
        order by 1`,
    );
    for (const { name } of appendOnly) {
      await run(
        `revoke update, delete, truncate on table public.${client.escapeIdentifier(name)} from ${shop}, public`,
      );
    }
    await run('commit');
    return { appendOnlyTables: appendOnly.map((t) => t.name) };
  } catch (error) {
    await run('rollback').catch(() => undefined);
    throw error;
  }
}

/** Makes `role` the owner of the given schemas and everything in them not owned by one of `keep`. */
async function transferOwnership(client: pg.Client, schemas: string[], role: string, keep: string[]): Promise<void> {
  const to = client.escapeIdentifier(role);
  const found = async (text: string) =>
    (await client.query<{ name: string }>(text, [schemas, keep])).rows.map((r) => r.name);
  for (const name of await found(`select quote_ident(nspname) as name from pg_namespace n join pg_roles o on o.oid = n.nspowner
                                   where nspname = any($1) and not (o.rolname = any($2))`)) {
    await client.query(`alter schema ${name} owner to ${to}`);
  }
  // Tables first: their sequences (serial, identity) and indexes follow them.
  const relations = `select format('%I.%I', n.nspname, c.relname) as name from pg_class c
                       join pg_namespace n on n.oid = c.relnamespace join pg_roles o on o.oid = c.relowner
                      where n.nspname = any($1) and not (o.rolname = any($2)) and c.relkind in `;
  for (const name of await found(`${relations} ('r', 'p', 'v', 'm', 'f')`))
    await client.query(`alter table ${name} owner to ${to}`);
  for (const name of await found(`${relations} ('S')`)) await client.query(`alter sequence ${name} owner to ${to}`);
  for (const name of await found(`select p.oid::regprocedure::text as name from pg_proc p join pg_namespace n on n.oid = p.pronamespace
                                   join pg_roles o on o.oid = p.proowner where n.nspname = any($1) and not (o.rolname = any($2))`)) {
    await client.query(`alter routine ${name} owner to ${to}`);
  }
  for (const name of await found(`select format('%I.%I', n.nspname, t.typname) as name from pg_type t join pg_namespace n on n.oid = t.typnamespace
                                   join pg_roles o on o.oid = t.typowner where n.nspname = any($1) and not (o.rolname = any($2)) and t.typtype in ('e', 'd')`)) {
    await client.query(`alter type ${name} owner to ${to}`);
  }
}
