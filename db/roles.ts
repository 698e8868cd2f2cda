// Separate database roles on PostgreSQL (docs/decisions/010, 051): an owner that migrates and owns every
// table, function and schema (pg-boss's too), and the shop's role that serves with only what it needs: no
// CREATE anywhere, no DELETE on history, the wallet's and the lots' tables written only through their
// owner's functions. Used by `npm run db:roles`; the allow-list of the result is db/roles-allow-list.txt.
import type pg from 'pg';

export interface DatabaseRoles {
  owner: string;
  ownerPassword: string;
  shop: string;
  shopPassword: string;
}

const ROLE_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** pg-boss's schema (server/jobs/runner.ts JOB_SCHEMA): the owner creates it and installs pg-boss in it. */
export const JOB_SCHEMA = 'pgboss';
/** Schemas whose objects the owner owns: the shop's tables, drizzle's record of migrations, pg-boss's. */
export const OWNER_SCHEMAS = ['public', 'drizzle', JOB_SCHEMA];

/**
 * History: rows that change status at most, never removed by the shop (no DELETE, no TRUNCATE). The
 * modules' SQL takes the same rights back whenever it is applied (modules/{wallet,gacha,draw,payments,
 * admin}/sql), so a table created by a later migration is covered before the shop serves.
 */
export const HISTORY_TABLES = [
  'coin_ledger',
  'coin_grants',
  'draws',
  'prizes',
  'prize_conversions',
  'draw_receipts',
  'draw_beacon_heads',
  'member_sponsorships',
  'member_restrictions',
  // The closure (decision 085): the record, who was told, and each 払戻し — the accounts' evidence, never deleted.
  'shop_closures',
  'shop_closure_notices',
  'shop_closure_refunds',
  'gacha_lots',
  'payment_events',
  'payment_orders',
  'admin_audit_log',
  'stock_movements',
] as const;
/** Written only by their module's SECURITY DEFINER functions: the shop role may only read them. */
export const FUNCTION_WRITTEN_TABLES = ['wallets', 'coin_grants', 'coin_ledger', 'gacha_lots'] as const;
/** Read-only for the shop role: those, and the migration step's record of the modules' SQL (the owner's). */
const READ_ONLY_TABLES = [...FUNCTION_WRITTEN_TABLES, 'module_sql'];

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
    // Only the owner creates: drizzle's schema and the lot sequences of published packs (through
    // gacha_fix_lots) are the owner's; pg-boss's schema is created here and filled by the owner when jobs
    // start (server/jobs/runner.ts). Nobody else gets CREATE or TEMPORARY through PUBLIC: a temporary table
    // could also shadow a table for a careless search_path.
    await run(`revoke create, temporary on database ${database} from public`);
    await run(`revoke create, temporary on database ${database} from ${shop}`);
    await run(`grant connect, create on database ${database} to ${owner}`);
    await run(`grant connect on database ${database} to ${shop}`);
    await run(`create schema if not exists ${client.escapeIdentifier(JOB_SCHEMA)} authorization ${owner}`);
    for (const schema of ['public', JOB_SCHEMA].map((name) => client.escapeIdentifier(name))) {
      await run(`revoke create on schema ${schema} from public, ${shop}`);
      await run(`grant usage, create on schema ${schema} to ${owner}`);
      await run(`grant usage on schema ${schema} to ${shop}`);
    }

    // What an earlier start created as another role (the shop's pg-boss schema, lot sequences) passes to the owner.
    await transferOwnership(client, OWNER_SCHEMAS, roles.owner, [roles.owner]);

    // Ordinary rights on what exists and on what the owner's migrations create later.
    for (const schema of ['public', JOB_SCHEMA].map((name) => client.escapeIdentifier(name))) {
      await run(`grant select, insert, update, delete on all tables in schema ${schema} to ${shop}`);
      await run(`revoke truncate, references, trigger on all tables in schema ${schema} from ${shop}`);
      await run(`grant usage, select, update on all sequences in schema ${schema} to ${shop}`);
      await run(`revoke execute on all functions in schema ${schema} from public`);
      await run(`grant execute on all functions in schema ${schema} to ${shop}`);
      await run(
        `alter default privileges for role ${owner} in schema ${schema} grant select, insert, update, delete on tables to ${shop}`,
      );
      await run(
        `alter default privileges for role ${owner} in schema ${schema} grant usage, select, update on sequences to ${shop}`,
      );
      await run(`alter default privileges for role ${owner} in schema ${schema} grant execute on functions to ${shop}`);
    }
    // A function of the owner (SECURITY DEFINER ones included) runs only for the roles granted above.
    await run(`alter default privileges for role ${owner} revoke execute on functions from public`);

    const existing = async (names: readonly string[]) =>
      (
        await rows<{ name: string }>(
          `select relname as name from pg_class where relnamespace = 'public'::regnamespace and relname = any($1) order by 1`,
          [names],
        )
      ).map((t) => client.escapeIdentifier(t.name));
    // History is never removed by the shop; the wallet's and the lots' tables are written only by their functions.
    for (const name of await existing(HISTORY_TABLES))
      await run(`revoke delete, truncate on table public.${name} from ${shop}, public`);
    for (const name of await existing(READ_ONLY_TABLES)) {
      await run(`revoke insert, update, delete, truncate on table public.${name} from ${shop}, public`);
      // …and the sequences of their ids, which only those functions draw from.
      const sequences = await rows<{ name: string }>(
        `select s.oid::regclass::text as name from pg_depend d join pg_class s on s.oid = d.objid and s.relkind = 'S'
          where d.classid = 'pg_class'::regclass and d.refobjid = $1::regclass and d.deptype in ('a', 'i')`,
        [`public.${name}`],
      );
      for (const sequence of sequences) await run(`revoke all on sequence ${sequence.name} from ${shop}, public`);
    }
    // A pack's position sequence is the draw's alone (gacha_reserve_lots): a shop role that could setval
    // it would hand out positions twice. gacha_fix_lots revokes the same from each new one.
    for (const { name } of await rows<{ name: string }>(
      `select c.oid::regclass::text as name from pg_class c where c.relnamespace = 'public'::regnamespace and c.relkind = 'S' and c.relname ~ '^gacha_pos_[0-9]+$'`,
    ))
      await run(`revoke all on sequence ${name} from ${shop}, public`);

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

