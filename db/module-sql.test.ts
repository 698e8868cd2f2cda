// The modules' SQL files without a database: every module's sql/ folder is in the order, each file
// writes only its own module's tables (module borders at the SQL level, docs/decisions/010), and a
// module's SQL — its sql/ files and the sql`…` of its code — names another module's table only where
// db/sql-crossings.txt says which decision permits it (issue 30 item 4).
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

/** Tables a SQL text names anywhere (FROM, JOIN, INTO, UPDATE, TABLE …), comments left out. */
function namedTables(text: string, known: Map<string, string>): Set<string> {
  const code = text.replace(/--[^\n]*/g, '');
  const named = new Set<string>();
  for (const match of code.matchAll(/\b(?:from|join|into|update|truncate|table)\s+(?:public\.)?(\w+)/gi)) {
    const table = match[1]!.toLowerCase();
    if (known.has(table)) named.add(table);
  }
  return named;
}

/** Each module's SQL: its sql/*.sql files, and the text of the sql`…` templates in its code (tests and schema aside). */
function moduleSqlTexts(): { file: string; module: string; text: string }[] {
  const texts: { file: string; module: string; text: string }[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.(sql|ts)$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) && entry.name !== 'schema.ts') {
        const file = path.relative(root, full);
        const raw = fs.readFileSync(full, 'utf8');
        const text = file.endsWith('.ts') ? [...raw.matchAll(/sql`([^`]*)`/g)].map((m) => m[1]).join('\n') : raw;
        texts.push({ file, module: file.split('/')[1]!, text });
      }
    }
  };
  walk(path.join(root, 'modules'));
  return texts;
}

/** db/sql-crossings.txt: 'file table  # decision NNN: why', keyed by 'file table'. */
function allowedCrossings(): Map<string, string> {
  const lines = fs.readFileSync(path.join(root, 'db', 'sql-crossings.txt'), 'utf8').split('\n');
  const allowed = new Map<string, string>();
  for (const line of lines) {
    if (!line.trim() || line.startsWith('#')) continue;
    const [entry, reason = ''] = line.split(/\s+#\s+/);
    allowed.set(entry!.trim().replace(/\s+/g, ' '), reason.trim());
  }
  return allowed;
}

describe('the modules’ SQL names its own tables', () => {
  it('names another module’s table only where a line of db/sql-crossings.txt cites the decision, and every line is still needed', () => {
    const owners = tableOwners();
    const found = new Set<string>();
    for (const { file, module, text } of moduleSqlTexts())
      for (const table of namedTables(text, owners)) if (owners.get(table) !== module) found.add(`${file} ${table}`);
    const allowed = allowedCrossings();
    expect([...found].filter((crossing) => !allowed.has(crossing)).sort(), 'crossings without a line').toEqual([]);
    expect([...allowed.keys()].filter((line) => !found.has(line)).sort(), 'lines no code needs').toEqual([]);
    const unexplained = [...allowed].filter(([, reason]) => !/^decision \d{3}: \S/.test(reason)).map(([line]) => line);
    expect(unexplained, 'lines without “# decision NNN: why”').toEqual([]);
  });

  it('sees a read of another module’s table, in SQL and in a sql`…` template (the check can fail)', () => {
    const owners = tableOwners();
    expect([...namedTables('SELECT g.id FROM prizes p JOIN gacha_tiers g ON g.id = p.tier_id', owners)].sort()).toEqual(
      ['gacha_tiers', 'prizes'],
    );
    expect([...namedTables('-- FROM wallets in a comment only\nSELECT 1', owners)]).toEqual([]);
    const payments = moduleSqlTexts().find((t) => t.file === 'modules/payments/unused-paid-report.ts')!;
    expect(namedTables(payments.text, owners).has('coin_ledger')).toBe(true);
  });
});
