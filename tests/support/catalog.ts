// The database's own catalog for the personal-data tests: every base table and every column that can
// hold text (text, varchar, char, citext, json, jsonb, inet, cidr, xml, bytea and arrays of those).
import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '#db/client';

export interface CatalogColumn {
  schema: string;
  table: string;
  column: string;
  /** information_schema's data_type, or the array's element type as `text[]`. */
  type: string;
}

/** Schemas that are not the shop's: PostgreSQL's own, and pg-boss's job store (docs/personal-data.md). */
const FOREIGN_SCHEMAS = ['pg_catalog', 'information_schema', 'pg_toast', 'pgboss'];

const TEXT_TYPES = ['text', 'character varying', 'character', 'json', 'jsonb', 'inet', 'cidr', 'xml', 'bytea'];
const TEXT_ELEMENTS = ['_text', '_varchar', '_bpchar', '_json', '_jsonb', '_inet', '_citext'];

/** `schema.table`, with `public.` left out (the map's keys). */
export const tableKeyOf = (schema: string, table: string) => (schema === 'public' ? table : `${schema}.${table}`);

/**
 * Every base table of the shop's schemas (`includeForeign` adds pg-boss's), with or without text columns.
 * @example const tables = await catalogTables(db) // ['accounts', 'admin_audit_log', …]
 */
export async function catalogTables(db: Database, options: { includeForeign?: boolean } = {}): Promise<string[]> {
  const skipped = options.includeForeign ? FOREIGN_SCHEMAS.filter((s) => s !== 'pgboss') : FOREIGN_SCHEMAS;
  const rows = await queryRows<{ table_schema: string; table_name: string }>(
    db,
    sql`select table_schema, table_name from information_schema.tables
         where table_type = 'BASE TABLE'
           and table_schema not in (${sql.join(
             skipped.map((s) => sql`${s}`),
             sql`, `,
           )})
         order by 1, 2`,
  );
  return rows.map((row) => tableKeyOf(row.table_schema, row.table_name));
}

/**
 * Every column of a base table that can hold text.
 * @example for (const c of await catalogTextColumns(db)) console.log(`${c.table}.${c.column}`)
 */
export async function catalogTextColumns(
  db: Database,
  options: { includeForeign?: boolean } = {},
): Promise<CatalogColumn[]> {
  const skipped = options.includeForeign ? FOREIGN_SCHEMAS.filter((s) => s !== 'pgboss') : FOREIGN_SCHEMAS;
  const rows = await queryRows<{
    table_schema: string;
    table_name: string;
    column_name: string;
    data_type: string;
    udt_name: string;
  }>(
    db,
    sql`select c.table_schema, c.table_name, c.column_name, c.data_type, c.udt_name
          from information_schema.columns c
          join information_schema.tables t using (table_schema, table_name)
         where t.table_type = 'BASE TABLE'
           and c.table_schema not in (${sql.join(
             skipped.map((s) => sql`${s}`),
             sql`, `,
           )})
         order by 1, 2, c.ordinal_position`,
  );
  return rows
    .filter(
      (row) =>
        TEXT_TYPES.includes(row.data_type) ||
        (row.data_type === 'ARRAY' && TEXT_ELEMENTS.includes(row.udt_name)) ||
        (row.data_type === 'USER-DEFINED' && row.udt_name !== 'vector'),
    )
    .map((row) => ({
      schema: row.table_schema,
      table: row.table_name,
      column: row.column_name,
      type: row.data_type === 'ARRAY' ? `${row.udt_name.slice(1)}[]` : row.data_type,
    }));
}