/**
 * Everything `role` may do in the connected database, read from the catalog, one line per object in the
 * allow-list's words (db/roles-allow-list.txt): its attributes and memberships, the database, schemas,
 * tables, columns, sequences and functions it has any right on (directly or through PUBLIC), the default
 * privileges that will give it more, and anything it owns. pg-boss's objects are one line per kind and
 * set of rights (its schema is its own); the owner's name reads `<owner>`.
 * @example const lines = await listRolePrivileges(adminClient, 'oripa_shop', 'oripa_owner')
 */
export async function listRolePrivileges(client: pg.Client, role: string, owner: string): Promise<string[]> {
  const rows = async <T>(text: string) => (await client.query(text, [role])).rows as T[];
  const lines = new Set<string>();
  const ownerName = (text: string) => text.split(owner).join('<owner>');

  const [attributes] = await rows<Record<string, boolean>>(
    `select rolcanlogin as "LOGIN", rolsuper as "SUPERUSER", rolcreatedb as "CREATEDB", rolcreaterole as "CREATEROLE",
            rolreplication as "REPLICATION", rolbypassrls as "BYPASSRLS" from pg_roles where rolname = $1`,
  );
  if (!attributes) throw new Error(`no role named ${role}`);
  lines.add(
    `role: ${
      Object.keys(attributes)
        .filter((name) => attributes[name])
        .join(' ') || '-'
    }`,
  );
  for (const { name } of await rows<{ name: string }>(
    `select r.rolname as name from pg_auth_members m join pg_roles r on r.oid = m.roleid
      join pg_roles u on u.oid = m.member where u.rolname = $1`,
  ))
    lines.add(`member of: ${ownerName(name)}`);

  const privilegesOf = (kind: string, check: string, privileges: string[], where: string) =>
    rows<{ name: string; schema: string; granted: string; definer?: boolean }>(
      `select * from (select ${kind === 'function' ? "format('%I.%I(%s)', n.nspname, p.proname, oidvectortypes(p.proargtypes))" : "format('%I.%I', n.nspname, c.relname)"} as name,
              n.nspname as schema, ${kind === 'function' ? 'p.prosecdef as definer,' : ''}
              concat_ws(' ', ${privileges.map((p) => `case when ${check}($1, ${kind === 'function' ? 'p.oid' : 'c.oid'}, '${p}') then '${p}' end`).join(', ')}) as granted
         from ${kind === 'function' ? 'pg_proc p join pg_namespace n on n.oid = p.pronamespace' : 'pg_class c join pg_namespace n on n.oid = c.relnamespace'}
        where n.nspname !~ '^pg_' and n.nspname <> 'information_schema' and ${where}) s where granted <> '' order by name`,
    );
  const [database] = await rows<{ granted: string }>(
    `select concat_ws(' ', ${['CONNECT', 'CREATE', 'TEMPORARY'].map((p) => `case when has_database_privilege($1, current_database(), '${p}') then '${p}' end`).join(', ')}) as granted`,
  );
  if (database!.granted) lines.add(`database: ${database!.granted}`);
  for (const schema of await rows<{ name: string; granted: string }>(
    `select * from (select quote_ident(nspname) as name, concat_ws(' ',
            case when has_schema_privilege($1, oid, 'USAGE') then 'USAGE' end,
            case when has_schema_privilege($1, oid, 'CREATE') then 'CREATE' end) as granted
       from pg_namespace where nspname !~ '^pg_' and nspname <> 'information_schema') s where granted <> '' order by name`,
  ))
    lines.add(`schema ${schema.name}: ${schema.granted}`);

  const groups: [string, Awaited<ReturnType<typeof privilegesOf>>][] = [
    [
      'table',
      await privilegesOf(
        'table',
        'has_table_privilege',
        ['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'TRUNCATE', 'REFERENCES', 'TRIGGER'],
        `c.relkind in ('r', 'p', 'v', 'm', 'f')`,
      ),
    ],
    [
      'sequence',
      await privilegesOf('sequence', 'has_sequence_privilege', ['USAGE', 'SELECT', 'UPDATE'], `c.relkind = 'S'`),
    ],
    ['function', await privilegesOf('function', 'has_function_privilege', ['EXECUTE'], 'true')],
  ];
  for (const [kind, found] of groups) {
    for (const object of found) {
      const granted = `${object.granted}${object.definer ? ' (owner rights)' : ''}`;
      // pg-boss's schema is pg-boss's own: its objects by kind, not by name (they change with its version).
      if (object.schema === JOB_SCHEMA) lines.add(`${kind} ${JOB_SCHEMA}.*: ${granted}`);
      else lines.add(`${kind} ${object.name}: ${granted}`);
    }
  }
  // Column grants (a right on some columns only): the role's own or PUBLIC's.
  for (const column of await rows<{ name: string; privilege: string }>(
    `select format('%s.%I', a.attrelid::regclass::text, a.attname) as name, x.privilege_type as privilege
       from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace,
            aclexplode(a.attacl) x
      where x.grantee in (0, (select oid from pg_roles where rolname = $1))
        and n.nspname !~ '^pg_' and n.nspname <> 'information_schema' order by 1, 2`,
  ))
    lines.add(`column ${column.name}: ${column.privilege}`);
  // Default privileges: what a role's future objects will give this role (or PUBLIC).
  for (const entry of await rows<{ creator: string; schema: string | null; kind: string; privilege: string }>(
    `select pg_get_userbyid(d.defaclrole) as creator, d.defaclnamespace::regnamespace::text as schema,
            d.defaclobjtype::text as kind, string_agg(x.privilege_type, ' ' order by x.privilege_type) as privilege
       from pg_default_acl d, aclexplode(d.defaclacl) x
      where x.grantee = (select oid from pg_roles where rolname = $1)
      group by 1, 2, 3 order by 1, 2, 3`,
  )) {
    const kind = { r: 'tables', S: 'sequences', f: 'functions', T: 'types', n: 'schemas' }[entry.kind] ?? entry.kind;
    const where = entry.schema && entry.schema !== '-' ? ` in ${entry.schema}` : '';
    lines.add(`default for ${ownerName(entry.creator)}${where} on ${kind}: ${entry.privilege}`);
  }
  // Nothing may be the shop's own: an owner can grant itself anything on it.
  for (const owned of await rows<{ name: string }>(
    `select format('schema %I', nspname) as name from pg_namespace where nspowner = (select oid from pg_roles where rolname = $1)
     union all
     select format('relation %s', oid::regclass) from pg_class where relowner = (select oid from pg_roles where rolname = $1)
     union all
     select format('function %s', oid::regprocedure) from pg_proc where proowner = (select oid from pg_roles where rolname = $1)
     union all
     select format('type %s', oid::regtype) from pg_type where typowner = (select oid from pg_roles where rolname = $1)
        and typrelid = 0 and typelem = 0`,
  ))
    lines.add(`owns ${owned.name}`);
  return [...lines].sort();
}
