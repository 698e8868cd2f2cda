// The data map (tests/support/personal-data-map.ts) against the migrated database's catalog: a new
// table or a new text, JSON or address column fails here until the map says what it holds and what
// 退会 does to it; a mapped column that no longer exists fails too.
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '#tests/use-test-database';
import { catalogTables, catalogTextColumns, tableKeyOf } from '#tests/catalog';
import { NOT_PERSONAL, PERSONAL_DATA_MAP } from '#tests/personal-data-map';

const handle = useTestDatabase('personal_data_map');

describe('the personal data map', () => {
  it('names every table of the catalog, and no table the catalog lacks', async () => {
    const tables = await catalogTables(handle.db);
    expect(tables.length).toBeGreaterThan(50);
    expect(tables.filter((table) => !(table in PERSONAL_DATA_MAP))).toEqual([]);
    expect(Object.keys(PERSONAL_DATA_MAP).filter((table) => !tables.includes(table))).toEqual([]);
  });

  it('names every text, JSON and address column of the catalog, and none that is gone', async () => {
    const columns = await catalogTextColumns(handle.db);
    const inCatalog = new Set(columns.map((c) => `${tableKeyOf(c.schema, c.table)}.${c.column}`));
    const unmapped = [...inCatalog].filter((key) => {
      const [table, column] = [key.slice(0, key.lastIndexOf('.')), key.slice(key.lastIndexOf('.') + 1)];
      return !(column in (PERSONAL_DATA_MAP[table]?.columns ?? {}));
    });
    expect(unmapped, 'add these columns to tests/support/personal-data-map.ts and docs/personal-data.md').toEqual([]);
    const stale = Object.entries(PERSONAL_DATA_MAP).flatMap(([table, mapped]) =>
      Object.keys(mapped.columns)
        .map((column) => `${table}.${column}`)
        .filter((key) => !inCatalog.has(key)),
    );
    expect(stale).toEqual([]);
  });

  it('gives every personal column what it holds and a reason', () => {
    for (const [table, mapped] of Object.entries(PERSONAL_DATA_MAP))
      for (const [column, entry] of Object.entries(mapped.columns)) {
        if (entry === NOT_PERSONAL) continue;
        expect(entry.holds.length, `${table}.${column}`).toBeGreaterThan(0);
        expect(entry.why.length, `${table}.${column}`).toBeGreaterThan(10);
      }
  });

  it('is the same map as docs/personal-data.md: every personal column is named there', async () => {
    const { readFile } = await import('node:fs/promises');
    const doc = await readFile(new URL('../docs/personal-data.md', import.meta.url), 'utf8');
    const missing = Object.entries(PERSONAL_DATA_MAP).flatMap(([table, mapped]) =>
      Object.entries(mapped.columns)
        .filter(([, entry]) => entry !== NOT_PERSONAL)
        .map(([column]) => `${table}.${column}`)
        .filter((key) => !doc.includes(`\`${key}\``)),
    );
    expect(missing).toEqual([]);
  });
});
