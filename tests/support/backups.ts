// The backup and restore tests' kit (docs/backups.md): the operators' command line and the scripts of
// deploy/backup run as processes, as an operator runs them, with a clean environment; URLs of a private
// cluster as one role or another; the shop role's rights against db/roles-allow-list.txt.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { listRolePrivileges } from '#db/roles';
import { scaledTimeout } from './settings';
import { STORM_AUTH_SECRET } from './instances';

export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface ProcessAnswer {
  code: number;
  stdout: string;
  stderr: string;
}

/** A process with only the environment given (and PATH, HOME): nothing of the test runner's leaks in. */
function runProcess(command: string, args: string[], env: Record<string, string>): Promise<ProcessAnswer> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      {
        cwd: projectRoot,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, LANG: process.env.LANG, ...env },
        timeout: scaledTimeout(120_000),
        maxBuffer: 16 * 2 ** 20,
      },
      (error, stdout, stderr) => {
        const code = error ? ((error as { code?: number | string }).code ?? -1) : 0;
        resolve({ code: typeof code === 'number' ? code : -1, stdout, stderr });
      },
    );
  });
}

/**
 * `npm run shop -- <args>` as an operator runs it, with the shop's settings given in `env` (DATABASE_URL…,
 * or DATA_DIR for the embedded database, where a running shop takes the command).
 * @example const answer = await runShopCommand(['invariants'], { DATABASE_URL: shopUrl, DATA_DIR: dir })
 */
export function runShopCommand(args: string[], env: Record<string, string>): Promise<ProcessAnswer> {
  return runProcess(process.execPath, ['--import', 'tsx', 'scripts/shop/index.ts', ...args], {
    AUTH_SECRET: STORM_AUTH_SECRET,
    LOG_LEVEL: 'warn',
    ...env,
  });
}

/**
 * One of deploy/backup's scripts, with libpq's environment (PGHOST, PGPORT, PGUSER, PGDATABASE).
 * @example await runBackupScript('pg-dump.sh', [folder], { PGHOST: '127.0.0.1', PGPORT: '5433', PGUSER: 'oripa_owner', PGDATABASE: 'shop' })
 */
export function runBackupScript(script: string, args: string[], env: Record<string, string>): Promise<ProcessAnswer> {
  return runProcess(path.join(projectRoot, 'deploy', 'backup', script), args, env);
}

/**
 * `npm run shop -- invariants` on the given settings: its exit code and its one JSON line.
 * @example expect(await shopInvariants(env)).toEqual({ code: 0, ok: true, violations: [] })
 */
export async function shopInvariants(
  env: Record<string, string>,
): Promise<{ code: number; ok: boolean | undefined; violations: unknown[]; stderr: string }> {
  const answer = await runShopCommand(['invariants'], env);
  const line = answer.stdout.trim().split('\n').at(-1) ?? '';
  let parsed: { ok?: boolean; violations?: unknown[] } = {};
  try {
    parsed = JSON.parse(line) as typeof parsed;
  } catch {
    // Not JSON: the command failed before checking; its stderr says why.
  }
  return { code: answer.code, ok: parsed.ok, violations: parsed.violations ?? [], stderr: answer.stderr };
}

/**
 * A cluster's URL on `database`, as `role` (with `password`) or as the cluster's superuser.
 * @example urlOn(cluster.url, 'shop', 'oripa_shop', password)
 */
export function urlOn(clusterUrl: string, database: string, role?: string, password?: string): string {
  const url = new URL(clusterUrl);
  url.pathname = `/${database}`;
  if (role) {
    url.username = role;
    url.password = password ?? '';
  }
  return url.toString();
}

/** libpq's environment for deploy/backup's scripts, from a URL (no password: the private clusters trust this machine). */
export function libpqEnvironment(url: string): Record<string, string> {
  const parsed = new URL(url);
  return {
    PGHOST: parsed.hostname,
    PGPORT: parsed.port || '5432',
    PGUSER: decodeURIComponent(parsed.username),
    PGDATABASE: parsed.pathname.slice(1),
  };
}

/** Runs `work` on one connection to `url`, closed afterwards. */
export async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * The shop role's rights in the catalog against db/roles-allow-list.txt: `+ line` granted but not
 * allowed, `- line` allowed but not granted; empty when they are the same.
 * @example expect(await allowListDifference(adminUrl, 'oripa_shop', 'oripa_owner')).toEqual([])
 */
export async function allowListDifference(adminUrl: string, shop: string, owner: string): Promise<string[]> {
  const granted = await withClient(adminUrl, (client) => listRolePrivileges(client, shop, owner));
  const allowed = fs
    .readFileSync(path.join(projectRoot, 'db', 'roles-allow-list.txt'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() && !line.startsWith('#'))
    .map((line) => line.replace(/\s+#.*$/, '').trim());
  return [
    ...granted.filter((line) => !allowed.includes(line)).map((line) => `+ ${line}`),
    ...allowed.filter((line) => !granted.includes(line)).map((line) => `- ${line}`),
  ];
}
