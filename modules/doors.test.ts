// What lint cannot see at a module's door (issue 30 item 4): no module's index.ts hands out one of its
// tables. A table outside its module lets any caller write past the module's rules; callers get
// functions, and tests that must set a row up read the tables from #db/schema.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { is, Table } from 'drizzle-orm';

const modulesDir = import.meta.dirname;
const doors = fs
  .readdirSync(modulesDir)
  .filter((name) => fs.existsSync(path.join(modulesDir, name, 'index.ts')))
  .sort();

describe('the modules’ doors', () => {
  it('export no table', async () => {
    expect(doors).toContain('wallet');
    const tablesAtDoors: string[] = [];
    for (const name of doors) {
      const door = (await import(`#modules/${name}`)) as Record<string, unknown>;
      for (const [exported, value] of Object.entries(door))
        if (is(value, Table)) tablesAtDoors.push(`modules/${name}/index.ts exports the table ${exported}`);
    }
    expect(tablesAtDoors).toEqual([]);
  });

  it('would see a table if one were exported (the check can fail)', async () => {
    const { farmRules } = await import('#db/schema');
    expect(is(farmRules, Table)).toBe(true);
    expect(is({ name: 'farm_rules' }, Table)).toBe(false);
  });
});
