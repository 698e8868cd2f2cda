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

export function readState(dir: string): TopologyState | null {
  const file = path.join(dir, STATE_FILE);
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as TopologyState) : null;
}

export function save(state: TopologyState): void {
  fs.writeFileSync(path.join(state.dir, STATE_FILE), `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
}

export function runAsOf(): RunAs | null {
  const runAs = postgresUser();
  if (typeof runAs === 'string') throw new Error(runAs);
  return runAs;
}

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

export const logOf = (state: TopologyState, name: string) => path.join(state.dir, 'logs', `${name}.log`);
export const seconds = (state: TopologyState, s: number) => Math.ceil(s * 1000 * state.patience);

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

export const shopServers = (state: TopologyState): Promise<BackendServer[]> =>
  backendServers(path.join(state.dir, 'run', 'shop.sock'));
export const primaryServers = (state: TopologyState): Promise<BackendServer[]> =>
  backendServers(path.join(state.dir, 'run', 'postgres.sock'));

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
