// The local topology's record (topology.json in its work folder) and what follows from it: where each
// part listens, its log, the URLs of the shop and of the database roles, the PostgreSQL layout.
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { DATABASE, postgresBinaries, type TopologyPorts, type TopologySecrets } from './layout';
import { backendServers, type BackendServer } from './haproxy';
import type { PostgresLayout } from './postgres';
import { postgresUser, type PartRecord, type RunAs } from './processes';

export const STATE_FILE = 'topology.json';

/** topology.json: what `down`, `status` and the handle need. Mode 600: it holds the generated passwords. */
export interface TopologyState {
  dir: string;
  ports: TopologyPorts;
  secrets: TopologySecrets;
  shopSettings: Record<string, string>;
  patience: number;
  startedAt: string;
  parts: Record<string, PartRecord>;
}

/** The record in a work folder, or null. @example const state = readState('.topology') */
export function readState(dir: string): TopologyState | null {
  const file = path.join(dir, STATE_FILE);
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as TopologyState) : null;
}

/** Writes the record (after every part started or stopped). @example save(state) */
export function save(state: TopologyState): void {
  fs.writeFileSync(path.join(state.dir, STATE_FILE), `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
}

/** postgresUser(), or the reason it cannot be had as an error. @example const runAs = runAsOf() */
export function runAsOf(): RunAs | null {
  const runAs = postgresUser();
  if (typeof runAs === 'string') throw new Error(runAs);
  return runAs;
}

/** Where the cluster lives, for postgres.ts. @example createMonitor(postgresLayout(state)) */
export function postgresLayout(state: TopologyState): PostgresLayout {
  return {
    dir: state.dir,
    bin: postgresBinaries() ?? '/usr/lib/postgresql/15/bin',
    runAs: runAsOf(),
    monitorPort: state.ports.monitor,
    nodePorts: state.ports.nodes,
    shopConf: path.join(state.dir, 'config', 'postgresql.shop.conf'),
    dbName: DATABASE.name,
  };
}

/** A part's log file. @example tail(logOf(state, 'pgbouncer'), 20) */
export const logOf = (state: TopologyState, name: string) => path.join(state.dir, 'logs', `${name}.log`);
/** A wait in milliseconds, times the topology's patience. @example waitFor('Redis', check, seconds(state, 30)) */
export const seconds = (state: TopologyState, s: number) => Math.ceil(s * 1000 * state.patience);

/** The shop's, each instance's and the database roles' URLs. @example urlsOf(state).databaseUrls.owner */
export function urlsOf(state: TopologyState) {
  const { ports, secrets } = state;
  const as = (role: string, password: string, port: number, database: string) =>
    `postgres://${role}:${password}@127.0.0.1:${port}/${database}`;
  const superuser = runAsOf() ? 'postgres' : (process.env.USER ?? 'postgres');
  return {
    shopUrl: `http://localhost:${ports.shop}`,
    instanceUrls: ports.instances.map((port) => `http://127.0.0.1:${port}`),
    databaseUrls: {
      shop: as(DATABASE.shop, secrets.shopPassword, ports.pgbouncer, DATABASE.name),
      session: as(DATABASE.shop, secrets.shopPassword, ports.pgbouncer, `${DATABASE.name}_session`),
      owner: as(DATABASE.owner, secrets.ownerPassword, ports.pgbouncer, DATABASE.name),
      admin: `postgres://${superuser}@127.0.0.1:${ports.pgPrimary}/${DATABASE.name}`,
    },
  };
}

/**
 * What each haproxy has in rotation, from its stats socket. For the shop, the instances' backend: the /api/
 * backend's servers follow its checks (track).
 * @example (await shopServers(state)).map((s) => s.status)
 */
export const shopServers = async (state: TopologyState): Promise<BackendServer[]> =>
  (await backendServers(path.join(state.dir, 'run', 'shop.sock'))).filter((s) => s.backend === 'shop_instances');
export const primaryServers = (state: TopologyState): Promise<BackendServer[]> =>
  backendServers(path.join(state.dir, 'run', 'postgres.sock'));

/** One query on a connection of its own (waits and checks). @example await query(admin, 'select 1 as one') */
export async function query(url: string, text: string): Promise<Record<string, unknown>[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return (await client.query(text)).rows as Record<string, unknown>[];
  } finally {
    await client.end().catch(() => undefined);
  }
}
