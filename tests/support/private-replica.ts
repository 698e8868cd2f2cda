// A streaming replica of a private cluster (tests/support/private-postgres.ts): pg_basebackup of the
// primary with its standby settings (-R), started on a port of its own. initdb's default pg_hba lets
// 127.0.0.1 replicate with trust, which the private clusters use. As root the programs run as `postgres`.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './ports';
import { postgresBinaries, runAsClusterUser, type PrivatePostgres } from './private-postgres';

export interface PrivateReplica {
  /** postgres://postgres@127.0.0.1:<port>/postgres (the superuser: tests pause and resume replay with it). */
  url: string;
  /** A URL of the same server for `database` (the shop reads the test database, not `postgres`). */
  urlFor(database: string, user?: string): string;
  destroy(): void;
}

/** @example const replica = await startReplicaOf(primary) */
export async function startReplicaOf(primary: PrivatePostgres): Promise<PrivateReplica> {
  const bin = postgresBinaries()!;
  const asRoot = process.getuid?.() === 0;
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'oripa-private-replica-'));
  const dataDir = path.join(folder, 'data');
  const logFile = path.join(folder, 'server.log');
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    fs.chownSync(folder, uid, gid);
  }
  const port = await freePort();
  const run = (program: string, args: string[], allowFailure = false) =>
    runAsClusterUser(path.join(bin, program), args, {}, { cwd: folder, allowFailure });
  run('pg_basebackup', [
    '-h',
    '127.0.0.1',
    '-p',
    String(primary.port),
    '-U',
    'postgres',
    '-D',
    dataDir,
    '-R',
    '-X',
    'stream',
  ]);
  const options = [`-p ${port}`, `-k ${folder}`, '-c listen_addresses=127.0.0.1', '-c shared_buffers=16MB'].join(' ');
  run('pg_ctl', ['-D', dataDir, '-l', logFile, '-o', options, '-w', '-t', '120', 'start']);
  const replica: PrivateReplica = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    urlFor: (database, user = 'postgres') => `postgres://${user}@127.0.0.1:${port}/${database}`,
    destroy() {
      run('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop'], true);
      fs.rmSync(folder, { recursive: true, force: true });
    },
  };
  process.once('exit', () => replica.destroy());
  return replica;
}
