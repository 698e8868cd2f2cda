// A PostgreSQL cluster of a test's own (initdb into a temporary folder, its own port and socket
// folder), for a test that stops and starts the database under a running shop without touching the
// shared server at 127.0.0.1:5432 that every other test uses. initdb and the server refuse to run as
// root, so as root (CI, this machine) they run as the `postgres` user through runuser.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './ports';

export interface PrivatePostgres {
  /** postgres://postgres@127.0.0.1:<port>/postgres (trust authentication, this machine only). */
  url: string;
  port: number;
  /** Stops the server (`fast`: sessions are told and ended; `immediate`: as a crash would). */
  stop(mode?: 'fast' | 'immediate'): void;
  /** Starts it again on the same port and folder, and waits until it takes connections. */
  start(): void;
  /** Stops it and deletes its folder. */
  destroy(): void;
  /** The server's own log (for failure messages). */
  log(): string;
}

/** The folder of PostgreSQL's server programs (initdb, pg_ctl), or null when none is installed. */
export function postgresBinaries(): string | null {
  const debian = '/usr/lib/postgresql';
  if (fs.existsSync(debian)) {
    const versions = fs
      .readdirSync(debian)
      .filter((v) => fs.existsSync(path.join(debian, v, 'bin', 'pg_ctl')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return path.join(debian, versions[0], 'bin');
  }
  const found = spawnSync('sh', ['-c', 'command -v pg_ctl'], { encoding: 'utf8' });
  return found.status === 0 && found.stdout.trim() ? path.dirname(found.stdout.trim()) : null;
}

/** Clusters still running when this process exits are stopped, so no test leaves a server behind. */
const running = new Set<PrivatePostgres>();
process.once('exit', () => {
  for (const cluster of running) cluster.destroy();
});

/**
 * Creates and starts a cluster; null (and why) when PostgreSQL's server programs are not installed,
 * or when running as root without a `postgres` user to run them as.
 * @example const pg = await startPrivatePostgres(); …; pg.stop(); …; pg.start(); …; pg.destroy()
 */
export async function startPrivatePostgres(): Promise<PrivatePostgres | { unavailable: string }> {
  const bin = postgresBinaries();
  if (!bin) return { unavailable: 'no PostgreSQL server programs (initdb, pg_ctl) are installed' };
  const asRoot = process.getuid?.() === 0;
  let owner: { uid: number; gid: number } | null = null;
  if (asRoot) {
    try {
      owner = {
        uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim()),
        gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim()),
      };
    } catch {
      return { unavailable: 'running as root, and there is no postgres user to run initdb as' };
    }
  }
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'oripa-private-pg-'));
  const dataDir = path.join(folder, 'data');
  const logFile = path.join(folder, 'server.log');
  if (owner) fs.chownSync(folder, owner.uid, owner.gid);
  const port = await freePort();
  // Small and fast: nothing here needs to survive a crash of the machine.
  const serverOptions = [
    `-p ${port}`,
    `-k ${folder}`,
    '-c listen_addresses=127.0.0.1',
    '-c shared_buffers=16MB',
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
  ].join(' ');
  const run = (program: string, args: string[], allowFailure = false) => {
    const command = owner ? 'runuser' : path.join(bin, program);
    const fullArgs = owner ? ['-u', 'postgres', '--', path.join(bin, program), ...args] : args;
    const result = spawnSync(command, fullArgs, { encoding: 'utf8', cwd: folder });
    if (result.status !== 0 && !allowFailure) {
      throw new Error(`${program} ${args.join(' ')} failed (${result.status}): ${result.stderr || result.stdout}`);
    }
    return result;
  };
  run('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
  const cluster: PrivatePostgres = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    start() {
      run('pg_ctl', ['-D', dataDir, '-l', logFile, '-o', serverOptions, '-w', '-t', '120', 'start']);
    },
    stop(mode = 'fast') {
      run('pg_ctl', ['-D', dataDir, '-m', mode, '-w', '-t', '120', 'stop']);
    },
    destroy() {
      running.delete(cluster);
      run('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop'], true);
      fs.rmSync(folder, { recursive: true, force: true });
    },
    log() {
      try {
        return fs.readFileSync(logFile, 'utf8');
      } catch {
        return '(no log)';
      }
    },
  };
  running.add(cluster);
  try {
    cluster.start();
  } catch (error) {
    cluster.destroy();
    throw error;
  }
  return cluster;
}
