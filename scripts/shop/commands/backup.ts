// backup --to <folder>: an online copy of the embedded database into a new folder under <folder>, taken
// while the shop serves (docs/backups.md, decision 073). PostgreSQL is backed up by pgBackRest and pg_dump.
import path from 'node:path';
import { recordAudit } from '#modules/admin';
import { UsageError } from '../args';
import type { ShopCommand } from '../command';

export const backup: ShopCommand = {
  name: 'backup',
  usage: '--to <folder (absolute path)>',
  options: { to: { type: 'string' } },
  async run({ db, out, operator, copyEmbedded }, { values }) {
    if (!copyEmbedded)
      throw new UsageError(
        'PostgreSQL のバックアップは pgBackRest（WAL の継続アーカイブ）と pg_dump で取ります。docs/backups.md を見てください。',
      );
    const into = values.to;
    if (typeof into !== 'string' || into === '')
      throw new UsageError('--to にコピーを置くフォルダを指定してください。');
    // The running shop writes the copy itself, from its own working folder: only an absolute path means
    // the same folder to it and to the operator.
    if (!path.isAbsolute(into)) throw new UsageError('--to には絶対パス（/ で始まるパス）を指定してください。');
    const copy = await copyEmbedded(into);
    // A copy of every member's data: who took it, and where, is recorded (after it is whole; a failed copy leaves nothing).
    await recordAudit(db, operator, 'shop:write', {
      action: 'database.backup',
      target: { type: 'database', id: 'pglite' },
      after: { folder: copy.folder, files: copy.files, bytes: copy.bytes },
    });
    out(JSON.stringify({ ok: true, engine: 'pglite', ...copy }));
  },
};
