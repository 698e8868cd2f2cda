// `npm run shop -- backup` on the test database: on PostgreSQL a refusal that names pgBackRest and
// pg_dump; on the embedded database a refusal of a relative folder, then a complete, private copy that
// opens as a database with the same rows, recorded in the audit log. (The copy under a running shop,
// with draws during it, is scripts/shop/backup.process.test.ts.)
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { openDatabase, queryRows } from '#db/client';
import { useTestDatabase } from '#tests/use-test-database';
import { createMemberWithCoins, TEST_RULES } from '#tests/fixtures';
import { runAdminCommand, UsageError } from './run';

const handle = useTestDatabase('backup');

const backup = async (...args: string[]) => {
  const lines: string[] = [];
  await runAdminCommand(handle.db, ['backup', ...args], (line) => lines.push(line), {
    lifetimes: TEST_RULES.coinLifetimes,
    copyEmbedded: handle.copyEmbedded,
  });
  return lines.map((line) => JSON.parse(line) as Record<string, unknown>);
};

describe('npm run shop -- backup', () => {
  it('copies the embedded database into a new private folder, and on PostgreSQL names the tools that back it up', async () => {
    const into = path.join(handle.dataDir, 'backups');
    if (handle.engine === 'postgres') {
      await expect(backup('--to', into)).rejects.toThrow(
        new UsageError(
          'PostgreSQL のバックアップは pgBackRest（WAL の継続アーカイブ）と pg_dump で取ります。docs/backups.md を見てください。',
        ),
      );
      return;
    }
    await expect(backup()).rejects.toThrow('--to にコピーを置くフォルダを指定してください。');
    await expect(backup('--to', 'backups')).rejects.toThrow('--to には絶対パス（/ で始まるパス）を指定してください。');
    expect(fs.existsSync(into)).toBe(false);

    const member = await createMemberWithCoins(handle.db, { paid: 300 });
    const [copy] = (await backup('--to', into)) as [{ ok: boolean; folder: string; files: number; bytes: number }];
    expect(copy).toMatchObject({ ok: true, engine: 'pglite' });
    expect(fs.readdirSync(into)).toEqual([path.basename(copy.folder)]);
    expect(fs.statSync(copy.folder).mode & 0o777).toBe(0o700);

    // The copy is a database of its own, with the rows the original had when it was taken.
    const restoredDir = path.join(handle.dataDir, 'restored');
    fs.mkdirSync(restoredDir);
    fs.cpSync(copy.folder, path.join(restoredDir, 'pglite'), { recursive: true });
    const restored = await openDatabase({ dataDir: restoredDir });
    try {
      const [row] = await queryRows<{ n: number }>(
        restored.db,
        sql`select count(*)::int as n from coin_ledger where member_id = ${member}`,
      );
      expect(row!.n).toBe(1);
    } finally {
      await restored.close();
    }
    const audits = await queryRows<{ after: { folder: string } }>(
      handle.db,
      sql`select after from admin_audit_log where action = 'database.backup'`,
    );
    expect(audits.map((entry) => entry.after.folder)).toEqual([copy.folder]);
  });
});
