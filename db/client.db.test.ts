// The embedded database's memory settings (docs/decisions/047): PGlite starts with the shop's small
// buffers, on a folder it created in a child process and on a folder it reopens, and keeps its data.
// Always PGlite: these are PGlite's start parameters, whatever engine the other db tests use.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { openDatabase, queryRows, PGLITE_SETTINGS } from '#db/client';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'oripa-pglite-settings-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const settingsOf = async (db: Parameters<typeof queryRows>[0]) =>
  Object.fromEntries(
    await Promise.all(
      PGLITE_SETTINGS.map(async (setting) => {
        const name = setting.split('=')[0]!;
        const [row] = await queryRows<Record<string, string>>(db, sql.raw(`show ${name}`));
        return [name, row![name]] as const;
      }),
    ),
  );

describe('PGlite memory settings', () => {
  it('creates a new folder and runs with the small buffers, then reopens it with the same settings and its data', async () => {
    const expected = Object.fromEntries(PGLITE_SETTINGS.map((setting) => setting.split('=') as [string, string]));
    expect(expected).toEqual({ shared_buffers: '16MB', maintenance_work_mem: '16MB' });

    const created = await openDatabase({ dataDir });
    try {
      expect(created.engine).toBe('pglite');
      expect(fs.existsSync(path.join(dataDir, 'pglite', 'PG_VERSION'))).toBe(true);
      expect(await settingsOf(created.db)).toEqual(expected);
      await created.db.execute(sql`create table kept (n int)`);
      await created.db.execute(sql`insert into kept values (47)`);
    } finally {
      await created.close();
    }

    const reopened = await openDatabase({ dataDir });
    try {
      expect(await settingsOf(reopened.db)).toEqual(expected);
      expect(await queryRows<{ n: number }>(reopened.db, sql`select n from kept`)).toEqual([{ n: 47 }]);
    } finally {
      await reopened.close();
    }
  });
});
