// A PostgreSQL cluster of a test's own (initdb into a temporary folder, its own port and socket
// folder), for a test that stops and starts the database under a running shop, or archives its WAL and
// restores it elsewhere (backups), without touching the shared server at 127.0.0.1:5432 that every other
// test uses. initdb, the server and pgBackRest's server side refuse to run as root, so as root (CI, this
// machine) they run as the `postgres` user through runuser.
import { execFileSync, spawnSync } from 'node:child_process';
import { postgresBinaries } from '#scripts/topology/layout';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './ports';

export interface PrivatePostgres {
  /** postgres://postgres@127.0.0.1:<port>/postgres (trust authentication, this machine only). */
  url: string;
  port: number;
  /** The server's data folder, and the folder around it (its socket, its log; deleted by destroy). */
  dataDir: string;
  folder: string;
  /** Stops the server (`fast`: sessions are told and ended; `immediate`: as a crash would). */
  stop(mode?: 'fast' | 'immediate'): void;
  /** Starts it again on the same port and folder, and waits until it takes connections. */
  start(): void;
  /** Stops it and deletes its folder. */
  destroy(): void;
  /** The server's own log (for failure messages). */
  log(): string;
}

// The folder of PostgreSQL's server programs: the topology script's lookup, one for both.
export { postgresBinaries };

/** Where a cluster lives, for options that must name it before it starts (a backup tool's configuration). */
export interface PrivatePostgresPlace {
  folder: string;
  dataDir: string;
  port: number;
}

export interface PrivatePostgresOptions {
  /** More server settings (`name=value`), e.g. `archive_mode=on`: read once the place is known. */
  settings?: (place: PrivatePostgresPlace) => string[];
  /** The server's environment beyond the runner's (its archive_command runs with it), e.g. PGBACKREST_CONFIG. */
  env?: Record<string, string>;
  /** Fills the (empty, the server user's) data folder instead of initdb: a restore. */
  fill?: (place: PrivatePostgresPlace) => void;
}

/** The `postgres` user's uid and gid when this process runs as root (initdb and the server refuse root), else null. */
function postgresUser(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  return {
    uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim()),
    gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim()),
  };
}

/**
 * Runs a program as the user the private clusters run as (the `postgres` user when this process is root,
 * else this one), with the environment given on top of this process's; throws with its output when it fails.
 * @example runAsClusterUser('/usr/bin/pgbackrest', ['--stanza=oripa', 'check'], { PGBACKREST_CONFIG: file })
 */
export function runAsClusterUser(
  program: string,
  args: string[],
  env: Record<string, string> = {},
  options: { cwd?: string; allowFailure?: boolean } = {},
): { status: number | null; stdout: string; stderr: string } {
  const asRoot = process.getuid?.() === 0;
  const assignments = Object.entries(env).map(([name, value]) => `${name}=${value}`);
  // runuser resets part of the environment; `env` sets what the program needs after it.
  const [command, fullArgs] = asRoot
    ? ['runuser', ['-u', 'postgres', '--', 'env', ...assignments, program, ...args]]
    : [program, args];
  const result = spawnSync(command, fullArgs, {
    encoding: 'utf8',
    cwd: options.cwd,
    env: asRoot ? process.env : { ...process.env, ...env },
  });
  if (result.status !== 0 && !options.allowFailure) {
    throw new Error(
      `${path.basename(program)} ${args.join(' ')} failed (${result.status}): ${result.stderr || result.stdout}`,
    );
  }
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
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
export async function startPrivatePostgres(
  options: PrivatePostgresOptions = {},
): Promise<PrivatePostgres | { unavailable: string }> {
  const bin = postgresBinaries();
  if (!bin) return { unavailable: 'no PostgreSQL server programs (initdb, pg_ctl) are installed' };
  let owner: { uid: number; gid: number } | null;
  try {
    owner = postgresUser();
  } catch {
    return { unavailable: 'running as root, and there is no postgres user to run initdb as' };
  }
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'oripa-private-pg-'));
  const dataDir = path.join(folder, 'data');
  const logFile = path.join(folder, 'server.log');
  if (owner) fs.chownSync(folder, owner.uid, owner.gid);
  const port = await freePort();
  const place: PrivatePostgresPlace = { folder, dataDir, port };
  // Small and fast: nothing here needs to survive a crash of the machine.
  const serverOptions = [
    `-p ${port}`,
    `-k ${folder}`,
    '-c listen_addresses=127.0.0.1',
    '-c shared_buffers=16MB',
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
    ...(options.settings?.(place) ?? []).map((setting) => `-c ${quoteSetting(setting)}`),
  ].join(' ');
  const run = (program: string, args: string[], allowFailure = false) =>
    runAsClusterUser(path.join(bin, program), args, options.env, { cwd: folder, allowFailure });
  if (options.fill) {
    fs.mkdirSync(dataDir, { mode: 0o700 });
    if (owner) fs.chownSync(dataDir, owner.uid, owner.gid);
    options.fill(place);
  } else {
    run('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
  }
  const cluster: PrivatePostgres = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    dataDir,
    folder,
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

/** A `name=value` setting as one word of pg_ctl's -o line, which a shell reads: the value single-quoted for it. */
function quoteSetting(setting: string): string {
  const at = setting.indexOf('=');
  return `${setting.slice(0, at)}='${setting.slice(at + 1).replaceAll("'", "'\\''")}'`;
}
