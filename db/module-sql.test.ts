// The modules' SQL files without a database: every module's sql/ folder is in the order, and each
// file writes only its own module's tables (module borders at the SQL level, docs/decisions/010).
import { describe, it, expect } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { listModuleSqlFiles, MODULE_SQL_ORDER } from './module-sql';

const root = path.resolve(import.meta.dirname, '..');

/** Table name → owning module, read from each module's schema.ts (pgTable('name', …)). */
function tableOwners(): Map<string, string> {
  const owners = new Map<string, string>();
  for (const name of fs.readdirSync(path.join(root, 'modules'))) {
    const schema = path.join(root, 'modules', name, 'schema.ts');
    if (!fs.existsSync(schema)) continue;
    for (const match of fs.readFileSync(schema, 'utf8').matchAll(/pgTable\(\s*'(\w+)'/g)) owners.set(match[1]!, name);
  }
  return owners;
}

/** Tables a SQL text writes or locks for writing: INSERT INTO, UPDATE, DELETE FROM, TRUNCATE, SELECT … FOR UPDATE. */
function writtenTables(text: string, known: Map<string, string>): Set<string> {
  const code = text.replace(/--[^\n]*/g, '');
  const written = new Set<string>();
  for (const match of code.matchAll(/\b(?:insert\s+into|update|delete\s+from|truncate)\s+(\w+)/gi)) {
    if (known.has(match[1]!.toLowerCase())) written.add(match[1]!.toLowerCase());
  }
  // A locking read: the tables of a FROM whose statement ends in FOR [NO KEY] UPDATE.
  for (const statement of code.split(/;|\bLOOP\b/i)) {
    if (!/\bfor\s+(?:no\s+key\s+)?update\b/i.test(statement)) continue;
    for (const match of statement.matchAll(/\bfrom\s+(\w+)/gi)) {
      if (known.has(match[1]!.toLowerCase())) written.add(match[1]!.toLowerCase());
    }
  }
  return written;
}

describe('the modules’ SQL layout', () => {
  it('applies every module that has a sql/ folder, in the declared order, the shop-wide invariants last', () => {
    const withSql = fs
      .readdirSync(path.join(root, 'modules'))
      .filter((name) => fs.existsSync(path.join(root, 'modules', name, 'sql')));
    expect([...withSql].sort()).toEqual([...MODULE_SQL_ORDER].sort());
    const files = listModuleSqlFiles().map((f) => f.file);
    const moduleOf = (file: string) => (file.startsWith('db/') ? 'db' : file.split('/')[1]!);
    const order = [...MODULE_SQL_ORDER, 'db'];
    const positions = files.map((file) => order.indexOf(moduleOf(file)));
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(files.at(-1)).toBe('db/sql/shop_check_invariants.sql');
  });

  it('lets each module’s SQL write and lock only that module’s tables; the shop-wide checks write nothing', () => {
    const owners = tableOwners();
    expect(owners.get('gacha_lots')).toBe('gacha');
    expect(owners.get('coin_ledger')).toBe('wallet');
    const crossings: string[] = [];
    for (const file of listModuleSqlFiles()) {
      const module = file.file.startsWith('db/') ? 'db' : file.file.split('/')[1]!;
      for (const table of writtenTables(file.text, owners)) {
        if (owners.get(table) !== module) crossings.push(`${file.file} writes ${table} (${owners.get(table)}'s)`);
      }
    }
    expect(crossings).toEqual([]);
  });

  it('finds a crossing when there is one (the check itself can fail)', () => {
    const owners = tableOwners();
    const before =
      "UPDATE gachas SET status = 'sold_out' WHERE id = p_gacha; SELECT position FROM gacha_lots WHERE draw_id IS NULL FOR UPDATE;";
    expect([...writtenTables(before, owners)].sort()).toEqual(['gacha_lots', 'gachas']);
    expect([...writtenTables('INSERT INTO x (a) VALUES (1) ON CONFLICT (a) DO UPDATE SET a = 2', owners)]).toEqual([]);
  });
});
